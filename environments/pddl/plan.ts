/**
 * The PDDL expert's planner.
 *
 * Search is lazy greedy best-first search on the FF heuristic (the size of
 * a relaxed plan extracted from h_add's best supporters) with FF's helpful
 * actions as preferred operators, as Fast Downward's
 * `lazy_greedy([ff], preferred=[ff])`: a state's heuristic is computed
 * when it is expanded and its successors are queued with its value, the
 * queues of preferred successors boosted whenever the best value improves.
 * When that has run for about a second without a plan, a goal agenda joins
 * it (reaching the goal's conditions one at a time, towers from the
 * bottom), and they take turns. Plans are then shortened by action
 * elimination.
 *
 * A relaxed plan may not use a fact that no action adds for two actions
 * that delete it (a spanner's `useable`: one nut each); a state where it
 * must is likely a dead end, and is put after the others.
 *
 * A problem is grounded once (relaxed reachability from the state planned
 * from) and cached per world: facts of predicates no action changes are
 * folded into the actions, the others are numbered, and each ground action
 * keeps its preconditions, negative preconditions, adds and deletes as
 * integer arrays. A search state is the sorted array of its true fact
 * numbers, stored once in a flat pool and found by hash; an open list entry
 * is a state number and an action number.
 *
 * Plans are deterministic: ground actions are ordered canonically (schema,
 * then objects), successors are queued in that order, ties between best
 * supporters go to the first action, and budgets count states, not time;
 * so neither the order of a state's facts nor which cached grounding is
 * used changes the plan.
 *
 * @module
 */
import {
  changingPredicates,
  EQUALITY,
  type PddlAction,
  type PddlAtom,
  plannedEffects,
} from "./parse.ts";
import type { Fact, GroundAction, PddlWorld } from "./world.ts";
import { groundCondition, type GroundLiteral } from "./condition.ts";

/** Options of {@linkcode planPddl}. */
export interface PlanOptions {
  /** Most states evaluated (all searches together) before giving up. @default 200000 */
  maxExpansions?: number;
  /** Facts to reach instead of the world's goal. */
  goal?: readonly Fact[];
}

/**
 * A plan from `state` to the world's goal (or `options.goal`), as ground
 * actions, or `undefined` when the search finds none within its budget.
 *
 * @example Usage
 * ```ts ignore
 * const plan = planPddl(world, world.initial());
 * console.log(plan?.map(actionText));
 * ```
 */
export function planPddl(
  world: PddlWorld,
  state: ReadonlySet<Fact> = world.initial(),
  options: PlanOptions = {},
): GroundAction[] | undefined {
  const task = taskFor(world, state);
  const goal = goalOf(
    task,
    options.goal
      ? options.goal.map((fact) => ({ fact, negated: false }))
      : world.goal().map((g) => ({ fact: g.fact, negated: g.negated })),
  );
  if (!goal) return undefined;
  const start = factsOf(task, state);
  const ops = search(task, start, goal, options.maxExpansions ?? 200000);
  return ops?.map((op) => groundAction(task, op));
}

/**
 * A plan that reaches the goal's conditions one at a time, keeping those
 * already reached: the way a person demonstrates a task, and what makes
 * each condition's steps a segment of their own for induction. The next
 * condition is the one with the shortest plan among those after which the
 * rest of the goal stays reachable without undoing it (checked on the
 * delete relaxation without the actions that delete it: a one-step
 * look-ahead that builds towers from the bottom); `undefined` when some
 * condition cannot be reached this way.
 *
 * @example Usage
 * ```ts ignore
 * const plan = serialPlan(world);
 * ```
 */
export function serialPlan(
  world: PddlWorld,
  options: Omit<PlanOptions, "goal"> = {},
): GroundAction[] | undefined {
  const goal = world.goal().filter((g) => !g.negated).map((g) => g.fact);
  let state: ReadonlySet<Fact> = world.initial();
  const done = goal.filter((f) => state.has(f));
  let remaining = goal.filter((f) => !state.has(f));
  const plan: GroundAction[] = [];
  const run = (steps: readonly GroundAction[], from: ReadonlySet<Fact>) =>
    steps.reduce((s, g) => world.apply(g, s), from);
  while (remaining.length > 0) {
    const candidates = remaining.flatMap((fact) => {
      const steps = planPddl(world, state, { ...options, goal: [...done, fact] });
      return steps ? [{ fact, steps, after: run(steps, state) }] : [];
    }).sort((a, b) => a.steps.length - b.steps.length);
    if (candidates.length === 0) return undefined;
    const next = candidates.find((c) => keeps(world, c.after, goal, c.fact)) ?? candidates[0];
    plan.push(...next.steps);
    state = next.after;
    for (const f of remaining) if (state.has(f)) done.push(f);
    remaining = remaining.filter((f) => !state.has(f));
  }
  // The conditions are reached one at a time: a negative one, or a positive one a later step
  // undid, may not hold at the end; then there is no serial plan (plan the goal as a whole).
  return world.satisfied(state) ? plan : undefined;
}

/** Whether `goal` is reachable from `state` on the delete relaxation without deleting `kept`. */
function keeps(
  world: PddlWorld,
  state: ReadonlySet<Fact>,
  goal: readonly Fact[],
  kept: Fact,
): boolean {
  const task = taskFor(world, state);
  const target = goalOf(task, goal.map((fact) => ({ fact, negated: false })));
  return target !== undefined &&
    reachableKeeping(task, factsOf(task, state), target, idOf(task, kept));
}

// --- Grounding -------------------------------------------------------------

/** Integer lists in compressed rows: row `i` is `data[start[i]]` up to `data[start[i + 1]]`. */
interface Rows {
  start: Int32Array;
  data: Int32Array;
}

