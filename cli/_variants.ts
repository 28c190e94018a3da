/**
 * The variants the evaluation commands compare, built and run the same way:
 *
 * - `expert`: the environment's expert (the bound on steps);
 * - `linear`: linear parameterized scripts (no loops, no branches);
 * - `full`: the induced skill library;
 * - `hone`: the induced library, honed on failures as the tasks run.
 *
 * The tables that compare them are in `_report_format.ts`.
 *
 * @module
 */
import type { Skill } from "../dsl/graph/schema.ts";
import type { Trace } from "../dsl/trace.ts";
import { compileTraces } from "../compiler/compile.ts";
import type { ActionModel } from "../runtime/learn/action_model.ts";
import { episodeBudgets } from "../runtime/eval/task_lists.ts";
import { type EnvironmentKit, type TaskSpec, withEnvOptions } from "../runtime/environment.ts";
import type { KnowledgeSource } from "../runtime/knowledge.ts";
import {
  type EpisodeRunner,
  evaluate,
  type Evaluation,
  taskLabel,
} from "../runtime/eval/evaluate.ts";
import { evaluateInWorkers } from "./_eval_pool.ts";
import { agentRunner, type EpisodeModel, expertRunner } from "../runtime/eval/eval_runners.ts";
import { Honer } from "../runtime/hone/hone.ts";
import { HoningSession } from "../runtime/hone/honing_session.ts";
import type { SkillLibrary } from "../runtime/store/library.ts";
import type { TaskTemplate } from "../runtime/store/task_template.ts";
import { ProgressBar } from "./_progress.ts";

/** The variants, in table order. */
export const VARIANTS = ["expert", "linear", "full", "knowledge", "hone"] as const;
/** One variant's name. */
export type Variant = typeof VARIANTS[number];

/** What each variant is, for help texts and tables. */
export const VARIANT_DOCS: Record<Variant, string> = {
  expert: "the environment's expert solving each task (the bound on steps)",
  linear: "linear parameterized scripts: induced without loops or branches",
  full: "the induced skill library (loops, branches, invented predicates)",
  knowledge: "the induced library, consulting the environment's background\n" +
    "            knowledge when the facts offer no way (environments that have\n" +
    "            it, e.g. TextCraft's full recipe set)",
  hone: "the induced library, honed on failures while the tasks run",
};

/** A library built from traces in memory. */
export interface BuiltLibrary {
  /** The induced skills. */
  skills: Skill[];
  /** The task templates learned from the same traces. */
  templates: TaskTemplate[];
  /** The skills, compiled. */
  library: SkillLibrary;
  /** Induction time (skills and templates), in seconds. */
  seconds: number;
  /** The action model learned from the same traces. */
  actionModel?: ActionModel;
}

/** Induces skills and task templates from traces, in memory (see `compileTraces`). */
export function induceLibrary(
  traces: readonly Trace[],
  kit: EnvironmentKit,
  options: { linear?: boolean; envOptions?: Record<string, unknown> } = {},
): BuiltLibrary {
  const linear = options.linear ?? false;
  return compileTraces(traces, withEnvOptions(kit, options.envOptions ?? {}), {
    linear,
    ...(!linear && kit.benchmark?.policy ? { policy: true } : {}),
  });
}

