/**
 * `deno task bench`: the demo's comparison on the full benchmark data,
 * plus induction time, episodes per second and interpreter node
 * evaluations per second; writes a markdown table and JSON.
 *
 * Its parts: what an environment's benchmark runs on (`_bench_setup.ts`),
 * the measures of speed (`_bench_timing.ts`) and of honing
 * (`_bench_honing.ts`), the results and their page (`_bench_report.ts`),
 * and the generalised-planning suite (`_bench_genplan.ts`).
 *
 * @module
 */
import { environmentKit, environmentNames } from "../environments/registry.ts";
import { intFlag, MAX_COUNT, parseFlags, runMain, UsageError } from "./_cli.ts";
import { envHelp, kitFromFlag, SHARED_DATA } from "./_tasks.ts";
import { measureHoningGain } from "./_bench_honing.ts";
import { MemoryPeak } from "./_memory_peak.ts";
import { runGenplanSuite } from "./_bench_genplan.ts";
import { type BenchRequest, benchSetup, EXAMPLE_KITS, type Setup } from "./_bench_setup.ts";
import {
  INPUT_SIZE,
  measureInputSize,
  measureScaling,
  measureThroughput,
} from "./_bench_timing.ts";
import { type EnvResult, renderMarkdown } from "./_bench_report.ts";
import { compareVariants, induceLibrary, VARIANT_DOCS, VARIANTS } from "./_variants.ts";

const HELP = `Usage: deno task bench [--env <env>|all] [options]
       deno task bench --suite genplan [--domains <list>] [--demos <n>] [options]

Runs every variant on the full benchmark data and writes the results. What
is measured is the environment's benchmark (its kit's \`benchmark\` field):

  textcraft  the full recipe set (<data>/textcraft/recipes); library induced
             from expert traces of 50 depth-1 tasks; 200 tasks of depth 2-4
  alfworld   library induced from <data>/alfworld/react_demos_2per_type.json
             only; the 134 tasks of the unseen split
  garden     the example domains of examples/ (unlike the two above; no
  deploy     benchmark data needed): library induced from 4 expert
             demonstrations per task type of 1-3 goal objects; 60 unseen
             tasks of 4-8 goal objects
  all        all of the above (the default)
  pddl:<d>   an AgentBoard PDDL domain (gripper, blockworld, barman,
             tyreworld) or any domain file: library induced from the
             expert's plans of the 3 smallest problems; every problem, in
             file-name order (not part of "all"; use --out bench/pddl-<d>)

Variants:
${VARIANTS.map((v) => `  ${v.padEnd(10)}${VARIANT_DOCS[v]}`).join("\n")}

Beyond the evaluation metrics it measures induction time (the median of
three runs once the process has compiled its code; the first run is
reported too), episodes
per second and interpreter node evaluations per second (wall time,
environment included).

Generalised planning (--suite genplan): every domain of <data>/genplan/
(pddlgym and PG3 domains with train/ and test/ problems): the library is
induced from the expert's plans of the --demos smallest training problems
with the domain's action rules withheld (rules "learned", with a decision-
list policy), and the expert and the library are evaluated on every test
problem; writes <out>/results.md and results.json (default bench/genplan).
  --domains <list>       e.g. pg3/manygripper,blocks (a bare name: every
                         suite's); default all
  --demos <n>            demonstrations per domain (default 3)
  --concurrency <n>      episodes at once, in worker threads (default 2)
  --parallel <n>         domains at once, each in a process of its own
                         (default 2: expert and induction use one core each)
  --max-actions <n>      actions per episode (default 3000)

Options:
${envHelp(25)}
  --data <dir>           benchmark data folder (default ../shared/data)
  --out <dir>            where results.md and results.json go (default bench)
  --train <n>            expert demonstrations (default: the benchmark's)
  --train-depths <list>  depths of the demonstrations, for environments whose
                         tasks have them, e.g. 2 or 1,2 (taken in turn)
  --n <n>                evaluation tasks (default: the benchmark's)
  --max-actions <n>      actions per episode (default: the environment's, e.g.
                         TextCraft 100, ALFWorld 50, ReAct's limit); skill
                         calls may be as many as actions
  --throughput <n>       episodes of the throughput run: the full variant on
                         the tasks repeated (default 1000; 0 skips it)
  --input-size <n>       the input-size run: one trace of n steps and, for
                         TextCraft, a first observation of n/2000 MB, each
                         timed against a tenth of it (default 20000, i.e.
                         10 MB; 0 skips the run)
  --weak <n>             honing's gain: up to n weak libraries, each induced
                         from one demonstration per task type (the first, the
                         second, ...), honed over training tasks, evaluated on
                         the unseen tasks before and after (default 4; 0
                         skips it)
  --hone-train <n>       training tasks each weak library is honed over
                         (default 60)
  --json                 also print the JSON to stdout
  -h, --help             show this help

Exit codes: 0 results written, 1 an unexpected failure, 2 bad usage or
missing benchmark data (the path is named).`;

