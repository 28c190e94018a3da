/**
 * `deno task run-skill`: runs one skill in one task of an environment and
 * prints the event trace; without `--skill`, runs the agent (planner, goal
 * regression, postcondition verification) with a library on one task.
 *
 * @module
 */
import { FactStore } from "../runtime/fact_store.ts";
import { collectRun, runSkill } from "../runtime/exec/interpreter.ts";
import { loadSkillFile, SkillLibrary } from "../runtime/store/library.ts";
import { runAgent } from "../runtime/agent/mod.ts";
import { openLibrary } from "../compiler/open_library.ts";
import { openLibraryStore } from "../runtime/store/open_store.ts";
import { formatAgentEvent, formatAgentResult } from "../runtime/agent/format_agent_events.ts";
import { type EnvironmentKit, withEnvOptions } from "../runtime/environment.ts";
import { formatEvent } from "../runtime/exec/format_events.ts";
import type { TaskSpec } from "../runtime/environment.ts";
import type { Value } from "../dsl/facts.ts";
import { parseJsonText } from "../io/json_file.ts";
import { intFlag, MAX_COUNT, parseFlags, runMain, UsageError } from "./_cli.ts";
import { episodeBudgets } from "../runtime/eval/task_lists.ts";
import {
  checkStatedRules,
  envHelp,
  kitFromFlag,
  parseEnvOptions,
  taskList,
  taskSpecCheck,
} from "./_tasks.ts";
import {
  describeLlmUse,
  LLM_FLAGS,
  LLM_HELP,
  llmClientFrom,
  llmRoles,
  requireGrounding,
} from "./_llm.ts";
import { defaultRuntimeRoles, episodeModels, RUNTIME_ROLES } from "../llm/episode.ts";
import type { EpisodeModel } from "../runtime/eval/eval_runners.ts";
import type { KnowledgeSource } from "../runtime/knowledge.ts";
import { kitKnowledge } from "./_variants.ts";

const HELP = `Usage: deno task run-skill --env <env> --skill <file> [options]
       deno task run-skill --env <env> --lib <dir> [--task <seed|id> | --task-spec <json>] [options]
       deno task run-skill --env <env> --list-tasks [--split <s>] [--n <n>]

With --skill, runs one skill (a JSON file, a Mermaid diagram .mmd as the
library writes it, edited or not, or the name of a skill of --lib) in one
task of an environment and prints the event trace: think steps, actions,
observations and the end with its diagnosis.

Without --skill, runs the agent on the task with the library of --lib: it
runs the task program learned at induction (the skills the demonstrations of
that task type called, with loops over the goal's objects), skips calls
whose postcondition already holds, verifies each skill's postcondition after
it ends, and when a skill fails achieves first what the failure names (goal
regression over the skills' postconditions), then retries it. The trace
shows skill boundaries, diagnoses, verification results and subgoals.

With --list-tasks, prints the tasks of a split, one per line: what to pass
to --task (a seed with its options, or an id), then the task as JSON.

Options:
${envHelp(24)}
  --skill <file|name>   skill to run: a .json or .mmd file, or a skill name of --lib
  --lib <dir|kv:path>   library (skills, and task programs for the agent): a
                        directory, or a Deno KV database (kv:<file> or kv:<URL>)
  --args <json>         --skill: arguments as a JSON object, e.g. '{"target": "stick"}' (default {})
  --task <seed|id>      task: an integer seed or a task id (default 0)
  --depth <n>           generated tasks: the depth option (TextCraft)
  --task-spec <json>    an explicit task instead of --task, as the environment
                        accepts it (e.g. TextCraft {"commands": [...], "goal": "stick"})
  --list-tasks          print the tasks of --split (default unseen) and stop
  --split <s>           --list-tasks: train or unseen
  --n <n>               --list-tasks: how many (default: the environment's)
  --env-options <json>  options of the environment instance, e.g. '{"recipes": "<dir>"}'
  --recipes <dir>       the same as --env-options '{"recipes": "<dir>"}'
  --max-steps <n>       node evaluation budget of each skill run (default 500)
  --max-actions <n>     agent: environment actions allowed (default: as eval, the
                        environment's, else 100)
  --max-skill-calls <n> agent: skill calls allowed, subgoals and retries
                        included (default: as many as actions)
  --hone                agent: recover failures, graft what worked and commit the
                        changes to --lib as a new version (history.jsonl)
  --json                print events and result as JSON lines instead of text
  --vocabulary <file>   with --env agentgym:<name>@<url>: an environment known
                        only by its vocabulary; the model grounds it
${LLM_HELP}
  --knowledge           agent: consult background knowledge when the facts offer
                        no way (see deno task eval --help)
  --llm-roles <list>    what the model does (default: grounder and planner, and
                        knowledge with --knowledge): grounder reads each
                        observation into facts in the vocabulary's predicates;
                        planner chooses skill calls and actions when no task
                        template fits; knowledge says what the facts lack (see
                        deno task eval --help)
  -h, --help            show this help

Exit codes: 0 the skill (or the agent) succeeded, 1 it failed, 2 bad usage or input.

Examples:
  deno task run-skill --env textcraft --skill examples/textcraft/craft_from_gettable.json \\
    --args '{"target": "oak planks"}' --task 3 --depth 1
  deno task induce --env textcraft --traces builtin --out out/textcraft
  deno task run-skill --env textcraft --lib out/textcraft --task 4 --depth 2
  deno task run-skill --env examples/garden/kit.ts --list-tasks --n 3`;

