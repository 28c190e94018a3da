import assert from "node:assert/strict";
import { dataPath, dataTest } from "../_data.ts";
import { weakTraceSets } from "../../cli/_bench_honing.ts";
import { type CliOutput, runCli, runCliProcess } from "./_run.ts";
import { TOUR_DOMAIN, tourProblem } from "../environments/_tour_domain.ts";

const bench = (args: string[]): Promise<CliOutput> => runCli("cli/bench.ts", args);

dataTest("bench writes a markdown table and JSON with throughput and induction time", async () => {
  const out = await Deno.makeTempDir();
  const args = [
    "--env",
    "textcraft",
    "--train",
    "10",
    "--n",
    "6",
    "--throughput",
    "12",
    "--input-size",
    "200",
    "--weak",
    "2",
    "--hone-train",
    "5",
    "--data",
    dataPath(""),
  ];
  const r = await bench([...args, "--out", out]);
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(await Deno.readTextFile(`${out}/results.json`));
  const md = await Deno.readTextFile(`${out}/results.md`);
  assert.equal(r.stdout.trim(), md.trim(), "the markdown is also printed");
  assert.equal(json.command, `deno task bench ${args.join(" ")} --out ${out}`);
  assert.ok(json.peak_memory_mib > 10, `peak memory ${json.peak_memory_mib}`);
  assert.equal(json.environments.length, 1);
  const tc = json.environments[0];
  assert.equal(tc.env, "textcraft");
  assert.equal(tc.tasks.count, 6);
  assert.equal(tc.demonstrations.traces, 10);
  assert.equal(tc.throughput.episodes, 12);
  assert.ok(tc.throughput.seconds > 0 && tc.throughput.success_rate > 0.5);
  assert.equal(tc.scaling.traces, 40);
  assert.equal(tc.scaling.ratio, tc.scaling.seconds / tc.induction.full.seconds);
  assert.ok(tc.induction.full.first_seconds > 0);
  assert.ok(tc.induction.full.seconds > 0 && tc.induction.linear.seconds > 0);
  assert.deepEqual(Object.keys(tc.variants), ["expert", "linear", "full", "knowledge", "hone"]);
  // Two weak libraries (the first and the second demonstration), each honed over 5 training tasks.
  assert.deepEqual(tc.honing_gain.map((g: { demonstration: number }) => g.demonstration), [0, 1]);
  for (const g of tc.honing_gain) {
    assert.equal(g.traces, 1);
    assert.equal(g.train_tasks, 5);
    for (const x of [g.before, g.after, g.during]) assert.ok(x >= 0 && x <= 1);
    assert.equal(typeof g.changes.graft, "number");
  }
  assert.match(md, /Honing from a weak library \(demonstration 2 of each task type, 1 trace\)/);
  assert.match(
    md,
    /Background knowledge: [0-9.]+% without it, [0-9.]+% when the agent consults it/,
  );
  const full = tc.variants.full;
  assert.equal(full.tasks, 6);
  assert.ok(full.node_steps > 0);
  assert.equal(full.nodes_per_second, full.node_steps / full.seconds);
  assert.equal(full.episodes_per_second, 6 / full.seconds);
  assert.equal(tc.variants.expert.success_rate, 1);
  assert.match(md, /^# Benchmark results\n\nProduced by `deno task bench --env textcraft/);
  assert.match(md, /\| variant +\| episodes\/s \| node evaluations \| node evaluations\/s \|/);
  assert.match(md, /Induction: 1 skill/);
  const flat = md.replace(/\s+/g, " ");
  assert.match(
    flat,
    /Scaling: induction from 40 demonstrations \(4x\) in [\d.]+ s, [\d.]+x the time of 10\./,
  );
  assert.match(
    flat,
    /Throughput: 12 episodes of the full variant \(the tasks repeated\) in [\d.]+ s/,
  );
  assert.match(flat, /Peak resident memory of the run \(sampled\): \d+ MiB/);
  assert.deepEqual(tc.input_size.trace.sizes, [20, 200]);
  assert.deepEqual(tc.input_size.observation.sizes, [0.01, 0.1]);
  assert.match(
    flat,
    /Input size: one trace of 200 steps \(the first demonstration's first step repeated\) induces in [\d.]+ s, [\d.]+x the time of 20 steps \([\d.]+ s; 10x is linear\); a 0.1 MB first observation \(distinct crafting commands\) grounds in [\d.]+ s, [\d.]+x the time of 0.01 MB/,
  );
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
  // A genplan data folder with no domain in it is an error, not an empty table.
  const empty = await Deno.makeTempDir();
  await Deno.mkdir(`${empty}/genplan/mine`, { recursive: true });
  cases.push([
    ["--suite", "genplan", "--data", empty, "--out", empty],
    /No generalised-planning domains in ".*genplan": expected <suite>\/<domain>\/ folders/,
  ]);
  for (const [args, pattern] of cases) {
    const r = await bench(args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
  }
  assert.deepEqual([...Deno.readDirSync(empty)].map((e) => e.name), ["genplan"]);
  await Deno.remove(empty, { recursive: true });
  const help = await bench(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: deno task bench/);
});

Deno.test("weakTraceSets takes the k-th demonstration of each task type while every type has one", () => {
  const trace = (type: string, n: number) => ({
    format: "skillc/trace@1" as const,
    env: "toy",
    task: { type },
    goal: `${type} ${n}`,
    initial: "",
    steps: [],
  });
  const traces = [trace("a", 1), trace("b", 1), trace("a", 2), trace("b", 2), trace("a", 3)];
  const sets = weakTraceSets(traces, 5);
  assert.deepEqual(sets.map((s) => s.map((t) => t.goal)), [["a 1", "b 1"], ["a 2", "b 2"]]);
  assert.equal(weakTraceSets(traces, 1).length, 1);
});

Deno.test("bench --suite genplan measures domains two at a time and keeps the suite's order", async () => {
  // Two small tour domains of our own, in the genplan layout: domain.pddl, train/, test/;
  // the second is a symbolic link to a folder elsewhere.
  const data = await Deno.makeTempDir();
  const elsewhere = await Deno.makeTempDir();
  const out = await Deno.makeTempDir();
  const line = (n: number) => {
    const places = Array.from({ length: n }, (_, k) => `p${k}`);
    const links = places.map((p, k): [string, string] => [k === 0 ? "s" : places[k - 1], p]);
    links.push([places[n - 1], "s"]);
    return { places, links };
  };
  for (const name of ["tour_a", "tour_b"]) {
    const dir = name === "tour_b" ? elsewhere : `${data}/genplan/mine/${name}`;
    await Deno.mkdir(`${dir}/train`, { recursive: true });
    await Deno.mkdir(`${dir}/test`, { recursive: true });
    await Deno.writeTextFile(`${dir}/domain.pddl`, TOUR_DOMAIN);
    for (const [split, sizes] of [["train", [1, 2, 3]], ["test", [5]]] as const) {
      for (const n of sizes) {
        const { places, links } = line(n);
        await Deno.writeTextFile(`${dir}/${split}/p${n}.pddl`, tourProblem(`p${n}`, places, links));
      }
    }
  }
  await Deno.symlink(elsewhere, `${data}/genplan/mine/tour_b`);
  const r = await bench(["--suite", "genplan", "--data", data, "--out", out, "--parallel", "2"]);
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(await Deno.readTextFile(`${out}/results.json`));
  assert.deepEqual(json.domains.map((d: { domain: string }) => d.domain), [
    "mine/tour_a",
    "mine/tour_b",
  ]);
  assert.equal(json.parallel, 2);
  for (const row of json.domains) {
    assert.equal(row.expert.success_rate, 1, JSON.stringify(row));
    assert.equal(row.induced.success_rate, 1, JSON.stringify(row));
  }
  // Each progress line names its domain when two run at once.
  assert.match(r.stderr, /mine\/tour_a: expert: 100\.0% of 1 test problems/);
  assert.match(r.stderr, /mine\/tour_b: demonstrations: 3 plans/);
  assert.match(await Deno.readTextFile(`${out}/results.md`), /minutes in all, 2\s+at\s+a\s+time/);
  await Deno.remove(data, { recursive: true });
  await Deno.remove(elsewhere, { recursive: true });
  await Deno.remove(out, { recursive: true });
});

Deno.test("genplan_layout lays out pddlgym's domains with training and test problems, leaving out those held", async () => {
  const checkout = await Deno.makeTempDir();
  const out = await Deno.makeTempDir();
  const held = await Deno.makeTempDir();
  const pddl = `${checkout}/pddlgym/pddl`;
  for (const d of ["tour", "held", "lonely"]) {
    await Deno.mkdir(`${pddl}/${d}`, { recursive: true });
    await Deno.writeTextFile(`${pddl}/${d}.pddl`, TOUR_DOMAIN);
    await Deno.writeTextFile(`${pddl}/${d}/problem0.pddl`, "(define (problem p0))");
    // "lonely" has no test problems: not a genplan domain.
    if (d === "lonely") continue;
    await Deno.mkdir(`${pddl}/${d}_test`);
    await Deno.writeTextFile(`${pddl}/${d}_test/problem9.pddl`, "(define (problem p9))");
  }
  await Deno.mkdir(`${held}/genplan/pddlgym/held`, { recursive: true });
  const r = await runCliProcess("bench/genplan_layout.ts", [checkout, out, "--skip-in", held]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /tour: 1 training and 1 test problems\n1 domains in /);
  const dir = `${out}/genplan/pddlgym`;
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["tour"]);
  assert.equal(await Deno.readTextFile(`${dir}/tour/domain.pddl`), TOUR_DOMAIN);
  assert.deepEqual([...Deno.readDirSync(`${dir}/tour/test`)].map((e) => e.name), ["problem9.pddl"]);
  const bad = await runCliProcess("bench/genplan_layout.ts", [out, out]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /no pddlgym\/pddl folder in/);
  for (const d of [checkout, out, held]) await Deno.remove(d, { recursive: true });
});
