import assert from "node:assert/strict";
import { generatePackage, packageFiles, skillIdentifiers } from "../../compiler/package.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import { textcraftKit } from "../../environments/textcraft/mod.ts";
import { collectRun, type RunEvent, runSkill } from "../../runtime/exec/interpreter.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { compileSkills, loadSkillFile } from "../../runtime/store/library.ts";
import { compileSkill, type Program } from "../../runtime/exec/program.ts";
import { readJsonFile } from "../../io/json_file.ts";

const EXAMPLE = new URL("../../examples/textcraft/craft_from_gettable.json", import.meta.url)
  .pathname;
const example = await readJsonFile(EXAMPLE) as Skill;

// A skill calling the example, so the package has a skill-to-skill call.
const caller: Skill = {
  format: "skillc/skill@1",
  name: "craft_it",
  vocabulary: "textcraft",
  params: [{ name: "target", type: "Item" }],
  doc: { summary: "Craft the target */ via the example skill.", post: "count(target) > 0" },
  entry: "call",
  nodes: [
    { id: "call", kind: "primitive", action: "craft_from_gettable", args: { target: "target" } },
    { id: "ok", kind: "terminal", outcome: "success" },
  ],
  edges: [{ from: "call", to: "ok", label: "next" }],
};
// A skill named by a reserved word, exported under another identifier.
const reserved: Skill = { ...example, name: "delete" };

const OPTIONS = { name: "@test/craft-skills", version: "0.3.0", vocabulary: "textcraft" };

async function inTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "skillc_package_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function deno(args: string[], cwd: string): Promise<{ ok: boolean; output: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { ok: out.success, output: decode(out.stdout) + decode(out.stderr) };
}