/** The `run-skill` command on its arguments; resolves to its exit code (see `runCommand`). */
export async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, {
    env: { type: "string" },
    skill: { type: "string" },
    lib: { type: "string" },
    args: { type: "string" },
    task: { type: "string" },
    depth: { type: "string" },
    "task-spec": { type: "string" },
    "list-tasks": { type: "boolean" },
    split: { type: "string" },
    n: { type: "string" },
    "env-options": { type: "string" },
    recipes: { type: "string" },
    "max-steps": { type: "string" },
    "max-skill-calls": { type: "string" },
    "max-actions": { type: "string" },
    json: { type: "boolean" },
    hone: { type: "boolean" },
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
  const llm = await llmClientFrom(flags);
  const roles = llmRoles(flags["llm-roles"], RUNTIME_ROLES, defaultRuntimeRoles(flags.knowledge));
  requireGrounding(kit, llm, roles);
  // The kit the run grounds with: the model's grounder when it has the role.
  const model = llm ? episodeModels(llm, kit, roles)() : undefined;
  if (flags["list-tasks"]) {
    const n = flags.n === undefined ? undefined : intFlag("n", flags.n, 1, MAX_COUNT);
    for (const t of taskList(kit, { ...(flags.split ? { split: flags.split } : {}), n })) {
      const handle = t.id ??
        (t.seed !== undefined
          ? `${t.seed}${typeof t.options?.depth === "number" ? ` --depth ${t.options.depth}` : ""}`
          : "-");
      console.log(`${handle}\t${JSON.stringify(t)}`);
    }
    return 0;
  }
  if (!flags.skill && !flags.lib) {
    throw new UsageError("Missing --skill <file|name> (or --lib <dir> to run the agent)");
  }
  if (flags["task-spec"] !== undefined && (flags.task !== undefined || flags.depth)) {
    throw new UsageError("Give --task (with --depth) or --task-spec, not both");
  }
  const task = flags["task-spec"] !== undefined
    ? explicitTask(kit, flags["task-spec"])
    : parseTask(flags.task ?? "0", flags.depth);
  const maxSteps = intFlag("max-steps", flags["max-steps"], 500);
  const envOptions = {
    ...parseEnvOptions(flags["env-options"], kit),
    ...(flags.recipes !== undefined ? { recipes: flags.recipes } : {}),
  };
  if (!flags.skill) {
    if (flags.args !== undefined) throw new UsageError("--args needs --skill");
    // The same budgets as eval.
    const budget = episodeBudgets(kit, {
      ...(flags["max-actions"] !== undefined
        ? { maxActions: intFlag("max-actions", flags["max-actions"], 1) }
        : {}),
      ...(flags["max-skill-calls"] !== undefined
        ? { maxSkillCalls: intFlag("max-skill-calls", flags["max-skill-calls"], 1) }
        : {}),
    });
    return await runAgentMain(kit, flags.lib!, task, envOptions, {
      maxSteps,
      ...budget,
      json: flags.json === true,
      hone: flags.hone === true,
      ...(model ? { model } : {}),
      ...(flags.knowledge && !model?.knowledge
        ? { knowledge: kitKnowledgeOrUsage(kit, envOptions) }
        : {}),
    });
  }
  if (flags.knowledge) {
    throw new UsageError("--knowledge runs the agent: give --lib <dir> without --skill");
  }
  if (flags.hone) {
    throw new UsageError("--hone runs the agent: give --lib <dir> without --skill");
  }
  const args = parseArgsJson(flags.args ?? "{}");

  let library = new SkillLibrary();
  if (flags.lib) {
    // Only the skills: no action model or honing for a single skill's run.
    const store = await openLibraryStore(flags.lib, kit.vocabulary);
    store.close();
    library = store.library();
  }
  const program = library.get(flags.skill) ?? await loadSkillFile(flags.skill, kit.vocabulary);

  const env = kit.create(envOptions);
  const grounder = (model?.kit ?? withEnvOptions(kit, envOptions)).grounder();
  const reset = await env.reset(task);
  const facts = new FactStore();
  const first = await grounder.initial(reset.observation, reset.goal);
  facts.apply(first.delta);
  if (!flags.json) {
    console.log(`Task ${reset.taskId}: ${reset.goal}`);
    console.log(reset.observation.split("\n").map((l) => `  | ${l}`).join("\n"));
    console.log(`Facts: ${facts.size} atoms`);
  }
  const { result } = await collectRun(
    // Run against the library plus the skill itself, so it may recurse.
    runSkill(program, args, {
      env,
      grounder,
      facts,
      library: new SkillLibrary([...library.programs(), program]),
      budgets: { maxSteps },
    }),
    (event) => console.log(flags.json ? JSON.stringify(event) : formatEvent(event)),
  );
  await env.close?.();
  const use = model?.usage();
  if (flags.json) console.log(JSON.stringify({ result, ...(use ? { llm: llmRecord(use) } : {}) }));
  else {
    console.log(
      `Result: ${result.outcome} in ${result.actions} actions, ${result.steps} steps` +
        (result.episodeDone ? `, episode ended with reward ${result.reward}` : ""),
    );
    if (use) console.log(`LLM: ${describeLlmUse(use.calls, use.llm)}`);
  }
  return result.outcome === "success" ? 0 : 1;
}