/** Rows built one at a time. */
class RowList {
  #start = new IntList();
  #data = new IntList();
  constructor() {
    this.#start.push(0);
  }
  /** Appends the distinct values, ascending; the row. */
  add(values: ArrayLike<number>): Int32Array {
    const from = this.#data.length;
    for (let i = 0; i < values.length; i++) {
      // Insertion into the sorted row, skipping duplicates: rows are short.
      const v = values[i];
      let k = this.#data.length;
      while (k > from && this.#data.data[k - 1] > v) k--;
      if (k > from && this.#data.data[k - 1] === v) continue;
      this.#data.push(v);
      this.#data.data.copyWithin(k + 1, k, this.#data.length - 1);
      this.#data.data[k] = v;
    }
    this.#start.push(this.#data.length);
    return this.#data.data.subarray(from, this.#data.length);
  }
  /** Appends the values as they are. */
  addAsIs(values: ArrayLike<number>): void {
    for (let i = 0; i < values.length; i++) this.#data.push(values[i]);
    this.#start.push(this.#data.length);
  }
  rows(): Rows {
    return {
      start: this.#start.data.slice(0, this.#start.length),
      data: this.#data.data.slice(0, this.#data.length),
    };
  }
}

/**
 * For each of `count` values, the rows that hold it: from rows, or from one
 * value per row (-1 for none).
 */
function invert(from: Rows | Int32Array, count: number): Rows {
  const start = new Int32Array(count + 1);
  const each = (visit: (row: number, value: number) => void) => {
    if (from instanceof Int32Array) from.forEach((v, row) => v >= 0 && visit(row, v));
    else {
      for (let row = 0; row + 1 < from.start.length; row++) {
        for (let k = from.start[row]; k < from.start[row + 1]; k++) visit(row, from.data[k]);
      }
    }
  };
  each((_, v) => start[v + 1]++);
  for (let v = 0; v < count; v++) start[v + 1] += start[v];
  const data = new Int32Array(start[count]);
  const fill = start.slice(0, count);
  each((row, v) => data[fill[v]++] = row);
  return { start, data };
}

/** Whether row `row` holds the value. */
function includes(rows: Rows, row: number, value: number): boolean {
  for (let k = rows.start[row]; k < rows.start[row + 1]; k++) {
    if (rows.data[k] === value) return true;
  }
  return false;
}

/** A growable list of integers. */
class IntList {
  data = new Int32Array(256);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(2 * this.length);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
}

/** A problem grounded for search from some state: only what can change is left in states. */
interface Task {
  /**
   * Every fact reachable on the delete relaxation, by text, with its number
   * among the changeable facts (-1 for static ones).
   */
  reached: Map<Fact, number>;
  /** The changeable facts (those of predicates some action adds or deletes), by number. */
  facts: Fact[];
  /** The facts of predicates no action changes: they hold in every state planned from. */
  staticTrue: ReadonlySet<Fact>;
  /** How many ground actions there are: numbered in canonical order (schema, then objects). */
  actionCount: number;
  /** Each action's schema (by number in `schemas`) and objects (by number in `objects`). */
  schemas: readonly PddlAction[];
  objects: readonly string[];
  schemaOf: Int32Array;
  args: Rows;
  /** Per action, fact numbers: distinct preconditions, negative preconditions, adds, deletes (sorted). */
  pre: Rows;
  neg: Rows;
  add: Rows;
  del: Rows;
  /**
   * Successor generation: the actions checked when a fact holds (each
   * under one of its preconditions), and those checked always.
   */
  byTrigger: Rows;
  always: Int32Array;
  /** The heuristic: the actions each fact is a precondition of, and those without preconditions. */
  byPre: Rows;
  free: Int32Array;
  /**
   * Per action, the facts it uses up: preconditions it deletes that no
   * action adds (a spanner's `useable`), so each serves one such action in
   * any plan; whether any action does; and the actions adding each fact.
   */
  consumes: Rows;
  consuming: boolean;
  achievers: Rows;
  /** The actions deleting each fact, when first needed. */
  deleters?: Rows;
  scratch?: Scratch;
}

/** The number of a changeable fact, or -1 (static, or never reached). */
function idOf(task: Task, fact: Fact): number {
  return task.reached.get(fact) ?? -1;
}

/** Ground action `op` as the world's actions are written. */
function groundAction(task: Task, op: number): GroundAction {
  const args: string[] = [];
  for (let k = task.args.start[op]; k < task.args.start[op + 1]; k++) {
    args.push(task.objects[task.args.data[k]]);
  }
  return { action: task.schemas[task.schemaOf[op]], args };
}

/** A term of a schema's literal: a parameter's position (`>= 0`), or object `n` as `-1 - n`. */
type Term = number;

interface Literal {
  pred: number;
  args: Term[];
}

interface Schema {
  /** Per parameter, its objects in declaration order, and a mark per object. */
  domains: number[][];
  allowed: Uint8Array[];
  /** Positive literals, and whether each is of a changeable predicate. */
  pos: Literal[];
  changes: boolean[];
  neg: Literal[];
  /** `(= a b)` literals: equal (`negated` false) or different arguments. */
  eq: { a: Term; b: Term; negated: boolean }[];
  add: Literal[];
  del: Literal[];
  /** Parameters in no positive literal: enumerated over their type. */
  free: number[];
  /** Per positive literal matched first, the order to match the others in; and with none first. */
  orders: number[][];
  order: number[];
}

/** The other literals, most bound first, once `first` (if any) is matched. */
function joinOrder(pos: readonly Literal[], first: number): number[] {
  const bound = new Set(first >= 0 ? pos[first].args : []);
  const left = pos.map((_, i) => i).filter((i) => i !== first);
  const order: number[] = [];
  while (left.length > 0) {
    const unbound = (i: number) => pos[i].args.filter((a) => a >= 0 && !bound.has(a)).length;
    let best = 0;
    for (let k = 1; k < left.length; k++) if (unbound(left[k]) < unbound(left[best])) best = k;
    const [next] = left.splice(best, 1);
    order.push(next);
    for (const a of pos[next].args) bound.add(a);
  }
  return order;
}

const groundings = new WeakMap<PddlWorld, Task[]>();
const CACHED_PER_WORLD = 4;

/**
 * The grounding to plan from `state` with: a cached one whose reachable
 * facts include the state's and whose static facts all hold in it (then its
 * actions include every action reachable from the state), or a new one.
 */
function taskFor(world: PddlWorld, state: ReadonlySet<Fact>): Task {
  let list = groundings.get(world);
  if (!list) groundings.set(world, list = []);
  for (const t of list) {
    let statics = 0;
    let fits = true;
    for (const f of state) {
      if (!t.reached.has(f)) {
        fits = false;
        break;
      }
      if (t.staticTrue.has(f)) statics++;
    }
    if (fits && statics === t.staticTrue.size) return t;
  }
  const task = ground(world, state);
  list.push(task);
  if (list.length > CACHED_PER_WORLD) list.shift();
  return task;
}

const NONE: readonly number[] = [];
/** The ways a condition-free action's precondition holds: one, its literals. */
const ALWAYS: readonly (readonly GroundLiteral[])[] = [[]];

/**
 * Grounds the world's actions reachable from `init` on the delete
 * relaxation. Facts of changeable predicates go through a worklist: each
 * is matched against the positive precondition literals of its predicate
 * and joined with the facts processed before it (a literal before the one
 * it matched may not match it again), so every binding is found once and a
 * schema is only retried with new facts. Static facts are an index from
 * the start.
 */
function ground(world: PddlWorld, init: ReadonlySet<Fact>): Task {
  const objects = [...world.objects.keys()];
  const objectIds = new Map(objects.map((o, i) => [o, i]));
  const objectId = (o: string) => {
    let id = objectIds.get(o);
    if (id === undefined) objectIds.set(o, id = objects.push(o) - 1);
    return id;
  };
  const preds: string[] = [];
  const predIds = new Map<string, number>();
  const predId = (p: string) => {
    let id = predIds.get(p);
    if (id === undefined) predIds.set(p, id = preds.push(p) - 1);
    return id;
  };
  const changing = changingPredicates(world.domain);

  const schemas: Schema[] = world.domain.actions.map((action) => {
    const index = new Map(action.params.map((p, i) => [p.name, i]));
    const term = (a: string): Term => index.get(a) ?? -1 - objectId(a);
    const literal = (l: PddlAtom): Literal => ({ pred: predId(l.pred), args: l.args.map(term) });
    const effects = plannedEffects(action);
    const facts = action.precondition.filter((l) => l.pred !== EQUALITY);
    const positive = facts.filter((l) => !l.negated);
    const pos = positive.map(literal);
    const inPos = new Set(pos.flatMap((l) => l.args));
    const domains = action.params.map((p) => world.objectsOf(p.type).map(objectId));
    return {
      domains,
      allowed: domains.map((d) => {
        const marks = new Uint8Array(objects.length);
        for (const o of d) marks[o] = 1;
        return marks;
      }),
      pos,
      changes: positive.map((l) => changing.has(l.pred)),
      neg: facts.filter((l) => l.negated).map(literal),
      eq: action.precondition.filter((l) => l.pred === EQUALITY).map((l) => ({
        a: term(l.args[0]),
        b: term(l.args[1]),
        negated: l.negated,
      })),
      // Chances are planned as their most likely outcomes; the expert replans when one differs.
      add: effects.add.map(literal),
      del: effects.del.map(literal),
      free: action.params.map((_, i) => i).filter((i) => !inPos.has(i)),
      orders: pos.map((_, first) => joinOrder(pos, first)),
      order: joinOrder(pos, -1),
    };
  });

  // Facts by number: predicate, objects; and per predicate, by object at each position.
  const reached = new Map<Fact, number>();
  const factPred = new IntList();
  const factStart = new IntList();
  const factArgs = new IntList();
  factStart.push(0);
  const all: number[][] = [];
  const byArg: (number[] | undefined)[][][] = [];
  const queue: number[] = [];
  const textOf = (pred: number, args: ArrayLike<number>) => {
    let out = preds[pred];
    for (let i = 0; i < args.length; i++) out += " " + objects[args[i]];
    return out;
  };
  const index = (f: number) => {
    const p = factPred.data[f];
    (all[p] ??= []).push(f);
    const positions = byArg[p] ??= [];
    for (let k = factStart.data[f], i = 0; k < factStart.data[f + 1]; k++, i++) {
      ((positions[i] ??= [])[factArgs.data[k]] ??= []).push(f);
    }
  };
  const reach = (pred: number, args: ArrayLike<number>) => {
    const text = textOf(pred, args);
    let f = reached.get(text);
    if (f !== undefined) return f;
    f = factPred.length;
    reached.set(text, f);
    factPred.push(pred);
    for (let i = 0; i < args.length; i++) factArgs.push(args[i]);
    factStart.push(factArgs.length);
    if (changing.has(preds[pred])) queue.push(f);
    else index(f);
    return f;
  };
  for (const text of init) {
    const [pred, ...args] = text.split(" ");
    reach(predId(pred), args.map(objectId));
  }

  // The actions found, in flat lists.
  const actSchema = new IntList();
  const actArgs = new IntList();
  const argStart = new IntList();
  const actPre = new IntList();
  const preStart = new IntList();
  const actAdd = new IntList();
  const addStart = new IntList();
  const matched: number[] = [];
  const scratchArgs: number[] = [];
  const valueOf = (t: Term, binding: Int32Array) => t >= 0 ? binding[t] : -1 - t;

  const emit = (si: number, binding: Int32Array) => {
    const s = schemas[si];
    for (const e of s.eq) {
      if ((valueOf(e.a, binding) === valueOf(e.b, binding)) === e.negated) return;
    }
    actSchema.push(si);
    argStart.push(actArgs.length);
    for (const o of binding) actArgs.push(o);
    preStart.push(actPre.length);
    for (let i = 0; i < s.pos.length; i++) if (s.changes[i]) actPre.push(matched[i]);
    addStart.push(actAdd.length);
    for (const l of s.add) {
      for (let i = 0; i < l.args.length; i++) scratchArgs[i] = valueOf(l.args[i], binding);
      scratchArgs.length = l.args.length;
      actAdd.push(reach(l.pred, scratchArgs));
    }
  };
  const complete = (si: number, binding: Int32Array, k: number) => {
    const s = schemas[si];
    if (k === s.free.length) return emit(si, binding);
    const p = s.free[k];
    for (const o of s.domains[p]) {
      binding[p] = o;
      complete(si, binding, k + 1);
    }
    binding[p] = -1;
  };
  /** Binds the literal's parameters to fact `f`'s objects; how many it bound (into `bound`), or -1. */
  const unify = (s: Schema, l: Literal, f: number, binding: Int32Array, bound: number[]) => {
    const mark = bound.length;
    const from = factStart.data[f];
    for (let i = 0; i < l.args.length; i++) {
      const t = l.args[i];
      const o = factArgs.data[from + i];
      let ok: boolean;
      if (t < 0) ok = -1 - t === o;
      else if (binding[t] >= 0) ok = binding[t] === o;
      else if (s.allowed[t][o] === 1) {
        binding[t] = o;
        bound.push(t);
        ok = true;
      } else ok = false;
      if (!ok) {
        while (bound.length > mark) binding[bound.pop()!] = -1;
        return -1;
      }
    }
    return bound.length - mark;
  };
  const join = (
    si: number,
    order: number[],
    k: number,
    binding: Int32Array,
    pivot: number,
    current: number,
  ) => {
    const s = schemas[si];
    if (k === order.length) return complete(si, binding, 0);
    const li = order[k];
    const l = s.pos[li];
    let candidates: readonly number[] = all[l.pred] ?? NONE;
    for (let i = 0; i < l.args.length; i++) {
      const v = valueOf(l.args[i], binding);
      if (v < 0) continue;
      const list = byArg[l.pred]?.[i]?.[v] ?? NONE;
      if (list.length < candidates.length || candidates === all[l.pred]) candidates = list;
    }
    const bound: number[] = [];
    for (const f of candidates) {
      // Each binding once: literals before the pivot match facts processed before it.
      if (f === current && li < pivot) continue;
      if (unify(s, l, f, binding, bound) < 0) continue;
      matched[li] = f;
      join(si, order, k + 1, binding, pivot, current);
      while (bound.length > 0) binding[bound.pop()!] = -1;
    }
  };

  const uses: [number, number][][] = preds.map(() => []);
  schemas.forEach((s, si) => {
    s.pos.forEach((l, li) => {
      if (s.changes[li]) uses[l.pred].push([si, li]);
    });
    if (!s.changes.includes(true)) {
      join(si, s.order, 0, new Int32Array(s.domains.length).fill(-1), -1, -1);
    }
  });
  for (let q = 0; q < queue.length; q++) {
    const f = queue[q];
    index(f);
    for (const [si, li] of uses[factPred.data[f]] ?? NONE) {
      const s = schemas[si];
      const binding = new Int32Array(s.domains.length).fill(-1);
      if (unify(s, s.pos[li], f, binding, []) < 0) continue;
      matched[li] = f;
      join(si, s.orders[li], 0, binding, li, f);
    }
  }
  const found = actSchema.length;
  argStart.push(actArgs.length);
  preStart.push(actPre.length);
  addStart.push(actAdd.length);

  // Changeable facts are numbered in the order reached.
  const number = new Int32Array(factPred.length).fill(-1);
  const facts: Fact[] = [];
  const staticTrue = new Set<Fact>();
  for (const [text, f] of reached) {
    if (changing.has(preds[factPred.data[f]])) number[f] = facts.push(text) - 1;
    else staticTrue.add(text);
  }
  for (const [text, f] of reached) reached.set(text, number[f]);

  const A = actArgs.data;
  const S = argStart.data;
  const order = new Int32Array(found).map((_, i) => i).sort((x, y) => {
    if (actSchema.data[x] !== actSchema.data[y]) return actSchema.data[x] - actSchema.data[y];
    for (let i = 0; i < S[x + 1] - S[x]; i++) {
      const d = A[S[x] + i] - A[S[y] + i];
      if (d !== 0) return d;
    }
    return 0;
  });
  const schemaOf = new IntList();
  const [args, pre, neg, add, del] = [0, 0, 0, 0, 0].map(() => new RowList());
  const values: number[] = [];
  const lookup = (l: Literal, binding: Int32Array) => {
    for (let i = 0; i < l.args.length; i++) scratchArgs[i] = valueOf(l.args[i], binding);
    scratchArgs.length = l.args.length;
    return reached.get(textOf(l.pred, scratchArgs));
  };
  // A fact's truth for a condition: static facts are known, facts never reached never hold.
  const known = (fact: Fact) => {
    const f = reached.get(fact);
    return f === undefined ? false : f < 0 ? true : undefined;
  };
  const objectsOf = (type: string) => world.objectsOf(type);
  next: for (const a of order) {
    const si = actSchema.data[a];
    const s = schemas[si];
    const binding = A.subarray(S[a], S[a + 1]);
    const negated: number[] = [];
    for (const l of s.neg) {
      const f = lookup(l, binding);
      // Never reached: never holds. Static and reached: always holds, so never applicable.
      if (f === undefined) continue;
      if (f < 0) continue next;
      negated.push(f);
    }
    // A condition beyond literals makes one ground action per way it can hold.
    let alternatives: readonly (readonly GroundLiteral[])[] = ALWAYS;
    const action = world.domain.actions[si];
    if (action.condition) {
      const names = new Map(action.params.map((p, i) => [p.name, objects[binding[i]]]));
      try {
        alternatives = groundCondition(action.condition, names, objectsOf, known);
      } catch (e) {
        throw new RangeError(
          `action "${action.name} ${[...names.values()].join(" ")}": ${(e as Error).message}`,
        );
      }
    }
    for (const alternative of alternatives) {
      values.length = 0;
      values.push(...negated);
      for (const l of alternative) if (l.negated) values.push(reached.get(l.fact)!);
      neg.add(values);
      values.length = 0;
      for (let k = addStart.data[a]; k < addStart.data[a + 1]; k++) {
        values.push(number[actAdd.data[k]]);
      }
      const adds = add.add(values);
      values.length = 0;
      for (const l of s.del) {
        const f = lookup(l, binding);
        // Deletes come first, then adds: a fact both deleted and added stays.
        if (f !== undefined && f >= 0 && !adds.includes(f)) values.push(f);
      }
      del.add(values);
      values.length = 0;
      for (let k = preStart.data[a]; k < preStart.data[a + 1]; k++) {
        values.push(number[actPre.data[k]]);
      }
      for (const l of alternative) {
        const f = reached.get(l.fact)!;
        if (!l.negated && !values.includes(f)) values.push(f);
      }
      pre.add(values);
      args.addAsIs(binding);
      schemaOf.push(si);
    }
  }
  const actionCount = schemaOf.length;

  // Each action is checked when its least common precondition holds.
  const preRows = pre.rows();
  const addRows = add.rows();
  const delRows = del.rows();
  const added = new Uint8Array(facts.length);
  for (const f of addRows.data) added[f] = 1;
  const consumes = new RowList();
  for (let a = 0; a < actionCount; a++) {
    values.length = 0;
    for (let k = delRows.start[a]; k < delRows.start[a + 1]; k++) {
      const f = delRows.data[k];
      if (!added[f] && includes(preRows, a, f)) values.push(f);
    }
    consumes.add(values);
  }
  const consumesRows = consumes.rows();
  const occurrences = new Int32Array(facts.length);
  for (const f of preRows.data) occurrences[f]++;
  const trigger = new Int32Array(actionCount).fill(-1);
  for (let a = 0; a < actionCount; a++) {
    for (let k = preRows.start[a]; k < preRows.start[a + 1]; k++) {
      const f = preRows.data[k];
      if (trigger[a] < 0 || occurrences[f] < occurrences[trigger[a]]) trigger[a] = f;
    }
  }
  return {
    reached,
    facts,
    staticTrue,
    actionCount,
    schemas: world.domain.actions,
    objects,
    schemaOf: schemaOf.data.slice(0, actionCount),
    args: args.rows(),
    pre: preRows,
    neg: neg.rows(),
    add: addRows,
    del: delRows,
    byTrigger: invert(trigger, facts.length),
    always: Int32Array.from(trigger.keys()).filter((a) => trigger[a] < 0),
    byPre: invert(preRows, facts.length),
    free: Int32Array.from(trigger.keys()).filter((a) => trigger[a] < 0),
    consumes: consumesRows,
    consuming: consumesRows.data.length > 0,
    achievers: invert(addRows, facts.length),
  };
}

/** A goal as fact numbers: those to hold, and those not to. */
interface Goal {
  pos: Int32Array;
  neg: Int32Array;
}

/** The goal's literals in the task's numbers; `undefined` when it can never hold. */
function goalOf(
  task: Task,
  literals: readonly { fact: Fact; negated: boolean }[],
): Goal | undefined {
  const pos = new Set<number>();
  const neg = new Set<number>();
  for (const { fact, negated } of literals) {
    if (fact.startsWith(EQUALITY + " ")) {
      const [, a, b] = fact.split(" ");
      if ((a === b) === negated) return undefined;
      continue;
    }
    const id = idOf(task, fact);
    if (id >= 0) (negated ? neg : pos).add(id);
    else if (task.staticTrue.has(fact) === negated) return undefined;
  }
  return { pos: Int32Array.from(pos), neg: Int32Array.from(neg) };
}

/** A state's changeable facts, as sorted numbers. */
function factsOf(task: Task, state: ReadonlySet<Fact>): Int32Array {
  const out: number[] = [];
  for (const f of state) {
    const id = idOf(task, f);
    if (id >= 0) out.push(id);
  }
  return Int32Array.from(out).sort();
}

// --- Search ----------------------------------------------------------------

/** The heuristic value of a dead end, and the cost of a fact not reached. */
const UNREACHABLE = 0x3fffffff;
/** What each fact a relaxed plan must use up twice adds to the heuristic: likely a dead end, so last. */
const CONFLICT = 1000;
/** How much a queue of preferred successors is favoured after progress, as in Fast Downward. */
const BOOST = 1000;

/** Buffers for one task's searches, reused: planning is synchronous, and searches taking turns leave them clean. */
interface Scratch {
  /** Per fact: h_add cost, best supporter, whether settled, whether a goal. */
  cost: Int32Array;
  support: Int32Array;
  settled: Uint8Array;
  isGoal: Uint8Array;
  /**
   * Per action, interleaved: its preconditions not yet settled and the sum
   * of their costs; and their values before any is settled.
   */
  counters: Int32Array;
  initialCounters: Int32Array;
  queue: CostQueue;
  /** The facts the last relaxed plan achieves, its actions, and the facts they use up (marked and listed, to clear). */
  needed: Uint8Array;
  marked: number[];
  inPlan: Uint8Array;
  plan: number[];
  spent: Uint8Array;
  spentList: number[];
  /** The state being expanded, and deletes being applied, as marks per fact. */
  holds: Uint8Array;
  deleting: Uint8Array;
  /** Applicable actions of the state being expanded, and a successor being built. */
  ops: Int32Array;
  child: Int32Array;
}

function scratchOf(task: Task): Scratch {
  const f = task.facts.length;
  const a = task.actionCount;
  return task.scratch ??= {
    cost: new Int32Array(f),
    support: new Int32Array(f),
    settled: new Uint8Array(f),
    isGoal: new Uint8Array(f),
    needed: new Uint8Array(f),
    spent: new Uint8Array(f),
    spentList: [],
    counters: new Int32Array(2 * a),
    initialCounters: new Int32Array(2 * a).map((_, i) =>
      i % 2 === 0 ? task.pre.start[i / 2 + 1] - task.pre.start[i / 2] : 0
    ),
    inPlan: new Uint8Array(a),
    plan: [],
    marked: [],
    queue: new CostQueue(),
    holds: new Uint8Array(f),
    deleting: new Uint8Array(f),
    ops: new Int32Array(a),
    child: new Int32Array(f),
  };
}

/**
 * h_FF of a state (`UNREACHABLE` for a dead end), leaving its relaxed plan
 * marked in the scratch (cleared by {@linkcode clearRelaxedPlan}). h_add is
 * computed by a generalised Dijkstra (an action fires when its last
 * precondition is settled) that stops once every goal is settled; a fact's
 * best supporter is the first action of least cost, so the plan does not
 * depend on the order facts are settled in.
 */
function evaluate(task: Task, facts: Int32Array, goal: Goal, excluded?: Uint8Array): number {
  const sc = scratchOf(task);
  const { cost, support, settled, isGoal, counters, queue } = sc;
  const { start: addStart, data: addData } = task.add;
  const { start: usedStart, data: usedData } = task.byPre;
  cost.fill(UNREACHABLE);
  settled.fill(0);
  counters.set(sc.initialCounters);
  queue.clear();
  let goalsLeft = 0;
  for (const g of goal.pos) {
    if (!isGoal[g]) goalsLeft++;
    isGoal[g] = 1;
  }
  for (const f of facts) {
    cost[f] = 0;
    support[f] = -1;
    queue.push(0, f);
  }
  // Actions without preconditions fire first, then each when its last precondition settles.
  for (const a of task.free) {
    if (excluded?.[a]) continue;
    for (let j = addStart[a]; j < addStart[a + 1]; j++) {
      const g = addData[j];
      if (1 < cost[g]) {
        cost[g] = 1;
        support[g] = a;
        queue.push(1, g);
      } else if (1 === cost[g] && a < support[g]) support[g] = a;
    }
  }
  // Alternatives to a supporter need their costs: with facts used up, no early stop.
  const all = task.consuming;
  while ((goalsLeft > 0 || all) && queue.size > 0) {
    const f = queue.pop();
    if (settled[f]) continue;
    settled[f] = 1;
    if (isGoal[f]) goalsLeft--;
    const c = cost[f];
    for (let k = usedStart[f]; k < usedStart[f + 1]; k++) {
      const a = usedData[k];
      const sum = counters[2 * a + 1] + c;
      counters[2 * a + 1] = sum < UNREACHABLE ? sum : UNREACHABLE;
      if (--counters[2 * a] > 0 || excluded?.[a]) continue;
      const ca = counters[2 * a + 1] + 1;
      for (let j = addStart[a]; j < addStart[a + 1]; j++) {
        const g = addData[j];
        if (ca < cost[g]) {
          cost[g] = ca;
          support[g] = a;
          queue.push(ca, g);
        } else if (ca === cost[g] && a < support[g]) support[g] = a;
      }
    }
  }
  for (const g of goal.pos) isGoal[g] = 0;
  if (goalsLeft > 0) return UNREACHABLE;
  // The relaxed plan: best supporters from the goals back.
  const { needed, inPlan, plan } = sc;
  const { start: preStart, data: preData } = task.pre;
  const stack: number[] = [];
  for (const g of goal.pos) if (cost[g] > 0) stack.push(g);
  const marked = sc.marked;
  let conflicts = 0;
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (needed[f]) continue;
    needed[f] = 1;
    marked.push(f);
    let a = support[f];
    if (inPlan[a]) continue;
    if (task.consuming && spends(task, sc, a)) {
      a = unspentAchiever(task, sc, f);
      if (a < 0) {
        // Every achiever needs something already used up: likely a dead end.
        conflicts++;
        a = support[f];
      }
    }
    inPlan[a] = 1;
    plan.push(a);
    for (let k = preStart[a]; k < preStart[a + 1]; k++) {
      if (cost[preData[k]] > 0) stack.push(preData[k]);
    }
    for (let k = task.consumes.start[a]; k < task.consumes.start[a + 1]; k++) {
      const p = task.consumes.data[k];
      if (!sc.spent[p]) sc.spentList.push(p);
      sc.spent[p] = 1;
    }
  }
  for (const p of sc.spentList) sc.spent[p] = 0;
  sc.spentList.length = 0;
  // A negative goal condition that fails takes an action, at least.
  let extra = conflicts * CONFLICT;
  for (const g of goal.neg) if (sortedHas(facts, g)) extra++;
  return plan.length + extra;
}

/** Whether the action uses up a fact the relaxed plan has used up already. */
function spends(task: Task, sc: Scratch, a: number): boolean {
  for (let k = task.consumes.start[a]; k < task.consumes.start[a + 1]; k++) {
    if (sc.spent[task.consumes.data[k]]) return true;
  }
  return false;
}

/** The cheapest achiever of `f` (by h_add) that uses up nothing used up already; -1 if none. */
function unspentAchiever(task: Task, sc: Scratch, f: number): number {
  const { start, data } = task.achievers;
  const { start: preStart, data: preData } = task.pre;
  let best = -1;
  let bestCost = UNREACHABLE;
  for (let k = start[f]; k < start[f + 1]; k++) {
    const a = data[k];
    if (sc.inPlan[a]) return a;
    if (spends(task, sc, a)) continue;
    let c = 1;
    for (let j = preStart[a]; j < preStart[a + 1] && c < UNREACHABLE; j++) c += sc.cost[preData[j]];
    if (c < bestCost) {
      best = a;
      bestCost = c;
    }
  }
  return best;
}

/**
 * Whether the action is helpful (FF) in the state last evaluated: it adds
 * a fact the relaxed plan needs at its first step (of cost 1).
 */
function isPreferred(task: Task, sc: Scratch, op: number): boolean {
  const { start, data } = task.add;
  for (let k = start[op]; k < start[op + 1]; k++) {
    const f = data[k];
    if (sc.needed[f] && sc.cost[f] === 1) return true;
  }
  return false;
}

/** Clears the marks the last relaxed plan left. */
function clearRelaxedPlan(sc: Scratch): void {
  for (const a of sc.plan) sc.inPlan[a] = 0;
  sc.plan.length = 0;
  for (const f of sc.marked) sc.needed[f] = 0;
  sc.marked.length = 0;
}

/** Whether the ascending list holds the value. */
function sortedHas(list: Int32Array, value: number): boolean {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length && list[lo] === value;
}

/** Marks the state's facts in `holds` (or clears them). */
function mark(sc: Scratch, facts: Int32Array, value: 0 | 1): void {
  for (const f of facts) sc.holds[f] = value;
}

/** Whether the marked state satisfies the goal. */
function achieved(sc: Scratch, goal: Goal): boolean {
  for (const g of goal.pos) if (!sc.holds[g]) return false;
  for (const g of goal.neg) if (sc.holds[g]) return false;
  return true;
}

/** The actions applicable in the marked state, ascending, into `sc.ops`; their number. */
function successors(task: Task, sc: Scratch, facts: Int32Array): number {
  const { holds, ops } = sc;
  const { start: preStart, data: preData } = task.pre;
  const { start: negStart, data: negData } = task.neg;
  let n = 0;
  const check = (a: number) => {
    for (let k = preStart[a]; k < preStart[a + 1]; k++) if (!holds[preData[k]]) return;
    for (let k = negStart[a]; k < negStart[a + 1]; k++) if (holds[negData[k]]) return;
    ops[n++] = a;
  };
  for (const a of task.always) check(a);
  const { start, data } = task.byTrigger;
  for (const f of facts) for (let k = start[f]; k < start[f + 1]; k++) check(data[k]);
  ops.subarray(0, n).sort();
  return n;
}

/** The successor of `facts` by action `a`, sorted, into `sc.child`; its length. */
function successor(task: Task, sc: Scratch, facts: Int32Array, a: number): number {
  const { deleting, child } = sc;
  const { start: delStart, data: delData } = task.del;
  const { start: addStart, data: addData } = task.add;
  for (let k = delStart[a]; k < delStart[a + 1]; k++) deleting[delData[k]] = 1;
  let n = 0;
  let i = 0;
  let j = addStart[a];
  const end = addStart[a + 1];
  while (i < facts.length || j < end) {
    const f = facts[i];
    const g = addData[j];
    if (j >= end || (i < facts.length && f < g)) {
      if (!deleting[f]) child[n++] = f;
      i++;
    } else {
      if (i < facts.length && f === g) i++;
      child[n++] = g;
      j++;
    }
  }
  for (let k = delStart[a]; k < delStart[a + 1]; k++) deleting[delData[k]] = 0;
  return n;
}

/** A search run in turns: it yields after each state it evaluates, and returns a plan or `undefined`. */
type Search = Generator<void, number[] | undefined>;

/**
 * How long lazy search runs alone before the other searches join it, as
 * expansions times ground actions (what an evaluation costs, roughly):
 * under a second's work.
 */
const ALONE = 20_000_000;

/**
 * Lazy search, joined by the goal agenda once it has done `ALONE` work
 * without a plan (then they take turns, a state each): the first plan
 * found, shortened, or `undefined` when the budget is spent or lazy search
 * has expanded every reachable state.
 */
function search(task: Task, start: Int32Array, goal: Goal, budget: number): number[] | undefined {
  const lazy = lazySearch(task, start, goal);
  const turns: Search[] = [lazy];
  const alone = Math.ceil(ALONE / Math.max(task.actionCount, 1));
  for (let spent = 0, turn = 0; spent < budget; spent++, turn++) {
    if (spent === alone) turns.push(agenda(task, start, goal));
    const current = turns[turn % turns.length];
    const step = current.next();
    if (!step.done) continue;
    if (step.value) return eliminateActions(task, start, goal, step.value);
    // Lazy search has seen every reachable state: there is no plan.
    if (current === lazy) return undefined;
    turns.splice(turns.indexOf(current), 1);
  }
  return undefined;
}

/** Expansions a goal agenda spends on reaching one more goal condition. */
const AGENDA_STEP = 20000;

/**
 * The goal agenda: the goal's conditions reached one at a time, each by
 * lazy search for it and those reached before, taking the first (in the
 * goal's order) after which the rest stays reachable without undoing it
 * (on the delete relaxation without the actions that delete it). Towers
 * are built from the bottom this way: depot's crates, where searching for
 * the whole goal at once gets lost.
 */
function* agenda(task: Task, start: Int32Array, goal: Goal): Search {
  const sc = scratchOf(task);
  const plan: number[] = [];
  let state = start;
  const holds = (f: number) => sortedHas(state, f);
  for (;;) {
    const done = [...goal.pos].filter(holds);
    const remaining = [...goal.pos].filter((f) => !holds(f));
    if (remaining.length === 0) break;
    let first: { steps: number[]; after: Int32Array } | undefined;
    let next: typeof first;
    for (const f of remaining) {
      const sub = { pos: Int32Array.from([...done, f]), neg: new Int32Array(0) };
      const steps = yield* bounded(lazySearch(task, state, sub), AGENDA_STEP);
      if (!steps) continue;
      const after = replay(task, sc, state, steps);
      first ??= { steps, after };
      if (reachableKeeping(task, after, goal, f)) {
        next = { steps, after };
        break;
      }
    }
    next ??= first;
    if (!next) return undefined;
    plan.push(...next.steps);
    state = next.after;
  }
  // Negative goal conditions last.
  const rest = yield* bounded(lazySearch(task, state, goal), AGENDA_STEP);
  return rest && [...plan, ...rest];
}

/**
 * Whether the goal is reachable from the state on the delete relaxation
 * without the actions that delete fact `kept` (none when it is static).
 */
function reachableKeeping(task: Task, facts: Int32Array, goal: Goal, kept: number): boolean {
  const excluded = new Uint8Array(task.actionCount);
  if (kept >= 0) {
    task.deleters ??= invert(task.del, task.facts.length);
    const { start, data } = task.deleters;
    for (let k = start[kept]; k < start[kept + 1]; k++) excluded[data[k]] = 1;
  }
  const h = evaluate(task, facts, goal, excluded);
  clearRelaxedPlan(scratchOf(task));
  return h !== UNREACHABLE;
}

/** The search's plan if it finds one within `budget` states; yields as it does. */
function* bounded(search: Search, budget: number): Search {
  for (let spent = 0; spent < budget; spent++) {
    const step = search.next();
    if (step.done) return step.value;
    yield;
  }
  return undefined;
}

/** The state after the steps. */
function replay(task: Task, sc: Scratch, facts: Int32Array, steps: readonly number[]): Int32Array {
  let state = facts;
  for (const op of steps) state = sc.child.slice(0, successor(task, sc, state, op));
  return state;
}

/**
 * Lazy greedy best-first search with preferred operators. Entries (a state
 * and an action) are queued with the state's heuristic value in three
 * queues taken in turns: all successors first in first out; the preferred
 * ones first in first out; the preferred ones last in first out. The first
 * two are Fast Downward's; the third explores plateaus depth-first (a
 * building's lift going on to the floor where someone waits, where
 * breadth-first tries every other lift first), while the others keep it
 * from wandering off where that fails (trucks driving around in
 * logistics). Preferred queues are boosted on progress.
 */
function* lazySearch(task: Task, start: Int32Array, goal: Goal): Search {
  const sc = scratchOf(task);
  const space = new StateSpace();
  const open = [new PairQueue(), new PairQueue(), new PairQueue(true)];
  const priority = [0, 0, 0];
  let best = UNREACHABLE;
  let id = space.insert(start, start.length, -1, -1);
  for (;;) {
    const facts = space.facts(id);
    const h = evaluate(task, facts, goal);
    if (h !== UNREACHABLE) {
      mark(sc, facts, 1);
      if (achieved(sc, goal)) {
        mark(sc, facts, 0);
        clearRelaxedPlan(sc);
        return space.path(id);
      }
      if (h < best) {
        if (best !== UNREACHABLE) { for (let i = 1; i < open.length; i++) priority[i] -= BOOST; }
        best = h;
      }
      const n = successors(task, sc, facts);
      for (let k = 0; k < n; k++) {
        const op = sc.ops[k];
        open[0].push(h, id, op);
        if (isPreferred(task, sc, op)) open[1].push(h, id, op);
      }
      // Pushed in reverse, so the first action still comes out first.
      for (let k = n - 1; k >= 0; k--) {
        if (isPreferred(task, sc, sc.ops[k])) open[2].push(h, id, sc.ops[k]);
      }
      mark(sc, facts, 0);
      clearRelaxedPlan(sc);
    }
    yield;
    // The next entry that leads to a new state.
    id = -1;
    while (id < 0) {
      const which = pick(open, priority);
      if (which < 0) return undefined;
      priority[which]++;
      const q = open[which];
      q.pop();
      const n = successor(task, sc, space.facts(q.state), q.op);
      id = space.insert(sc.child, n, q.state, q.op);
      if (!space.inserted) id = -1;
    }
  }
}

/** The queue to take from: the non-empty one taken least often (boosts count as taken less). */
function pick(open: PairQueue[], priority: number[]): number {
  let best = -1;
  for (let i = 0; i < open.length; i++) {
    if (open[i].size > 0 && (best < 0 || priority[i] < priority[best])) best = i;
  }
  return best;
}

/**
 * The plan without the steps it can do without (greedy action elimination,
 * Nakhost and Müller 2010): each step in turn is dropped with the later
 * steps that no longer apply, and stays out if the rest still reaches the
 * goal. Greedy search's detours (a truck driven somewhere and back) go.
 */
function eliminateActions(task: Task, start: Int32Array, goal: Goal, plan: number[]): number[] {
  const sc = scratchOf(task);
  const { holds } = sc;
  const { start: preStart, data: preData } = task.pre;
  const { start: negStart, data: negData } = task.neg;
  const { start: addStart, data: addData } = task.add;
  const { start: delStart, data: delData } = task.del;
  let steps = plan.slice();
  const kept = new Uint8Array(steps.length);
  const touched: number[] = [];
  const set = (f: number, value: 0 | 1) => {
    touched.push(f);
    holds[f] = value;
  };
  for (let i = 0; i < steps.length; i++) {
    kept.fill(1);
    kept[i] = 0;
    mark(sc, start, 1);
    for (let j = 0; j < steps.length; j++) {
      if (j === i) continue;
      const a = steps[j];
      let applies = true;
      for (let k = preStart[a]; k < preStart[a + 1] && applies; k++) {
        applies = holds[preData[k]] === 1;
      }
      for (let k = negStart[a]; k < negStart[a + 1] && applies; k++) {
        applies = holds[negData[k]] === 0;
      }
      if (!applies) {
        kept[j] = 0;
        continue;
      }
      for (let k = delStart[a]; k < delStart[a + 1]; k++) set(delData[k], 0);
      for (let k = addStart[a]; k < addStart[a + 1]; k++) set(addData[k], 1);
    }
    const reaches = achieved(sc, goal);
    for (const f of touched) holds[f] = 0;
    touched.length = 0;
    mark(sc, start, 0);
    if (reaches) {
      steps = steps.filter((_, j) => kept[j]);
      i--;
    }
  }
  return steps;
}

/**
 * The states a search has reached: each a sorted list of fact numbers in
 * one flat pool, found by hash (open addressing), with the state it was
 * reached from and by which action.
 */
class StateSpace {
  #pool = new Int32Array(1 << 12);
  #used = 0;
  #start = new Int32Array(1 << 10);
  #hash = new Uint32Array(1 << 10);
  #parent = new Int32Array(1 << 10);
  #via = new Int32Array(1 << 10);
  #count = 0;
  #table = new Int32Array(1 << 10).fill(-1);
  /** Whether the last {@linkcode insert} added a new state. */
  inserted = false;

