/**
 * Movers and distances: what lets a policy head for a place it cannot see
 * from where it stands. An action that, in every demonstrated use, takes
 * an atom's argument from one of its parameters to another (`walk(from,
 * to)` removes `at(from)` and adds `at(to)`) moves that argument along a
 * graph: a step from `u` to `v` is possible where the action's observed
 * preconditions, other than the moved atom itself, hold with `from = u`
 * and `to = v` (`adjacent(u, v) and not water(u)`), in the current state.
 * The actions that move the same argument make one graph. A rule may then
 * say `closer(to, from, t)`: the action's destination is fewer steps from
 * `t` than its origin, the distance feature of generalised planning
 * (`distance(...)` in the expression language).
 *
 * @module
 */
import type { Atom } from "../../dsl/facts.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import {
  assignments,
  type Conjunction,
  existentialText,
  freshName,
  type Literal,
  type StateIndex,
} from "./conjunction.ts";

/** The prefix of a closer literal's predicate: `closer:<mover>` with arguments (a, b, t). */
export const CLOSER = "closer:";

/** How one action moves an argument. */
export interface MoverStep {
  action: string;
  /** The parameters moved from and to. */
  from: number;
  to: number;
  /**
   * The step condition over `u` (0), `v` (1) and the action's other
   * parameters (2, ...): its observed preconditions without the moved atom.
   */
  edge: Conjunction;
}

/** An argument the actions move, and the graph they move it along. */
export interface Mover {
  /** `<predicate>/<position>`, e.g. `at/1`. */
  key: string;
  /** The type of the graph's nodes. */
  type: string;
  steps: MoverStep[];
}

/** The predicate and argument position a mover moves (`at` and 1 of `at/1`). */
export function movedArgument(mover: Mover): { pred: string; position: number } {
  const slash = mover.key.lastIndexOf("/");
  return { pred: mover.key.slice(0, slash), position: Number(mover.key.slice(slash + 1)) };
}

/**
 * The variables of a step's condition (`base`, the step's action's
 * variables first) that stand for the mover: the other arguments of its
 * own atom at the step's origin (the truck of `at(truck, from)`);
 * undefined when the condition has no such atom.
 */
export function moverVariables(
  base: Conjunction,
  mover: Mover,
  step: MoverStep,
): number[] | undefined {
  const { pred, position } = movedArgument(mover);
  const atom = base.literals.find((l) =>
    l.pred === pred && !l.negated && l.none === undefined && l.args[position] === step.from
  );
  return atom?.args.filter((_, i) => i !== position);
}

/**
 * The movers of a set of actions: for each action, the argument its every
 * demonstrated use moves between two of its parameters, with the edge
 * condition from its observed preconditions `bases`.
 *
 * @param uses Each action's demonstrated uses: arguments and fact change.
 * @param bases Each action's observed preconditions (variables = parameters).
 * @param staticPreds Predicates no demonstrated action changes: a step
 *   must join its places by one of them (a map, not which key is held).
 * @returns The movers along a graph (`linked`), and apart from them those
 *   whose steps no static relation links (`jumps`: a truck driven from any
 *   place to any other, no graph to measure distances on, but a place to
 *   head for all the same).
 */
export function findMovers(
  vocab: Vocabulary,
  uses: ReadonlyMap<string, { args: string[]; add: readonly Atom[]; remove: readonly Atom[] }[]>,
  bases: ReadonlyMap<string, Conjunction>,
  staticPreds: ReadonlySet<string>,
): { linked: Mover[]; jumps: Mover[] } {
  const linked = new Map<string, Mover>();
  const jumps = new Map<string, Mover>();
  for (const [action, list] of uses) {
    const params = vocab.actions[action].params;
    const base = bases.get(action);
    if (!base || list.length === 0) continue;
    for (const moved of movesOf(list, params.length)) {
      const { pred, position, from, to } = moved;
      if (params[from].type !== params[to].type) continue;
      const key = `${pred}/${position}`;
      // u, v, then the other parameters.
      const order = [from, to, ...params.map((_, i) => i).filter((i) => i !== from && i !== to)];
      const rename = new Map(order.map((p, i) => [p, i]));
      const edge: Conjunction = {
        types: order.map((p) => params[p].type),
        literals: base.literals.filter((l) => l.pred !== pred).map((l) => ({
          ...l,
          args: l.args.map((a) => rename.get(a)!),
        }))
          // What holds of the origin only because the mover stands there
          // (it is not clear) says nothing of the places on the way.
          .filter((l) => staticPreds.has(l.pred) || !l.args.includes(0)),
      };
      // A graph: something static must relate the places a step joins
      // (which key is held is no place).
      const joined = edge.literals.some((l) =>
        !l.negated && staticPreds.has(l.pred) && l.args.includes(0) && l.args.includes(1)
      );
      const movers = joined ? linked : jumps;
      const type = params[from].type;
      const mover = movers.get(`${key}:${type}`) ?? { key, type, steps: [] };
      mover.steps.push({ action, from, to, edge });
      movers.set(`${key}:${type}`, mover);
    }
  }
  for (const mover of [...linked.values(), ...jumps.values()]) agreeOnSteps(mover);
  return { linked: [...linked.values()], jumps: [...jumps.values()] };
}

