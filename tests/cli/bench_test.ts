import assert from "node:assert/strict";
import { type CliOutput, runCli } from "./_run.ts";

const bench = (args: string[]): Promise<CliOutput> =>
  runCli("cli/bench.ts", args, ["--allow-read", "--allow-write", "--allow-env"]);

Deno.test("bench writes a markdown table and JSON with throughput and induction time", async () => {
  const out = await Deno.makeTempDir();
  const r = await bench(["--env", "textcraft", "--train", "20", "--n", "6", "--out", out]);
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(await Deno.readTextFile(`${out}/results.json`));
  const md = await Deno.readTextFile(`${out}/results.md`);
  assert.equal(r.stdout.trim(), md.trim(), "the markdown is also printed");
  assert.equal(json.command, `deno task bench --env textcraft --train 20 --n 6 --out ${out}`);
  assert.equal(json.environments.length, 1);
  const tc = json.environments[0];
  assert.equal(tc.env, "textcraft");
  assert.equal(tc.tasks.count, 6);
  assert.equal(tc.demonstrations.traces, 20);
  assert.ok(tc.induction.full.seconds > 0 && tc.induction.linear.seconds > 0);
  assert.deepEqual(Object.keys(tc.variants), ["expert", "linear", "full", "hone"]);
  const full = tc.variants.full;
  assert.equal(full.tasks, 6);
  assert.ok(full.node_steps > 0);
  assert.equal(full.nodes_per_second, full.node_steps / full.seconds);
  assert.equal(full.episodes_per_second, 6 / full.seconds);
  assert.equal(tc.variants.expert.success_rate, 1);
  assert.match(md, /^# Benchmark results\n\nProduced by `deno task bench --env textcraft/);
  assert.match(md, /\| variant \| episodes\/s \| node evaluations \| node evaluations\/s \|/);
  assert.match(md, /Induction: 1 skill/);
});

Deno.test("bench rejects bad usage and missing data with exit 2", async () => {
  const cases: [string[], RegExp][] = [
    [["--env", "moon"], /Unknown environment "moon"; known: "textcraft", "alfworld"/],
    [["--n", "0"], /--n must be at least 1/],
    [
      ["--env", "alfworld", "--data", "/no/such/data"],
      /Benchmark data not found: "\/no\/such\/data/,
    ],
  ];
  for (const [args, pattern] of cases) {
    const r = await bench(args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
  }
  const help = await bench(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: deno task bench/);
});
