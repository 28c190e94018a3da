/**
 * `deno task induce`: compiles traces into a skill library.
 *
 * @module
 */
import { type EnvironmentKit, withEnvOptions } from "../runtime/environment.ts";
import type { Trace } from "../dsl/trace.ts";
import { readTraces } from "../compiler/trace_io.ts";
import type { Induction } from "../compiler/induce.ts";
import { compileTraces, writeCompiledLibrary } from "../compiler/compile.ts";
import {
  describeExploration,
  type Exploration,
  exploreUnusedActions,
} from "../compiler/explore_actions.ts";
import { describeProgram } from "../compiler/task_program.ts";
import type { TaskTemplate } from "../runtime/store/task_template.ts";
import { localKit } from "../environments/remote/kit.ts";
import { intFlag, MAX_COUNT, parseFlags, runMain, UsageError } from "./_cli.ts";
import type { LlmClient } from "../llm/client.ts";
import {
  describeLlmUse,
  groundedForInduction,
  LLM_FLAGS,
  LLM_HELP,
  llmClientFrom,
  llmRoles,
  requireGrounding,
} from "./_llm.ts";
import { hasGrounderCode } from "../environments/remote/vocabulary_kit.ts";
import { synthesizeWithLlm } from "../llm/synthesizer.ts";
import { proposeLandmarks } from "../llm/subgoals.ts";
import type { LandmarkDecl } from "../dsl/vocabulary.ts";
import { builtinTraces, envHelp, kitFromFlag, parseEnvOptions, VOCABULARY_HELP } from "./_tasks.ts";

const HELP = `Usage: deno task induce --env <env> --traces <file|dir|builtin> --out <dir> [options]

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
  builtin    the expert's demonstrations on the environment's demonstration
             tasks, generated in-process (e.g. TextCraft depth-1 tasks,
             ALFWorld train tasks, 2 per task type, a PDDL domain's smallest
             problems; one the expert finds no plan for is skipped, the
             next taking its place)

Options:
${envHelp(22)}
  --traces <source>   where the traces come from (see above)
  --out <dir>         library directory (a new version is added if it exists),
                      or kv:<file> / kv:<URL> for a Deno KV library
  --count <n>         builtin: how many demonstrations (the environment's
                      unit, e.g. ALFWorld tasks per type; default: its own;
                      TextCraft 20 depth-1 tasks: with 10, on the built-in
                      recipe set, none crafts from several kinds of
                      ingredient and the skill misses its loop over them)
  --env-options <json>  options of the environment the traces come from, e.g.
                      '{"recipes": "<dir>"}': the expert runs in it (builtin),
                      and the grounder reads its data (TextCraft's families)
  --recipes <dir>     TextCraft: the same as --env-options
                      '{"recipes": "<dir>"}' (kept for old scripts)
${VOCABULARY_HELP}
${LLM_HELP}
  --llm-roles <list>  what the model does (default: subgoals and synthesizer,
                      and grounder for an environment without grounder code):
                      grounder     reads each observation of the traces into
                                   facts (checked against the vocabulary;
                                   asked again once), instead of the
                                   environment's grounder
                      subgoals     for a vocabulary without landmarks, which
                                   fact changes end a subgoal (checked
                                   against the vocabulary and the traces;
                                   else derived as without it)
                      synthesizer  a skill for every group the induced skill
                                   does not fully reproduce; it replaces the
                                   skill only if it validates and reproduces
                                   more segments
  --lambda <x>        weight of program size in the MDL score (default 0.05)
  --no-crossover      do not share guarded steps between skills
  --linear            induce linear parameterized scripts (no loops, no
                      branches): the baseline without control flow
  --policy            also learn a decision-list policy per task type (rules
                      "in a state like this, take this action", consistent
                      with every demonstrated decision, then a few that
                      decide some otherwise for the decisions left) and
                      make it the task's program
  --explore <n>       builtin: before compiling, try each action no
                      demonstration used in the demonstrations' own problems,
                      up to n accepted uses each (0: none, the default); the
                      action model learns what they do, so look-ahead can
                      use them where the skills are stuck (a block unstacked
                      when every demonstration's blocks stood on the table)
  --overwrite         replace an existing library instead of adding a version
  --explain           print every operator application and why it was accepted
  --json              print the summary as one JSON object
  -h, --help          show this help

Exit codes: 0 library written, 1 an unexpected failure, 2 bad usage or input
(the flag, file, line or field is named; nothing is written).

Example:
  deno task induce --env alfworld \\
    --traces ../shared/data/alfworld/react_demos_2per_type.json --out out/alfworld`;

