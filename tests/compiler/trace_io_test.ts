import assert from "node:assert/strict";
import type { Trace } from "../../dsl/trace.ts";
import type { EnvironmentKit } from "../../runtime/environment.ts";
import { InputFileError } from "../../io/json_file.ts";
import {
  formatTracesJsonl,
  parseTracesJsonl,
  readTraces,
  TraceFileError,
  writeTracesJsonl,
} from "../../compiler/mod.ts";
import { textcraftKit } from "../../environments/textcraft/kit.ts";

function trace(env: string, n: number): Trace {
  return {
    format: "skillc/trace@1",
    env,
    task: { id: `t${n}`, seed: n },
    goal: `goal ${n}`,
    initial: `start ${n}\nsecond line "quoted"`,
    steps: [
      { action: "look", observation: "You see a box." },
      {
        action: "open box",
        observation: "It opens.",
        reward: 1,
        done: true,
        annotations: ["think: open it"],
        facts: { add: [{ pred: "open", args: ["box", 1] }], remove: [], objects: { box: "Thing" } },
      },
    ],
    success: true,
    source: "test",
  };
}

const VALID = JSON.stringify({ env: "demo", goal: "g", initial: "i", steps: [] });

function rejects(fn: () => unknown): TraceFileError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof TraceFileError, `expected a TraceFileError, got ${e}`);
    return e;
  }
  assert.fail("expected an error");
}

async function rejectsAsync(p: Promise<unknown>): Promise<InputFileError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof InputFileError, `expected an InputFileError, got ${e}`);
    return e;
  }
  assert.fail("expected an error");
}

/** A kit with a one-line transcript format: `goal|action=observation|...`. */
const toyKit: EnvironmentKit = {
  name: "demo",
  vocabulary: textcraftKit.vocabulary,
  create: () => {
    throw new Error("not used");
  },
  grounder: () => textcraftKit.grounder(),
  importTranscripts(text: string, source: string): Trace[] {
    return text.split("\n").filter((l) => l.trim() !== "").map((line) => {
      const [goal, ...steps] = line.split("|");
      return {
        format: "skillc/trace@1",
        env: "demo",
        task: {},
        goal,
        initial: goal,
        steps: steps.map((s) => {
          const [action, observation] = s.split("=");
          return { action, observation };
        }),
        source,
      };
    });
  },
};

Deno.test("formatTracesJsonl and parseTracesJsonl round-trip traces, one per line", () => {
  const traces = [trace("demo", 1), trace("demo", 2)];
  const text = formatTracesJsonl(traces);
  assert.equal(text.split("\n").length, 3);
  assert.ok(text.endsWith("\n"));
  assert.deepEqual(parseTracesJsonl(text, "t.jsonl"), traces);
  assert.deepEqual(parseTracesJsonl("", "t.jsonl"), []);
});

Deno.test("parseTracesJsonl skips blank lines and fills in format and task", () => {
  const [t] = parseTracesJsonl(`\n\n  \r\n${VALID}\r\n\n`, "t.jsonl");
  assert.equal(t.format, "skillc/trace@1");
  assert.deepEqual(t.task, {});
});

Deno.test("bad JSON on a line is reported with the file, line and column", () => {
  const e = rejects(() => parseTracesJsonl(`${VALID}\n\n{"env": "demo", "goal": }\n`, "t.jsonl"));
  assert.equal(e.line, 3);
  assert.equal(e.column, 25);
  assert.match(e.message, /^t\.jsonl:3:25: Invalid JSON: unexpected "}"$/);
});

Deno.test("a missing field is reported with the file, line and field", () => {
  const e = rejects(() =>
    parseTracesJsonl(
      `${VALID}\n${JSON.stringify({ env: "demo", initial: "i", steps: [] })}`,
      "t.jsonl",
    )
  );
  assert.equal(e.message, 't.jsonl:2: field "goal": missing (expected a string)');
  assert.deepEqual(e.problems, [{
    line: 2,
    field: "goal",
    message: "missing (expected a string)",
  }]);
});

Deno.test("a wrong type or empty action is reported with the field path and what was expected", () => {
  const bad = JSON.stringify({
    env: "demo",
    goal: "g",
    initial: 7,
    steps: [{ action: "a", observation: "o" }, { action: "b", observation: "o" }, {
      action: "",
      observation: "o",
    }],
    task: { seed: 1.5 },
  });
  const e = rejects(() => parseTracesJsonl(`${VALID}\n${VALID}\n${bad}`, "traces.jsonl"));
  const lines = e.message.split("\n");
  assert.ok(lines.includes('traces.jsonl:3: field "initial": expected a string, got number 7'));
  assert.ok(lines.includes('traces.jsonl:3: field "steps[2].action": expected a non-empty string'));
  assert.ok(
    lines.includes('traces.jsonl:3: field "task.seed": expected an integer, got number 1.5'),
  );
  assert.equal(e.line, 3);
});

Deno.test("a line that is not an object and a wrong format literal are named", () => {
  const e = rejects(() =>
    parseTracesJsonl(`[1, 2]\n${JSON.stringify({ ...JSON.parse(VALID), format: "v2" })}`, "t.jsonl")
  );
  assert.deepEqual(e.message.split("\n"), [
    "t.jsonl:1: expected a trace (a JSON object), got an array",
    't.jsonl:2: field "format": expected "skillc/trace@1", got "v2"',
  ]);
});

