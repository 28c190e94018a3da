/**
 * Ground semantics of a parsed domain and problem: typed objects, states as
 * sets of ground atoms (`"on b1 b2"`), the ground actions applicable in a
 * state (quantified conditions included), and their effects.
 *
 * @module
 */
import { own } from "../../dsl/vocabulary.ts";
import {
  type Effects,
  effectsWith,
  eitherTypes,
  EQUALITY,
  type PddlAction,
  type PddlAtom,
  type PddlDomain,
  type PddlLiteral,
  type PddlProblem,
  plannedEffects,
} from "./parse.ts";
import { groundCondition } from "./condition.ts";

import { type Fact, groundAtom } from "./atom.ts";
export { type Fact, groundAtom } from "./atom.ts";

/** A ground action: the schema and its objects in parameter order. */
export interface GroundAction {
  action: PddlAction;
  args: string[];
}

/** The text of a ground action as the agent types it: `pick ball1 rooma left`. */
export function actionText(g: GroundAction): string {
  return [g.action.name, ...g.args].join(" ");
}

/** A problem in its domain: objects by type, the initial state, the goal. */
export class PddlWorld {
  readonly domain: PddlDomain;
  readonly problem: PddlProblem;
  /** Every object (problem objects and domain constants) with its declared type. */
  readonly objects: ReadonlyMap<string, string>;
  readonly #ofType = new Map<string, string[]>();
  readonly #init: readonly PddlAtom[];
  /** Each state's facts by predicate, while the state is in use. */
  readonly #indexed = new WeakMap<ReadonlySet<Fact>, Map<string, string[][]>>();

  /** Checks the problem against the domain. @throws {RangeError} naming what does not fit. */
  constructor(domain: PddlDomain, problem: PddlProblem) {
    this.domain = domain;
    this.problem = problem;
    if (problem.domain !== "" && problem.domain !== domain.name) {
      throw new RangeError(
        `Problem "${problem.name}" is for domain "${problem.domain}", not "${domain.name}"`,
      );
    }
    const objects = new Map<string, string>();
    for (const o of [...domain.constants, ...problem.objects]) objects.set(o.name, o.type);
    this.objects = objects;
    const check = (atom: PddlAtom, where: string) => {
      const decl = own(domain.predicates, atom.pred);
      if (!decl) throw new RangeError(`${where}: unknown predicate "${atom.pred}"`);
      if (decl.length !== atom.args.length) {
        throw new RangeError(`${where}: "${atom.pred}" takes ${decl.length} arguments`);
      }
      for (const a of atom.args) {
        if (!objects.has(a)) throw new RangeError(`${where}: unknown object "${a}"`);
      }
    };
    // pddlgym's problems may list the action literals the agent may choose;
    // they are no facts (see parse.ts).
    const actionPredicates = new Set(domain.actionPredicates);
    this.#init = problem.init.filter((a) => !actionPredicates.has(a.pred));
    for (const a of this.#init) check(a, `problem "${problem.name}" :init`);
    for (const a of problem.goal) check(a, `problem "${problem.name}" :goal`);
  }

  /** Whether `type` is `ancestor` or one of its subtypes. */
  isA(type: string, ancestor: string): boolean {
    if (ancestor === "object") return true;
    const members = eitherTypes(ancestor);
    if (members.length > 1) return members.some((m) => this.isA(type, m));
    for (let t: string | undefined = type; t !== undefined; t = own(this.domain.types, t)) {
      if (t === ancestor) return true;
      if (t === "object") return false;
    }
    return false;
  }

  /** The objects of a type (subtypes included), in declaration order. */
  objectsOf(type: string): string[] {
    let list = this.#ofType.get(type);
    if (!list) {
      list = [...this.objects].filter(([, t]) => this.isA(t, type)).map(([o]) => o);
      this.#ofType.set(type, list);
    }
    return list;
  }

  /** The initial state. */
  initial(): Set<Fact> {
    return new Set(this.#init.map((a) => groundAtom(a, new Map())));
  }

  /** The goal's literals, ground. */
  goal(): { fact: Fact; negated: boolean }[] {
    return this.problem.goal.map((l) => ({ fact: groundAtom(l, new Map()), negated: l.negated }));
  }

  /** Whether every goal literal holds. */
  satisfied(state: ReadonlySet<Fact>): boolean {
    return this.goal().every((g) => state.has(g.fact) !== g.negated);
  }

  /**
   * The ground actions applicable in `state`, in a deterministic order:
   * schemas in domain order, bindings found by matching the positive
   * preconditions against the state (then typed enumeration of the rest).
   */
  applicable(state: ReadonlySet<Fact>): GroundAction[] {
    const out: GroundAction[] = [];
    const byPred = indexByPredicate(state);
    for (const action of this.domain.actions) {
      for (const binding of this.#bindings(action, byPred, state)) {
        out.push({ action, args: action.params.map((p) => binding.get(p.name)!) });
      }
    }
    return out;
  }

  /**
   * The ground actions of `action` applicable in `state` whose binding
   * extends `partial` (`?x` -> object), found as {@linkcode applicable}
   * finds them: a parameter no positive precondition binds is the only one
   * enumerated over its type, so an action of many parameters (a pair of
   * socks and a pair of shoes) costs what the state allows, not the
   * product of its types.
   */
  applicableWith(
    action: PddlAction,
    partial: ReadonlyMap<string, string>,
    state: ReadonlySet<Fact>,
  ): GroundAction[] {
    let byPred = this.#indexed.get(state);
    if (!byPred) this.#indexed.set(state, byPred = indexByPredicate(state));
    const out: GroundAction[] = [];
    for (const binding of this.#bindings(action, byPred, state, partial)) {
      out.push({ action, args: action.params.map((p) => binding.get(p.name)!) });
    }
    return out;
  }

  /** Whether the ground action's preconditions hold in `state`. */
  holds(g: GroundAction, state: ReadonlySet<Fact>): boolean {
    const binding = bindingOf(g);
    return g.action.params.every((p, i) => this.isA(this.objects.get(g.args[i]) ?? "", p.type)) &&
      g.action.precondition.every((l) => literalHolds(l, binding, state)) &&
      this.#conditionHolds(g.action, binding, state);
  }

  /** Whether the action's conditions beyond its literals (`exists`, `forall`, `or`) hold. */
  #conditionHolds(
    action: PddlAction,
    binding: ReadonlyMap<string, string>,
    state: ReadonlySet<Fact>,
  ): boolean {
    if (!action.condition) return true;
    const objectsOf = (type: string) => this.objectsOf(type);
    return groundCondition(action.condition, binding, objectsOf, (f) => state.has(f)).length > 0;
  }

  /**
   * The state after the ground action (deletes first, then adds). Each
   * chance of the action draws its outcome from `draw` (uniform in [0, 1));
   * without one, its most likely outcome happens: the world planned with.
   */
  apply(g: GroundAction, state: ReadonlySet<Fact>, draw?: () => number): Set<Fact> {
    const binding = bindingOf(g);
    const next = new Set(state);
    const { add, del } = draw && g.action.chances
      ? drawnEffects(g.action, draw)
      : plannedEffects(g.action);
    for (const d of del) next.delete(groundAtom(d, binding));
    for (const a of add) next.add(groundAtom(a, binding));
    return next;
  }

  /** The ground action an action text names (`pick ball1 rooma left`), if any. */
  parseAction(text: string): GroundAction | undefined {
    const words = text.trim().toLowerCase().split(/\s+/);
    const action = this.domain.actions.find((a) => a.name === words[0]);
    if (!action || words.length !== action.params.length + 1) return undefined;
    const args = words.slice(1);
    return args.every((a) => this.objects.has(a)) ? { action, args } : undefined;
  }

  *#bindings(
    action: PddlAction,
    byPred: Map<string, string[][]>,
    state: ReadonlySet<Fact>,
    partial: ReadonlyMap<string, string> = new Map(),
  ): Generator<Map<string, string>> {
    const positive = action.precondition.filter((l) => !l.negated && l.pred !== EQUALITY);
    const types = new Map(action.params.map((p) => [p.name, p.type]));
    const isA = (type: string, ancestor: string) => this.isA(type, ancestor);
    const objectsOf = (type: string) => this.objectsOf(type);
    const objects = this.objects;
    const conditionHolds = (binding: Map<string, string>) =>
      this.#conditionHolds(action, binding, state);
    function* match(k: number, binding: Map<string, string>): Generator<Map<string, string>> {
      if (k === positive.length) {
        yield* rest(binding);
        return;
      }
      const lit = positive[k];
      for (const args of byPred.get(lit.pred) ?? []) {
        const added: string[] = [];
        let ok = true;
        for (let i = 0; i < args.length && ok; i++) {
          const term = lit.args[i];
          if (!term.startsWith("?")) ok = term === args[i];
          else if (binding.has(term)) ok = binding.get(term) === args[i];
          else if (!isA(objects.get(args[i]) ?? "", types.get(term) ?? "object")) {
            ok = false;
          } else {
            binding.set(term, args[i]);
            added.push(term);
          }
        }
        if (ok) yield* match(k + 1, binding);
        for (const v of added) binding.delete(v);
      }
    }
    function* rest(binding: Map<string, string>): Generator<Map<string, string>> {
      const free = action.params.find((p) => !binding.has(p.name));
      if (free) {
        for (const o of objectsOf(free.type)) {
          binding.set(free.name, o);
          yield* rest(binding);
        }
        binding.delete(free.name);
        return;
      }
      if (negativeHold(action.precondition, binding, state) && conditionHolds(binding)) {
        yield new Map(binding);
      }
    }
    yield* match(0, new Map(partial));
  }
}

