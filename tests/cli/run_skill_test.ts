import assert from "node:assert/strict";
import { root, runCli } from "./_run.ts";

const example = new URL("examples/textcraft/craft_from_gettable.json", root).pathname;

async function tempFile(text: string): Promise<string> {
  const path = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(path, text);
  return path;
}

Deno.test("run-skill --help prints usage and exits 0", async () => {
  const r = await runCli("cli/run_skill.ts", ["--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Usage: deno task run-skill --env <env> --skill <file>/);
});

Deno.test("run-skill runs the example skill to success and prints the trace", async () => {
  const r = await runCli("cli/run_skill.ts", [
    "--env",
    "textcraft",
    "--skill",
    example,
    "--args",
    '{"target": "birch planks"}',
    "--task",
    "7",
    "--depth",
    "1",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /act {4}get_missing: get 1 birch logs/);
  assert.match(r.stdout, /obs {4}Crafted 4 minecraft:birch_planks/);
  assert.match(r.stdout, /Result: success/);
});

Deno.test("run-skill exits 1 with a diagnosis when the skill fails", async () => {
  const r = await runCli("cli/run_skill.ts", [
    "--env",
    "textcraft",
    "--skill",
    example,
    "--args",
    '{"target": "no such thing"}',
    "--task",
    "7",
    "--depth",
    "1",
  ]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /end {4}failure at no_recipe/);
  assert.match(
    r.stdout,
    /why {4}not exists\(q: Recipe, makes\(q, 'no such thing'\) and .*\[holds\]/,
  );
});

Deno.test("run-skill rejects bad flags, unknown environments and unreadable files with exit 2", async () => {
  const cases: [string[], RegExp][] = [
    [["--env", "textcraft", "--skill", example, "--bogus"], /Unknown option '--bogus'/],
    [["--skill", example], /Missing --env/],
    [["--env", "nowhere", "--skill", example], /Unknown environment "nowhere"/],
    [
      ["--env", "textcraft", "--skill", "/no/such/file.json"],
      /\/no\/such\/file.json: Cannot read file/,
    ],
    [["--env", "textcraft", "--skill", example, "--args", "[1]"], /--args must be a JSON object/],
    [
      ["--env", "textcraft", "--skill", example, "--max-steps", "lots"],
      /--max-steps must be an integer/,
    ],
  ];
  for (const [args, pattern] of cases) {
    const r = await runCli("cli/run_skill.ts", args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
  }
});

Deno.test("run-skill reports malformed JSON with file, line and column", async () => {
  const path = await tempFile('{\n  "name": "x",\n  "params": [,]\n}');
  const r = await runCli("cli/run_skill.ts", ["--env", "textcraft", "--skill", path]);
  assert.equal(r.code, 2);
  assert.ok(r.stderr.includes(`${path}:3:14: Invalid JSON: unexpected ","`), r.stderr);
});

Deno.test("run-skill reports every problem of an invalid graph, naming the nodes", async () => {
  const bad = {
    name: "bad",
    vocabulary: "textcraft",
    params: [],
    doc: { summary: "broken" },
    entry: "a",
    nodes: [
      { id: "a", kind: "primitive", action: "fly", args: {} },
      { id: "b", kind: "check", cond: "count(y) > 0" },
    ],
    edges: [{ from: "a", to: "b", label: "next" }],
  };
  const path = await tempFile(JSON.stringify(bad));
  const r = await runCli("cli/run_skill.ts", ["--env", "textcraft", "--skill", path]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Node "a": unknown action "fly"/);
  assert.match(r.stderr, /Node "b": expected out-edges "yes" and "no"/);
  assert.match(r.stderr, /Node "b".*"y"/);
});

// The demo's own tests are in demo_test.ts.
Deno.test("run-skill accepts --env alfworld", async () => {
  const skill = new URL("examples/alfworld/find_and_take.json", root).pathname;
  const r = await runCli("cli/run_skill.ts", [
    "--env",
    "alfworld",
    "--skill",
    skill,
    "--args",
    '{"item_type": "apple"}',
    "--task",
    "3",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /act {4}take: take apple \d+ from /);
});
