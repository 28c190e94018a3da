/**
 * Episode runners for the evaluation harness: the agent planning with a
 * skill library (optionally honing it as it goes), and the environment's
 * expert, whose step counts bound what any agent can reach.
 *
 * @module
 */
import type { Trace } from "../../dsl/trace.ts";
import {
  type AgentEvent,
  type AgentKit,
  type AgentOptions,
  type AgentResult,
  runAgent,
} from "../agent/mod.ts";
import type { EnvironmentKit } from "../environment.ts";
import {
  EpisodeError,
  type EpisodeLlmUsage,
  type EpisodeOutcome,
  type EpisodeRunner,
} from "./evaluate.ts";
import { FactStore } from "../fact_store.ts";
import type { HoningSession } from "../hone/honing_session.ts";
import type { Router } from "../plan/router.ts";
import type { KnowledgeSource } from "../knowledge.ts";
import type { SkillLibrary } from "../store/library.ts";
import type { Budgets } from "../exec/step.ts";
import type { TaskTemplate } from "../store/task_template.ts";

/** Options of {@linkcode agentRunner}. */
export interface AgentRunnerOptions {
  /** The vocabulary and grounder. */
  kit: AgentKit;
  /** The skills (ignored when `honing` is given: the session's honed skills are used). */
  library: SkillLibrary;
  /** The task templates the planner follows. */
  templates: readonly TaskTemplate[];
  /** Skill calls allowed per episode. @default the agent's (20) */
  maxSkillCalls?: number;
  /** Environment actions allowed per episode. @default the agent's (100) */
  maxActions?: number;
  /** Interpreter budgets of each skill run. */
  budgets?: Partial<Budgets>;
  /** A learned action model for the skill runs (see the agent's option). */
  actionModel?: AgentOptions["actionModel"];
  /** Hone the skills on failures, across episodes. */
  honing?: HoningSession;
  /** Receives every agent event (e.g. for a trace display). */
  onEvent?: (event: AgentEvent) => void;
  /**
   * Background knowledge the agent asks when the facts offer no way (see
   * `knowledge.ts`); a model's knowledge role, when it has one, replaces it.
   */
  knowledge?: KnowledgeSource;
  /**
   * A language model's part in each episode: called once per episode, it
   * gives the kit to run it with (whose grounder may ask the model) and
   * reports the episode's calls.
   */
  model?: () => EpisodeModel;
}

/** A language model's part in one episode (see {@linkcode AgentRunnerOptions.model}). */
export interface EpisodeModel {
  /** The kit the episode runs with. */
  kit: AgentKit;
  /** What the agent asks when no template fits (see `router.ts`). */
  router?: Router;
  /** What the agent asks when the facts offer no way (see `knowledge.ts`). */
  knowledge?: KnowledgeSource;
  /** The episode's calls so far, with their tokens and rejected answers. */
  usage(): { calls: number; llm: EpisodeLlmUsage };
}

/**
 * The agent as an episode runner: `runAgent` on each task with the
 * library and templates; with `honing`, failures are handed to the session
 * and its changes committed after each episode.
 *
 * @example Usage
 * ```ts ignore
 * const runner = agentRunner({ kit, library, templates });
 * const { report } = await evaluate({ env: kit.name, createEnv: () => kit.create(), tasks, runner });
 * ```
 */
