// One of several processes committing honing edits to one library at once
// (see concurrent_store_test.ts). Usage:
//   deno run -A _store_writer.ts <location> <tag> <count>
// Opens the library, then commits <count> edits, one per version: grafts
// before "take" and narrowings of take_color, each unique to <tag> and its
// index, as the honer records them (a change with a replayable edit).
import { applySkillEdit, type SkillEdit } from "../../runtime/store/skill_edit.ts";
import { openLibraryStore } from "../../runtime/store/open_store.ts";
import type { Change } from "../../runtime/store/library_store.ts";
import { toyVocab } from "./_toy.ts";

const [location, tag, countText] = Deno.args;
const count = Number(countText);
const store = await openLibraryStore(location, toyVocab);
for (let i = 0; i < count; i++) {
  const skills = store.skills();
  const skill = skills.find((s) => s.name === "take_color")!;
  const n = Number(tag.replace(/\D/g, "")) * 1000 + i;
  const edit: SkillEdit = i % 2 === 0
    ? {
      op: "graft",
      skill: skill.name,
      graft: `g${1 + (skill.grafts?.length ?? 0)}`,
      before: "take",
      guard: `weight(b) > ${n}`,
      steps: [{ action: "open", args: { b: "b" } }],
    }
    : { op: "narrow", skill: skill.name, cond: `c == '${tag}-${i}'`, note: `Not for ${tag}-${i}.` };
  const edited = skills.map((s) => s.name === skill.name ? applySkillEdit(s, edit).skill : s);
  const change: Change = {
    kind: edit.op as Change["kind"],
    skill: skill.name,
    detail: `${tag}-${i}`,
    edit,
  };
  await store.commit(edited, [change]);
  // Let the others in between commits, so that versions interleave.
  await new Promise((r) => setTimeout(r, Math.random() * 20));
}
store.close();
console.log(JSON.stringify({ tag, version: store.version }));
