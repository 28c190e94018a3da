import assert from "node:assert/strict";
import { compileTraces, writeCompiledLibrary } from "../../compiler/compile.ts";
import { textcraftKit } from "../../environments/textcraft/kit.ts";
import { serveEnvironment } from "../../environments/remote/mod.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { type CliOutput, runCli } from "./_run.ts";
import { HAS_DATA } from "../_data.ts";
import { RECIPES } from "../fixtures/_libraries.ts";

const evalCli = (args: string[]): Promise<CliOutput> => runCli("cli/eval.ts", args);

async function tempTasks(lines: string[]): Promise<string> {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  return path;
}

/** A TextCraft library with templates, induced from 20 depth-1 expert traces (once). */
let library: Promise<string> | undefined;
function textcraftLibrary(): Promise<string> {
  library ??= (async () => {
    const traces = await generateExpertTraces(
      textcraftKit,
      textcraftKit.tasks!({ depths: [1], count: 20, seed: 1 }),
    );
    const dir = await Deno.makeTempDir();
    await writeCompiledLibrary(`${dir}/lib`, compileTraces(traces, textcraftKit), textcraftKit);
    return `${dir}/lib`;
  })();
  return library;
}

Deno.test("eval --help lists the metrics and the flags, exit 0", async () => {
  const r = await evalCli(["--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^Usage: deno task eval --env <env>/);
  for (const flag of ["--lib", "--traces", "--split", "--n", "--tasks", "--hone", "--json"]) {
    assert.ok(r.stdout.includes(flag), flag);
  }
  assert.match(r.stdout, /invalid actions/);
});

Deno.test("eval rejects bad usage with exit 2 and a message naming the problem", async () => {
  const cases: [string[], RegExp][] = [
    [["--lib", "x"], /Missing --env/],
    [["--env", "textcraft"], /Missing --lib <dir> or --traces <src>/],
    [["--env", "moon", "--variant", "expert"], /Unknown environment "moon"/],
    [["--env", "textcraft", "--variant", "smart"], /--variant must be full, linear or expert/],
    [["--env", "textcraft", "--lib", "a", "--traces", "b"], /not both/],
    [["--env", "textcraft", "--variant", "expert", "--hone"], /--hone does not apply/],
    [["--env", "textcraft", "--variant", "expert", "--n", "0"], /--n must be at least 1/],
    [
      ["--env", "textcraft", "--variant", "expert", "--n", "99999999999999999999"],
      /--n must be at most 100000, got "99999999999999999999"/,
    ],
    [
      ["--env", "textcraft", "--variant", "expert", "--concurrency", "0"],
      /--concurrency must be at least 1/,
    ],
    [
      ["--env", "textcraft", "--traces", "builtin", "--hone", "--concurrency", "2"],
      /--hone learns from each episode before the next/,
    ],
    [["--env", "textcraft", "--variant", "expert", "--split", "test"], /--split must be/],
    [["--env", "textcraft", "--variant", "expert", "--depths", "2,x"], /--depths must be/],
    [["--env", "textcraft", "--variant", "expert", "--env-options", "[1]"], /--env-options/],
    [["--env", "textcraft", "--lib", "/no/such/lib"], /\/no\/such\/lib.*does not exist/],
    [["--env", "textcraft", "--bogus"], /bogus/],
  ];
  for (const [args, pattern] of cases) {
    const r = await evalCli(args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, pattern, args.join(" "));
  }
});

Deno.test("eval --tasks names the file and line of each invalid task", async () => {
  const path = await tempTasks([
    '{"commands": ["craft 4 oak planks using 1 oak logs"], "goal": "oak planks"}',
    '{"goal": ',
    '{"commands": ["craft 4 oak planks using 1 oak logs"]}',
    '{"commands": "craft 4 oak planks using 1 oak logs", "goal": "oak planks", "seed": 3}',
  ]);
  const r = await evalCli(["--env", "textcraft", "--variant", "expert", "--tasks", path]);
  assert.equal(r.code, 2, r.stderr);
  assert.ok(r.stderr.includes(`${path}:2:`), r.stderr);
  assert.match(r.stderr, /Invalid JSON/);
  assert.ok(r.stderr.includes(`${path}:3:1: Invalid task:`), r.stderr);
  assert.match(r.stderr, /"goal"/);
  assert.ok(r.stderr.includes(`${path}:4:1: Invalid task:`), r.stderr);
  assert.match(r.stderr, /seed/);
  // Well-formed, but the environment has no such item: caught before the run, with its line.
  const unknown = await tempTasks(['{"goal": "unobtainium"}']);
  const u = await evalCli(["--env", "textcraft", "--variant", "expert", "--tasks", unknown]);
  assert.equal(u.code, 2, u.stderr);
  assert.ok(u.stderr.includes(`${unknown}:1:1: The environment rejects the task:`), u.stderr);
  assert.match(u.stderr, /unobtainium/);
});

Deno.test("eval --tasks runs explicit tasks and prints the JSON report", async () => {
  const path = await tempTasks([
    '{"commands": ["craft 4 oak planks using 1 oak logs"], "goal": "oak planks"}',
    '{"goal": "stick"}',
  ]);
  const r = await evalCli([
    "--env",
    "textcraft",
    "--variant",
    "expert",
    "--tasks",
    path,
    "--json",
    "--episodes",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  for (
    const key of [
      "env",
      "tasks",
      "success_rate",
      "avg_steps",
      "invalid_action_rate",
      "steps_per_skill",
      "llm_calls",
      "seconds",
      "by_type",
    ]
  ) assert.ok(key in report, key);
  assert.equal(report.env, "textcraft");
  assert.equal(report.tasks, 2);
  assert.equal(report.success_rate, 1);
  assert.equal(report.steps_per_skill, null);
  assert.deepEqual(report.episodes.map((e: { label: string }) => e.label), [
    `${path}:1`,
    `${path}:2`,
  ]);
  // Oak planks need one get and one craft.
  assert.equal(report.episodes[0].actions, 2);
});

Deno.test("eval through an AgentGym server over loopback gives the in-process results", async () => {
  const lib = await textcraftLibrary();
  const stop = new AbortController();
  const server = serveEnvironment(textcraftKit, { port: 0, signal: stop.signal });
  try {
    const common = ["--lib", lib, "--n", "9", "--json", "--episodes"];
    const local = await evalCli(["--env", "textcraft", ...common]);
    const remote = await evalCli([
      "--env",
      `agentgym:textcraft@http://127.0.0.1:${server.addr.port}`,
      ...common,
    ]);
    assert.equal(local.code, 0, local.stderr);
    assert.equal(remote.code, 0, remote.stderr);
    const strip = (text: string) => {
      const { env: _env, seconds: _s, episodes, ...rest } = JSON.parse(text);
      return {
        ...rest,
        episodes: episodes.map((e: Record<string, unknown>) => ({ ...e, seconds: 0 })),
      };
    };
    const a = strip(local.stdout);
    const b = strip(remote.stdout);
    assert.equal(a.tasks, 9);
    assert.ok(a.success_rate > 0, "the library solves some tasks");
    assert.deepEqual(b, a);
    assert.equal(
      JSON.parse(remote.stdout).env,
      `agentgym:textcraft@http://127.0.0.1:${server.addr.port}`,
    );
  } finally {
    stop.abort();
    await server.finished;
  }
});

Deno.test("eval reports every episode of an unreachable server as failed with its error, and exits 1", async () => {
  // A port that was just free: nothing listens there.
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const r = await evalCli([
    "--env",
    `agentgym:textcraft@http://127.0.0.1:${port}`,
    "--variant",
    "expert",
    "--n",
    "3",
    "--json",
  ]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /eval: every episode failed with an error; the first: .*refused/);
  const report = JSON.parse(r.stdout);
  assert.equal(report.tasks, 3);
  assert.equal(report.success_rate, 0);
  assert.equal(report.errors.length, 3);
  for (const e of report.errors) assert.match(e.error, /refused/);
  assert.deepEqual(report.errors.map((e: { task: string }) => e.task), [
    "textcraft/d2/s1",
    "textcraft/d3/s1",
    "textcraft/d4/s1",
  ]);
});

Deno.test("TextCraft's default demonstrations give a library that works, on the built-in and the full recipe set", async () => {
  const sets: [string, string[]][] = [["built-in", []]];
  if (HAS_DATA) sets.push(["full", ["--env-options", JSON.stringify({ recipes: RECIPES })]]);
  for (const [name, options] of sets) {
    const r = await evalCli([
      "--env",
      "textcraft",
      "--traces",
      "builtin",
      ...options,
      "--n",
      "30",
      "--json",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.ok(report.success_rate >= 0.9, `${name}: ${report.success_rate}`);
  }
});
