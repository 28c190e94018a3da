/**
 * A PDDL problem set as a text environment with AgentBoard's interface:
 * `reset` starts a problem (by index in file-name order, or by id), the
 * first observation is the goal line, the true facts and the objects
 * neither names, `step` applies a
 * typed ground action (`pickup b2`) or answers `check valid actions`, an
 * action that does not apply changes nothing and gets the invalid-action
 * message, and the episode ends with reward 1 when the goal holds. The
 * progress rate (the best share of goal conditions that held so far) is
 * kept beside success.
 *
 * @module
 */
import type { Environment, ResetResult, StepResult, TaskSpec } from "../../runtime/environment.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import {
  CHECK_VALID_ACTIONS,
  goalText,
  INVALID_ACTION,
  objectsText,
  stateText,
  type Templates,
  validActionsText,
} from "./text.ts";
import { actionText, type Fact, type PddlWorld } from "./world.ts";
import { changingPredicates } from "./parse.ts";
import { hashString, mulberry32, type Random } from "../_random.ts";

/** One problem of the set: its id (e.g. `gripper/prob01`) and world. */
export interface PddlTask {
  id: string;
  world: PddlWorld;
}

/** Options of {@linkcode PddlEnv}. */
export interface PddlEnvOptions {
  /**
   * What an observation after an action lists: `all` true facts (as
   * AgentBoard does), or only those of the predicates actions change
   * (`changing`; the first observation always lists all). @default "all"
   */
  observe?: "all" | "changing";
}

/** The PDDL text environment. */
export class PddlEnv implements Environment {
  readonly name: string;
  readonly vocabulary: Vocabulary;
  readonly #tasks: readonly PddlTask[];
  readonly #templates: Templates;
  #task?: PddlTask;
  readonly #observe: "all" | "changing";
  #state: Set<Fact> = new Set();
  #progress = 0;
  #done = false;
  /** The episode's draws for actions with chances, seeded by the problem's name. */
  #random: Random = mulberry32(0);

  /** An environment over `tasks` (in the benchmark's order). */
  constructor(
    name: string,
    vocabulary: Vocabulary,
    tasks: readonly PddlTask[],
    templates: Templates,
    options: PddlEnvOptions = {},
  ) {
    this.#observe = options.observe ?? "all";
    this.name = name;
    this.vocabulary = vocabulary;
    this.#tasks = tasks;
    this.#templates = templates;
  }

  /** The current problem's world (privileged: for the expert). */
  get world(): PddlWorld | undefined {
    return this.#task?.world;
  }

  /** The current state (privileged: for the expert and tests). */
  get state(): ReadonlySet<Fact> {
    return this.#state;
  }

  /** The best share of goal conditions that held so far in the episode. */
  get progressRate(): number {
    return this.#progress;
  }

  /**
   * Starts a problem: `{ id }`, or `{ seed }` as the index in file-name
   * order (wrapping around).
   *
   * Rejects with a `RangeError` for an unknown id or an empty problem set.
   */
  reset(task: TaskSpec): Promise<ResetResult> {
    if (this.#tasks.length === 0) {
      return Promise.reject(new RangeError(`${this.name}: no problems`));
    }
    const found = task.id !== undefined ? this.#tasks.find((t) => t.id === task.id) : this.#tasks[
      ((task.seed ?? 0) % this.#tasks.length + this.#tasks.length) %
      this.#tasks.length
    ];
    if (!found) {
      return Promise.reject(
        new RangeError(
          `${this.name}: no problem "${task.id}"; known: ${
            this.#tasks.slice(0, 5).map((t) => t.id).join(", ")
          }${this.#tasks.length > 5 ? ", ..." : ""}`,
        ),
      );
    }
    this.#task = found;
    this.#state = found.world.initial();
    // Seeded by the domain's and problem's names, not the id: the same draws wherever the files are.
    this.#random = mulberry32(hashString(`${found.world.domain.name}/${found.world.problem.name}`));
    this.#done = false;
    this.#progress = this.#goalShare();
    const literals = found.world.goal();
    const goal = goalText(
      literals.filter((g) => !g.negated).map((g) => g.fact),
      this.#templates,
      literals.filter((g) => g.negated).map((g) => g.fact),
    );
    // Objects no fact or goal condition names are listed, so that they can be used.
    const named = new Set(
      [...this.#state, ...literals.map((g) => g.fact)].flatMap((f) => f.split(" ").slice(1)),
    );
    const others = [...found.world.objects.keys()].filter((o) => !named.has(o));
    const observation = `${goal}\n${stateText(this.#state, this.#templates)}` +
      (others.length > 0 ? `\n${objectsText(others)}` : "");
    return Promise.resolve({
      observation,
      goal,
      taskId: found.id,
      taskType: this.name,
    });
  }

  /** Applies an action (or answers `check valid actions`). */
  step(action: string): Promise<StepResult> {
    const task = this.#task;
    if (!task) return Promise.reject(new Error(`${this.name}: step before reset`));
    const text = action.trim().replace(/\.$/, "").toLowerCase();
    if (text === CHECK_VALID_ACTIONS) {
      const valid = task.world.applicable(this.#state).map(actionText);
      return Promise.resolve({ observation: validActionsText(valid), reward: 0, done: this.#done });
    }
    const ground = task.world.parseAction(text);
    if (this.#done || !ground || !task.world.holds(ground, this.#state)) {
      return Promise.resolve({ observation: INVALID_ACTION, reward: 0, done: this.#done });
    }
    this.#state = task.world.apply(ground, this.#state, this.#random);
    this.#progress = Math.max(this.#progress, this.#goalShare());
    this.#done = task.world.satisfied(this.#state);
    const observation = stateText(this.#observed(), this.#templates) +
      (this.#done ? " The goal is satisfied." : "");
    return Promise.resolve({ observation, reward: this.#done ? 1 : 0, done: this.#done });
  }

  /** The facts an observation after an action lists. */
  #observed(): Iterable<Fact> {
    if (this.#observe === "all") return this.#state;
    const changing = this.#changing ??= changingPredicates(this.#task!.world.domain);
    // Whether a fact can change, kept per fact: most of a state's facts are
    // the same at every step.
    const memo = this.#changingFacts;
    return [...this.#state].filter((f) => {
      let v = memo.get(f);
      if (v === undefined) {
        const space = f.indexOf(" ");
        memo.set(f, v = changing.has(space < 0 ? f : f.slice(0, space)));
      }
      return v;
    });
  }
  #changing?: Set<string>;
  readonly #changingFacts = new Map<Fact, boolean>();

  /** The share of the goal's conditions that hold now. */
  #goalShare(): number {
    const goal = this.#task!.world.goal();
    if (goal.length === 0) return 1;
    return goal.filter((g) => this.#state.has(g.fact) !== g.negated).length / goal.length;
  }
}
