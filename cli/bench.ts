/**
 * `deno task bench`: the demo's comparison on the full benchmark data,
 * plus induction time, episodes per second and interpreter node
 * evaluations per second; writes a markdown table and JSON.
 *
 * @module
 */
import type { Trace } from "../dsl/trace.ts";
import { readTraces } from "../compiler/trace_io.ts";
import { environmentKit, environmentNames } from "../environments/registry.ts";
import type { EnvironmentKit, TaskSpec } from "../runtime/environment.ts";
import { episodeBudgets } from "../runtime/eval/task_lists.ts";
import type { EvalReport } from "../runtime/eval/evaluate.ts";
import { intFlag, MAX_COUNT, parseFlags, runMain, UsageError } from "./_cli.ts";
import { generateExpertTraces } from "../runtime/eval/expert_traces.ts";
import { gardenKit } from "../examples/garden/kit.ts";
import { deployKit } from "../examples/deploy/kit.ts";
import { demonstrationTasks, envHelp, kitFromFlag, SHARED_DATA, taskList } from "./_tasks.ts";
import { measureHoningGain, type WeakHoning } from "./_bench_honing.ts";
import { MemoryPeak } from "./_memory_peak.ts";
import { runGenplanSuite } from "./_bench_genplan.ts";
import {
  type BuiltLibrary,
  byTypeTable,
  compareVariants,
  comparisonTable,
  induceLibrary,
  markdownTable,
  plural,
  runVariant,
  VARIANT_DOCS,
  VARIANTS,
  wrap,
} from "./_variants.ts";

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
${VARIANTS.map((v) => `  ${v.padEnd(7)}${VARIANT_DOCS[v]}`).join("\n")}

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

/** One environment's benchmark setup. */
interface Setup {
  kit: EnvironmentKit;
  envOptions: Record<string, unknown>;
  traces: Trace[];
  /** Where the demonstrations came from, in words. */
  source: string;
  tasks: TaskSpec[];
  /** What the tasks are, in words. */
  taskText: string;
  maxActions: number;
  /** The demonstration tasks when the expert made them (for the scaling run). */
  demonstrate?: (count?: number) => TaskSpec[];
}