export function agentRunner(options: AgentRunnerOptions): EpisodeRunner {
  const { honing } = options;
  return {
    async run(env, task): Promise<EpisodeOutcome> {
      const model = options.model?.();
      const run = runAgent({
        env,
        kit: model?.kit ?? options.kit,
        ...(model?.router ? { router: model.router } : {}),
        ...(model?.knowledge ?? options.knowledge
          ? { knowledge: model?.knowledge ?? options.knowledge }
          : {}),
        library: honing ? honing.library() : options.library,
        templates: options.templates,
        task,
        ...(options.maxSkillCalls !== undefined ? { maxSkillCalls: options.maxSkillCalls } : {}),
        ...(options.maxActions !== undefined ? { maxActions: options.maxActions } : {}),
        ...(options.budgets ? { budgets: options.budgets } : {}),
        // With honing, the session's model (updated by every episode) and its transitions.
        ...(honing?.actionModel() ?? options.actionModel
          ? { actionModel: honing?.actionModel() ?? options.actionModel }
          : {}),
        ...(honing ? { onTransition: (t) => honing.onTransition(t) } : {}),
        ...(honing ? { onFailure: (f) => honing.onFailure(f) } : {}),
      });
      let taskType: string | undefined;
      let taskId: string | undefined;
      let result: AgentResult;
      try {
        while (true) {
          const r = await run.next();
          if (r.done) {
            result = r.value;
            break;
          }
          if (r.value.type === "task") {
            taskId = r.value.taskId;
            taskType = r.value.taskType;
          }
          honing?.observe(r.value);
          options.onEvent?.(r.value);
        }
      } catch (e) {
        if (!model) throw e;
        throw new EpisodeError(e instanceof Error ? e.message : String(e), usageOf(model));
      } finally {
        // Even an episode cut short by an error leaves what the honer learned in the library.
        await honing?.endEpisode();
      }
      return {
        success: result.success,
        reward: result.reward,
        actions: result.actions,
        invalidActions: result.invalidActions,
        plannedActions: result.plannedActions,
        skillCalls: result.skillCalls,
        steps: result.steps,
        ...(model ? usageOf(model) : { llmCalls: 0 }),
        stop: result.stop,
        ...(taskId !== undefined ? { taskId } : {}),
        ...(taskType !== undefined ? { taskType } : {}),
      };
    },
  };
}

/** An episode's model calls as its outcome reports them. */
function usageOf(model: EpisodeModel): Pick<EpisodeOutcome, "llmCalls" | "llm"> {
  const { calls, llm } = model.usage();
  return { llmCalls: calls, llm };
}

/**
 * The environment's expert as an episode runner. Its trace gives the
 * actions; they are grounded afterwards to count the ones the environment
 * rejected. The expert gets the environment itself (experts may read a
 * simulator's state).
 *
 * @param kit The environment kit; must have an expert.
 * @param expertOptions Options of `kit.expert`.
 * @throws {TypeError} When the kit has no expert.
 *
 * @example Usage
 * ```ts ignore
 * const { report } = await evaluate({
 *   env: kit.name, variant: "expert", createEnv: () => kit.create(), tasks,
 *   runner: expertRunner(kit),
 * });
 * ```
 */
export function expertRunner(
  kit: Pick<EnvironmentKit, "name" | "expert" | "grounder">,
  expertOptions: Record<string, unknown> = {},
): EpisodeRunner {
  if (!kit.expert) throw new TypeError(`The "${kit.name}" environment has no expert`);
  const expert = kit.expert(expertOptions);
  return {
    rawEnvironment: true,
    async run(env, task): Promise<EpisodeOutcome> {
      const trace = await expert.solve(env, task);
      const last = trace.steps.at(-1);
      const success = trace.success ?? (last?.done === true && (last.reward ?? 0) > 0);
      return {
        success,
        reward: last?.reward ?? 0,
        actions: trace.steps.length,
        invalidActions: rejectedSteps(trace, kit),
        skillCalls: 0,
        steps: 0,
        llmCalls: 0,
        stop: success ? "The expert solved the task" : "The expert did not solve the task",
        ...(trace.task.id !== undefined ? { taskId: trace.task.id } : {}),
        ...(trace.task.type !== undefined ? { taskType: trace.task.type } : {}),
      };
    },
  };
}

/** Steps of a trace whose observation the grounder reads as a rejection. */
function rejectedSteps(trace: Trace, kit: Pick<EnvironmentKit, "grounder">): number {
  const grounder = kit.grounder();
  const facts = new FactStore();
  facts.apply(grounder.initial(trace.initial, trace.goal).delta);
  let rejected = 0;
  for (const s of trace.steps) {
    const g = grounder.step(facts, s.action, s.observation);
    facts.apply(g.delta);
    if (g.rejected !== undefined) rejected++;
  }
  return rejected;
}
