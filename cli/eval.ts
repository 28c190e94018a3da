/**
 * `deno task eval`: runs the agent (or the expert) on a list of tasks and
 * reports success rate, steps, invalid actions, steps per skill call, LLM
 * calls and wall time.
 *
 * @module
 */
import { readTraces } from "../compiler/trace_io.ts";
import { localKit, REMOTE_PREFIX } from "../environments/remote/kit.ts";
import type { TaskSpec } from "../runtime/environment.ts";
import type { EvalReport, Evaluation } from "../runtime/eval/evaluate.ts";
import type { HoningSession } from "../runtime/hone/honing_session.ts";
import type { LibraryStore } from "../runtime/store/library_store.ts";
import { openLibrary } from "../compiler/open_library.ts";
import { checkTaskResets, readTaskSpecs } from "../runtime/eval/task_specs.ts";
import { intFlag, MAX_COUNT, parseFlags, runMain, UsageError } from "./_cli.ts";
import {
  groundedForInduction,
  LLM_FLAGS,
  LLM_HELP,
  llmClientFrom,
  llmRoles,
  requireGrounding,
} from "./_llm.ts";
import { defaultRuntimeRoles, episodeModels, RUNTIME_ROLES } from "../llm/episode.ts";
import {
  builtinTraces,
  checkStatedRules,
  envHelp,
  kitFromFlag,
  parseEnvOptions,
  taskList,
  taskSpecCheck,
  VOCABULARY_HELP,
} from "./_tasks.ts";
import { induceLibrary, memoryHoning, runVariant, VARIANT_DOCS } from "./_variants.ts";
import { byTypeTable, comparisonTable, percent } from "./_report_format.ts";

