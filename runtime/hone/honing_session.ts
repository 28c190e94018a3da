/**
 * Honing across episodes: connects a {@linkcode Honer} to the agent. The
 * agent's `onFailure` hook hands failed skill calls to the honer (reflective
 * planning, grafts, narrowing); the agent's events tell the honer how
 * grafted paths fared; after each episode the changes are committed (e.g.
 * to a {@linkcode LibraryStore}) and the next episode runs the honed skills.
 *
 * @module
 */
import type { Skill } from "../../dsl/graph/schema.ts";
import type { FactView, Value } from "../../dsl/facts.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import type { AgentEvent, RecoveryOutcome, SkillFailure } from "../agent/mod.ts";
import type { OnlineGrounder } from "../environment.ts";
import type { Honer } from "./hone.ts";
import type { RunEvent, RunResult } from "../exec/interpreter.ts";
import { compileSkills, type SkillLibrary } from "../store/library.ts";
import type { Change, ChangeKind } from "../store/library_store.ts";
import { type ActionModel, learnActionModel, type Transition } from "../learn/action_model.ts";

/** Options of a {@linkcode HoningSession}. */
export interface HoningSessionOptions {
  /**
   * Persists the skills after an episode that changed them, e.g.
   * `(skills, changes) => store.commit(skills, changes)`. When it returns
   * skills (what the store holds after the commit, including what other
   * processes honed meanwhile), the session continues from them.
   */
  commit?: (skills: Skill[], changes: Change[]) => Promise<unknown>;
  /**
   * The action model to start from (e.g. learned from the demonstrations).
   * After an episode in which the environment rejected an action the model
   * did not predict to fail, the model is updated with that episode's
   * transitions (reported through `onTransition`), and recovery search ranks
   * its corrective actions with it.
   */
  actionModel?: ActionModel;
  /**
   * Persists the updated action model after an episode that taught it
   * something, e.g. `(model) => saveActionModel(dir, model)`.
   */
  saveModel?: (model: ActionModel) => Promise<unknown>;
}

/** A run of one skill call, waiting for the agent's verification of its postcondition. */
/** A repair the agent's regression made: a subgoal achieved for the object of a rejected action. */
interface Repair {
  skill: string;
  events: RunEvent[];
  object: string;
  call: { skill: string; args: Record<string, Value> };
  /** For a related object: the relation the regression used. */
  relation?: string;
}

interface PendingRun {
  skill: string;
  level: number;
  events: RunEvent[];
  result?: RunResult;
}

/**
 * Keeps a honer across episodes.
 *
 * @example Usage
 * ```ts ignore
 * const session = new HoningSession(new Honer(store.skills(), vocab), vocab, {
 *   commit: (skills, changes) => store.commit(skills, changes),
 * });
 * const run = runAgent({ env, kit, library: session.library(), templates, task,
 *   onFailure: (f) => session.onFailure(f) });
 * for (let r = await run.next(); !r.done; r = await run.next()) session.observe(r.value);
 * await session.endEpisode();
 * ```
 */
