import assert from "node:assert/strict";
import { runCli } from "./_run.ts";

let library: Promise<string> | undefined;
/** A TextCraft library induced by the CLI from 30 depth-1 expert traces (once). */
function textcraftLibrary(): Promise<string> {
  library ??= (async () => {
    const dir = await Deno.makeTempDir();
    const r = await runCli("cli/induce.ts", [
      "--env",
      "textcraft",
      "--traces",
      "builtin",
      "--count",
      "30",
      "--out",
      `${dir}/lib`,
      "--json",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).templates, 1);
    return `${dir}/lib`;
  })();
  return library;
}

Deno.test("run-skill --lib without --skill runs the agent and prints skill boundaries, diagnoses and verification", async () => {
  const lib = await textcraftLibrary();
  const r = await runCli("cli/run_skill.ts", [
    "--env",
    "textcraft",
    "--lib",
    lib,
    "--task",
    "3",
    "--depth",
    "2",
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^Task textcraft\/d2\/s3 \(depth2\): craft /m);
  assert.match(
    r.stdout,
    /^Plan: task program "task_depth1" of template "depth1", matched by arguments$/m,
  );
  assert.match(r.stdout, /^\.\. bind_item: item := '/m);
  assert.match(r.stdout, /^== template craft_item\(item: '/m);
  // The first try fails for a missing ingredient, which is crafted first.
  assert.match(r.stdout, /\[craft_item\] why {4}Action "get \d+ .*" failed: Could not find /);
  assert.match(r.stdout, /^== verify count\('.*'\) >= 1: does not hold$/m);
  assert.match(r.stdout, /^== regress craft_item needs '.*': subgoal craft_item\(item: '.*'\)/m);
  assert.match(r.stdout, /^ {2}== subgoal craft_item/m);
  assert.match(r.stdout, /^ {2}== verify count\('.*'\) >= 1: holds$/m);
  assert.match(r.stdout, /^== retry craft_item/m);
  assert.match(r.stdout, /^Stop: The environment reports success \(reward 1\)$/m);
  assert.match(r.stdout, /^Result: success in \d+ actions, \d+ skill calls, \d+ invalid actions/m);
});

Deno.test("run-skill --lib --json prints agent events and the result as JSON lines", async () => {
  const lib = await textcraftLibrary();
  const r = await runCli("cli/run_skill.ts", [
    "--env",
    "textcraft",
    "--lib",
    lib,
    "--task",
    "2",
    "--depth",
    "3",
    "--json",
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines[0].type, "task");
  assert.equal(lines[1].type, "plan");
  assert.ok(lines.some((l) => l.type === "run" && l.event.type === "act"));
  assert.ok(lines.some((l) => l.type === "verify" && l.holds === true));
  const { result } = lines.at(-1);
  assert.equal(result.success, true);
  assert.ok(result.skillCalls >= 3);
});

Deno.test("run-skill --lib --skill <name> runs one skill of the library", async () => {
  const lib = await textcraftLibrary();
  const r = await runCli("cli/run_skill.ts", [
    "--env",
    "textcraft",
    "--lib",
    lib,
    "--skill",
    "craft_item",
    "--args",
    '{"item": "birch planks"}',
    "--task",
    "7",
    "--depth",
    "1",
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /\[craft_item\] act {4}get: get 1 birch logs/);
  assert.match(r.stdout, /Result: success/);
});

Deno.test("run-skill agent budgets and usage errors", async () => {
  const lib = await textcraftLibrary();
  const budget = await runCli("cli/run_skill.ts", [
    "--env",
    "textcraft",
    "--lib",
    lib,
    "--task",
    "3",
    "--depth",
    "2",
    "--max-skill-calls",
    "1",
  ]);
  assert.equal(budget.code, 1);
  assert.match(budget.stdout, /^Stop: Skill call budget of 1 spent$/m);
  const cases: [string[], RegExp][] = [
    [["--env", "textcraft"], /Missing --skill <file\|name> \(or --lib <dir> to run the agent\)/],
    [["--env", "textcraft", "--lib", lib, "--args", "{}"], /--args needs --skill/],
    [
      ["--env", "textcraft", "--lib", lib, "--max-actions", "x"],
      /--max-actions must be an integer/,
    ],
    [
      ["--env", "textcraft", "--lib", "/no/such/lib"],
      /\/no\/such\/lib: Cannot open library: the directory does not exist/,
    ],
  ];
  for (const [args, pattern] of cases) {
    const r = await runCli("cli/run_skill.ts", args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
  }
});