const HELP =
  `Usage: deno task eval --env <env> (--lib <dir> | --traces <src> | --variant expert) [options]

Runs the agent on each task, planning with a skill library (the task's
template, goal regression, skills run by the interpreter), and reports:

  success rate     episodes the environment ended with a positive reward,
                   overall and per task type
  avg steps        environment actions per episode
  invalid actions  actions the environment rejected / actions sent
  steps per skill  environment actions per skill call
  progress rate    when the environment reports one (PDDL): the best share
                   of the goal's conditions that held, averaged
  LLM calls        calls to a language model (none: every role is symbolic)
  seconds          wall time

An episode whose environment fails (e.g. a remote server error) counts as
failed and is listed with its error.

Library (one of):
  --lib <dir>         a library written by "deno task induce" (skills and templates):
                      a directory, or kv:<file> / kv:<URL> for a Deno KV library
  --traces <src>      induce one in memory from traces: a JSONL/JSON/transcript
                      file, a directory, or "builtin" (the expert's
                      demonstrations on the environment's demonstration tasks)

Tasks:
  --split <s>         train or unseen (default unseen), as the environment
                      lists them (e.g. TextCraft unseen: depths 2-4)
  --n <n>             number of tasks (default: the environment's)
  --depths <list>     depths, for environments whose tasks have them, e.g. 2,3,4
  --mix <m>           TextCraft's unseen split: even (the default: depths 2-4
                      in turn) or real (the published set's mix: 37% depth 2,
                      56% depth 3, 6% depth 4, and one task in 20 listing
                      without the recipe of a crafted ingredient; see
                      --knowledge)
  --tasks <jsonl>     explicit tasks, one JSON object per line, each what the
                      environment accepts (e.g. TextCraft
                      {"commands": [...], "goal": "<item>"})

Options:
${envHelp(22)}
  --variant <v>       full (default), linear or expert:
                        full    ${VARIANT_DOCS.full}
                        linear  ${VARIANT_DOCS.linear}
                                (with --traces; with --lib it only names the row)
                        expert  ${VARIANT_DOCS.expert}
  --hone              hone the skills on failures as the tasks run; with --lib
                      every change is committed to the library as a new version.
                      Several processes may hone one library at once: each
                      commit is replayed on the others' newer versions
  --concurrency <n>   episodes at once (default 1): a local environment runs
                      them in n worker threads, a remote one over n
                      connections (an --env with several URLs,
                      agentgym:<env>@http://a:1,http://b:2, spreads them over
                      the servers); the results are a sequential run's. Not
                      with --hone, which learns from each episode before the
                      next
  --env-options <json>  options of each environment instance, e.g.
                      '{"recipes": "../shared/data/textcraft/recipes"}'
  --max-actions <n>   environment actions per episode (default: the
                      environment's, else 100; TextCraft 100, ALFWorld 50)
  --max-skill-calls <n>  skill calls per episode (default: as many as actions)
  --json              print one JSON object: env, variant, tasks, success_rate,
                      avg_steps, invalid_action_rate, steps_per_skill,
                      progress_rate (null unless the environment reports
                      one, e.g. PDDL's share of goal conditions), score
                      (null unless rewards are graded: WebShop's mean
                      reward x 100; success is then a reward of 1), llm_calls,
                      llm_tokens, llm_rejected, seconds, by_type, node_steps,
                      skill_calls, errors (rates are fractions)
  --knowledge         when a call fails because the facts offer no way to what it
                      needs (an item no listed recipe makes), consult the
                      environment's background knowledge (TextCraft: its full
                      recipe set, --env-options recipes); the answer is assumed
                      and verified by retrying the call, and taken back when the
                      retry fails. With --llm and the knowledge role, the model
                      answers instead
${VOCABULARY_HELP}
  --episodes          with --json: add every episode's record (with a model:
                      its calls, tokens and each rejected answer's reason)
${LLM_HELP}
  --llm-roles <list>  what the model does (default: grounder and planner, and
                      knowledge with --knowledge):
                      grounder  reads each observation into facts in the
                                vocabulary's predicates, instead of the
                                environment's grounder (answers that name
                                unknown predicates or objects, or break
                                arity or types, are rejected and asked
                                again once)
                      planner   when no task template fits the goal, chooses
                                skill calls (by signature and docstring)
                                and raw actions step by step; each step's
                                outcome, a failed skill's diagnosis
                                included, goes back with the next question
                      knowledge with --knowledge: when the facts offer no way
                                to what a call needs, says what it knows of
                                the domain as facts (checked like the
                                grounder's), assumed and verified by acting
                      Episodes run in this thread (--concurrency: requests
                      at once)
  -h, --help          show this help

Exit codes: 0 done (whatever the success rate), 1 when the run could not do
its job (every episode failed with an error, e.g. an unreachable server, or
another failure), 2 bad usage or input (the flag or file is named).

Example:
  deno task induce --env textcraft --traces builtin --out out/tc
  deno task eval --env textcraft --lib out/tc --n 30`;