/** Episodes of the throughput run by default. */
const THROUGHPUT_EPISODES = 1000;

/** The `bench` command on its arguments; resolves to its exit code (see `runCommand`). */
export async function main(args: string[]): Promise<number> {
  const flags = parseFlags(args, {
    env: { type: "string" },
    data: { type: "string" },
    out: { type: "string" },
    train: { type: "string" },
    "train-depths": { type: "string" },
    n: { type: "string" },
    "max-actions": { type: "string" },
    throughput: { type: "string" },
    "input-size": { type: "string" },
    weak: { type: "string" },
    "hone-train": { type: "string" },
    json: { type: "boolean" },
    suite: { type: "string" },
    domains: { type: "string" },
    demos: { type: "string" },
    concurrency: { type: "string" },
    parallel: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const data = (flags.data ?? SHARED_DATA).replace(/\/+$/, "");
  if (flags.suite !== undefined) {
    if (flags.suite !== "genplan") {
      throw new UsageError(`Unknown --suite "${flags.suite}" (known: genplan)`);
    }
    const rows = await runGenplanSuite({
      data,
      ...(flags.domains !== undefined
        ? { domains: flags.domains.split(",").map((d) => d.trim()).filter((d) => d !== "") }
        : {}),
      demos: positive("demos", flags.demos, 3),
      maxActions: positive("max-actions", flags["max-actions"], 3000),
      concurrency: positive("concurrency", flags.concurrency, 2),
      parallel: positive("parallel", flags.parallel, 2),
      out: flags.out ?? "bench/genplan",
      command: `deno task bench ${args.join(" ")}`.trim(),
      log: (line) => console.error(line),
    });
    if (flags.json) console.log(JSON.stringify(rows, null, 2));
    return 0;
  }
  if (flags.domains !== undefined || flags.demos !== undefined || flags.parallel !== undefined) {
    throw new UsageError("--domains, --demos and --parallel belong to --suite genplan");
  }
  const request: BenchRequest = {
    data,
    ...(flags.train !== undefined ? { train: positive("train", flags.train, 1) } : {}),
    ...(flags["train-depths"] !== undefined
      ? { trainDepths: depthList(flags["train-depths"]) }
      : {}),
    ...(flags.n !== undefined ? { n: positive("n", flags.n, 1) } : {}),
    ...(flags["max-actions"] !== undefined
      ? { maxActions: positive("max-actions", flags["max-actions"], 1) }
      : {}),
    throughput: intFlag("throughput", flags.throughput, THROUGHPUT_EPISODES, MAX_COUNT),
    inputSize: intFlag("input-size", flags["input-size"], INPUT_SIZE, 1_000_000),
    weak: intFlag("weak", flags.weak, 4, 100),
    honeTrain: positive("hone-train", flags["hone-train"], 60),
  };
  const which = flags.env ?? "all";
  const kits = which === "all"
    ? [...environmentNames().map((n) => environmentKit(n)), ...Object.values(EXAMPLE_KITS)]
    : [EXAMPLE_KITS[which] ?? await kitFromFlag(which)];
  const out = flags.out ?? "bench";

  const results: EnvResult[] = [];
  const peak = new MemoryPeak();
  let peakMiB: number;
  try {
    for (const kit of kits) {
      const setup = await benchSetup(kit, request);
      results.push(await bench(setup, request, () => peak.sample()));
    }
  } finally {
    // Stopped on an error too: a running timer would keep the process alive.
    peakMiB = peak.stop();
  }
  const memory = { mib: peakMiB };
  const json = {
    date: new Date().toISOString(),
    deno: Deno.version.deno,
    command: `deno task bench ${args.join(" ")}`.trim(),
    peak_memory_mib: Math.round(memory.mib),
    environments: results,
  };
  const markdown = renderMarkdown(json.command, json.date, results, memory);
  await Deno.mkdir(out, { recursive: true });
  await Deno.writeTextFile(`${out}/results.md`, markdown);
  await Deno.writeTextFile(`${out}/results.json`, `${JSON.stringify(json, null, 2)}\n`);
  console.log(markdown);
  if (flags.json) console.log(JSON.stringify(json));
  console.error(`Wrote ${out}/results.md and ${out}/results.json`);
  return 0;
}

/**
 * One environment's benchmark: every variant compared, induction timed
 * again warm, then the throughput, scaling, input-size and honing
 * measures; `sample` records the memory peak between them.
 */
async function bench(
  setup: Setup,
  request: BenchRequest,
  sample: () => void,
): Promise<EnvResult> {
  const episodes = request.throughput;
  const { kit } = setup;
  console.error(`${kit.name}: inducing from ${setup.traces.length} traces, running every variant`);
  const c = await compareVariants({
    kit,
    envOptions: setup.envOptions,
    traces: setup.traces,
    tasks: setup.tasks,
    maxActions: setup.maxActions,
  });
  const variants: EnvResult["variants"] = {};
  for (const { variant, evaluation } of c.runs) {
    const r = evaluation.report;
    variants[variant] = {
      ...r,
      episodes_per_second: r.seconds > 0 ? r.tasks / r.seconds : 0,
      nodes_per_second: r.seconds > 0 ? r.node_steps / r.seconds : 0,
    };
  }
  sample();
  // The first induction of the process also pays for compiling its code:
  // timed again, as every later induction of a running process is (the
  // median of three runs: a run on this machine varies by about a third).
  const warm =
    [0, 1, 2].map(() => induceLibrary(setup.traces, kit, { envOptions: setup.envOptions }).seconds)
      .sort((a, b) => a - b)[1];
  const throughput = episodes > 0 ? await measureThroughput(setup, c.full, episodes) : undefined;
  sample();
  const scaling = await measureScaling(setup, warm);
  sample();
  const inputSize = request.inputSize > 0 ? measureInputSize(setup, request.inputSize) : undefined;
  sample();
  const gain = request.weak > 0
    ? await measureHoningGain(setup, { libraries: request.weak, train: request.honeTrain })
    : [];
  sample();
  return {
    env: kit.name,
    ...(gain.length > 0 ? { honing_gain: gain } : {}),
    ...(scaling ? { scaling } : {}),
    ...(inputSize ? { input_size: inputSize } : {}),
    ...(throughput ? { throughput } : {}),
    demonstrations: { traces: setup.traces.length, source: setup.source },
    tasks: { count: setup.tasks.length, what: setup.taskText },
    max_actions: setup.maxActions,
    induction: {
      full: {
        seconds: warm,
        first_seconds: c.full.seconds,
        skills: c.full.skills.length,
        templates: c.full.templates.length,
      },
      linear: { seconds: c.linear.seconds, skills: c.linear.skills.length },
    },
    honing: c.honing,
    variants,
  };
}

function depthList(text: string): number[] {
  const depths = text.split(",").map((d) => Number(d.trim()));
  if (depths.some((d) => !Number.isInteger(d) || d < 1 || d > 4)) {
    throw new UsageError(`--train-depths must list depths 1-4 such as "1,2", got "${text}"`);
  }
  return depths;
}

function positive(name: string, value: string | undefined, fallback: number): number {
  const n = intFlag(name, value, fallback, MAX_COUNT);
  if (n < 1) throw new UsageError(`--${name} must be at least 1, got "${value}"`);
  return n;
}

if (import.meta.main) await runMain("bench", main);
