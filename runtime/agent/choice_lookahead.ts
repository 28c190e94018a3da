/**
 * Choices looked ahead: where a skill binds a variable by choice among
 * several objects, the agent plays the skill on in its action model with the
 * object it would take; when that way ends where the skill fails before the
 * goal holds (a tour that strands itself, a resource spent too early), it
 * takes the first other object whose way reaches the goal, or failing that
 * one whose way the model cannot tell, but not one that only comes back to
 * facts it had reached (no further than the dead end). Within a way, the next choice is
 * looked ahead the same way once more (two choices deep), and every choice
 * takes first what a goal atom not yet achieved names (the place still to
 * visit before one the goal does not ask for), so a way tells how far the
 * choice can get rather than where first candidates lead. A way that makes
 * true an atom the goal forbids (a landmark on removal) is a dead end when
 * no action of the model makes that atom false again. The skill still
 * decides every action; the look-ahead only orders its free choices. The
 * simulated actions of an episode are bounded.
 *
 * @module
 */
import type { Atom, Value } from "../../dsl/facts.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import type { FactStore } from "../fact_store.ts";
import type { ActionModel } from "../learn/action_model.ts";
import { simulate, type Simulation } from "../exec/simulate.ts";
import type { ChoicePoint } from "../exec/step.ts";
import { forbiddenAtoms, goalAtoms } from "../plan/landmark_agenda.ts";

/** What the goal asks, as the look-ahead checks it. */
interface Goal {
  /** The atoms it asks for. */
  atoms: readonly Atom[];
  /** The atoms it asks to be false. */
  forbidden: readonly Atom[];
  /** Those of `forbidden` no action of the model makes false: once true, the goal is lost. */
  lasting: readonly Atom[];
}

/** Simulated actions of one way at most. */
const HORIZON = 40;
/** Choices looked ahead within one way: the first, and those of its ways. */
const DEPTH = 2;
/** Simulated actions of one episode at most. */
const EPISODE_BUDGET = 200;

/** The look-ahead of one episode's choices. */
export class ChoiceLookahead {
  readonly #model: ActionModel;
  readonly #vocab: Vocabulary;
  #left = EPISODE_BUDGET;

  /**
   * @param model The action model that predicts each simulated action.
   * @param vocab The vocabulary whose landmarks say what the goal asks.
   */
  constructor(model: ActionModel, vocab: Vocabulary) {
    this.#model = model;
    this.#vocab = vocab;
  }

  /**
   * The object to take at `at` among `ordered` (the one the agent would take
   * first): the first when its way does not end in a dead end, or the
   * budget is spent, or the goal names nothing the model can check.
   *
   * @example Usage
   * ```ts ignore
   * const pick = lookahead.choose([preferred, ...others], at, facts);
   * ```
   */
  choose(ordered: readonly Value[], at: ChoicePoint, facts: FactStore): Value {
    const goal = this.#goal(facts);
    if (ordered.length < 2 || goal.atoms.length + goal.forbidden.length === 0 || this.#left <= 0) {
      return ordered[0];
    }
    return this.#pick(ordered, at, facts, goal, DEPTH);
  }

  /**
   * What the goal asks: atoms to make true, and atoms to keep false, those
   * no action of the model makes false again (once true, the goal is lost)
   * marked for good.
   */
  #goal(facts: FactStore): Goal {
    const forbidden = forbiddenAtoms(this.#vocab, facts);
    if (forbidden.length > 0) {
      this.#removable ??= new Set(
        this.#model.schemas().flatMap((s) => s.remove.map((a) => a.pred)),
      );
    }
    const removable = this.#removable;
    return {
      atoms: goalAtoms(this.#vocab, facts),
      forbidden,
      lasting: forbidden.filter((a) => !removable?.has(a.pred)),
    };
  }
  #removable?: Set<string>;

  /** The choice at `at`, the ways' own choices looked ahead `depth - 1` deep. */
  #pick(
    ordered: readonly Value[],
    at: ChoicePoint,
    facts: FactStore,
    goal: Goal,
    depth: number,
  ): Value {
    // Ways the model cannot tell the end of, but not those that go round:
    // a way back to facts it had reached gets no further than a dead end.
    const open = new Set<Value>();
    for (const value of ordered) {
      if (this.#left <= 0) break;
      const { end, cycle } = this.#way(value, at, facts, goal, depth);
      if (value === ordered[0] && end !== "dead end") return value;
      if (end === "goal") return value;
      if (end === "unknown" && !cycle) open.add(value);
    }
    return ordered.find((v) => open.has(v)) ?? ordered[0];
  }

  /** Where the skill goes on to when `value` is taken at `at`. */
  #way(
    value: Value,
    at: ChoicePoint,
    facts: FactStore,
    goal: Goal,
    depth: number,
  ): Simulation {
    let forced = false;
    const copy = facts.clone();
    const way = simulate(at.program, at.state, copy, {
      predict: (f, action) => this.#model.predict(f, action),
      goal: (f) => goal.atoms.every((a) => f.has(a)) && !goal.forbidden.some((a) => f.has(a)),
      doomed: (f) => goal.lasting.some((a) => f.has(a)),
      maxActions: Math.min(HORIZON, this.#left),
      // The choice point takes `value` once; a later choice is looked ahead
      // in turn while the depth lasts, else takes its first candidate.
      choose: (candidates, _expr, where) => {
        if (!forced && where?.node === at.node && candidates.includes(value)) {
          forced = true;
          return value;
        }
        const named = goalNamedFirst(candidates, goal.atoms, copy);
        return depth > 1 && where && named.length > 1 && this.#left > 0
          ? this.#pick(named, where, copy, goal, depth - 1)
          : named[0];
      },
    });
    this.#left -= Math.max(1, way.actions);
    return way;
  }
}

/**
 * `candidates` with those a goal atom not yet achieved names first, in their
 * order: a way played on takes them (the state the goal asks to visit before
 * one it does not), so it tells how far a choice can get.
 */
function goalNamedFirst(
  candidates: readonly Value[],
  goal: readonly Atom[],
  facts: FactStore,
): readonly Value[] {
  const named = new Set<Value>();
  for (const a of goal) {
    if (!facts.has(a)) { for (const arg of a.args) named.add(arg as Value); }
  }
  const first = candidates.filter((c) => named.has(c));
  if (first.length === 0 || first.length === candidates.length) return candidates;
  return [...first, ...candidates.filter((c) => !named.has(c))];
}
