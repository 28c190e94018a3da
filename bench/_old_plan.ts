/**
 * The PDDL expert's planner: greedy best-first search on the FF heuristic
 * (the size of a relaxed plan extracted from h_add's best supporters),
 * with helpful actions (those adding a fact of the relaxed plan's first
 * layer) tried first. FF is the classic choice for STRIPS benchmarks like
 * these: informative on transportation domains (gripper, tyreworld) and on
 * blocks, cheap enough per state to plan barman's larger problems in well
 * under a second, and deterministic, so demonstrations are reproducible.
 *
 * @module
 */
import {
  actionText,
  bindingOf,
  type Fact,
  type GroundAction,
  groundAtom,
  type PddlWorld,
} from "../environments/pddl/world.ts";

/** Options of {@linkcode planPddl}. */
export interface PlanOptions {
  /** Most states expanded before giving up. @default 200000 */
  maxExpansions?: number;
  /** Facts to reach instead of the world's goal. */
  goal?: readonly Fact[];
}

interface Ground {
  g: GroundAction;
  pre: Fact[];
  add: Fact[];
  del: Fact[];
}

/**
 * A plan from `state` to the world's goal, as ground actions, or
 * `undefined` when the search finds none within its budget.
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
  const actions = reachableActions(world, state);
  const goal = options.goal ?? world.goal().filter((g) => !g.negated).map((g) => g.fact);
  const satisfied = options.goal
    ? (s: ReadonlySet<Fact>) => goal.every((f) => s.has(f))
    : (s: ReadonlySet<Fact>) => world.satisfied(s);
  const maxExpansions = options.maxExpansions ?? 200000;
  const key = (s: ReadonlySet<Fact>) => [...s].sort().join("|");
  interface NodeT {
    state: Set<Fact>;
    parent?: NodeT;
    via?: GroundAction;
    h: number;
    /** The facts the state's relaxed plan achieves: actions adding one are helpful. */
    needed: ReadonlySet<Fact>;
  }
  const first = heuristic(actions, state, goal);
  if (first.h === Infinity) return undefined;
  const start: NodeT = { state: new Set(state), ...first };
  const seen = new Set([key(start.state)]);
  // Two open lists on h, as in Fast Downward's preferred operators: every
  // successor goes to the first, the ones reached by a helpful action also to
  // the second; they are taken in turn. (Favouring the second after progress
  // finds plans faster but up to four times longer on barman.)
  const open = [new BucketQueue<NodeT>(), new BucketQueue<NodeT>()];
  open[0].push(start.h, start);
  open[1].push(start.h, start);
  let turn = 0;
  let expanded = 0;
  const closed = new Set<NodeT>();
  while ((open[0].size > 0 || open[1].size > 0) && expanded < maxExpansions) {
    const which = open[turn].size > 0 ? turn : 1 - turn;
    turn = 1 - turn;
    const node = open[which].pop()!;
    if (closed.has(node)) continue;
    closed.add(node);
    if (satisfied(node.state)) return pathOf(node);
    expanded++;
    for (const a of actions) {
      if (!a.pre.every((f) => node.state.has(f))) continue;
      const next = new Set(node.state);
      for (const d of a.del) next.delete(d);
      for (const f of a.add) next.add(f);
      const k = key(next);
      if (seen.has(k)) continue;
      seen.add(k);
      const est = heuristic(actions, next, goal);
      if (est.h === Infinity) continue;
      const child: NodeT = { state: next, parent: node, via: a.g, ...est };
      open[0].push(child.h, child);
      if (a.add.some((f) => node.needed.has(f))) open[1].push(child.h, child);
    }
  }
  return undefined;

  function pathOf(n: NodeT): GroundAction[] {
    const out: GroundAction[] = [];
    for (let m: NodeT | undefined = n; m?.via; m = m.parent) out.unshift(m.via);
    return out;
  }
}

/**
 * A plan that reaches the goal's conditions one at a time, keeping those
 * already reached: the way a person demonstrates a task, and what makes
 * each condition's steps a segment of their own for induction. The next
 * condition is the one with the shortest plan among those the rest of the
 * goal can then be reached without undoing (a one-step look-ahead that
 * builds towers from the bottom); `undefined` when some condition cannot
 * be reached this way.
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
    const keeps = (c: typeof candidates[number]) => {
      const rest = planPddl(world, c.after, { ...options, goal });
      if (!rest) return false;
      let s = c.after;
      for (const g of rest) {
        s = world.apply(g, s);
        if (!s.has(c.fact)) return false;
      }
      return true;
    };
    const next = candidates.find(keeps) ?? candidates[0];
    plan.push(...next.steps);
    state = next.after;
    for (const f of remaining) if (state.has(f)) done.push(f);
    remaining = remaining.filter((f) => !state.has(f));
  }
  return plan;
}

/** Every ground action reachable from `state` when deletes are ignored. */
function reachableActions(world: PddlWorld, state: ReadonlySet<Fact>): Ground[] {
  const relaxed = new Set(state);
  const seen = new Map<string, Ground>();
  for (let changed = true; changed;) {
    changed = false;
    for (const g of world.applicable(relaxed)) {
      const k = actionText(g);
      if (seen.has(k)) continue;
      const binding = bindingOf(g);
      const ground: Ground = {
        g,
        pre: g.action.precondition.filter((l) => !l.negated).map((l) => groundAtom(l, binding)),
        add: g.action.add.map((a) => groundAtom(a, binding)),
        del: g.action.del.map((a) => groundAtom(a, binding)),
      };
      seen.set(k, ground);
      for (const f of ground.add) {
        if (!relaxed.has(f)) {
          relaxed.add(f);
          changed = true;
        }
      }
    }
  }
  return [...seen.values()];
}