/** Runs the agent on one task and prints its trace; returns the exit code. */
async function runAgentMain(
  kit: EnvironmentKit,
  dir: string,
  task: TaskSpec,
  envOptions: Record<string, unknown>,
  opts: {
    maxSteps: number;
    maxSkillCalls: number;
    maxActions: number;
    json: boolean;
    hone: boolean;
    /** The model's part in the episode, when one is configured. */
    model?: EpisodeModel;
    /** Background knowledge (`--knowledge`), when the model does not answer instead. */
    knowledge?: KnowledgeSource;
  },
): Promise<number> {
  // With --hone, failures are recovered and grafted, and what was learned is
  // committed to the library as a new version when the episode ends.
  const opened = await openLibrary(dir, kit.vocabulary, { hone: opts.hone });
  const { templates, actionModel: model, library } = opened;
  checkStatedRules(kit, envOptions, model, dir);
  const session = opened.honing;
  const store = opts.hone ? opened.store : undefined;
  if (templates.length === 0 && !opts.json) {
    console.error(
      `warning: library "${dir}" has no task templates (induced before templates existed?); run induce again`,
    );
  }
  const env = kit.create(envOptions);
  const run = runAgent({
    env,
    kit: opts.model?.kit ?? withEnvOptions(kit, envOptions),
    ...(opts.model?.router ? { router: opts.model.router } : {}),
    ...(opts.model?.knowledge ?? opts.knowledge
      ? { knowledge: opts.model?.knowledge ?? opts.knowledge }
      : {}),
    library,
    templates,
    task,
    maxSkillCalls: opts.maxSkillCalls,
    maxActions: opts.maxActions,
    budgets: { maxSteps: opts.maxSteps },
    ...(session?.actionModel() ?? model ? { actionModel: session?.actionModel() ?? model } : {}),
    ...(session
      ? {
        onFailure: (f) => session.onFailure(f),
        onTransition: (t) => session.onTransition(t),
      }
      : {}),
  });
  let r = await run.next();
  for (; !r.done; r = await run.next()) {
    session?.observe(r.value);
    console.log(opts.json ? JSON.stringify(r.value) : formatAgentEvent(r.value));
  }
  await env.close?.();
  const result = r.value;
  const changes = session ? await session.endEpisode().finally(() => opened.store.close()) : [];
  if (!session) opened.store.close();
  const use = opts.model?.usage();
  console.log(
    opts.json
      ? JSON.stringify({ result, changes, ...(use ? { llm: llmRecord(use) } : {}) })
      : formatAgentResult(result),
  );
  if (!opts.json && use) console.log(`LLM: ${describeLlmUse(use.calls, use.llm)}`);
  if (!opts.json && store) {
    console.log(
      changes.length === 0
        ? `Honing: nothing learned; library unchanged (version ${store.version})`
        : `Honing: ${
          changes.map((c) => `${c.kind} ${c.skill ?? ""}: ${c.detail ?? ""}`.trim()).join("; ")
        }\nLibrary ${dir} is now version ${store.version}`,
    );
  }
  return result.success ? 0 : 1;
}