/** Options of {@linkcode runVariant}. */
export interface RunVariantOptions {
  /** The variant's name in the report, e.g. `full`. */
  name: string;
  /** Run the environment's expert instead of the agent. */
  expert?: boolean;
  /** The environment kit. */
  kit: EnvironmentKit;
  /** Options of `kit.create` for every episode. */
  envOptions?: Record<string, unknown>;
  /** Options of `kit.expert` (a remote kit's mirror expert wants the local data options). */
  expertOptions?: Record<string, unknown>;
  /** The tasks, in order. */
  tasks: readonly TaskSpec[];
  /** Labels of the tasks (e.g. `file:line`). */
  labels?: readonly string[];
  /** The library (the agent's skills and templates; not needed by the expert). */
  library?: {
    templates: readonly TaskTemplate[];
    library: SkillLibrary;
    actionModel?: ActionModel;
  };
  /** Hone the skills with this session (its skills replace `library.library`). */
  honing?: HoningSession;
  /** Environment actions per episode. @default the kit's, else 100 */
  maxActions?: number;
  /** Skill calls per episode. @default maxActions */
  maxSkillCalls?: number;
  /** Show a progress bar on stderr. @default true */
  progress?: boolean;
  /**
   * Episodes at once (not with honing, which learns from one episode before
   * the next): with `workerEnv`, in that many worker threads; otherwise
   * interleaved in this thread (for remote environments, that many
   * connections). @default 1
   */
  concurrency?: number;
  /** The `--env` value the workers load the environment from (local environments). */
  workerEnv?: string;
  /**
   * Consult the kit's background knowledge (created with `envOptions`)
   * when the facts offer no way (see `runtime/knowledge.ts`).
   */
  knowledge?: boolean;
  /**
   * A language model's part in each episode (see `agentRunner`). Its
   * episodes run interleaved in this thread, which holds the client and its
   * cache: `concurrency` is then the number of connections.
   */
  model?: () => EpisodeModel;
}

/** The episode runner of a variant: the expert, or the agent with the library. */
export function variantRunner(
  kit: EnvironmentKit,
  options: Pick<
    RunVariantOptions,
    | "name"
    | "expert"
    | "expertOptions"
    | "library"
    | "honing"
    | "maxActions"
    | "maxSkillCalls"
    | "model"
    | "knowledge"
    | "envOptions"
  >,
): EpisodeRunner {
  if (options.expert) return expertRunner(kit, options.expertOptions ?? {});
  const lib = options.library;
  if (!lib) throw new Error(`The "${options.name}" variant needs a skill library`);
  return agentRunner({
    kit: withEnvOptions(kit, options.envOptions ?? {}),
    library: lib.library,
    templates: lib.templates,
    ...(lib.actionModel ? { actionModel: lib.actionModel } : {}),
    ...(options.honing ? { honing: options.honing } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.knowledge ? { knowledge: kitKnowledge(kit, options.envOptions ?? {}) } : {}),
    ...episodeBudgets(kit, options),
  });
}

/**
 * The kit's background knowledge.
 *
 * @throws {Error} When the kit has none.
 */
export function kitKnowledge(
  kit: EnvironmentKit,
  envOptions: Record<string, unknown>,
): KnowledgeSource {
  if (!kit.knowledge) {
    throw new Error(
      `The "${kit.name}" environment offers no background knowledge (its kit has no knowledge())`,
    );
  }
  return kit.knowledge(envOptions);
}

/** Runs one variant on the tasks. */
export async function runVariant(options: RunVariantOptions): Promise<Evaluation> {
  const { kit } = options;
  const concurrency = options.concurrency ?? 1;
  if (concurrency > 1 && options.honing) {
    throw new Error("Honing learns from one episode before the next: run it with concurrency 1");
  }
  const bar = new ProgressBar(options.name, options.tasks.length, options.progress ?? true);
  let successes = 0;
  bar.update(0, 0);
  if (concurrency > 1 && options.workerEnv !== undefined && !options.model) {
    const lib = options.library;
    return await evaluateInWorkers({
      envName: kit.name,
      graded: kit.successReward !== undefined,
      job: {
        env: options.workerEnv,
        name: options.name,
        envOptions: options.envOptions ?? {},
        expert: options.expert ?? false,
        expertOptions: options.expertOptions ?? {},
        ...(lib && !options.expert
          ? {
            library: {
              skills: lib.library.programs().map((p) => p.skill),
              templates: [...lib.templates],
              ...(lib.actionModel ? { actionModel: lib.actionModel.toJSON() } : {}),
            },
          }
          : {}),
        ...(options.maxActions !== undefined ? { maxActions: options.maxActions } : {}),
        ...(options.maxSkillCalls !== undefined ? { maxSkillCalls: options.maxSkillCalls } : {}),
        ...(options.knowledge ? { knowledge: true } : {}),
      },
      tasks: options.tasks,
      labels: options.tasks.map((t, i) => options.labels?.[i] ?? taskLabel(t, i)),
      workers: concurrency,
      onEpisode: (record, done) => {
        if (record.success) successes++;
        bar.update(done, successes);
      },
    });
  }
  const runner = variantRunner(kit, options);
  return await evaluate({
    concurrency,
    env: kit.name,
    variant: options.name,
    createEnv: () => kit.create(options.envOptions ?? {}),
    ...(kit.successReward !== undefined ? { successReward: kit.successReward } : {}),
    tasks: options.tasks,
    ...(options.labels ? { labels: options.labels } : {}),
    runner,
    onEpisode: (record, done) => {
      if (record.success) successes++;
      bar.update(done, successes);
    },
  });
}