/** A queue of items by integer priority, lowest first; first in, first out among equals. */
class BucketQueue<T> {
  #buckets = new Map<number, T[]>();
  #size = 0;
  get size(): number {
    return this.#size;
  }
  push(priority: number, item: T): void {
    let b = this.#buckets.get(priority);
    if (!b) this.#buckets.set(priority, b = []);
    b.push(item);
    this.#size++;
  }
  pop(): T | undefined {
    if (this.#size === 0) return undefined;
    const p = Math.min(...this.#buckets.keys());
    const b = this.#buckets.get(p)!;
    const item = b.shift()!;
    if (b.length === 0) this.#buckets.delete(p);
    this.#size--;
    return item;
  }
}

/** The actions indexed for the heuristic: by precondition fact. */
interface Index {
  actions: readonly Ground[];
  /** The number of each fact (0, 1, ... in order of first mention). */
  ids: Map<Fact, number>;
  /** Distinct preconditions per action, and the actions each fact is one of. */
  preCount: Int32Array;
  byPre: number[][];
  /** Each action's add effects, by fact number. */
  adds: Int32Array[];
  /** Actions without preconditions. */
  free: number[];
}

const indexes = new WeakMap<readonly Ground[], Index>();

function indexOf(actions: readonly Ground[]): Index {
  let index = indexes.get(actions);
  if (!index) {
    const ids = new Map<Fact, number>();
    const byPre: number[][] = [];
    const id = (f: Fact) => {
      let n = ids.get(f);
      if (n === undefined) {
        ids.set(f, n = ids.size);
        byPre.push([]);
      }
      return n;
    };
    const free: number[] = [];
    const preCount = new Int32Array(actions.length);
    const adds = actions.map((a) => Int32Array.from(a.add, id));
    actions.forEach((a, i) => {
      if (a.pre.length === 0) free.push(i);
      const distinct = new Set(a.pre);
      preCount[i] = distinct.size;
      for (const p of distinct) byPre[id(p)].push(i);
    });
    index = { actions, ids, preCount, byPre, adds, free };
    indexes.set(actions, index);
  }
  return index;
}

/**
 * h_FF of a state, and the facts its relaxed plan achieves (the goals and
 * the plan's preconditions not yet true): an applicable action adding one
 * is helpful. h_add is computed by a generalised Dijkstra: an action fires
 * when its last precondition gets a cost. Called once per search state, so
 * facts are numbers and the tables typed arrays.
 */
function heuristic(
  actions: readonly Ground[],
  state: ReadonlySet<Fact>,
  goal: readonly Fact[],
): { h: number; needed: Set<Fact> } {
  const { ids, byPre, free, preCount, adds } = indexOf(actions);
  const cost = new Float64Array(ids.size).fill(Infinity);
  const support = new Int32Array(ids.size).fill(-1);
  const done = new Uint8Array(ids.size);
  const missing = preCount.slice();
  const sum = new Float64Array(actions.length);
  const heap = new MinHeap<number>();
  for (const f of state) {
    const n = ids.get(f);
    if (n === undefined) continue;
    cost[n] = 0;
    heap.push(0, n);
  }
  const fire = (i: number) => {
    const c = sum[i] + 1;
    for (const f of adds[i]) {
      if (c < cost[f]) {
        cost[f] = c;
        support[f] = i;
        heap.push(c, f);
      }
    }
  };
  for (const i of free) fire(i);
  while (heap.size > 0) {
    const [c, f] = heap.pop()!;
    if (done[f] || c !== cost[f]) continue;
    done[f] = 1;
    for (const i of byPre[f]) {
      sum[i] += c;
      if (--missing[i] === 0) fire(i);
    }
  }
  const costOf = (g: Fact) => {
    const n = ids.get(g);
    return n === undefined ? (state.has(g) ? 0 : Infinity) : cost[n];
  };
  if (goal.some((g) => costOf(g) === Infinity)) return { h: Infinity, needed: new Set() };
  // The relaxed plan: best supporters from the goals back.
  const plan = new Set<number>();
  const needed = new Set<Fact>();
  const stack = goal.filter((g) => !state.has(g));
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (needed.has(f)) continue;
    needed.add(f);
    const n = ids.get(f);
    const a = n === undefined ? -1 : support[n];
    if (a < 0 || plan.has(a)) continue;
    plan.add(a);
    for (const p of actions[a].pre) if (!state.has(p)) stack.push(p);
  }
  return { h: plan.size, needed };
}

/** A binary min-heap of values by numeric key. */
class MinHeap<T> {
  #keys: number[] = [];
  #values: T[] = [];
  get size(): number {
    return this.#keys.length;
  }
  push(key: number, value: T): void {
    const k = this.#keys;
    const v = this.#values;
    let i = k.length;
    k.push(key);
    v.push(value);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (k[p] <= k[i]) break;
      [k[p], k[i]] = [k[i], k[p]];
      [v[p], v[i]] = [v[i], v[p]];
      i = p;
    }
  }
  pop(): [number, T] | undefined {
    const k = this.#keys;
    const v = this.#values;
    if (k.length === 0) return undefined;
    const top: [number, T] = [k[0], v[0]];
    const lastK = k.pop()!;
    const lastV = v.pop()!;
    if (k.length > 0) {
      k[0] = lastK;
      v[0] = lastV;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < k.length && k[l] < k[m]) m = l;
        if (r < k.length && k[r] < k[m]) m = r;
        if (m === i) break;
        [k[m], k[i]] = [k[i], k[m]];
        [v[m], v[i]] = [v[i], v[m]];
        i = m;
      }
    }
    return top;
  }
}
