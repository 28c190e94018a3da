import assert from "node:assert/strict";
import { InputFileError } from "../../io/json_file.ts";
import {
  checkTaskResets,
  parseTaskSpecs,
  readTaskSpecs,
  type TaskSpecCheck,
} from "../../runtime/eval/task_specs.ts";
import type { Environment, TaskSpec } from "../../runtime/environment.ts";
import { toyVocab } from "./_toy.ts";

const needsGoal: TaskSpecCheck = (v) =>
  typeof (v as { goal?: unknown }).goal === "string" ? undefined : 'Missing "goal"';

function errorOf(f: () => unknown): InputFileError {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof InputFileError, String(e));
    return e;
  }
  assert.fail("expected an error");
}

Deno.test("parseTaskSpecs() reads one spec per line, skipping blank lines, labelled file:line", () => {
  const file = parseTaskSpecs('{"goal": "a"}\n\n{"goal": "b", "x": 1}\n', "t.jsonl", needsGoal);
  assert.deepEqual(file.tasks, [{ spec: { goal: "a" } }, { spec: { goal: "b", x: 1 } }]);
  assert.deepEqual(file.lines, [1, 3]);
  assert.deepEqual(file.labels, ["t.jsonl:1", "t.jsonl:3"]);
});

Deno.test("parseTaskSpecs() names the file and line of every bad line", () => {
  const text = ['{"goal": "a"}', '{"goal": ', "[1, 2]", '{"goal": 3}'].join("\n");
  const e = errorOf(() => parseTaskSpecs(text, "t.jsonl", needsGoal));
  assert.equal(e.path, "t.jsonl");
  assert.equal(e.line, 2);
  const lines = e.message.split("\n");
  assert.match(lines[0], /^t\.jsonl:2:\d+: Invalid JSON/);
  assert.equal(lines[1], "t.jsonl:3:1: A task must be a JSON object, got an array");
  assert.equal(lines[2], 't.jsonl:4:1: Invalid task: Missing "goal"');
});

Deno.test("parseTaskSpecs() lists at most ten problems", () => {
  const text = Array.from({ length: 14 }, () => "{}").join("\n");
  const e = errorOf(() => parseTaskSpecs(text, "t.jsonl", needsGoal));
  const lines = e.message.split("\n");
  assert.equal(lines.length, 11);
  assert.equal(lines.at(-1), "(and 4 more)");
});

Deno.test("parseTaskSpecs() rejects a file without tasks", () => {
  const e = errorOf(() => parseTaskSpecs("\n \n", "empty.jsonl", needsGoal));
  assert.match(e.message, /^empty\.jsonl: No task in the file$/);
});

Deno.test("readTaskSpecs() names a missing file", async () => {
  await assert.rejects(
    () => readTaskSpecs("/no/such/tasks.jsonl", needsGoal),
    (e: Error) =>
      e instanceof InputFileError && /\/no\/such\/tasks\.jsonl.*no such file/.test(e.message),
  );
});

Deno.test("checkTaskResets() names the lines whose task the environment rejects", async () => {
  const file = parseTaskSpecs(
    '{"goal": "ok"}\n{"goal": "moon"}\n{"goal": "ok"}\n',
    "t.jsonl",
    needsGoal,
  );
  let closed = 0;
  const createEnv = (): Environment => ({
    name: "strict",
    vocabulary: toyVocab,
    reset: (task: TaskSpec) => {
      const goal = (task.spec as { goal: string }).goal;
      return goal === "ok"
        ? Promise.resolve({ observation: "", goal, taskId: "x" })
        : Promise.reject(new RangeError(`Unknown goal "${goal}"`));
    },
    step: () => Promise.reject(new Error("not used")),
    close: () => Promise.resolve(void closed++),
  });
  await assert.rejects(
    () => checkTaskResets(createEnv, file),
    (e: Error) =>
      e instanceof InputFileError && e.line === 2 &&
      e.message === 't.jsonl:2:1: The environment rejects the task: Unknown goal "moon"',
  );
  assert.equal(closed, 3);
  const good = parseTaskSpecs('{"goal": "ok"}\n', "g.jsonl", needsGoal);
  await checkTaskResets(createEnv, good);
});