  /** The state's facts (a view of the pool). */
  facts(id: number): Int32Array {
    return this.#pool.subarray(this.#start[id], this.#start[id + 1]);
  }

  /** The id of the state `facts[0..length)`, added (with where it came from) if new. */
  insert(facts: Int32Array, length: number, parent: number, via: number): number {
    let h = length;
    for (let i = 0; i < length; i++) {
      h = Math.imul(h ^ facts[i], 0x5bd1e995);
      h ^= h >>> 15;
    }
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) ^ (h >>> 16);
    const mask = this.#table.length - 1;
    for (let slot = h & mask;; slot = (slot + 1) & mask) {
      const other = this.#table[slot];
      if (other < 0) break;
      if (this.#hash[other] === h >>> 0 && this.#equals(other, facts, length)) {
        this.inserted = false;
        return other;
      }
    }
    const id = this.#count++;
    if (this.#start.length < id + 2) this.#grow();
    if (this.#pool.length < this.#used + length) {
      const pool = new Int32Array(Math.max(2 * this.#pool.length, this.#used + length));
      pool.set(this.#pool.subarray(0, this.#used));
      this.#pool = pool;
    }
    this.#pool.set(facts.subarray(0, length), this.#used);
    this.#start[id] = this.#used;
    this.#used += length;
    this.#start[id + 1] = this.#used;
    this.#hash[id] = h >>> 0;
    this.#parent[id] = parent;
    this.#via[id] = via;
    if (2 * this.#count > this.#table.length) this.#rehash();
    else this.#place(id);
    this.inserted = true;
    return id;
  }

  /** The actions from the first state to this one. */
  path(id: number): number[] {
    const out: number[] = [];
    for (let s = id; this.#parent[s] >= 0; s = this.#parent[s]) out.push(this.#via[s]);
    return out.reverse();
  }

  #equals(id: number, facts: Int32Array, length: number): boolean {
    const from = this.#start[id];
    if (this.#start[id + 1] - from !== length) return false;
    for (let i = 0; i < length; i++) if (this.#pool[from + i] !== facts[i]) return false;
    return true;
  }

  #place(id: number): void {
    const mask = this.#table.length - 1;
    let slot = this.#hash[id] & mask;
    while (this.#table[slot] >= 0) slot = (slot + 1) & mask;
    this.#table[slot] = id;
  }

  #grow(): void {
    const size = 2 * this.#start.length;
    const grown = <T extends Int32Array | Uint32Array>(a: T, b: T) => (b.set(a), b);
    this.#start = grown(this.#start, new Int32Array(size));
    this.#hash = grown(this.#hash, new Uint32Array(size));
    this.#parent = grown(this.#parent, new Int32Array(size));
    this.#via = grown(this.#via, new Int32Array(size));
  }

  #rehash(): void {
    this.#table = new Int32Array(2 * this.#table.length).fill(-1);
    for (let id = 0; id < this.#count; id++) this.#place(id);
  }
}

/**
 * Open-list entries (a state and an action, or a state alone) by integer
 * priority, lowest first; first in, first out among equals. Buckets are
 * flat integer arrays.
 */
class PairQueue {
  /** Whether the last entry in is the first out among equals (else the first in). */
  readonly lifo: boolean;
  #buckets: (Int32Array | undefined)[] = [];
  #length: number[] = [];
  #head: number[] = [];
  #min = 0;
  size = 0;
  /** The entry last popped. */
  state = -1;
  op = -1;

  constructor(lifo = false) {
    this.lifo = lifo;
  }

  push(priority: number, state: number, op: number): void {
    while (this.#length.length <= priority) {
      this.#buckets.push(undefined);
      this.#length.push(0);
      this.#head.push(0);
    }
    let b = this.#buckets[priority] ??= new Int32Array(16);
    const n = this.#length[priority];
    if (n + 2 > b.length) {
      const grown = new Int32Array(2 * b.length);
      grown.set(b);
      this.#buckets[priority] = b = grown;
    }
    b[n] = state;
    b[n + 1] = op;
    this.#length[priority] = n + 2;
    if (this.size === 0 || priority < this.#min) this.#min = priority;
    this.size++;
  }

  /** Takes an entry of least priority into `state` and `op`; the queue must not be empty. */
  pop(): void {
    let p = this.#min;
    while (this.#head[p] === this.#length[p]) p++;
    const b = this.#buckets[p]!;
    let at: number;
    if (this.lifo) this.#length[p] = at = this.#length[p] - 2;
    else this.#head[p] = (at = this.#head[p]) + 2;
    this.state = b[at];
    this.op = b[at + 1];
    if (this.#head[p] === this.#length[p]) {
      // Emptied: reuse from the start, and let go of a large buffer.
      this.#head[p] = this.#length[p] = 0;
      if (b.length > 1 << 16) this.#buckets[p] = undefined;
    }
    this.#min = p;
    this.size--;
  }
}

/**
 * Facts by cost for h_add's Dijkstra: buckets for small costs (the usual
 * ones), a heap beyond. Costs pushed are never below the cost last popped.
 */
class CostQueue {
  static readonly BUCKETS = 4096;
  #buckets: IntList[] = [];
  #heap = new MinHeap();
  #at = 0;
  #top = -1;
  size = 0;

  clear(): void {
    for (let c = 0; c <= this.#top; c++) this.#buckets[c].length = 0;
    this.#heap.clear();
    this.#at = 0;
    this.#top = -1;
    this.size = 0;
  }

  push(cost: number, fact: number): void {
    if (cost < CostQueue.BUCKETS) {
      while (this.#top < cost) this.#buckets[++this.#top] ??= new IntList();
      this.#buckets[cost].push(fact);
    } else this.#heap.push(cost, fact);
    this.size++;
  }

  /** Removes a fact of least cost; the queue must not be empty. */
  pop(): number {
    this.size--;
    while (this.#at <= this.#top) {
      const b = this.#buckets[this.#at];
      if (b.length > 0) return b.data[--b.length];
      this.#at++;
    }
    return this.#heap.pop();
  }
}

/** A binary min-heap of integers by integer key. */
class MinHeap {
  #keys = new Int32Array(1024);
  #values = new Int32Array(1024);
  size = 0;

  clear(): void {
    this.size = 0;
  }

  push(key: number, value: number): void {
    if (this.size === this.#keys.length) {
      const keys = new Int32Array(2 * this.size);
      keys.set(this.#keys);
      this.#keys = keys;
      const values = new Int32Array(2 * this.size);
      values.set(this.#values);
      this.#values = values;
    }
    const k = this.#keys;
    const v = this.#values;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (k[p] <= key) break;
      k[i] = k[p];
      v[i] = v[p];
      i = p;
    }
    k[i] = key;
    v[i] = value;
  }

  /** Removes the entry of least key; its value. */
  pop(): number {
    const k = this.#keys;
    const v = this.#values;
    const top = v[0];
    const n = --this.size;
    const key = k[n];
    const value = v[n];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && k[c + 1] < k[c]) c++;
      if (k[c] >= key) break;
      k[i] = k[c];
      v[i] = v[c];
      i = c;
    }
    k[i] = key;
    v[i] = value;
    return top;
  }
}