/** The results of one environment. */
interface EnvResult {
  env: string;
  demonstrations: { traces: number; source: string };
  tasks: { count: number; what: string };
  max_actions: number;
  induction: {
    /**
     * `seconds`: induction run again once the process has induced (the JIT
     * warm, as in a long-running process; the median of three runs);
     * `first_seconds`: the first run.
     */
    full: { seconds: number; first_seconds: number; skills: number; templates: number };
    linear: { seconds: number; skills: number };
  };
  honing: Record<string, number>;
  variants: Record<string, EvalReport & { episodes_per_second: number; nodes_per_second: number }>;
  /** Induction from 4x the demonstrations (expert demonstrations only). */
  scaling?: { traces: number; seconds: number; ratio: number };
  /** Time against input size: one long trace, and (TextCraft) one large observation. */
  input_size?: InputSize;
  /** The full variant on the task list repeated to `--throughput` episodes. */
  throughput?: { episodes: number; seconds: number; success_rate: number };
  /** Weak libraries (one demonstration per task type) before and after honing. */
  honing_gain?: WeakHoning[];
}

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
      out: flags.out ?? "bench/genplan",
      command: `deno task bench ${args.join(" ")}`.trim(),
      log: (line) => console.error(line),
    });
    if (flags.json) console.log(JSON.stringify(rows, null, 2));
    return 0;
  }
  if (flags.domains !== undefined || flags.demos !== undefined) {
    throw new UsageError("--domains and --demos belong to --suite genplan");
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

/** What the flags ask of every environment's benchmark. */
interface BenchRequest {
  data: string;
  train?: number;
  trainDepths?: number[];
  n?: number;
  maxActions?: number;
  /** Episodes of the throughput run (0: none). */
  throughput: number;
  /** Steps of the long trace of the input-size run (0: none). */
  inputSize: number;
  /** Weak libraries honed (0: none). */
  weak: number;
  /** Training tasks each weak library is honed over. */
  honeTrain: number;
}

/**
 * An environment's benchmark, as its kit describes it: demonstrations
 * from transcripts in the data folder or by the expert (on data the kit
 * names, e.g. the full recipe set), tasks of the unseen split.
 */
async function benchSetup(kit: EnvironmentKit, request: BenchRequest): Promise<Setup> {
  const b = kit.benchmark ?? {};
  const envOptions: Record<string, unknown> = {};
  for (const [option, path] of Object.entries(b.dataOptions ?? {})) {
    envOptions[option] = `${request.data}/${path}`;
    await mustExist(`${request.data}/${path}`);
  }
  let traces: Trace[];
  let source: string;
  let demonstrate: Setup["demonstrate"];
  if (b.transcripts !== undefined && request.train === undefined && !request.trainDepths) {
    const path = `${request.data}/${b.transcripts}`;
    await mustExist(path);
    traces = await readTraces(path, kit);
    source = `${traces.length} transcripts of ${b.transcripts} only`;
  } else {
    const count = request.train ?? b.demonstrations;
    let what: string;
    const depths = request.trainDepths;
    if (depths) {
      demonstrate = (n?: number) =>
        taskList(kit, { split: "train", depths, ...(n !== undefined ? { n } : {}) });
      what = `depth-${depths.join(" and depth-")} tasks (seeds from 1, depths in turn)`;
    } else {
      demonstrate = (n?: number) => demonstrationTasks(kit, n);
      what = b.demonstrationText ?? "demonstration tasks";
    }
    const tasks = demonstrate(count);
    console.error(`${kit.name}: the expert demonstrates ${tasks.length} tasks...`);
    traces = await generateExpertTraces(kit, tasks, { envOptions });
    source = `expert traces of ${tasks.length} ${what}`;
  }
  const tasks = taskList(kit, {
    split: "unseen",
    ...(request.n ?? b.tasks) !== undefined ? { n: request.n ?? b.tasks } : {},
    ...b.taskSelectors,
  });
  return {
    kit,
    envOptions,
    traces,
    source,
    tasks,
    taskText: `${tasks.length} ${b.taskText ?? "tasks of the unseen split"}`,
    maxActions: request.maxActions ?? episodeBudgets(kit).maxActions,
    ...(demonstrate ? { demonstrate } : {}),
  };
}

/** The example domains of `examples/`, written against the public API only. */
const EXAMPLE_KITS: Record<string, EnvironmentKit> = { garden: gardenKit, deploy: deployKit };

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

/** The full variant on the task list repeated to `episodes` episodes. */
async function measureThroughput(
  setup: Setup,
  library: BuiltLibrary,
  episodes: number,
): Promise<EnvResult["throughput"]> {
  const { kit } = setup;
  console.error(`${kit.name}: ${episodes} episodes of the full variant`);
  const tasks = Array.from(
    { length: episodes },
    (_, i) => setup.tasks[i % setup.tasks.length],
  );
  const { report } = await runVariant({
    name: "full",
    kit,
    envOptions: setup.envOptions,
    tasks,
    library,
    maxActions: setup.maxActions,
  });
  return { episodes: tasks.length, seconds: report.seconds, success_rate: report.success_rate };
}

/**
 * Induction from 4x the expert's demonstrations, timed like the main one,
 * when the expert made them and the kit has that many demonstration tasks.
 */
async function measureScaling(setup: Setup, base: number): Promise<EnvResult["scaling"]> {
  const count = setup.traces.length * 4;
  const tasks = setup.demonstrate?.(count);
  if (!tasks || tasks.length < count) return undefined;
  console.error(`${setup.kit.name}: inducing from ${count} demonstrations (scaling)`);
  const traces = await generateExpertTraces(setup.kit, tasks, { envOptions: setup.envOptions });
  const seconds = induceLibrary(traces, setup.kit, { envOptions: setup.envOptions }).seconds;
  return { traces: count, seconds, ratio: base > 0 ? seconds / base : 0 };
}

/** Seconds for a small and a 10x larger input, and their ratio (10 when linear). */
interface SizeRun {
  sizes: [number, number];
  seconds: [number, number];
  ratio: number;
}
interface InputSize {
  /** Induction from one trace of n/10 and of n steps. */
  trace: SizeRun;
  /** TextCraft: grounding a first observation of n/20000 and n/2000 MB. */
  observation?: SizeRun;
}

/** Steps of the long trace by default (and 2,000 times the megabytes of the large observation). */
const INPUT_SIZE = 20_000;

/**
 * Time against input size. A long trace: the first demonstration with its
 * first step repeated (done again and again before the rest), induced
 * alone, at `steps` and a tenth of it. For TextCraft also a large first
 * observation of `steps / 2000` MB and a tenth of it: a listing of that
 * many distinct crafting commands, grounded.
 */
function measureInputSize(setup: Setup, steps: number): InputSize {
  const { kit } = setup;
  const base = setup.traces[0];
  const timeOf = (fn: () => void) => {
    const t0 = performance.now();
    fn();
    return (performance.now() - t0) / 1000;
  };
  const run = (sizes: readonly [number, number], fn: (size: number) => void): SizeRun => {
    const seconds = sizes.map((n) => timeOf(() => fn(n))) as [number, number];
    return { sizes: [...sizes], seconds, ratio: seconds[0] > 0 ? seconds[1] / seconds[0] : 0 };
  };
  const lengths = [Math.max(1, Math.round(steps / 10)), steps] as const;
  console.error(`${kit.name}: inducing from one trace of ${lengths.join(" and ")} steps`);
  const trace = run(lengths, (n) => {
    const pad = Array.from({ length: Math.max(0, n - base.steps.length) }, () => base.steps[0]);
    induceLibrary([{ ...base, steps: [...pad, ...base.steps] }], kit, {
      envOptions: setup.envOptions,
    });
  });
  if (kit.name !== "textcraft") return { trace };
  const megabytes = [steps / 20_000, steps / 2_000] as const;
  console.error(`${kit.name}: grounding observations of ${megabytes.join(" and ")} MB`);
  const observation = run(megabytes, (mb) => {
    const lines = [];
    for (let i = 0, bytes = 0; bytes < mb * 1e6; i++) {
      const line = `craft 1 item ${i} using 2 part ${i % 100}, 1 part ${(i + 7) % 100}`;
      lines.push(line);
      bytes += line.length + 1;
    }
    kit.grounder().initial(`Crafting commands:\n${lines.join("\n")}\n\nGoal: craft item 1.`, "");
  });
  return { trace, observation };
}

function renderMarkdown(
  command: string,
  date: string,
  results: readonly EnvResult[],
  memory: { mib: number },
): string {
  const lines = [
    "# Benchmark results",
    "",
    wrap(
      `Produced by \`${command}\` on ${date.slice(0, 10)} (Deno ${Deno.version.deno}). ` +
        "No LLM is used: every role is symbolic. Rates are over all episodes; steps are " +
        `environment actions. Peak resident memory of the run (sampled): ${
          Math.round(memory.mib)
        } MiB.`,
    ),
    "",
  ];
  const item = (text: string) => lines.push(wrap(`- ${text}`, 100, "  "));
  for (const r of results) {
    const reports = VARIANTS.flatMap((v) => r.variants[v] ? [r.variants[v]] : []);
    lines.push(`## ${r.env}`, "");
    item(`Demonstrations: ${r.demonstrations.source}.`);
    item(
      `Tasks: ${r.tasks.what}; at most ${r.max_actions} actions and as many skill calls per episode.`,
    );
    item(
      `Induction: ${plural(r.induction.full.skills, "skill")} and ${
        plural(r.induction.full.templates, "task template")
      } in ${
        r.induction.full.seconds.toFixed(2)
      } s (the first run of the process, compiling its code: ${
        r.induction.full.first_seconds.toFixed(2)
      } s); linear scripts in ${r.induction.linear.seconds.toFixed(2)} s.`,
    );
    if (r.scaling) {
      item(
        `Scaling: induction from ${r.scaling.traces} demonstrations (4x) in ${
          r.scaling.seconds.toFixed(2)
        } s, ${r.scaling.ratio.toFixed(2)}x the time of ${r.demonstrations.traces}.`,
      );
    }
    const size = r.input_size;
    if (size) {
      const linear = (x: SizeRun, unit: string) =>
        `${x.seconds[1].toFixed(2)} s, ${x.ratio.toFixed(1)}x the time of ${
          x.sizes[0].toLocaleString("en-US")
        }${unit} (${x.seconds[0].toFixed(2)} s; 10x is linear)`;
      const obs = size.observation;
      item(
        `Input size: one trace of ${
          size.trace.sizes[1].toLocaleString("en-US")
        } steps (the first demonstration's first step repeated) induces in ${
          linear(size.trace, " steps")
        }${
          obs
            ? `; a ${obs.sizes[1]} MB first observation (distinct crafting commands) grounds in ${
              linear(obs, " MB")
            }`
            : ""
        }.`,
      );
    }
    const t = r.throughput;
    if (t) {
      item(
        `Throughput: ${t.episodes} episodes of the full variant (the tasks repeated) in ${
          t.seconds.toFixed(2)
        } s, ${(t.episodes / t.seconds).toFixed(0)} episodes/s (success ${
          (100 * t.success_rate).toFixed(1)
        }%).`,
      );
    }
    const h = r.honing;
    item(
      `Honing: ${h.graft} grafts, ${h.solidify} solidified, ${h.remove} removed, ${h.narrow} narrowed.`,
    );
    for (const g of r.honing_gain ?? []) {
      const c = g.changes;
      item(
        `Honing from a weak library (demonstration ${g.demonstration + 1} of each task type, ${
          plural(g.traces, "trace")
        }) over ${g.train_tasks} training tasks: unseen success ${
          (100 * g.before).toFixed(1)
        }% before, ${(100 * g.after).toFixed(1)}% after (${g.after >= g.before ? "+" : ""}${
          (100 * (g.after - g.before)).toFixed(1)
        } points; ${
          (100 * g.during).toFixed(1)
        }% while honing); ${c.graft} grafts, ${c.solidify} solidified, ${c.remove} removed, ${c.narrow} narrowed.`,
      );
    }
    const { expert, full } = r.variants;
    if (expert.success_rate > 0 && expert.avg_steps > 0) {
      item(
        `Generalisation: the induced library (full) reaches ${
          (100 * full.success_rate / expert.success_rate).toFixed(1)
        }% of the expert's success with ${
          (full.avg_steps / expert.avg_steps).toFixed(2)
        }x its actions and ${(100 * full.invalid_action_rate).toFixed(1)}% rejected actions.`,
      );
    }
    const known = r.variants.knowledge;
    if (known) {
      item(
        `Background knowledge: ${(100 * full.success_rate).toFixed(1)}% without it, ${
          (100 * known.success_rate).toFixed(1)
        }% when the agent consults it where the facts offer no way (${
          (100 * known.invalid_action_rate).toFixed(1)
        }% rejected actions, ${known.avg_steps.toFixed(1)} actions per episode against the ` +
          `expert's ${expert.avg_steps.toFixed(1)}).`,
      );
    }
    lines.push("");
    lines.push(comparisonTable(reports), "");
    lines.push(
      markdownTable(
        [
          ["variant", "episodes/s", "node evaluations", "node evaluations/s"],
          ...reports.map((x) => [
            x.variant,
            x.episodes_per_second.toFixed(1),
            String(x.node_steps),
            x.node_steps > 0 ? Math.round(x.nodes_per_second).toString() : "-",
          ]),
        ],
        [false, true, true, true],
      ),
      "",
    );
    if (Object.keys(r.variants.full.by_type).length > 1) {
      lines.push("Success per task type:", "", byTypeTable(reports), "");
    }
    const errors = reports.flatMap((x) =>
      x.errors.map((e) => `${x.variant} ${e.task}: ${e.error}`)
    );
    if (errors.length > 0) {
      lines.push("Episodes that failed with an error:", "");
      for (const e of errors) item(e);
      lines.push("");
    }
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

async function mustExist(path: string): Promise<void> {
  try {
    await Deno.stat(path);
  } catch {
    throw new UsageError(`Benchmark data not found: "${path}" (set --data <dir>)`);
  }
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