/** The kit's background knowledge, or a usage error saying it has none. */
function kitKnowledgeOrUsage(
  kit: EnvironmentKit,
  envOptions: Record<string, unknown>,
): KnowledgeSource {
  try {
    return kitKnowledge(kit, envOptions);
  } catch (e) {
    throw new UsageError(`--knowledge: ${(e as Error).message}`);
  }
}

/** A run's model use as its JSON result reports it (as eval's episode records do). */
function llmRecord(use: ReturnType<EpisodeModel["usage"]>) {
  return { calls: use.calls, ...use.llm };
}

function parseArgsJson(text: string): Record<string, Value> {
  let data: unknown;
  try {
    data = parseJsonText(text, "--args");
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new UsageError(`--args must be a JSON object, e.g. '{"target": "stick"}'`);
  }
  return data as Record<string, Value>;
}

/** `--task-spec`: an explicit task the environment accepts. */
function explicitTask(kit: EnvironmentKit, text: string): TaskSpec {
  let value: unknown;
  try {
    value = parseJsonText(text, "--task-spec");
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const problem = taskSpecCheck(kit)(value);
  if (problem !== undefined) throw new UsageError(`--task-spec: ${problem}`);
  return { spec: value };
}

function parseTask(text: string, depth: string | undefined): TaskSpec {
  const options = depth !== undefined ? { depth: intFlag("depth", depth, 1) } : undefined;
  if (/^\d+$/.test(text)) return { seed: Number(text), ...(options ? { options } : {}) };
  return { id: text, ...(options ? { options } : {}) };
}

if (import.meta.main) await runMain("run-skill", main);
