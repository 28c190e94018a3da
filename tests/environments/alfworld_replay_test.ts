import { dataPath, dataTest } from "../_data.ts";
import { deepEqual as assertEquals, equal, ok as assert } from "node:assert/strict";
import { replayTrace, replayTraces } from "../../environments/alfworld/replay.ts";
import { sceneSpecFromTrace } from "../../environments/alfworld/reconstruct.ts";
import { DEMO_FILES, demoTraces } from "./_alfworld.ts";

dataTest(
  "replaying every demonstration transcript reproduces every observation exactly",
  async () => {
    for (const file of DEMO_FILES) {
      const traces = demoTraces(file);
      const report = await replayTraces(traces);
      equal(report.transcripts, traces.length);
      equal(report.steps, traces.reduce((n, t) => n + t.steps.length, 0));
      assertEquals(report.mismatches, [], file);
      assertEquals(report.errors, [], file);
    }
  },
);

dataTest(
  "a changed observation is reported as a mismatch with step, expected and actual text",
  async () => {
    const trace = structuredClone(
      demoTraces(DEMO_FILES[0]).find((t) => t.task.id === "act_put_1")!,
    );
    // Both edits leave the rebuilt room as it was: only the wording differs.
    trace.steps[2].observation =
      "You arrive at diningtable 1. On the diningtable 1, you see nothing.";
    trace.steps[11].observation = "You move the apple 3 to the sidetable 1.";
    const { mismatches } = await replayTrace(trace);
    assertEquals(mismatches.map((m) => [m.transcript, m.step, m.action, m.expected, m.actual]), [
      [
        "act_put_1",
        3,
        "go to diningtable 1",
        "You arrive at diningtable 1. On the diningtable 1, you see nothing.",
        "On the diningtable 1, you see nothing.",
      ],
      [
        "act_put_1",
        12,
        "put apple 3 in/on sidetable 1",
        "You move the apple 3 to the sidetable 1.",
        "You put the apple 3 in/on the sidetable 1.",
      ],
    ]);
  },
);

dataTest("an action the rebuilt room cannot explain is a mismatch", async () => {
  const trace = structuredClone(
    demoTraces(DEMO_FILES[0]).find((t) => t.task.id === "act_clean_0")!,
  );
  // The dining table's contents are already known when the agent takes a phantom apple.
  trace.steps.splice(3, 0, {
    action: "take apple 7 from diningtable 1",
    observation: "You pick up the apple 7 from the diningtable 1.",
  });
  const { mismatches } = await replayTrace(trace);
  assertEquals(mismatches.map((m) => [m.step, m.actual]), [[4, "Nothing happens."]]);
});

dataTest("unknown observation text shows up as a grounding error", async () => {
  const trace = structuredClone(demoTraces(DEMO_FILES[0])[0]);
  trace.steps[0].observation = "The cabinet 1 hums quietly.";
  const { errors } = await replayTrace(trace);
  equal(errors.length, 1);
  assert(errors[0].includes('"The cabinet 1 hums quietly."'));
});

dataTest("the rebuilt room reflects what the transcript reveals", () => {
  const traces = demoTraces(DEMO_FILES[1]);
  const spec = (id: string) => sceneSpecFromTrace(traces.find((t) => t.task.id === id)!);
  const put0 = spec("act_put_0");
  const cab1 = put0.receptacles.find((r) => r.id === "cabinet 1")!;
  assertEquals([cab1.openable, cab1.listStyle, cab1.contents], [false, "comma", [
    "cloth 1",
    "soapbar 1",
    "soapbottle 1",
  ]]);
  const toilet = put0.receptacles.find((r) => r.id === "toilet 1")!;
  assertEquals(
    toilet.contents,
    ["soapbottle 2"],
    "the spraybottle put there later is not in the start state",
  );
  equal(spec("act_heat_0").start, "fridge 1");
  const two = spec("act_puttwo_2");
  const loc = (id: string) => two.receptacles.find((r) => r.id === id)!.location;
  assert(loc("cabinet 1") !== undefined && loc("cabinet 1") === loc("cabinet 2"));
  equal(loc("cabinet 3"), undefined);
  const drawer1 = two.receptacles.find((r) => r.id === "drawer 1")!;
  assertEquals(drawer1.contents, [], "saltshakers the agent put in are not in the start state");
});

dataTest("the replay command reports counts as JSON and exits 0 on both demonstration files", {
  ignore: Deno.permissions.querySync({ name: "run", command: "deno" }).state !== "granted",
}, async () => {
  const root = new URL("../../", import.meta.url);
  for (const file of DEMO_FILES) {
    const path = dataPath(`alfworld/${file}`);
    const out = await new Deno.Command("deno", {
      args: [
        "run",
        "--no-check",
        "--allow-read",
        "cli/replay.ts",
        "--env",
        "alfworld",
        "--transcripts",
        path,
        "--json",
      ],
      cwd: root,
    }).output();
    equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const json = JSON.parse(new TextDecoder().decode(out.stdout));
    assertEquals(json, {
      transcripts: file.includes("2per") ? 24 : 36,
      steps: file.includes("2per") ? 266 : 396,
      mismatches: 0,
      errors: [],
    });
  }
  const bad = await new Deno.Command("deno", {
    args: [
      "run",
      "--no-check",
      "--allow-read",
      "cli/replay.ts",
      "--env",
      "alfworld",
      "--transcripts",
      "/nonexistent.json",
    ],
    cwd: root,
  }).output();
  equal(bad.code, 2);
  assert(new TextDecoder().decode(bad.stderr).includes('Cannot read "/nonexistent.json"'));
});