/** The `induce` command on its arguments; resolves to its exit code (see `runCommand`). */
export async function main(args: string[]): Promise<number> {
  const flags = parseFlags(args, {
    env: { type: "string" },
    traces: { type: "string" },
    out: { type: "string" },
    count: { type: "string" },
    "env-options": { type: "string" },
    recipes: { type: "string" },
    lambda: { type: "string" },
    "no-crossover": { type: "boolean" },
    linear: { type: "boolean" },
    policy: { type: "boolean" },
    explore: { type: "string" },
    overwrite: { type: "boolean" },
    explain: { type: "boolean" },
    json: { type: "boolean" },
    vocabulary: { type: "string" },
    ...LLM_FLAGS,
    help: { type: "boolean", short: "h" },
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  if (!flags.env) throw new UsageError("Missing --env <env>");
  if (!flags.traces) throw new UsageError("Missing --traces <file|dir|builtin>");
  if (!flags.out) throw new UsageError("Missing --out <dir>");
  // Refuse now what writing would refuse after the whole induction.
  const outInfo = flags.out.startsWith("kv:")
    ? undefined
    : await Deno.stat(flags.out).catch(() => undefined);
  if (outInfo && !outInfo.isDirectory) {
    throw new UsageError(`--out must be a directory, but "${flags.out}" is a file`);
  }
  const kit = await kitFromFlag(flags.env, flags.vocabulary);
  const lambda = flags.lambda === undefined ? 0.05 : Number(flags.lambda);
  if (!Number.isFinite(lambda) || lambda < 0) {
    throw new UsageError(`--lambda must be a non-negative number, got "${flags.lambda}"`);
  }
  const progress = (line: string) => {
    if (!flags.json) console.error(line);
  };
  const explore = flags.explore === undefined ? 0 : Number(flags.explore);
  if (!Number.isInteger(explore) || explore < 0) {
    throw new UsageError(`--explore must be a whole number >= 0, got "${flags.explore}"`);
  }
  if (explore > 0 && flags.traces !== "builtin") {
    throw new UsageError(
      "--explore needs --traces builtin: exploring resets the demonstrations' own problems",
    );
  }
  const started = performance.now();

  progress(`Reading traces from ${flags.traces}...`);
  const traces = flags.traces === "builtin"
    ? await builtin(kit, flags, progress)
    : await readTraces(flags.traces, localKit(kit));
  if (traces.length === 0) throw new UsageError(`No traces in ${flags.traces}`);

  const llm = await llmClientFrom(flags);
  // The model grounds the traces by default only where nothing else can.
  const roles = llmRoles(
    flags["llm-roles"],
    INDUCE_ROLES,
    hasGrounderCode(localKit(kit)) ? ["subgoals", "synthesizer"] : INDUCE_ROLES,
  );
  requireGrounding(kit, llm, roles);
  let llmSummary: LlmSummary | undefined;
  // The environment's options also tell its grounder its data (TextCraft's recipe set).
  const envOptions = {
    ...parseEnvOptions(flags["env-options"], kit),
    ...(flags.recipes ? { recipes: flags.recipes } : {}),
  };
  let inducing = await groundedForInduction(
    withEnvOptions(localKit(kit), envOptions),
    llm,
    roles,
    traces,
    progress,
  );
  if (llm && roles.has("subgoals") && (inducing.vocabulary.landmarks ?? []).length === 0) {
    progress(`Asking ${llm.model} (subgoals) which fact changes end a subgoal...`);
    const proposal = await proposeLandmarks(llm, traces, inducing);
    llmSummary = {
      ...emptyLlmSummary(llm),
      ...(proposal.landmarks ? { landmarks: proposal.landmarks } : {}),
    };
    if (proposal.landmarks) {
      inducing = {
        ...inducing,
        vocabulary: { ...inducing.vocabulary, landmarks: proposal.landmarks },
      };
      progress(`  landmarks: ${proposal.landmarks.map(describeLandmark).join("; ")}`);
    } else {
      progress(`  no proposal accepted (${proposal.error}); landmarks derived from the traces`);
    }
  }
  let explored: Exploration | undefined;
  if (explore > 0) {
    progress("Exploring the actions no demonstration used...");
    explored = await exploreUnusedActions(localKit(kit), traces, { envOptions, uses: explore });
    progress(`  ${describeExploration(explored)}`);
  }
  progress(`Inducing skills from ${traces.length} traces...`);
  let compiled = compileTraces(traces, inducing, {
    ...(explored ? { explored: explored.traces } : {}),
    lambda,
    crossover: !flags["no-crossover"],
    linear: flags.linear,
    policy: flags.policy === true,
    explain: flags.explain ? (line) => console.log(`  ${line}`) : undefined,
    explainTemplates: flags.explain ? (line) => console.log(`  template ${line}`) : undefined,
    onGroup: (i, n, name) => progress(`  [${i + 1}/${n}] ${name}`),
  });
  if (llm && roles.has("synthesizer")) {
    progress(`Asking ${llm.model} (synthesizer) for skills that reproduce more segments...`);
    const better = await synthesizeWithLlm(traces, inducing, compiled, llm, {
      lambda,
      onOutcome: (o) =>
        progress(
          o.accepted
            ? `  ${o.skill}: proposal accepted, reproduces ${o.accepted.covered} of ${o.before.segments} segments (induced: ${o.before.covered})`
            : `  ${o.skill}: no proposal accepted (${o.error ?? o.rejected.at(-1) ?? "none"})`,
        ),
    });
    compiled = better.compiled;
    const usage = llm.totalUsage();
    llmSummary = {
      ...(llmSummary ?? emptyLlmSummary(llm)),
      calls: usage.calls,
      cached: usage.cached,
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      synthesizer: better.outcomes.map((o) => ({
        skill: o.skill,
        accepted: o.accepted !== undefined,
        before: o.before.covered,
        ...(o.accepted ? { after: o.accepted.covered } : {}),
        segments: o.before.segments,
      })),
    };
    progress(`  ${
      describeLlmUse(usage.calls, {
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
        cached: usage.cached,
        rejected: llm.episodeRejections(),
      })
    }`);
  }
  const result = compiled.induction;
  const templates = compiled.templates;
  for (const u of result.unknown.slice(0, 5)) {
    console.error(
      `warning: ${u.source} step ${u.step + 1}: grounder did not understand "${u.text}"`,
    );
  }
  const { version } = await writeCompiledLibrary(flags.out, compiled, kit, {
    ...(flags.overwrite ? { overwrite: true } : {}),
    detail: `induced from ${traces.length} traces (${flags.traces})`,
  });
  const seconds = (performance.now() - started) / 1000;
  if (flags.json) console.log(JSON.stringify(summaryJson(result, templates, seconds, llmSummary)));
  else printSummary(result, templates, seconds, flags.out, version);
  return 0;
}

function emptyLlmSummary(llm: LlmClient): LlmSummary {
  return {
    model: llm.model,
    calls: 0,
    cached: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    synthesizer: [],
  };
}

/** A landmark in words: `watered added (water_plant)`. */
function describeLandmark(l: LandmarkDecl): string {
  return `${l.pred} ${l.on === "add" ? "added" : "removed"}${l.when ? ` when ${l.when}` : ""}${
    l.skill ? ` (${l.skill})` : ""
  }`;
}

/** The LLM client of `--llm`/`--model` (or `OPENAI_*`) and `--llm-cache`, if either is given. */
/** The roles a model takes in induction (`--llm-roles`). */
const INDUCE_ROLES = ["grounder", "subgoals", "synthesizer"] as const;

/** `--traces builtin`: the expert's demonstrations, with `--count` and the environment options. */
async function builtin(
  kit: EnvironmentKit,
  flags: { count?: string; recipes?: string; "env-options"?: string },
  progress: (line: string) => void,
): Promise<Trace[]> {
  return await builtinTraces(kit, {
    ...(flags.count !== undefined ? { count: intFlag("count", flags.count, 1, MAX_COUNT) } : {}),
    envOptions: {
      ...parseEnvOptions(flags["env-options"], kit),
      ...(flags.recipes ? { recipes: flags.recipes } : {}),
    },
    onProgress: (done, total) => {
      if (done === total || done % 10 === 0) progress(`  generated ${done}/${total} expert traces`);
    },
    onSkip: (message) => progress(`  ${message}`),
  });
}

/** What the LLM roles did during an induction, for `--json`. */
interface LlmSummary {
  model: string;
  calls: number;
  cached: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** The landmarks the subgoal proposer gave, when it was asked and answered. */
  landmarks?: LandmarkDecl[];
  /** Per skill the synthesizer was asked about: accepted or not, coverage before and after. */
  synthesizer: {
    skill: string;
    accepted: boolean;
    before: number;
    after?: number;
    segments: number;
  }[];
}

function summaryJson(
  result: Induction,
  templates: TaskTemplate[],
  seconds: number,
  llm?: LlmSummary,
) {
  return {
    ...(llm ? { llm } : {}),
    skills: result.skills.map((s) => ({
      name: s.skill.name,
      params: s.skill.params.map((p) => ({ name: p.name, type: p.type })),
      nodes: s.skill.nodes.length,
      segments: s.segments,
      covered: s.covered,
      skipped: s.skipped ?? 0,
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
  const rows = [["skill", "params", "nodes", "segments", "skipped", "covered", "region"]];
  for (const s of result.skills) {
    rows.push([
      s.skill.name,
      s.skill.params.map((p) => `${p.name}: ${p.type}`).join(", ") || "-",
      String(s.skill.nodes.length),
      String(s.segments),
      String(s.skipped ?? 0),
      String(s.covered),
      `${s.region}/${s.states}`,
    ]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) {
    console.log(r.map((cell, c) => cell.padEnd(widths[c])).join("  ").trimEnd());
  }
  if (result.skills.some((s) => (s.skipped ?? 0) > 0)) {
    console.log(
      "(skipped: segments synthesis left out because the skill of a sample reproduced them)",
    );
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
