import { dataTest } from "../_data.ts";
import { deepEqual as assertEquals, equal, ok as assert, throws } from "node:assert/strict";
import { TraceSchema } from "../../dsl/trace.ts";
import {
  importTranscripts,
  parseTranscript,
  TranscriptError,
} from "../../environments/alfworld/transcript.ts";
import { DEMO_FILES, demoTraces } from "./_alfworld.ts";

const ROOM =
  "You are in the middle of a room. Looking quickly around you, you see a fridge 1, and a sidetable 1.";

Deno.test("a transcript becomes a trace; think lines and their OK annotate the next step", () => {
  const trace = parseTranscript(
    `${ROOM}\nYour task is to: put a cool apple in sidetable.\n` +
      "> think: First I need an apple.\nOK.\n> think: Try the fridge.\nOK.\n" +
      "> go to fridge 1\nThe fridge 1 is closed.\n>open fridge 1\nYou open the fridge 1. The fridge 1 is open. In it, you see a apple 1.\n",
    "demo_1",
  );
  equal(trace.env, "alfworld");
  assertEquals(trace.task, { id: "demo_1", type: "pick_cool_then_place_in_recep" });
  equal(trace.goal, "put a cool apple in sidetable.");
  equal(trace.initial, `${ROOM}\nYour task is to: put a cool apple in sidetable.`);
  assertEquals(trace.steps.map((s) => s.action), ["go to fridge 1", "open fridge 1"]);
  assertEquals(trace.steps[0].annotations, [
    "think: First I need an apple.",
    "think: Try the fridge.",
  ]);
  equal(trace.steps[1].annotations, undefined);
  equal(
    trace.steps[1].observation,
    "You open the fridge 1. The fridge 1 is open. In it, you see a apple 1.",
  );
  assert(TraceSchema.safeParse(trace).success);
});

Deno.test("a think between an action and its observation gives the action its observation", () => {
  const trace = parseTranscript(
    `${ROOM}\nYour task is to: put a cool apple in sidetable.\n> take apple 1 from fridge 1\n` +
      "> think: Now I take it.\nOK.\nYou pick up the apple 1 from the fridge 1.\n> go to sidetable 1\nOn the sidetable 1, you see nothing.",
    "odd",
  );
  equal(trace.steps[0].observation, "You pick up the apple 1 from the fridge 1.");
  assertEquals(trace.steps[1].annotations, ["think: Now I take it."]);
});

Deno.test("a stray OK before the first action and trailing thinks are kept as annotations", () => {
  const trace = parseTranscript(
    `${ROOM}\nYour task is to: look at apple under the desklamp.\nOK. \n> go to fridge 1\nThe fridge 1 is closed.\n> think: done\nOK.`,
    "stray",
  );
  assertEquals(trace.steps[0].annotations, ["OK.", "think: done"]);
  equal(trace.steps.length, 1);
  equal(trace.task.type, "look_at_obj_in_light");
  const last = parseTranscript(
    `${ROOM}\nYour task is to: put two cd in safe.\n> look\n${ROOM}\n> think: hm\nOK.`,
    "t",
  );
  assertEquals(last.steps[0].annotations, ["think: hm"]);
});

Deno.test("a transcript without a task line is rejected naming it", () => {
  throws(
    () => parseTranscript(`${ROOM}\n> look\n${ROOM}`, "bad"),
    (e: unknown) =>
      e instanceof TranscriptError && /"bad"/.test(e.message) && /Your task is to/.test(e.message),
  );
});

Deno.test("importTranscripts reads a JSON object of transcripts or one text transcript", () => {
  const text = `${ROOM}\nYour task is to: put some apple on sidetable.\n> look\n${ROOM}`;
  const one = importTranscripts(text, "single.txt");
  equal(one.length, 1);
  equal(one[0].task.id, "single.txt");
  const many = importTranscripts(JSON.stringify({ a: text, b: text }), "demos.json");
  assertEquals(many.map((t) => [t.task.id, t.source]), [["a", "demos.json#a"], [
    "b",
    "demos.json#b",
  ]]);
  equal(importTranscripts({ c: text }, "obj").length, 1);
  throws(() => importTranscripts("{ not json", "x.json"), TranscriptError);
  throws(() => importTranscripts(JSON.stringify({ a: 3 }), "x.json"), /"a" is not a string/);
  throws(() => importTranscripts([text], "arr"), /JSON object/);
});

dataTest(
  "both demonstration files import with every task type and no think left as an action",
  () => {
    for (const file of DEMO_FILES) {
      const traces = demoTraces(file);
      equal(traces.length, file.includes("2per") ? 24 : 36);
      const types = new Set(traces.map((t) => t.task.type));
      equal(types.size, 6, file);
      for (const t of traces) {
        assert(t.steps.length > 0);
        for (const s of t.steps) {
          assert(!/^think:/.test(s.action), `${t.task.id}: ${s.action}`);
          assert(s.observation !== "", `${t.task.id}: empty observation of "${s.action}"`);
        }
        if (t.task.id!.startsWith("react_")) {
          assert(
            t.steps.some((s) => s.annotations?.some((a) => a.startsWith("think:"))),
            t.task.id,
          );
        }
      }
    }
  },
);