/** An in-memory honing session over `skills` (nothing is written). */
export function memoryHoning(
  skills: readonly Skill[],
  kit: EnvironmentKit,
  actionModel?: ActionModel,
): HoningSession {
  return new HoningSession(
    new Honer(skills, kit.vocabulary),
    kit.vocabulary,
    actionModel ? { actionModel } : {},
  );
}

/** Options of {@linkcode compareVariants}. */
export interface CompareOptions {
  /** The environment kit. */
  kit: EnvironmentKit;
  /** Options of `kit.create` (e.g. a recipe directory). */
  envOptions?: Record<string, unknown>;
  /** The demonstrations both libraries are induced from. */
  traces: readonly Trace[];
  /** The evaluation tasks. */
  tasks: readonly TaskSpec[];
  /** Environment actions per episode. @default the kit's, else 100 */
  maxActions?: number;
  /** Skill calls per episode. @default maxActions */
  maxSkillCalls?: number;
  /** Show progress bars on stderr. @default true */
  progress?: boolean;
}

/** The result of {@linkcode compareVariants}. */
export interface Comparison {
  /** One evaluation per variant, in {@linkcode VARIANTS} order. */
  runs: { variant: Variant; evaluation: Evaluation }[];
  /** The induced library. */
  full: BuiltLibrary;
  /** The linear scripts. */
  linear: BuiltLibrary;
  /** Changes honing made, by kind. */
  honing: Record<string, number>;
}

/**
 * Induces the full and the linear library from the same traces and runs
 * every variant on the same tasks.
 */
export async function compareVariants(options: CompareOptions): Promise<Comparison> {
  const { kit } = options;
  const envOptions = options.envOptions ?? {};
  const full = induceLibrary(options.traces, kit, { envOptions });
  const linear = induceLibrary(options.traces, kit, { linear: true, envOptions });
  const honing = memoryHoning(full.skills, kit, full.actionModel);
  const common = {
    kit,
    tasks: options.tasks,
    ...(options.envOptions ? { envOptions: options.envOptions } : {}),
    ...(options.maxActions !== undefined ? { maxActions: options.maxActions } : {}),
    ...(options.maxSkillCalls !== undefined ? { maxSkillCalls: options.maxSkillCalls } : {}),
    progress: options.progress ?? true,
  };
  const runs: Comparison["runs"] = [];
  for (const variant of VARIANTS) {
    if (variant === "knowledge" && !kit.knowledge) continue;
    const evaluation = await runVariant({
      ...common,
      name: variant,
      expert: variant === "expert",
      library: variant === "linear" ? linear : full,
      ...(variant === "hone" ? { honing } : {}),
      ...(variant === "knowledge" ? { knowledge: true } : {}),
    });
    runs.push({ variant, evaluation });
  }
  return { runs, full, linear, honing: { ...honing.changeCounts() } };
}
