import assert from "node:assert/strict";
import { textcraftKit } from "../../environments/textcraft/kit.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";

const craftedBy = (observation: string) =>
  new Set(
    observation.split("\n").flatMap((l) => /^craft \d+ (.+?) using /.exec(l)?.[1] ?? []),
  );

Deno.test('taskList mix "real": the published depth mix, one task in 20 with an unlisted recipe', () => {
  const tasks = textcraftKit.taskList!({ split: "unseen", mix: "real", n: 200 });
  assert.equal(tasks.length, 200);
  assert.equal(new Set(tasks.map((t) => t.id)).size, 200);
  const depth = (d: number) => tasks.filter((t) => t.options?.depth === d).length;
  assert.deepEqual([depth(2), depth(3), depth(4)], [75, 113, 12]);
  const unlisted = tasks.filter((t) => t.id!.endsWith("/unlisted"));
  assert.equal(unlisted.length, 10);
  // Interleaved, not sorted by depth: the first ten tasks hold both common depths.
  const first = new Set(tasks.slice(0, 10).map((t) => t.options?.depth));
  assert.ok(first.has(2) && first.has(3), [...first].join());
  assert.throws(
    () => textcraftKit.taskList!({ split: "unseen", mix: "odd" }),
    /mix must be "even" or "real"/,
  );
  assert.throws(
    () => textcraftKit.taskList!({ split: "unseen", mix: "real", depths: [2] }),
    /drop depths/,
  );
});

Deno.test("an unlisted task is its listed task without the recipes of one crafted ingredient; the expert still solves it", async () => {
  const env = textcraftKit.create();
  const listed = await env.reset({ id: "textcraft/d3/s5" });
  const unlisted = await env.reset({ id: "textcraft/d3/s5/unlisted" });
  assert.equal(unlisted.taskId, "textcraft/d3/s5/unlisted");
  assert.equal(unlisted.goal, listed.goal);
  const before = craftedBy(listed.observation);
  const after = craftedBy(unlisted.observation);
  const missing = [...before].filter((x) => !after.has(x));
  assert.equal(missing.length, 1, `${[...before]} / ${[...after]}`);
  assert.notEqual(`craft ${missing[0]}`, listed.goal);
  // The same listing otherwise.
  const lines = (o: string) => o.split("\n").filter((l) => l.startsWith("craft "));
  assert.deepEqual(
    lines(unlisted.observation),
    lines(listed.observation).filter((l) => !l.includes(` ${missing[0]} using `)),
  );
  const [trace] = await generateExpertTraces(textcraftKit, [{ id: "textcraft/d3/s5/unlisted" }]);
  assert.equal(trace.success, true);
});
