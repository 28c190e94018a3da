/**
 * `deno task demo`: the whole job on built-in data. The expert demonstrates
 * easy tasks, skills and task templates are induced from the traces (and a
 * linear-script baseline from the same traces), and the variants are
 * evaluated side by side on harder, unseen tasks.
 *
 * @module
 */
import type { Skill } from "../dsl/graph/schema.ts";
import type { Trace } from "../dsl/trace.ts";
import { readTraces } from "../compiler/trace_io.ts";
import type { EnvironmentKit } from "../runtime/environment.ts";
import { environmentNames } from "../environments/registry.ts";
import { describeProgram } from "../compiler/task_program.ts";
import type { TaskTemplate } from "../runtime/store/task_template.ts";
import { intFlag, MAX_COUNT, parseFlags, runMain, UsageError } from "./_cli.ts";
import { builtinTraces, envHelp, kitFromFlag, SHARED_DATA, taskList } from "./_tasks.ts";
import { compareVariants, VARIANT_DOCS, VARIANTS } from "./_variants.ts";
import { byTypeTable, comparisonTable, plural } from "./_report_format.ts";

const HELP = `Usage: deno task demo [--env <env>] [--n <n>] [--seed <n>]

Runs the whole job on built-in data and prints the comparison table:

  1. demonstrations of easy tasks
       textcraft  the expert solves 20 depth-1 tasks of the built-in recipe
                  set (no other data needed)
       alfworld   the 24 demonstration transcripts (ReAct and Act, 2 per
                  task type) of
                  ../shared/data/alfworld/react_demos_2per_type.json
  2. skills and task templates are induced from those traces, and a
     linear-script baseline from the same traces
  3. each variant runs on unseen tasks
       textcraft  depth 2-4 tasks of the built-in recipe set (default 60)
       alfworld   tasks spread over the unseen split (default 30; rooms are
                  built from ../shared/data/alfworld)

Variants:
${VARIANTS.map((v) => `  ${v.padEnd(10)}${VARIANT_DOCS[v]}`).join("\n")}

Any other environment (a plugin) runs the same way, with the counts of its
kit's benchmark.demo.

Options:
${envHelp(16)}
                (default textcraft)
  --n <n>       number of evaluation tasks
  --seed <n>    first seed of generated evaluation tasks (default 1)
  -h, --help    show this help

Exit codes: 0 done (whatever the success rates), 1 an unexpected failure,
2 bad usage.`;

/** The demonstrations of the demo: the kit's transcripts in the data folder, or the expert's. */
async function demonstrations(kit: EnvironmentKit): Promise<{ traces: Trace[]; what: string }> {
  const b = kit.benchmark;
  if (b?.transcripts !== undefined) {
    const path = `${SHARED_DATA}/${b.transcripts}`;
    const traces = await readTraces(path, kit);
    return { traces, what: `Read ${traces.length} demonstrations from ${path}` };
  }
  const traces = await builtinTraces(kit, {
    ...(b?.demo?.demonstrations !== undefined ? { count: b.demo.demonstrations } : {}),
  });
  const steps = traces.reduce((a, t) => a + t.steps.length, 0);
  return {
    traces,
    what: `The expert solved ${traces.length} demonstration tasks in ${steps} actions`,
  };
}

/** The `demo` command on its arguments; resolves to its exit code (see `runCommand`). */
export async function main(args: string[]): Promise<number> {
  const flags = parseFlags(args, {
    env: { type: "string" },
    n: { type: "string" },
    seed: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  // By default the first built-in environment, which needs no data.
  const kit = await kitFromFlag(flags.env ?? environmentNames()[0]);
  const n = intFlag("n", flags.n, kit.benchmark?.demo?.tasks ?? 30, MAX_COUNT);
  if (n < 1) throw new UsageError(`--n must be at least 1, got "${n}"`);
  const tasks = taskList(kit, {
    n,
    ...(flags.seed !== undefined ? { seed: intFlag("seed", flags.seed, 1) } : {}),
  });

  let started = performance.now();
  const { traces, what } = await demonstrations(kit);
  console.log(`== 1. Demonstrations ==`);
  console.log(`${what} (${seconds(started)}).`);

  started = performance.now();
  const comparison = await compareVariants({ kit, traces, tasks });
  const { full, linear } = comparison;
  console.log(`\n== 2. Induction ==`);
  console.log(
    `${plural(full.skills.length, "skill")} and ${
      plural(full.templates.length, "task template")
    } (${full.seconds.toFixed(1)} s); the linear baseline: ${
      plural(linear.skills.length, "script")
    } (${linear.seconds.toFixed(1)} s).`,
  );
  for (const s of full.skills) console.log(`  ${describeSkill(s)}`);
  for (const t of full.templates) console.log(`  ${describeTemplate(t)}`);

  console.log(
    `\n== 3. Evaluation on ${tasks.length} ${
      kit.benchmark?.demo?.taskText ?? kit.benchmark?.taskText ?? "tasks of the unseen split"
    } ==`,
  );
  const reports = comparison.runs.map((r) => r.evaluation.report);
  console.log(comparisonTableWithLegend(reports));
  if (Object.keys(reports[0].by_type).length > 1) {
    console.log(`\nSuccess per task type:\n${byTypeTable(reports)}`);
  }
  const h = comparison.honing;
  console.log(
    `\nHoning changed the library ${
      h.graft + h.solidify + h.remove + h.narrow
    } times: ${h.graft} grafts, ${h.solidify} solidified, ${h.remove} removed, ${h.narrow} narrowed.`,
  );
  console.log(`Total ${seconds(started)}.`);
  return 0;
}

function comparisonTableWithLegend(reports: Parameters<typeof byTypeTable>[0]): string {
  const legend = [
    "success: episodes the environment ended with reward; avg steps: actions per episode;",
    "invalid: rejected actions / actions sent; steps/skill: actions per skill call;",
    "skill calls: per episode; LLM calls: none, every role is symbolic; seconds: wall time.",
  ];
  return `${comparisonTable(reports)}\n${legend.join("\n")}`;
}

function describeSkill(skill: Skill): string {
  const kinds = new Map<string, number>();
  for (const n of skill.nodes) kinds.set(n.kind, (kinds.get(n.kind) ?? 0) + 1);
  const params = skill.params.map((p) => `${p.name}: ${p.type}`).join(", ");
  const parts = ["loop", "check", "primitive", "data", "terminal"]
    .filter((k) => kinds.has(k))
    .map((k) => `${kinds.get(k)} ${k}`);
  return `skill ${skill.name}(${params}): ${parts.join(", ")}`;
}

function describeTemplate(t: TaskTemplate): string {
  if (t.program) return `task program ${t.type}: ${describeProgram(t.program)}`;
  const calls = t.steps.map((s) =>
    `${s.skill}(${s.args.map((a) => `${a.name} := ${a.expr ?? "?"}`).join(", ")})`
  );
  return `template ${t.type}: ${calls.join(", ")}`;
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

if (import.meta.main) await runMain("demo", main);
