import assert from "node:assert/strict";
import { TraceSchema } from "../../dsl/trace.ts";
import { InputFileError } from "../../io/json_file.ts";
import { textcraftKit, textcraftTasks } from "../../environments/textcraft/mod.ts";
import {
  formatTextCraftTranscript,
  importTextCraftTranscripts,
  parseTextCraftTranscript,
} from "../../environments/textcraft/transcript.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { groundTrace } from "../../compiler/ground.ts";

// In the style of the ADaPT TextCraft prompt: think lines answered by "OK.",
// a failed get, an inventory check with a trailing colon.
const ADAPT = `Crafting commands:
craft 4 birch planks using 1 birch logs
craft 4 stick using 2 planks
craft 1 ladder using 7 stick

Goal: craft stick.

> think: I should check if I can fetch stick directly from the environment or the inventory.
OK.

> inventory: 
Inventory: You are not carrying anything.

> get 4 stick
Could not find stick

> think: I cannot get stick directly, I need to craft it.
OK.

> think: First birch logs for the planks.
OK.

> get 1 birch logs
Got 1 birch logs

> craft 4 birch planks using 1 birch logs
Crafted 4 minecraft:birch_planks

> craft 4 stick using 2 birch planks
Crafted 4 minecraft:stick

> think: Done.
OK.
`;

function failure(fn: () => unknown): InputFileError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof InputFileError, `expected an InputFileError, got ${e}`);
    return e;
  }
  assert.fail("expected an error");
}

Deno.test("a TextCraft transcript with think lines imports as steps with annotations", () => {
  const trace = parseTextCraftTranscript(ADAPT, "adapt.txt");
  assert.equal(TraceSchema.parse(trace).env, "textcraft");
  assert.equal(trace.goal, "craft stick");
  assert.equal(
    trace.initial,
    "Crafting commands:\ncraft 4 birch planks using 1 birch logs\ncraft 4 stick using 2 planks\n" +
      "craft 1 ladder using 7 stick\n\nGoal: craft stick.",
  );
  assert.deepEqual(trace.steps.map((s) => s.action), [
    "inventory:",
    "get 4 stick",
    "get 1 birch logs",
    "craft 4 birch planks using 1 birch logs",
    "craft 4 stick using 2 birch planks",
  ]);
  assert.equal(trace.steps[1].observation, "Could not find stick");
  assert.deepEqual(trace.steps[0].annotations, [
    "think: I should check if I can fetch stick directly from the environment or the inventory.",
  ]);
  assert.equal(trace.steps[1].annotations, undefined);
  assert.deepEqual(trace.steps[2].annotations, [
    "think: I cannot get stick directly, I need to craft it.",
    "think: First birch logs for the planks.",
  ]);
  // A think after the last action annotates the last step.
  assert.deepEqual(trace.steps[4].annotations, ["think: Done."]);
  // Only crafting the goal is rewarded and ends the episode.
  assert.deepEqual(trace.steps.map((s) => [s.reward, s.done]), [
    [0, false],
    [0, false],
    [0, false],
    [0, false],
    [1, true],
  ]);
  assert.equal(trace.success, true);
});

Deno.test("an imported transcript grounds without unknown text, the failed get rejected", () => {
  const trace = parseTextCraftTranscript(ADAPT, "adapt.txt");
  const g = groundTrace(trace, textcraftKit.grounder());
  assert.deepEqual(g.unknown, []);
  assert.deepEqual(g.steps.map((s) => s.rejected !== undefined), [
    false,
    true,
    false,
    false,
    false,
  ]);
  assert.deepEqual(
    g.states.at(-1)!.query("inventory", [null, null]).map((a) => a.args),
    [["birch planks", 2], ["stick", 4]],
  );
});

Deno.test("a transcript that never crafts the goal is not a success", () => {
  const text = ADAPT.slice(0, ADAPT.indexOf("> craft 4 stick"));
  const trace = parseTextCraftTranscript(text, "partial.txt");
  assert.equal(trace.success, false);
  assert.ok(trace.steps.every((s) => s.reward === 0 && s.done === false));
});