export class HoningSession {
  readonly #honer: Honer;
  readonly #vocab: Vocabulary;
  readonly #options: HoningSessionOptions;
  #library?: SkillLibrary;
  #pending = new Map<number, PendingRun>();
  /** Repairs regression made, by level, until the repaired call's retry is verified. */
  #repairs = new Map<number, Repair>();
  /** The last run flushed at each level (regression follows its verification). */
  #flushed = new Map<number, PendingRun>();
  /** The state before each rejected action of the episode (the last one per action). */
  #rejectedBefore = new Map<string, FactView>();
  readonly #counts: Record<ChangeKind, number> = {
    induce: 0,
    graft: 0,
    solidify: 0,
    remove: 0,
    narrow: 0,
    edit: 0,
  };
  #recoveries = 0;
  #model?: ActionModel;
  #transitions: Transition[] = [];

  /** Creates a session around `honer`, whose skills are written against `vocab`. */
  constructor(honer: Honer, vocab: Vocabulary, options: HoningSessionOptions = {}) {
    this.#honer = honer;
    this.#vocab = vocab;
    this.#options = options;
    this.#model = options.actionModel;
    if (this.#model) this.#honer.useAdvisor(this.#model);
  }

  /** The action model learned so far (from the start model and every episode's transitions). */
  actionModel(): ActionModel | undefined {
    return this.#model;
  }

  /** Records an action the agent sent, to learn from at the end of the episode. */
  onTransition(transition: Transition): void {
    this.#transitions.push(transition);
    if (!transition.ok) this.#rejectedBefore.set(transition.action, transition.facts);
  }

  /** The current (honed) skills, compiled; rebuilt only after a change. */
  library(): SkillLibrary {
    // Compiled together so that skills may call one another.
    this.#library ??= compileSkills(
      this.#honer.skills().map((s) => ({ data: s, source: `honed skill "${s.name}"` })),
      this.#vocab,
    );
    return this.#library;
  }

  /** Changes made so far, by kind. */
  changeCounts(): Readonly<Record<ChangeKind, number>> {
    return { ...this.#counts };
  }

  /** Failed calls the honer recovered so far. */
  get recoveries(): number {
    return this.#recoveries;
  }

  /**
   * The agent's `onFailure` hook: hands the failure to the honer and
   * reports the actions it sent, counting the ones the environment
   * rejected.
   */
  async onFailure(failure: SkillFailure): Promise<RecoveryOutcome> {
    let rejected = 0;
    const grounder = countingGrounder(failure.grounder, () => rejected++);
    const out = await this.#honer.onFailure({
      skill: failure.skill,
      args: failure.args,
      result: failure.result,
      events: failure.events,
      env: failure.env,
      grounder,
      facts: failure.facts,
    });
    if (out.recovered) this.#recoveries++;
    return {
      recovered: out.recovered,
      actions: out.actions,
      invalidActions: rejected,
      ...(out.done ? { episodeDone: true, reward: out.reward ?? 0 } : {}),
    };
  }

  /**
   * Feeds one agent event. After each skill call's run and verification
   * the honer learns whether a grafted path it took ended well; a run that
   * succeeded without its postcondition counts as failed.
   */
  observe(event: AgentEvent): void {
    switch (event.type) {
      case "run": {
        const e = event.event;
        if (e.type === "start" && e.depth === 0) {
          this.#flush(event.level);
          this.#pending.set(event.level, { skill: e.skill, level: event.level, events: [] });
        }
        const run = this.#pending.get(event.level);
        if (!run || run.result) return;
        run.events.push(e);
        if (e.type === "end" && e.depth === 0) {
          const repair = this.#repairs.get(event.level);
          if (repair && repair.skill === e.skill) {
            this.#repairs.delete(event.level);
            // The retry after the repair succeeded: the repair becomes part of the skill.
            if (e.outcome === "success") this.#graftRepair(repair);
          }
          run.result = {
            outcome: e.outcome,
            ...(e.diagnosis ? { diagnosis: e.diagnosis } : {}),
            steps: e.steps,
            actions: e.actions,
            episodeDone: false,
            reward: 0,
          };
        }
        return;
      }
      case "regress": {
        const run = this.#pending.get(event.level) ?? this.#flushed.get(event.level);
        if (run && run.skill === event.skill) {
          this.#repairs.set(event.level, {
            skill: event.skill,
            events: [...run.events],
            object: event.object,
            call: event.call,
            ...(event.via === "related" && event.relation ? { relation: event.relation } : {}),
          });
        }
        return;
      }
      case "verify": {
        const run = this.#pending.get(event.level);
        if (run?.result && run.skill === event.skill && !event.holds) {
          run.result = { ...run.result, outcome: "failure" };
        }
        this.#flush(event.level);
        return;
      }
      case "stop":
        for (const level of [...this.#pending.keys()]) this.#flush(level);
        return;
    }
  }

  /**
   * Ends an episode: flushes pending runs, takes the honer's changes and,
   * when there are any, commits them.
   *
   * @returns The changes of the episode.
   */
  async endEpisode(): Promise<Change[]> {
    for (const level of [...this.#pending.keys()]) this.#flush(level);
    this.#repairs.clear();
    this.#flushed.clear();
    this.#rejectedBefore.clear();
    const seen = this.#transitions;
    this.#transitions = [];
    // Only a rejection the model did not predict can teach it a precondition;
    // relearning after every episode would cost time for nothing.
    const model = this.#model;
    const surprised = seen.some((t) =>
      !t.ok && (!model || model.unmet(t.facts, t.action).length === 0)
    );
    if (surprised) {
      this.#model = model ? model.update(seen) : learnActionModel(this.#vocab, seen);
      this.#honer.useAdvisor(this.#model);
      await this.#options.saveModel?.(this.#model);
    }
    const changes = this.#honer.takeChanges();
    if (changes.length === 0) return changes;
    for (const c of changes) this.#counts[c.kind]++;
    this.#library = undefined;
    const committed = await this.#options.commit?.(this.#honer.skills(), changes);
    if (Array.isArray(committed)) this.#honer.adopt(committed as Skill[]);
    return changes;
  }

  #graftRepair(repair: Repair): void {
    this.#honer.graftSubgoal(
      repair.skill,
      repair.events,
      repair.object,
      repair.call,
      (action) => this.#rejectedBefore.get(action),
      repair.relation,
    );
  }

  #flush(level: number): void {
    const run = this.#pending.get(level);
    this.#pending.delete(level);
    if (run) this.#flushed.set(level, run);
    if (run?.result) this.#honer.observe(run.skill, run.events, run.result);
  }
}

/** A grounder that calls `onRejected` for every observation it reads as a rejection. */
function countingGrounder(inner: OnlineGrounder, onRejected: () => void): OnlineGrounder {
  return {
    initial: (observation, goal) => inner.initial(observation, goal),
    step: async (facts, action, observation) => {
      const g = await inner.step(facts, action, observation);
      if (g.rejected !== undefined) onRejected();
      return g;
    },
  };
}