/**
 * Keeps of each step's condition what the steps agree on: a literal some of
 * the mover's actions needed and others did without (`not is_goal(v)`,
 * which three directions showed and the one that reached the goal did not)
 * was chance in the demonstrations. A relation between the two places only
 * one action has (its direction) stays.
 */
function agreeOnSteps(mover: Mover): void {
  const agreed = agreedLiterals(
    mover.steps.map((s, k) => ({ literals: s.edge.literals, from: 0, to: 1, group: String(k) })),
    () => true,
  );
  mover.steps.forEach((s, k) => {
    s.edge = { ...s.edge, literals: agreed[k] };
  });
}

/**
 * The literals of each member (a step's condition, an action's
 * preconditions) that the members agree on, among the `considered`
 * literals about the two places `from` and `to` only: one every member
 * has, or a relation joining the two that one group (one action: its
 * direction) alone has. The others are left as they are; with fewer than
 * two groups, everything is.
 */
export function agreedLiterals(
  members: readonly { literals: readonly Literal[]; from: number; to: number; group: string }[],
  considered: (l: Literal) => boolean,
): Literal[][] {
  if (new Set(members.map((m) => m.group)).size < 2) return members.map((m) => [...m.literals]);
  const plain = (l: Literal, m: typeof members[number]) =>
    l.none === undefined && considered(l) && l.args.every((a) => a === m.from || a === m.to)
      ? `${l.negated ? "!" : ""}${l.pred}(${l.args.map((a) => a === m.from ? 0 : 1)})`
      : undefined;
  // Which groups, and how many members, have each literal.
  const groups = new Map<string, Set<string>>();
  const bearers = new Map<string, number>();
  for (const m of members) {
    for (const k of new Set(m.literals.map((l) => plain(l, m)))) {
      if (k === undefined) continue;
      if (!groups.has(k)) groups.set(k, new Set());
      groups.get(k)!.add(m.group);
      bearers.set(k, (bearers.get(k) ?? 0) + 1);
    }
  }
  return members.map((m) =>
    m.literals.filter((l) => {
      const k = plain(l, m);
      if (k === undefined) return true;
      const joins = l.args.includes(m.from) && l.args.includes(m.to);
      return (groups.get(k)!.size === 1 && joins) || bearers.get(k) === members.length;
    })
  );
}

/** An argument one use of an action moved: `pred`'s argument at `position`, from parameter `from` to `to`. */
export interface ArgumentMove {
  pred: string;
  position: number;
  from: number;
  to: number;
}

/**
 * The argument moves of one use of an action (of `arity` parameters): an
 * atom taken away and the same one added but for one argument, whose old
 * and new values are two of the use's arguments (`at(truck, from)` to
 * `at(truck, to)`).
 */
export function movesIn(
  use: { args: readonly string[]; add: readonly Atom[]; remove: readonly Atom[] },
  arity: number,
): ArgumentMove[] {
  const out: ArgumentMove[] = [];
  for (const r of use.remove) {
    for (const a of use.add) {
      if (a.pred !== r.pred || a.args.length !== r.args.length) continue;
      const differ = a.args.map((x, i) => x !== r.args[i] ? i : -1).filter((i) => i >= 0);
      if (differ.length !== 1) continue;
      const j = differ[0];
      for (let f = 0; f < arity; f++) {
        for (let t = 0; t < arity; t++) {
          if (f !== t && use.args[f] === r.args[j] && use.args[t] === a.args[j]) {
            out.push({ pred: r.pred, position: j, from: f, to: t });
          }
        }
      }
    }
  }
  return out;
}

