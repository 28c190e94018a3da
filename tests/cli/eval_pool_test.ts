// `eval --concurrency`: episodes in worker threads (local environments) or
// interleaved (remote ones) give the records of a sequential run.
import assert from "node:assert/strict";
import { gardenKit } from "../../examples/garden/kit.ts";
import { induceLibrary, runVariant } from "../../cli/_variants.ts";
import type { EpisodeRecord } from "../../runtime/eval/evaluate.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";

const GARDEN = new URL("../../examples/garden/kit.ts", import.meta.url).pathname;

Deno.test("worker threads evaluate a plugin's tasks with a sequential run's records", async () => {
  const kit = gardenKit;
  const traces = await generateExpertTraces(kit, kit.tasks!({ split: "train", count: 4 }), {});
  const library = induceLibrary(traces, kit);
  const tasks = kit.tasks!({ split: "unseen", count: 12 });
  const run = (name: string, concurrency: number) =>
    runVariant({
      name,
      expert: name === "expert",
      kit,
      tasks,
      library,
      maxActions: 60,
      progress: false,
      concurrency,
      workerEnv: GARDEN,
    });
  const strip = (r: EpisodeRecord) => ({ ...r, seconds: 0 });
  for (const name of ["full", "expert"]) {
    const sequential = await run(name, 1);
    const pooled = await run(name, 3);
    assert.deepEqual(pooled.records.map(strip), sequential.records.map(strip));
    assert.deepEqual(
      { ...pooled.report, seconds: 0 },
      { ...sequential.report, seconds: 0 },
    );
    assert.ok(sequential.report.success_rate > 0.5, `${name}: ${sequential.report.success_rate}`);
  }
});

Deno.test("a worker that cannot load the environment fails the run with the reason", async () => {
  await assert.rejects(
    runVariant({
      name: "expert",
      expert: true,
      kit: gardenKit,
      tasks: gardenKit.tasks!({ split: "unseen", count: 2 }),
      progress: false,
      concurrency: 2,
      workerEnv: "/nonexistent/kit.ts",
    }),
    /nonexistent/,
  );
});

Deno.test("honing refuses to run several episodes at once", async () => {
  const { memoryHoning } = await import("../../cli/_variants.ts");
  const traces = await generateExpertTraces(
    gardenKit,
    gardenKit.tasks!({ split: "train", count: 2 }),
    {},
  );
  const library = induceLibrary(traces, gardenKit);
  await assert.rejects(
    runVariant({
      name: "hone",
      kit: gardenKit,
      tasks: gardenKit.tasks!({ split: "unseen", count: 2 }),
      library,
      honing: memoryHoning(library.skills, gardenKit, library.actionModel),
      progress: false,
      concurrency: 2,
    }),
    /concurrency 1/,
  );
});
