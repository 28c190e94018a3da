/**
 * `deno task induce`: compiles traces into a skill library.
 *
 * @module
 */
import { environmentKit, environmentNames } from "../environments/registry.ts";
import type { EnvironmentKit, TaskSpec } from "../runtime/environment.ts";
import type { Trace } from "../dsl/trace.ts";
import { readTraces } from "../compiler/trace_io.ts";
import { induceSkills, type Induction } from "../compiler/induce.ts";
import { writeLibrary } from "../compiler/write_library.ts";
import { learnTemplates } from "../compiler/templates.ts";
import { describeProgram } from "../compiler/task_program.ts";
import { learnActionModelFromTraces } from "../compiler/action_model_from_traces.ts";
import { saveActionModel } from "../runtime/library.ts";
import type { TaskTemplate } from "../runtime/task_template.ts";
import { generateExpertTraces } from "../runtime/expert_traces.ts";
import { intFlag, parseFlags, runMain, UsageError } from "./_cli.ts";

const HELP = `Usage: deno task induce --env <name> --traces <file|dir|builtin> --out <dir> [options]

Compiles recorded traces into a library of skills: grounds every step into
facts, cuts traces into subgoal segments at landmarks, induces one skill per
group of segments (lifting, loop folding, branching with invented predicates,
crossover) checked for consistency against the segments, learns a task
template per task type (the skills its demonstrations used, in order, with
each argument as an expression over the initial facts), and writes the
library (one JSON file and one Mermaid diagram per skill, an index with the
templates, a history and a generated Deno package).

Traces:
  <file>     JSONL traces (one per line), a JSON array of traces, or the
             environment's transcript format (e.g. ALFWorld react_demos_*.json)
  <dir>      every .jsonl/.json/.txt file in the directory, by name
  builtin    expert demonstrations generated in the simulator: TextCraft
             depth-1 tasks, ALFWorld train tasks (2 per task type)

Options:
  --env <name>        environment (${environmentNames().join(", ")})
  --traces <source>   where the traces come from (see above)
  --out <dir>         library directory (a new version is added if it exists)
  --count <n>         builtin: number of TextCraft tasks (default 10) or
                      ALFWorld tasks per type (default 2)
  --recipes <dir>     builtin TextCraft: recipe directory (default: built-in set)
  --seed <n>          builtin: task seed (default 1)
  --lambda <x>        weight of program size in the MDL score (default 0.05)
  --no-crossover      do not share guarded steps between skills
  --linear            induce linear parameterized scripts (no loops, no
                      branches): the baseline without control flow
  --overwrite         replace an existing library instead of adding a version
  --explain           print every operator application and why it was accepted
  --json              print the summary as one JSON object
  -h, --help          show this help

Example:
  deno task induce --env alfworld \\
    --traces ../shared/data/alfworld/react_demos_2per_type.json --out out/alfworld`;