Deno.test("expert traces written as transcripts import back unchanged", async () => {
  const tasks = textcraftTasks({ depths: [1, 2, 3], count: 3, seed: 40 });
  for (const expert of await generateExpertTraces(textcraftKit, tasks)) {
    const text = formatTextCraftTranscript(expert);
    const [back] = importTextCraftTranscripts(text, "dir/episode.txt");
    assert.equal(back.initial, expert.initial);
    assert.equal(back.goal, expert.goal);
    assert.equal(back.success, true);
    assert.deepEqual(back.steps, expert.steps);
    assert.deepEqual(back.task, { id: "episode" });
    assert.equal(back.source, "dir/episode.txt");
  }
});

Deno.test("a JSON object of name -> transcript imports each, with its key as source and task id", () => {
  const second = ADAPT.replace("Goal: craft stick.", "Goal: craft ladder.");
  const traces = textcraftKit.importTranscripts!(
    JSON.stringify({ sticks: ADAPT, ladder: second }),
    "demos.json",
  );
  assert.deepEqual(traces.map((t) => [t.task.id, t.source, t.goal, t.success]), [
    ["sticks", "demos.json#sticks", "craft stick", true],
    ["ladder", "demos.json#ladder", "craft ladder", false],
  ]);
});

Deno.test("malformed transcripts name the source and line", () => {
  const cases: [string, RegExp][] = [
    [
      "Crafting commands:\ncraft 4 stick using 2 planks\n\n> get 1 oak logs\nGot 1 oak logs",
      /^t\.txt:4:1: no "Goal: craft <item>\." line before the first action$/,
    ],
    [
      "Crafting commands:\ncraft 4 stick using 2 planks\n\nGoal: craft stick.\nGot 1 oak logs\n> get 1 oak logs\nGot 1 oak logs",
      /^t\.txt:5:1: observation before any action: "Got 1 oak logs"$/,
    ],
    [
      "Crafting commands:\n\nGoal: build a house.\n",
      /^t\.txt:3:1: expected "Goal: craft <item>\.", found "Goal: build a house\."$/,
    ],
    [
      "\nGoal: craft stick.\n> get 1 oak logs\nGot 1 oak logs",
      /^t\.txt:2:1: expected "Crafting commands:", found "Goal: craft stick\."$/,
    ],
    ["> get 1 oak logs\nGot 1 oak logs", /^t\.txt:1:1: no first observation/],
    [
      "Crafting commands:\n\nGoal: craft stick.\n\n> think: hmm\n\nGot 1 oak logs\n",
      /^t\.txt:7:1: expected "OK\." after a think line, found "Got 1 oak logs"$/,
    ],
    [
      "Crafting commands:\n\nGoal: craft stick.\n\n> get 1 oak logs\n\n> inventory\nInventory: [oak logs] (1)",
      /^t\.txt:5:1: action "get 1 oak logs" has no observation$/,
    ],
    [
      "Crafting commands:\n\nGoal: craft stick.\n\n>\nGot 1 oak logs",
      /^t\.txt:5:1: empty action after ">"$/,
    ],
  ];
  for (const [text, expected] of cases) {
    const e = failure(() => textcraftKit.importTranscripts!(text, "t.txt"));
    assert.match(e.message, expected);
    assert.equal(e.path, "t.txt");
  }
});

Deno.test("a malformed transcript in a collection names the file, the transcript and its line", () => {
  const bad = "Crafting commands:\n\nGoal: craft stick.\nextra\n";
  let e = failure(() => importTextCraftTranscripts(JSON.stringify({ ok: ADAPT, bad }), "d.json"));
  assert.equal(
    e.message,
    'd.json: transcript "bad", line 4: observation before any action: "extra"',
  );
  e = failure(() => importTextCraftTranscripts('{"x": 3}', "d.json"));
  assert.equal(e.message, 'd.json: Transcript "x" is not a text: got number');
  e = failure(() => importTextCraftTranscripts('{"x": \n  oops}', "d.json"));
  assert.equal(e.line, 2);
  e = failure(() => importTextCraftTranscripts("[1]", "d.json"));
  assert.match(e.message, /Expected a JSON object of name -> transcript text/);
});

Deno.test("the kit lists tasks like textcraftTasks and rejects bad options", () => {
  assert.deepEqual(
    textcraftKit.tasks!({ depths: [1, 3], count: 2, seed: 9 }),
    textcraftTasks({ depths: [1, 3], count: 2, seed: 9 }),
  );
  assert.equal(textcraftKit.tasks!().length, 40);
  assert.throws(() => textcraftKit.tasks!({ depth: 2 }), /Invalid TextCraft task list options/);
  assert.throws(() => textcraftKit.tasks!({ count: -1 }), TypeError);
});