/** The action's certain effects and the outcome `draw` gives each chance. */
function drawnEffects(a: PddlAction, draw: () => number): Effects {
  return effectsWith(a, (c) => {
    let r = draw();
    for (const o of c.outcomes) {
      if (r < o.probability) return [o];
      r -= o.probability;
    }
    return [];
  });
}

/** Whether the negated and equality literals of `pre` hold (the others are matched). */
function negativeHold(
  pre: readonly PddlLiteral[],
  binding: ReadonlyMap<string, string>,
  state: ReadonlySet<Fact>,
): boolean {
  return pre.every((l) => !(l.negated || l.pred === EQUALITY) || literalHolds(l, binding, state));
}

/** Whether a precondition literal holds: `(= ?a ?b)` compares objects, others look the atom up. */
export function literalHolds(
  l: PddlLiteral,
  binding: ReadonlyMap<string, string>,
  state: ReadonlySet<Fact>,
): boolean {
  if (l.pred === EQUALITY) {
    const [a, b] = l.args.map((x) => binding.get(x) ?? x);
    return (a === b) !== l.negated;
  }
  return state.has(groundAtom(l, binding)) !== l.negated;
}

/** A ground action's binding of its schema's parameters (`?x` -> object). */
export function bindingOf(g: GroundAction): Map<string, string> {
  return new Map(g.action.params.map((p, i) => [p.name, g.args[i]]));
}

function indexByPredicate(state: Iterable<Fact>): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  for (const f of state) {
    const [pred, ...args] = f.split(" ");
    let list = out.get(pred);
    if (!list) out.set(pred, list = []);
    list.push(args);
  }
  return out;
}