async function main(): Promise<number> {
  const flags = parseFlags(Deno.args, {
    env: { type: "string" },
    traces: { type: "string" },
    out: { type: "string" },
    count: { type: "string" },
    recipes: { type: "string" },
    seed: { type: "string" },
    lambda: { type: "string" },
    "no-crossover": { type: "boolean" },
    linear: { type: "boolean" },
    overwrite: { type: "boolean" },
    explain: { type: "boolean" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  if (!flags.env) throw new UsageError("Missing --env");
  if (!flags.traces) throw new UsageError("Missing --traces <file|dir|builtin>");
  if (!flags.out) throw new UsageError("Missing --out <dir>");
  let kit: EnvironmentKit;
  try {
    kit = environmentKit(flags.env);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const lambda = flags.lambda === undefined ? 0.05 : Number(flags.lambda);
  if (!Number.isFinite(lambda) || lambda < 0) {
    throw new UsageError(`--lambda must be a non-negative number, got "${flags.lambda}"`);
  }
  const progress = (line: string) => {
    if (!flags.json) console.error(line);
  };
  const started = performance.now();

  progress(`Reading traces from ${flags.traces}...`);
  const traces = flags.traces === "builtin"
    ? await builtinTraces(kit, flags, progress)
    : await readTraces(flags.traces, kit);
  if (traces.length === 0) throw new UsageError(`No traces in ${flags.traces}`);

  progress(`Inducing skills from ${traces.length} traces...`);
  const result = induceSkills(traces, kit, {
    lambda,
    crossover: !flags["no-crossover"],
    linear: flags.linear,
    explain: flags.explain ? (line) => console.log(`  ${line}`) : undefined,
    onGroup: (i, n, name) => progress(`  [${i + 1}/${n}] ${name}`),
  });
  const templates = learnTemplates(traces, kit, {
    skills: result.skills.map((s) => s.skill.name),
    explain: flags.explain ? (line) => console.log(`  template ${line}`) : undefined,
  });
  for (const u of result.unknown.slice(0, 5)) {
    console.error(
      `warning: ${u.source} step ${u.step + 1}: grounder did not understand "${u.text}"`,
    );
  }
  const { version } = await writeLibrary(
    flags.out,
    result.skills.map((s) => s.skill),
    kit.vocabulary,
    {
      overwrite: flags.overwrite,
      detail: `induced from ${traces.length} traces (${flags.traces})`,
      templates,
    },
  );
  // Preconditions and effects of the actions, learned from the same steps.
  await saveActionModel(flags.out, learnActionModelFromTraces(traces, kit));
  const seconds = (performance.now() - started) / 1000;
  if (flags.json) console.log(JSON.stringify(summaryJson(result, templates, seconds)));
  else printSummary(result, templates, seconds, flags.out, version);
  return 0;
}

async function builtinTraces(
  kit: EnvironmentKit,
  flags: { count?: string; recipes?: string; seed?: string },
  progress: (line: string) => void,
): Promise<Trace[]> {
  if (!kit.expert || !kit.tasks) {
    throw new UsageError(`Environment "${kit.name}" has no expert to generate builtin traces`);
  }
  const seed = intFlag("seed", flags.seed, 1);
  let tasks: TaskSpec[];
  let envOptions: Record<string, unknown> | undefined;
  if (kit.name === "textcraft") {
    tasks = kit.tasks({ depths: [1], count: intFlag("count", flags.count, 10), seed });
    if (flags.recipes) envOptions = { recipes: flags.recipes };
  } else if (kit.name === "alfworld") {
    tasks = kit.tasks({ split: "train", perType: intFlag("count", flags.count, 2) });
  } else {
    tasks = kit.tasks({ count: intFlag("count", flags.count, 10), seed });
  }
  return await generateExpertTraces(kit, tasks, {
    envOptions,
    onProgress: (done, total) => {
      if (done === total || done % 10 === 0) progress(`  generated ${done}/${total} expert traces`);
    },
  });
}

function summaryJson(result: Induction, templates: TaskTemplate[], seconds: number) {
  return {
    skills: result.skills.map((s) => ({
      name: s.skill.name,
      params: s.skill.params.map((p) => ({ name: p.name, type: p.type })),
      nodes: s.skill.nodes.length,
      segments: s.segments,
      covered: s.covered,
      region: s.region,
      states: s.states,
      size: s.size,
    })),
    traces: result.traces,
    templates: templates.length,
    seconds: Math.round(seconds * 1000) / 1000,
  };
}

function printSummary(
  result: Induction,
  templates: TaskTemplate[],
  seconds: number,
  out: string,
  version: number,
): void {
  console.log(
    `Induced ${result.skills.length} skills from ${result.traces} traces (${result.segments} segments) in ${
      seconds.toFixed(1)
    } s`,
  );
  const rows = [["skill", "params", "nodes", "segments", "covered", "region"]];
  for (const s of result.skills) {
    rows.push([
      s.skill.name,
      s.skill.params.map((p) => `${p.name}: ${p.type}`).join(", ") || "-",
      String(s.skill.nodes.length),
      String(s.segments),
      String(s.covered),
      `${s.region}/${s.states}`,
    ]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) {
    console.log(r.map((cell, c) => cell.padEnd(widths[c])).join("  ").trimEnd());
  }
  for (const s of result.skills) {
    for (const u of s.uncovered) {
      console.log(`  ${s.skill.name} does not reproduce ${u.source}: ${u.reason}`);
    }
  }
  console.log(`${templates.length} task templates:`);
  for (const t of templates) {
    if (t.program) {
      console.log(`  ${t.type}: ${describeProgram(t.program)} (${t.traces} demonstrations)`);
      continue;
    }
    const calls = t.steps.map((s) => s.skill).join(", ");
    const alt = t.alternatives.length > 0 ? `, ${t.alternatives.length} alternatives` : "";
    console.log(`  ${t.type}: ${calls} (${t.support} of ${t.traces} demonstrations${alt})`);
  }
  console.log(`Library written to ${out} (version ${version}); package in ${out}/package`);
}

if (import.meta.main) await runMain("induce", main);