/** The argument moves every use of an action shares. */
function movesOf(
  list: readonly { args: string[]; add: readonly Atom[]; remove: readonly Atom[] }[],
  arity: number,
): ArgumentMove[] {
  const keyOf = (m: ArgumentMove) => `${m.pred}\u0001${m.position}\u0001${m.from}\u0001${m.to}`;
  let shared = new Map(movesIn(list[0], arity).map((m) => [keyOf(m), m]));
  for (const u of list.slice(1)) {
    const here = new Set(movesIn(u, arity).map(keyOf));
    shared = new Map([...shared].filter(([k]) => here.has(k)));
  }
  return [...shared.values()];
}

/**
 * Distances along a mover's graph in indexed states, cached per state and
 * target: a search backwards from the target, each node's predecessors
 * found by joining the step conditions with `v` bound.
 */
export class MoverDistances {
  /** Distances per graph (states with the same atoms of the edge predicates share one). */
  readonly #byGraph = new Map<string, Map<string, Map<string, number>>>();
  readonly #graphOf = new WeakMap<StateIndex, string>();
  readonly #preds: string[];

  /** Distances along `mover`. */
  constructor(readonly mover: Mover) {
    this.#preds = [...new Set(mover.steps.flatMap((s) => s.edge.literals.map((l) => l.pred)))];
  }

  /** The key of a state's graph: the atoms of the edge predicates. */
  #graph(state: StateIndex): string {
    let key = this.#graphOf.get(state);
    if (key === undefined) {
      key = this.#preds.map((p) =>
        `${p}:${state.atoms(p, []).map((a) => a.join(" ")).sort().join(",")}`
      ).join(";");
      this.#graphOf.set(state, key);
    }
    return key;
  }

  /** Steps from `a` to `t` in `state`; the number of nodes when no path leads there. */
  distance(state: StateIndex, a: string, t: string): number {
    const graph = this.#graph(state);
    let byTarget = this.#byGraph.get(graph);
    if (!byTarget) this.#byGraph.set(graph, byTarget = new Map());
    let dist = byTarget.get(t);
    if (!dist) {
      dist = new Map([[t, 0]]);
      let frontier = [t];
      while (frontier.length > 0) {
        const next: string[] = [];
        for (const v of frontier) {
          const d = dist.get(v)! + 1;
          for (const step of this.mover.steps) {
            for (const a of assignments(step.edge, state, [undefined, v], Infinity, true)) {
              const u = a[0];
              if (u === undefined || dist.has(u) || !state.fits(u, this.mover.type)) continue;
              dist.set(u, d);
              next.push(u);
            }
          }
        }
        frontier = next;
      }
      byTarget.set(t, dist);
    }
    return dist.get(a) ?? state.objectsOf(this.mover.type).length;
  }

  /** Whether `a` is fewer steps from `t` than `b` is. */
  closer(state: StateIndex, a: string, b: string, t: string): boolean {
    return this.distance(state, a, t) < this.distance(state, b, t);
  }

  /**
   * Whether some place of `state` lies two or more steps from another it
   * leads to: where none does (a lift that goes from any floor of its
   * building to any other), going toward a place is going to it.
   */
  spread(state: StateIndex): boolean {
    const places = state.objectsOf(this.mover.type);
    // (A place no path leads to is as far as there are places.)
    return places.some((t) =>
      places.some((a) => {
        const d = this.distance(state, a, t);
        return d >= 2 && d < places.length;
      })
    );
  }
}

/**
 * The expression of a mover's step count from `a` to `b` (variable names or
 * terms): `distance(u, v: T, <edge>, a, b)`, the edge the disjunction of its
 * actions' step conditions.
 */
export function distanceText(mover: Mover, a: string, b: string): string {
  return `distance(u, v: ${mover.type}, ${stepText(mover, "u", "v")}, ${a}, ${b})`;
}

/**
 * A step of `mover` from `a` to `b` (variable names) as an expression: the
 * disjunction of its actions' step conditions, their other variables
 * quantified.
 */
export function stepText(mover: Mover, a: string, b: string): string {
  const texts = mover.steps.map((s) => {
    const names = s.edge.types.map((_, i) =>
      i === 0 ? a : i === 1 ? b : freshName(`w${i - 1}`, [a, b])
    );
    return existentialText(s.edge, names, 2);
  });
  const unique = [...new Set(texts)];
  return unique.length === 1 ? unique[0] : unique.map((e) => `(${e})`).join(" or ");
}