Deno.test("packageFiles() writes a typed constant per skill with its docstring", () => {
  const files = packageFiles([example, caller, reserved], OPTIONS);
  assert.deepEqual([...files.keys()], ["deno.json", "types.ts", "mod.ts", "README.md"]);
  const config = JSON.parse(files.get("deno.json")!);
  assert.deepEqual(config, {
    name: "@test/craft-skills",
    version: "0.3.0",
    license: "MIT",
    exports: { ".": "./mod.ts" },
  });
  const mod = files.get("mod.ts")!;
  assert.match(
    mod,
    /export const craft_from_gettable: SkillModule<\{ target: "Item" \}> = \{\n {2}"format"/,
  );
  assert.match(mod, /export const delete_: SkillModule<\{ target: "Item" \}>/);
  assert.match(mod, / \* @param \{Item\} target the item to craft\n/);
  assert.match(mod, / \* Precondition: `exists\(q: Recipe, makes\(q, target\)/);
  assert.match(mod, / \* Postcondition: `count\(target\) > 0`/);
  assert.match(mod, / \* Calls the skills `craft_from_gettable`\./);
  assert.match(mod, / \* @example Run it with the skillc runtime/);
  assert.match(mod, /runSkill\(program\.value, \{ target: "<Item>" \}/);
  assert.match(mod, /export const skills: \{\n {2}readonly craft_from_gettable: /);
  assert.match(mod, /= \{craft_from_gettable, craft_it, delete: delete_\};/);
  assert.ok(mod.includes("Craft the target *\\/ via"), "a summary cannot close the comment");
  assert.match(files.get("README.md")!, /\| `craft_it` \| target: Item \| Craft the target/);
});

Deno.test("skillIdentifiers() avoids reserved words, the package's exports and collisions", () => {
  const ids = skillIdentifiers(["delete", "delete_", "skills", "craft", "class"]);
  assert.deepEqual([...ids.entries()], [
    ["delete", "delete__"],
    ["delete_", "delete_"],
    ["skills", "skills_"],
    ["craft", "craft"],
    ["class", "class_"],
  ]);
});

Deno.test("packageFiles() rejects a bad name, version, vocabulary, skill or duplicate", () => {
  assert.throws(
    () => packageFiles([example], { ...OPTIONS, name: "craft" }),
    /package name "craft"/,
  );
  assert.throws(() => packageFiles([example], { ...OPTIONS, version: "1.0" }), /version "1\.0"/);
  assert.throws(
    () => packageFiles([example], { ...OPTIONS, vocabulary: "alfworld" }),
    /"craft_from_gettable" is for vocabulary "textcraft" but the package is for "alfworld"/,
  );
  assert.throws(() => packageFiles([example, example], OPTIONS), /Duplicate skill name/);
  const broken = { ...example, entry: "no such id!" };
  assert.throws(() => packageFiles([broken], OPTIONS), /Invalid skill 1 .* at "entry"/);
});

Deno.test("the generated package passes deno check and deno publish --dry-run", async () => {
  await inTempDir(async (root) => {
    const dir = `${root}/pkg`;
    await generatePackage(dir, [example, caller, reserved], OPTIONS);
    // The constants' types record parameter names and types: misuse must not type-check.
    await Deno.writeTextFile(
      `${root}/probe.ts`,
      `import { craft_from_gettable, skills, vocabulary } from "./pkg/mod.ts";
import type { ArgValue, SkillArgs, SkillModule } from "./pkg/mod.ts";
export const args: SkillArgs<typeof craft_from_gettable> = { target: "stick" };
export const typed: SkillModule<{ target: "Item" }> = skills.delete;
export const vocab: "textcraft" = vocabulary;
export const list: ArgValue<"List<Num>"> = [1, 2];
export const all: readonly SkillModule[] = Object.values(skills);
// @ts-expect-error a skill without parameters has none
export const none: SkillModule<Record<never, never>> = craft_from_gettable;
// @ts-expect-error the parameter is "target", not "item"
export const wrongName: SkillModule<{ item: "Item" }> = craft_from_gettable;
// @ts-expect-error an Item argument is an object name, not a number
export const wrongType: SkillArgs<typeof craft_from_gettable> = { target: 3 };
// @ts-expect-error the skill has no parameter "count"
export const extra: SkillArgs<typeof craft_from_gettable> = { target: "stick", count: 2 };
// @ts-expect-error a Num argument is a number
export const num: ArgValue<"Num"> = "1";
`,
    );
    // Independent checks, side by side.
    const [check, publish] = await Promise.all([
      deno(["check", "mod.ts", "../probe.ts"], dir),
      deno(["publish", "--dry-run", "--allow-dirty"], dir),
    ]);
    assert.ok(check.ok, check.output);
    assert.ok(publish.ok, publish.output);
    assert.match(publish.output, /@test\/craft-skills@0\.3\.0/);
  });
});

function actions(events: RunEvent[]): string[] {
  return events.flatMap((e) => e.type === "act" ? [e.action] : []);
}

async function runOnTask(program: Program, library?: ReturnType<typeof compileSkills>) {
  const env = textcraftKit.create();
  const grounder = textcraftKit.grounder();
  const task = await env.reset({ seed: 7, options: { depth: 1 } });
  const facts = new FactStore();
  facts.apply(grounder.initial(task.observation, task.goal).delta);
  const target = facts.query("goal", [null, null])[0].args[0] as string;
  return await collectRun(runSkill(program, { target }, { env, grounder, facts, library }));
}

Deno.test("a skill imported from the generated package runs with the runtime", async () => {
  await inTempDir(async (dir) => {
    await generatePackage(dir, [example, caller], OPTIONS);
    const mod = await import(new URL(`file://${dir}/mod.ts`).href);
    assert.deepEqual(Object.keys(mod.skills), ["craft_from_gettable", "craft_it"]);
    assert.equal(mod.vocabulary, "textcraft");

    const compiled = compileSkill(mod.craft_from_gettable, textcraftKit.vocabulary);
    assert.ok(compiled.ok, JSON.stringify(!compiled.ok && compiled.error));
    const imported = await runOnTask(compiled.value);
    assert.equal(imported.result.outcome, "success", JSON.stringify(imported.result.diagnosis));
    assert.equal(imported.result.episodeDone, true);
    // Same behaviour as the skill file it was generated from.
    const original = await runOnTask(await loadSkillFile(EXAMPLE, textcraftKit.vocabulary));
    assert.deepEqual(actions(imported.events), actions(original.events));
    assert.ok(actions(imported.events).length > 0);

    // The skills record compiles as a library in which one skill calls another.
    const library = compileSkills(
      Object.entries(mod.skills).map(([name, data]) => ({ data, source: name })),
      textcraftKit.vocabulary,
    );
    const called = await runOnTask(library.get("craft_it")!, library);
    assert.equal(called.result.outcome, "success", JSON.stringify(called.result.diagnosis));
    assert.ok(called.events.some((e) => e.type === "act" && e.depth === 1));
  });
});
