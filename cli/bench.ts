/**
 * `deno task bench`: the demo's comparison on the full benchmark data,
 * plus induction time, episodes per second and interpreter node
 * evaluations per second; writes a markdown table and JSON.
 *
 * @module
 */
import type { Trace } from "../dsl/trace.ts";
import { readTraces } from "../compiler/trace_io.ts";
import { environmentKit } from "../environments/registry.ts";
import type { EnvironmentKit, TaskSpec } from "../runtime/environment.ts";
import type { EvalReport } from "../runtime/evaluate.ts";
import { intFlag, parseFlags, runMain, UsageError } from "./_cli.ts";
import { generateExpertTraces } from "../runtime/expert_traces.ts";
import { gardenKit } from "../examples/garden/kit.ts";
import { deployKit } from "../examples/deploy/kit.ts";
import {
  ALFWORLD_DEMOS,
  builtinTraces,
  SHARED_DATA,
  taskList,
  TEXTCRAFT_RECIPES,
} from "./_tasks.ts";
import {
  byTypeTable,
  compareVariants,
  comparisonTable,
  markdownTable,
  plural,
  VARIANT_DOCS,
  VARIANTS,
  wrap,
} from "./_variants.ts";

const HELP = `Usage: deno task bench [--env textcraft|alfworld|garden|deploy|all] [options]

Runs every variant on the full benchmark data and writes the results:

  textcraft  the full recipe set (<data>/${TEXTCRAFT_RECIPES}); library induced
             from expert traces of depth-1 tasks; 200 tasks of depth 2-4
  alfworld   library induced from <data>/${ALFWORLD_DEMOS} only;
             the 134 tasks of the unseen split
  garden     the example domains of examples/ (unlike the two above; no
  deploy     benchmark data needed): library induced from 4 expert
             demonstrations per task type of 1-3 goal objects; 60 unseen
             tasks of 4-8 goal objects

Variants:
${VARIANTS.map((v) => `  ${v.padEnd(7)}${VARIANT_DOCS[v]}`).join("\n")}

Beyond the evaluation metrics it measures induction time, episodes per
second and interpreter node evaluations per second (wall time, environment
included).

Options:
  --env <name>           textcraft, alfworld, garden, deploy or all (default all)
  --data <dir>           benchmark data folder (default ../shared/data)
  --out <dir>            where results.md and results.json go (default bench)
  --train <n>            TextCraft demonstrations (default 50)
  --train-depths <list>  depths of the TextCraft demonstrations, e.g. 2 or 1,2
                         (taken in turn; default 1)
  --n <n>                TextCraft evaluation tasks (default 200)
  --max-actions <n>      actions per episode (default: TextCraft 100,
                         ALFWorld 50, ReAct's limit); skill calls may be as
                         many as actions
  --json                 also print the JSON to stdout
  -h, --help             show this help`;

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
}

/** The results of one environment. */
interface EnvResult {
  env: string;
  demonstrations: { traces: number; source: string };
  tasks: { count: number; what: string };
  max_actions: number;
  induction: {
    full: { seconds: number; skills: number; templates: number };
    linear: { seconds: number; skills: number };
  };
  honing: Record<string, number>;
  variants: Record<string, EvalReport & { episodes_per_second: number; nodes_per_second: number }>;
}

