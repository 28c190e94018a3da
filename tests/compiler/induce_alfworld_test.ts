import { dataPath, dataTest, HAS_DATA } from "../_data.ts";
import assert from "node:assert/strict";
import { readTraces } from "../../compiler/trace_io.ts";
import { induceSkills, type Induction } from "../../compiler/induce.ts";
import { alfworldKit, splitTaskIds } from "../../environments/alfworld/mod.ts";
import { type Node, nodeExpressions, type Skill } from "../../dsl/graph/schema.ts";
import { compileSkill } from "../../runtime/exec/program.ts";
import { findAndTakeOn } from "../runtime/_agent_fixtures.ts";

const DEMOS = dataPath("alfworld/react_demos_2per_type.json");
const all = HAS_DATA ? await readTraces(DEMOS, alfworldKit) : [];
const induced: Record<string, Induction> = {};
for (const kind of ["act", "react"]) {
  induced[kind] = induceSkills(all.filter((t) => t.source!.includes(`#${kind}_`)), alfworldKit);
}

const byName = (r: Induction, name: string): Skill => {
  const s = r.skills.find((k) => k.skill.name === name);
  assert.ok(s, `no skill "${name}" in ${r.skills.map((k) => k.skill.name).join(", ")}`);
  return s.skill;
};
const next = (skill: Skill, id: string, label: string): Node | undefined => {
  const to = skill.edges.find((e) => e.from === id && e.label === label)?.to;
  return skill.nodes.find((n) => n.id === to);
};
const texts = (skill: Skill): string[] => skill.nodes.flatMap(nodeExpressions);

for (const kind of ["act", "react"]) {
  dataTest(
    `induction from the 12 ${kind}_* demonstrations yields a small library of the expected skills`,
    () => {
      const r = induced[kind];
      assert.ok(r.skills.length <= 8, `${r.skills.length} skills`);
      assert.deepEqual(
        r.skills.map((s) => s.skill.name).sort(),
        ["clean_item", "cool_item", "find_and_take", "heat_item", "place", "use_lamp"],
      );
      for (const s of r.skills) {
        assert.ok(compileSkill(s.skill, alfworldKit.vocabulary).ok, s.skill.name);
      }
    },
  );

  dataTest(
    `the ${kind}_* search skill loops over unexplored receptacles, opens closed ones and exits on the target type`,
    () => {
      const skill = byName(induced[kind], "find_and_take");
      const loop = skill.nodes.find((n) => n.kind === "loop");
      assert.ok(loop && loop.kind === "loop");
      assert.match(loop.over, /^select_all\(x: Receptacle, unexplored\(x\)\)$/);
      const v = loop.var;
      const goto = next(skill, loop.id, "body");
      assert.ok(goto?.kind === "primitive" && goto.action === "goto" && goto.args.target === v);
      const closed = next(skill, goto.id, "next");
      assert.ok(closed?.kind === "check" && closed.cond === `is_closed(${v})`);
      const open = next(skill, closed.id, "yes");
      assert.ok(open?.kind === "primitive" && open.action === "open" && open.args.target === v);
      const here = next(skill, open.id, "next");
      assert.ok(here?.kind === "check");
      assert.equal(here.cond, `exists(x: Item, contains(${v}, x) and is_type(x, item_type))`);
      assert.equal(next(skill, closed.id, "no")?.id, here.id);
      assert.equal(next(skill, here.id, "no")?.id, loop.id, "not there: next receptacle");
      const bind = next(skill, here.id, "yes");
      assert.ok(bind?.kind === "data");
      const take = next(skill, bind.id, "next");
      assert.ok(take?.kind === "primitive" && take.action === "take" && take.args.source === v);
      assert.equal(next(skill, take.id, "next")?.kind, "terminal");
      const done = next(skill, loop.id, "done");
      assert.ok(done?.kind === "terminal" && done.outcome === "failure" && done.diagnosis);
    },
  );

  dataTest(`the ${kind}_* skills use typed bindings, never object names`, () => {
    for (const s of induced[kind].skills) {
      for (const t of texts(s.skill)) {
        assert.doesNotMatch(t, /'[a-z]+ \d+'/, `${s.skill.name}: ${t}`);
      }
    }
    const place = byName(induced[kind], "place");
    assert.ok(
      place.nodes.some((n) =>
        n.kind === "data" && n.expr === "select_one(x: Receptacle, receptacle_type(x, target_type))"
      ),
    );
    for (
      const [name, action] of [
        ["clean_item", "clean"],
        ["heat_item", "heat"],
        ["cool_item", "cool"],
        ["place", "put"],
        ["use_lamp", "use"],
      ]
    ) {
      assert.ok(
        byName(induced[kind], name).nodes.some((n) =>
          n.kind === "primitive" && n.action === action
        ),
        name,
      );
    }
  });

  dataTest(`the ${kind}_* skills reproduce every one of their segments`, () => {
    for (const s of induced[kind].skills) {
      assert.equal(s.covered, s.segments, `${s.skill.name}: ${JSON.stringify(s.uncovered)}`);
    }
  });
}

dataTest(
  "the induced search skill finds and takes the goal item in unseen household tasks",
  async () => {
    const compiled = compileSkill(byName(induced.act, "find_and_take"), alfworldKit.vocabulary);
    assert.ok(compiled.ok);
    const env = alfworldKit.create();
    const ids = splitTaskIds("unseen").filter((_, i) => i % 7 === 0);
    for (const id of ids) {
      const { result } = await findAndTakeOn(compiled.value, env, id);
      assert.equal(result.outcome, "success", `${id}: ${JSON.stringify(result.diagnosis)}`);
    }
  },
);

dataTest("linear scripts (no loops, no branches) reproduce far fewer search segments", () => {
  const linear = induceSkills(all.filter((t) => t.source!.includes("#act_")), alfworldKit, {
    linear: true,
  });
  for (const s of linear.skills) {
    assert.ok(!s.skill.nodes.some((n) => n.kind === "loop" || n.kind === "check"), s.skill.name);
  }
  const find = linear.skills.find((s) => s.skill.name === "find_and_take")!;
  const full = induced.act.skills.find((s) => s.skill.name === "find_and_take")!;
  assert.ok(find.covered < full.covered / 2, `${find.covered} vs ${full.covered}`);
});