Deno.test("at most ten problems are listed, with a count of the rest", () => {
  const e = rejects(() => parseTracesJsonl(Array(13).fill("{").join("\n"), "t.jsonl"));
  assert.equal(e.problems.length, 10);
  assert.equal(e.more, 3);
  assert.equal(e.message.split("\n").length, 11);
  assert.match(e.message, /\(and 3 more problems\)$/);
});

Deno.test("writeTracesJsonl writes a file that readTraces reads back", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/out.jsonl`;
    await writeTracesJsonl(path, [trace("demo", 1)]);
    assert.deepEqual(await readTraces(path), [trace("demo", 1)]);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["out.jsonl"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readTraces with a kit rejects a trace of another environment, naming file and line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/mixed.jsonl`;
    await writeTracesJsonl(path, [trace("demo", 1), trace("other", 2)]);
    const e = await rejectsAsync(readTraces(path, toyKit));
    assert.equal(
      e.message,
      `${path}:2: field "env": expected "demo" (the environment being read for), got "other"`,
    );
    assert.equal((await readTraces(path)).length, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readTraces reads a JSON array of traces and names the line of a bad element", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const good = `${dir}/good.json`;
    await Deno.writeTextFile(good, JSON.stringify([trace("demo", 1), trace("demo", 2)], null, 2));
    assert.deepEqual(await readTraces(good, toyKit), [trace("demo", 1), trace("demo", 2)]);
    const bad = `${dir}/bad.json`;
    const second = JSON.stringify({ env: "demo", goal: "g", initial: "i", steps: [{ action: 3 }] });
    await Deno.writeTextFile(bad, `[\n  ${VALID},\n  "[x]",\n\n  ${second}\n]`);
    const e = await rejectsAsync(readTraces(bad));
    assert.deepEqual(e.message.split("\n"), [
      `${bad}:3: expected a trace (a JSON object), got "[x]"`,
      `${bad}:5: field "steps[0].action": expected a string, got number 3`,
      `${bad}:5: field "steps[0].observation": missing (expected a string)`,
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readTraces reads a directory's trace files in name order, transcripts through the kit", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await writeTracesJsonl(`${dir}/b.jsonl`, [trace("demo", 2)]);
    await Deno.writeTextFile(`${dir}/a.json`, JSON.stringify([trace("demo", 1)]));
    await Deno.writeTextFile(`${dir}/c.txt`, "g3|look=dark\n");
    await Deno.writeTextFile(`${dir}/notes.md`, "not a trace");
    await Deno.mkdir(`${dir}/sub.jsonl`);
    const traces = await readTraces(dir, toyKit);
    assert.deepEqual(traces.map((t) => t.goal), ["goal 1", "goal 2", "g3"]);
    assert.equal(traces[2].source, `${dir}/c.txt`);
    assert.deepEqual(traces[2].steps, [{ action: "look", observation: "dark" }]);
    // Without a kit the transcript cannot be read.
    const e = await rejectsAsync(readTraces(dir));
    assert.equal(e.path, `${dir}/c.txt`);
    assert.match(e.message, /text transcript: reading transcripts needs an environment/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readTraces gives clear errors for unknown types, missing paths and empty directories", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/t.csv`, "a,b");
    let e = await rejectsAsync(readTraces(`${dir}/t.csv`));
    assert.match(
      e.message,
      /Unknown trace file type "\.csv": expected "\.jsonl", "\.json", "\.txt"/,
    );
    e = await rejectsAsync(readTraces(`${dir}/missing.jsonl`));
    assert.match(e.message, /missing\.jsonl: Cannot read traces/);
    await Deno.remove(`${dir}/t.csv`);
    e = await rejectsAsync(readTraces(dir));
    assert.match(e.message, /No trace files in directory/);
    await Deno.writeTextFile(`${dir}/x.json`, '{"a": "b"}');
    e = await rejectsAsync(
      readTraces(`${dir}/x.json`, { ...toyKit, importTranscripts: undefined }),
    );
    assert.match(e.message, /The "demo" environment cannot import transcripts/);
    await Deno.writeTextFile(`${dir}/x.json`, "42");
    e = await rejectsAsync(readTraces(`${dir}/x.json`));
    assert.match(
      e.message,
      /Expected a JSON array of traces or an object of transcripts, got number 42/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readTraces names the file when an importer fails or returns an invalid trace", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/t.txt`;
    await Deno.writeTextFile(path, "goal|=nothing\n");
    let e = await rejectsAsync(readTraces(path, toyKit));
    assert.match(
      e.message,
      /t\.txt: trace 1 \(".*t\.txt"\): field "steps\[0\]\.action": expected a non-empty string/,
    );
    const throwing: EnvironmentKit = {
      ...toyKit,
      importTranscripts: () => {
        throw new SyntaxError('Cannot read transcript "x" at line 4: oops');
      },
    };
    e = await rejectsAsync(readTraces(path, throwing));
    assert.equal(e.message, `${path}: Cannot read transcript "x" at line 4: oops`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readTraces imports a TextCraft transcript collection through the TextCraft kit", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const demo =
      "Crafting commands:\ncraft 4 oak planks using 1 oak logs\n\nGoal: craft oak planks.\n\n" +
      "> get 1 oak logs\nGot 1 oak logs\n\n> craft 4 oak planks using 1 oak logs\nCrafted 4 minecraft:oak_planks\n";
    const path = `${dir}/demos.json`;
    await Deno.writeTextFile(path, JSON.stringify({ first: demo, second: demo }));
    const traces = await readTraces(path, textcraftKit);
    assert.deepEqual(traces.map((t) => t.source), [`${path}#first`, `${path}#second`]);
    assert.ok(traces.every((t) => t.env === "textcraft" && t.success === true));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
