// Induction on domains unlike the built-in ones (examples/garden: landmarks
// declared; examples/deploy: none), from at most 4 demonstrations per task
// type of 1-3 goal objects, measured on unseen tasks of 4-8 goal objects.
import assert from "node:assert/strict";
import { deployKit } from "../../examples/deploy/kit.ts";
import { gardenKit } from "../../examples/garden/kit.ts";
import { type BuiltLibrary, induceLibrary, runVariant } from "../../cli/_variants.ts";
import type { EnvironmentKit } from "../../runtime/environment.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import type { Trace } from "../../dsl/trace.ts";
import type { EvalReport } from "../../runtime/eval/evaluate.ts";
import { noDemonstrationObjects } from "./_no_objects.ts";

const KITS: EnvironmentKit[] = [gardenKit, deployKit];

/** The expert's traces of the first `count` train tasks and their library, once per file. */
function trained(
  kit: EnvironmentKit,
  count: number,
): Promise<{ traces: Trace[]; library: BuiltLibrary }> {
  const key = `${kit.name}/${count}`;
  let entry = trainedLibraries.get(key);
  if (!entry) {
    entry = generateExpertTraces(kit, kit.tasks!({ split: "train", count }), {})
      .then((traces) => ({ traces, library: induceLibrary(traces, kit) }));
    trainedLibraries.set(key, entry);
  }
  return entry;
}
const trainedLibraries = new Map<string, Promise<{ traces: Trace[]; library: BuiltLibrary }>>();

async function measure(
  kit: EnvironmentKit,
  library: BuiltLibrary,
  count = 30,
): Promise<{ full: EvalReport; expert: EvalReport }> {
  const tasks = kit.tasks!({ split: "unseen", count });
  const run = (name: string) =>
    runVariant({
      name,
      expert: name === "expert",
      kit,
      tasks,
      library,
      maxActions: 100,
      progress: false,
    });
  return { full: (await run("full")).report, expert: (await run("expert")).report };
}

for (const kit of KITS) {
  Deno.test(`${kit.name}: skills from 4 demonstrations per type solve 2-3x larger unseen tasks like the expert`, async () => {
    const { full, expert } = await measure(kit, (await trained(kit, 8)).library);
    assert.equal(expert.success_rate, 1);
    assert.ok(
      full.success_rate >= 0.95 * expert.success_rate,
      `success ${full.success_rate} vs expert ${expert.success_rate}`,
    );
    assert.ok(
      full.avg_steps <= 1.3 * expert.avg_steps,
      `actions ${full.avg_steps} vs ${expert.avg_steps}`,
    );
    assert.ok(full.invalid_action_rate <= 0.05, `rejected ${full.invalid_action_rate}`);
  });

  Deno.test(`${kit.name}: more demonstrations never lower success`, async () => {
    // The first 8 train tasks are 4 per type (types alternate by seed).
    const fewer = await measure(kit, (await trained(kit, 8)).library, 20);
    const more = await measure(kit, (await trained(kit, 16)).library, 20);
    assert.ok(
      more.full.success_rate >= fewer.full.success_rate,
      `${more.full.success_rate} < ${fewer.full.success_rate}`,
    );
  });

  Deno.test(`${kit.name}: no object of a demonstration appears in an induced skill or task program`, async () => {
    const { traces, library } = await trained(kit, 8);
    noDemonstrationObjects(kit, traces, library);
  });
}

Deno.test("garden: the task program loops over the goal's plants; deploy's over the wanted services", async () => {
  for (const [kit, over] of [[gardenKit, /species/], [deployKit, /wanted\(x\)/]] as const) {
    const { templates } = (await trained(kit, 8)).library;
    assert.equal(templates.length, 2);
    for (const t of templates) {
      const loops = t.program?.nodes.filter((n) => n.kind === "loop") ?? [];
      assert.equal(loops.length, 1, `${kit.name} ${t.type}`);
      assert.ok(loops[0].kind === "loop");
      assert.match(loops[0].over, over);
    }
  }
});

Deno.test("deploy (no landmarks declared): skills are cut where goal facts change, and choose the server themselves", async () => {
  const { skills } = (await trained(deployKit, 8)).library;
  const deploy = skills.find((s) => s.doc.post?.includes("deployed"))!;
  assert.deepEqual(deploy.params.map((p) => p.type), ["Service"]);
  assert.equal(deploy.doc.post, "exists(v1: Server, deployed(service, v1))");
  // Boot a server only when none has a free slot: the guard the next selection needs.
  const guards = deploy.nodes.flatMap((n) => n.kind === "check" ? [n.cond] : []);
  assert.ok(guards.includes("not exists(x: Server, free(x) > 0)"), guards.join("; "));
});

Deno.test("garden: the refill is guarded by the state of the can in hand, not by where the agent stands", async () => {
  const { skills } = (await trained(gardenKit, 8)).library;
  const water = skills.find((s) => s.doc.post === "watered(plant)")!;
  const fill = water.nodes.find((n) => n.kind === "primitive" && n.action === "fill")!;
  const guard = water.edges.map((e) => water.nodes.find((n) => n.id === e.from)!).find((n) =>
    n.kind === "check" &&
    water.edges.some((e) => e.from === n.id && e.label === "yes" && reaches(water, e.to, fill.id))
  );
  assert.ok(guard && guard.kind === "check");
  // The can is bound before the guard (hoisted out of the refill block) and the guard reads it.
  assert.match(guard.cond, /^water_level\((\w+), 0\)$|^water_left\((\w+)\) (==|<) /);
});

/** Whether `to` is reachable from `from` along the skill's edges. */
function reaches(
  skill: { edges: { from: string; to: string }[] },
  from: string,
  to: string,
): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const e of skill.edges) if (e.from === id) stack.push(e.to);
  }
  return false;
}