async function main(): Promise<number> {
  const flags = parseFlags(Deno.args, {
    env: { type: "string" },
    data: { type: "string" },
    out: { type: "string" },
    train: { type: "string" },
    "train-depths": { type: "string" },
    n: { type: "string" },
    "max-actions": { type: "string" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const which = flags.env ?? "all";
  const known = ["textcraft", "alfworld", ...Object.keys(EXAMPLE_KITS)];
  if (![...known, "all"].includes(which)) {
    throw new UsageError(`--env must be ${known.join(", ")} or all, got "${which}"`);
  }
  const data = (flags.data ?? SHARED_DATA).replace(/\/+$/, "");
  const train = positive("train", flags.train, 50);
  const trainDepths = depthList(flags["train-depths"] ?? "1");
  const n = positive("n", flags.n, 200);
  const maxActions = flags["max-actions"] === undefined
    ? undefined
    : positive("max-actions", flags["max-actions"], 100);
  const out = flags.out ?? "bench";

  const results: EnvResult[] = [];
  if (which === "all" || which === "textcraft") {
    results.push(
      await bench(await textcraftSetup(data, train, trainDepths, n, maxActions ?? 100)),
    );
  }
  if (which === "all" || which === "alfworld") {
    results.push(await bench(await alfworldSetup(data, maxActions ?? 50)));
  }
  for (const [name, kit] of Object.entries(EXAMPLE_KITS)) {
    if (which === "all" || which === name) {
      results.push(await bench(await exampleSetup(kit, maxActions ?? 100)));
    }
  }
  const json = {
    date: new Date().toISOString(),
    deno: Deno.version.deno,
    command: `deno task bench ${Deno.args.join(" ")}`.trim(),
    environments: results,
  };
  const markdown = renderMarkdown(json.command, json.date, results);
  await Deno.mkdir(out, { recursive: true });
  await Deno.writeTextFile(`${out}/results.md`, markdown);
  await Deno.writeTextFile(`${out}/results.json`, `${JSON.stringify(json, null, 2)}\n`);
  console.log(markdown);
  if (flags.json) console.log(JSON.stringify(json));
  console.error(`Wrote ${out}/results.md and ${out}/results.json`);
  return 0;
}

async function textcraftSetup(
  data: string,
  train: number,
  depths: readonly number[],
  n: number,
  maxActions: number,
): Promise<Setup> {
  const kit = environmentKit("textcraft");
  const recipes = `${data}/${TEXTCRAFT_RECIPES}`;
  await mustExist(recipes);
  const envOptions = { recipes };
  const what = `depth-${depths.join(" and depth-")}`;
  console.error(`textcraft: the expert demonstrates ${train} ${what} tasks...`);
  const traces = depths.length === 1 && depths[0] === 1
    ? await builtinTraces(kit, { count: train, envOptions })
    : await generateExpertTraces(
      kit,
      taskList(kit, { split: "train", depths: [...depths], n: train }),
      {
        envOptions,
      },
    );
  return {
    kit,
    envOptions,
    traces,
    source:
      `expert traces of ${train} ${what} tasks (seeds from 1, depths in turn), full recipe set`,
    tasks: taskList(kit, { n }),
    taskText: `${n} tasks of depth 2-4 (depths in turn, seeds from 1), full recipe set`,
    maxActions,
  };
}

async function alfworldSetup(data: string, maxActions: number): Promise<Setup> {
  const kit = environmentKit("alfworld");
  const path = `${data}/${ALFWORLD_DEMOS}`;
  await mustExist(path);
  const traces = await readTraces(path, kit);
  return {
    kit,
    envOptions: {},
    traces,
    source: `${traces.length} transcripts of ${ALFWORLD_DEMOS} only`,
    tasks: taskList(kit, { split: "unseen" }),
    taskText: "the unseen split (ALFWorld's 134-task evaluation mix)",
    maxActions,
  };
}

/** The example domains of `examples/`, written against the public API only. */
const EXAMPLE_KITS: Record<string, EnvironmentKit> = { garden: gardenKit, deploy: deployKit };

/**
 * An example domain: the expert demonstrates 4 train tasks per type (1-3
 * goal objects); the agent is measured on 60 unseen tasks (4-8 goal objects).
 */
async function exampleSetup(kit: EnvironmentKit, maxActions: number): Promise<Setup> {
  const train = kit.tasks!({ split: "train", count: 8 });
  console.error(`${kit.name}: the expert demonstrates ${train.length} train tasks...`);
  const traces = await generateExpertTraces(kit, train, {});
  return {
    kit,
    envOptions: {},
    traces,
    source: `expert traces of ${train.length} train tasks (4 per task type, 1-3 goal objects)`,
    tasks: kit.tasks!({ split: "unseen", count: 60 }),
    taskText: "60 unseen tasks of 4-8 goal objects (both task types)",
    maxActions,
  };
}

async function bench(setup: Setup): Promise<EnvResult> {
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
  return {
    env: kit.name,
    demonstrations: { traces: setup.traces.length, source: setup.source },
    tasks: { count: setup.tasks.length, what: setup.taskText },
    max_actions: setup.maxActions,
    induction: {
      full: {
        seconds: c.full.seconds,
        skills: c.full.skills.length,
        templates: c.full.templates.length,
      },
      linear: { seconds: c.linear.seconds, skills: c.linear.skills.length },
    },
    honing: c.honing,
    variants,
  };
}

function renderMarkdown(command: string, date: string, results: readonly EnvResult[]): string {
  const lines = [
    "# Benchmark results",
    "",
    wrap(
      `Produced by \`${command}\` on ${date.slice(0, 10)} (Deno ${Deno.version.deno}). ` +
        "No LLM is used: every role is symbolic. Rates are over all episodes; steps are " +
        "environment actions.",
    ),
    "",
  ];
  const item = (text: string) => lines.push(wrap(`- ${text}`, 100, "  "));
  for (const r of results) {
    const reports = VARIANTS.map((v) => r.variants[v]);
    lines.push(`## ${r.env}`, "");
    item(`Demonstrations: ${r.demonstrations.source}.`);
    item(
      `Tasks: ${r.tasks.what}; at most ${r.max_actions} actions and as many skill calls per episode.`,
    );
    item(
      `Induction: ${plural(r.induction.full.skills, "skill")} and ${
        plural(r.induction.full.templates, "task template")
      } in ${r.induction.full.seconds.toFixed(2)} s; linear scripts in ${
        r.induction.linear.seconds.toFixed(2)
      } s.`,
    );
    const h = r.honing;
    item(
      `Honing: ${h.graft} grafts, ${h.solidify} solidified, ${h.remove} removed, ${h.narrow} narrowed.`,
    );
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
  const n = intFlag(name, value, fallback);
  if (n < 1) throw new UsageError(`--${name} must be at least 1, got "${value}"`);
  return n;
}

if (import.meta.main) await runMain("bench", main);