/** The `eval` command on its arguments; resolves to its exit code (see `runCommand`). */
export async function main(args: string[]): Promise<number> {
  const flags = parseFlags(args, {
    env: { type: "string" },
    lib: { type: "string" },
    traces: { type: "string" },
    variant: { type: "string" },
    split: { type: "string" },
    n: { type: "string" },
    depths: { type: "string" },
    mix: { type: "string" },
    tasks: { type: "string" },
    hone: { type: "boolean" },
    concurrency: { type: "string" },
    "env-options": { type: "string" },
    "max-actions": { type: "string" },
    "max-skill-calls": { type: "string" },
    json: { type: "boolean" },
    episodes: { type: "boolean" },
    vocabulary: { type: "string" },
    knowledge: { type: "boolean" },
    ...LLM_FLAGS,
    help: { type: "boolean", short: "h" },
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const kit = await kitFromFlag(flags.env, flags.vocabulary);
  const variant = flags.variant ?? "full";
  if (variant !== "full" && variant !== "linear" && variant !== "expert") {
    throw new UsageError(`--variant must be full, linear or expert, got "${variant}"`);
  }
  const expert = variant === "expert";
  if (!expert && !flags.lib && !flags.traces) {
    throw new UsageError("Missing --lib <dir> or --traces <src> (or use --variant expert)");
  }
  if (flags.lib && flags.traces) throw new UsageError("Give --lib or --traces, not both");
  if (expert && flags.hone) throw new UsageError("--hone does not apply to the expert");
  if (flags.tasks && (flags.split || flags.n || flags.depths || flags.mix)) {
    throw new UsageError("--tasks gives the tasks: drop --split, --n, --depths and --mix");
  }
  const concurrency = optionalPositive("concurrency", flags.concurrency) ?? 1;
  if (concurrency > 1 && flags.hone) {
    throw new UsageError(
      "--hone learns from each episode before the next: drop --concurrency or --hone",
    );
  }
  const envOptions = parseEnvOptions(flags["env-options"], kit);
  const maxActions = optionalPositive("max-actions", flags["max-actions"]);
  const maxSkillCalls = optionalPositive("max-skill-calls", flags["max-skill-calls"]);
  const remote = kit.name.startsWith(REMOTE_PREFIX);
  try {
    // Fail now, not in every episode, when the options are wrong.
    await kit.create(envOptions).close?.();
  } catch (e) {
    throw new UsageError(`--env-options: ${(e as Error).message}`);
  }

  // The tasks.
  let tasks: TaskSpec[];
  let labels: string[] | undefined;
  if (flags.tasks) {
    const file = await readTaskSpecs(flags.tasks, taskSpecCheck(kit));
    // A remote server answers for its own data; a local environment is checked up front.
    if (!remote) await checkTaskResets(() => kit.create(envOptions), file);
    tasks = file.tasks;
    labels = file.labels;
  } else {
    const n = flags.n === undefined ? undefined : intFlag("n", flags.n, 0, MAX_COUNT);
    if (n !== undefined && n < 1) throw new UsageError(`--n must be at least 1, got "${n}"`);
    tasks = taskList(kit, {
      ...(flags.split ? { split: flags.split } : {}),
      ...(n !== undefined ? { n } : {}),
      ...(flags.depths ? { depths: parseDepths(flags.depths) } : {}),
      ...(flags.mix ? { mix: flags.mix } : {}),
    });
  }
  const log = (line: string) => console.error(line);

  const llm = await llmClientFrom(flags);
  const roles = llmRoles(flags["llm-roles"], RUNTIME_ROLES, defaultRuntimeRoles(flags.knowledge));
  if (llm && expert) throw new UsageError("--llm does not apply to the expert");
  if (flags.knowledge && expert) throw new UsageError("--knowledge does not apply to the expert");
  if (flags.knowledge && !kit.knowledge && !(llm && roles.has("knowledge"))) {
    throw new UsageError(
      `--knowledge: the "${kit.name}" environment offers no background knowledge; ` +
        "give --llm <url> --model <name> for the model's (the knowledge role)",
    );
  }
  if (!expert) requireGrounding(kit, llm, roles);
  if (llm) log(`LLM ${llm.model}: ${[...roles].join(", ") || "no role"}`);

  // The library.
  let library;
  let honing: HoningSession | undefined;
  let store: LibraryStore | undefined;
  if (flags.lib) {
    const opened = await openLibrary(flags.lib, kit.vocabulary, { hone: flags.hone === true });
    checkStatedRules(kit, envOptions, opened.actionModel, flags.lib);
    store = opened.store;
    library = opened;
    honing = opened.honing;
    if (library.templates.length === 0 && !expert) {
      log(`warning: ${flags.lib} has no task templates; re-run "deno task induce" to add them`);
    }
  } else if (flags.traces) {
    // Demonstrations are generated in-process, on the local twin of a remote environment.
    const traces = flags.traces === "builtin"
      ? await builtinTraces(kit, { envOptions: remote ? {} : envOptions })
      : await readTraces(flags.traces, localKit(kit));
    if (traces.length === 0) throw new UsageError(`No traces in ${flags.traces}`);
    const inducing = await groundedForInduction(kit, llm, roles, traces, log);
    const built = induceLibrary(traces, inducing, { linear: variant === "linear", envOptions });
    log(
      `Induced ${built.skills.length} skills and ${built.templates.length} templates from ${traces.length} traces in ${
        built.seconds.toFixed(1)
      } s`,
    );
    library = built;
    if (flags.hone) honing = memoryHoning(built.skills, kit, built.actionModel);
  }

  const name = `${variant}${flags.hone ? "+hone" : ""}`;
  const evaluation = await runVariant({
    name,
    expert,
    kit,
    envOptions,
    expertOptions: remote ? envOptions : {},
    tasks,
    ...(labels ? { labels } : {}),
    ...(library ? { library } : {}),
    ...(honing ? { honing } : {}),
    ...(maxActions !== undefined ? { maxActions } : {}),
    ...(maxSkillCalls !== undefined ? { maxSkillCalls } : {}),
    concurrency,
    // A remote environment takes its concurrency as connections from this thread.
    ...(remote ? {} : { workerEnv: flags.env! }),
    ...(llm ? { model: episodeModels(llm, kit, roles) } : {}),
    ...(flags.knowledge && kit.knowledge ? { knowledge: true } : {}),
  });
  if (flags.json) {
    const out: Record<string, unknown> = { ...evaluation.report };
    if (honing) out.honing = honing.changeCounts();
    if (flags.episodes) out.episodes = evaluation.records;
    console.log(JSON.stringify(out));
  } else {
    printReport(evaluation, honing, store);
  }
  store?.close();
  const { records } = evaluation;
  if (records.length > 0 && records.every((r) => r.error !== undefined)) {
    console.error(`eval: every episode failed with an error; the first: ${records[0].error}`);
    return 1;
  }
  return 0;
}

function printReport(
  evaluation: Evaluation,
  honing: HoningSession | undefined,
  store: LibraryStore | undefined,
): void {
  const r: EvalReport = evaluation.report;
  console.log(`${r.env}: ${r.tasks} tasks, variant ${r.variant}`);
  console.log(comparisonTable([r]));
  if (Object.keys(r.by_type).length > 1) {
    console.log("");
    console.log(byTypeTable([r]));
  }
  if (honing) {
    const c = honing.changeCounts();
    console.log(
      `\nHoning: ${honing.recoveries} recoveries; ${c.graft} grafts, ${c.solidify} solidified, ${c.remove} removed, ${c.narrow} narrowed` +
        (store ? `; library ${store.location} is at version ${store.version}` : " (in memory)"),
    );
  }
  if (r.errors.length > 0) {
    console.log(`\n${r.errors.length} episodes failed with an error:`);
    for (const e of r.errors.slice(0, 10)) console.log(`  ${describe(e)}: ${e.error}`);
    if (r.errors.length > 10) console.log(`  (and ${r.errors.length - 10} more)`);
  }
  console.log(
    `\n${r.score === null ? "" : `Score ${r.score.toFixed(1)}, `}Success ${
      percent(r.success_rate)
    }${r.progress_rate === null ? "" : `, progress rate ${percent(r.progress_rate)}`}, ${
      r.avg_steps.toFixed(1)
    } steps per episode, ${
      percent(r.invalid_action_rate)
    } invalid actions, ${r.llm_calls} LLM calls${
      r.llm_calls > 0 ? ` (${r.llm_tokens} tokens, ${r.llm_rejected} answers rejected)` : ""
    }, ${r.seconds.toFixed(1)} s`,
  );
}

/** A task in an error line: its id, and its label (e.g. `file:line`) when that differs. */
function describe(e: { task: string; label: string }): string {
  return e.label === e.task ? e.task : `${e.label} (${e.task})`;
}

function parseDepths(text: string): number[] {
  const parts = text.split(",").map((p) => p.trim());
  if (parts.some((p) => !/^[1-9]\d*$/.test(p))) {
    throw new UsageError(`--depths must be a comma-separated list of depths, got "${text}"`);
  }
  return parts.map(Number);
}

function optionalPositive(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = intFlag(name, value, 0, MAX_COUNT);
  if (n < 1) throw new UsageError(`--${name} must be at least 1, got "${value}"`);
  return n;
}

if (import.meta.main) await runMain("eval", main);
