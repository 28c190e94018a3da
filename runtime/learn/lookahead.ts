/**
 * World-model look-ahead (seeds: WALL-E 2.0's model-predictive control):
 * before a skill sends an action the action model predicts to be rejected,
 * search the model for a short plan that makes the action's preconditions
 * hold, send that plan, then the action. A skill that says "stack the block
 * on the tower" then works whatever lies on the block, as long as the model
 * knows how to clear it.
 *
 * The search is greedy best-first on the model's own predictions, with
 * deferred evaluation (a state is scored when expanded; its successors
 * queue under its score): successors are the actions whose confirmed rules
 * hold (bound by joining their precondition atoms against the facts, so
 * only applicable actions are generated); the heuristic is the additive
 * delete relaxation (h_add): the
 * sum, over the target atoms, of the layer of the relaxed planning graph in
 * which each first appears. h_add is informative where goal counting is
 * flat (clearing a block under three others changes no goal atom until the
 * last step) and cheap enough to compute per node on small states. It is
 * not admissible; plans are short, not optimal. Among successors queued
 * under one score, those that add an atom the relaxed plan needs now (FF's
 * helpful actions) are expanded first, and the relaxed graph is built
 * semi-naively (a layer joins from the atoms the last one added). Nothing
 * is sent to the environment here.
 *
 * @module
 */
import { matchAction, renderAction } from "../../dsl/action.ts";
import {
  type Atom,
  type AtomArg,
  type FactDelta,
  type FactView,
  formatAtom,
  type Value,
} from "../../dsl/facts.ts";
import { isAssignable, own, type Vocabulary } from "../../dsl/vocabulary.ts";
import type { ActionSchema, LiftedAtom } from "./action_model.ts";
import type { FactStore } from "../fact_store.ts";

/** What look-ahead needs of an action model. */
export interface LookaheadModel {
  readonly vocab: Vocabulary;
  /** Confirmed preconditions unmet in `facts`; empty when allowed. */
  unmet(facts: FactView, action: string): string[];
  /** The predicted fact change, or undefined when unknown. */
  predict(facts: FactView, action: string): FactDelta | undefined;
  /** The actions with known effects. */
  schemas(): ActionSchema[];
}

/** Options of {@linkcode lookaheadPlan}. */
export interface LookaheadOptions {
  /** Most states expanded. @default 2000 */
  maxNodes?: number;
  /** Longest plan. @default 16 */
  maxLength?: number;
  /**
   * Most atoms held in the states the search keeps (every successor is a
   * copy of the facts): bounds its memory on large states, where a
   * thousand expansions of a few thousand facts each would fill gigabytes.
   * @default 2,000,000
   */
  maxAtoms?: number;
  /**
   * Expansions left to several searches together (an episode's): each
   * expansion takes one, and the search stops when none is left.
   */
  shared?: { nodes: number };
  /**
   * Queue only the successors that add an atom the relaxed plan needed
   * first (FF's helpful actions), the others only where a state has no
   * helpful one: where hundreds of actions apply to every state (any plane
   * to any airport), a search that copies each successor's facts gets a
   * few expansions deep before its atoms run out. @default false
   */
  helpfulOnly?: boolean;
}

/**
 * A plan, as the model predicts it, after which `action`'s confirmed
 * preconditions all hold; `[]` when they hold now (an action the model
 * does not know is allowed as it is); undefined when no plan is found
 * within the limits.
 *
 * @example Usage
 * ```ts ignore
 * const plan = lookaheadPlan(model, facts, "pickup b2"); // ["unstack b3 b2", "putdown b3"]
 * ```
 */
export function lookaheadPlan(
  model: LookaheadModel,
  facts: FactStore,
  action: string,
  options: LookaheadOptions = {},
): string[] | undefined {
  if (model.unmet(facts, action).length === 0) return [];
  const target = targetAtoms(model.vocab, model.schemas(), action);
  if (!target) return undefined;
  return lookaheadTo(model, facts, target, (f) => model.unmet(f, action).length === 0, options);
}

/**
 * A plan, as the model predicts it, after which `done` holds: greedy
 * best-first search guided by the atoms of `target` (what `done` needs, as
 * far as atoms say it); `[]` when `done` holds now; undefined when no plan
 * is found within the limits.
 *
 * @example Usage
 * ```ts ignore
 * const goal = [{ pred: "on", args: ["b2", "b1"] }];
 * const plan = lookaheadTo(model, facts, goal, (f) => goal.every((a) => f.has(a)));
 * ```
 */
export function lookaheadTo(
  model: LookaheadModel,
  facts: FactStore,
  target: readonly Atom[],
  done: (facts: FactView) => boolean,
  options: LookaheadOptions = {},
): string[] | undefined {
  if (done(facts)) return [];
  // A shared budget spent: not even the first state's relaxed graph.
  if (options.shared !== undefined && options.shared.nodes <= 0) return undefined;
  const schemas = model.schemas();
  const maxNodes = options.maxNodes ?? 2000;
  const maxLength = options.maxLength ?? 16;
  const maxAtoms = options.maxAtoms ?? 2_000_000;
  let held = 0;
  interface Node {
    facts: FactStore;
    plan: string[];
    h: number;
    /** It adds an atom its parent's relaxed plan needed first (FF's helpful actions). */
    helpful: boolean;
    relaxed?: Relaxed;
  }
  const rootKey = stateKey(facts);
  // A state whose relaxed graph ran to its end before: an atom it never
  // reached is reached by no plan, and nothing need be searched.
  // (It counts as the one expansion such a search makes.)
  const closed = closures.get(schemas);
  if (closed?.key === rootKey && target.some((a) => !closed.closure.has(a))) {
    if (options.shared) options.shared.nodes--;
    return undefined;
  }
  const seen = new Set<string>([rootKey]);
  const first = relaxedCost(model.vocab, schemas, facts, target);
  if (first.closure) closures.set(schemas, { key: rootKey, closure: first.closure });
  const open: Node[] = [{ facts, plan: [], h: first.cost, helpful: true, relaxed: first }];
  let expanded = 0;
  // Among successors queued under one score, the helpful ones first: where
  // every action of many objects is applicable (any plane to any airport),
  // the few that move towards the target are expanded before the rest.
  const before = (a: Node, b: Node) =>
    a.h !== b.h ? a.h < b.h : a.helpful !== b.helpful ? a.helpful : a.plan.length < b.plan.length;
  const shared = options.shared;
  while (open.length > 0 && expanded < maxNodes && (shared === undefined || shared.nodes > 0)) {
    // The open list stays small (hundreds): a linear scan beats a heap's bookkeeping.
    let best = 0;
    for (let i = 1; i < open.length; i++) {
      if (before(open[i], open[best])) best = i;
    }
    const node = open[best];
    open[best] = open[open.length - 1];
    open.pop();
    expanded++;
    if (shared) shared.nodes--;
    if (node.plan.length >= maxLength) continue;
    // Deferred evaluation: a state's heuristic is computed when it is
    // expanded, and its successors queue under it; one relaxed graph per
    // expansion instead of one per successor.
    const relaxed = node.relaxed ?? relaxedCost(model.vocab, schemas, node.facts, target);
    const h = relaxed.cost;
    if (!Number.isFinite(h)) continue;
    const successorsOf = (keep?: (schema: ActionSchema, args: Record<string, Value>) => boolean) =>
      applicableActions(model, schemas, node.facts, keep).flatMap((next) => {
        const delta = model.predict(node.facts, next);
        if (!delta || (delta.add.length === 0 && delta.remove.length === 0)) return [];
        return [{
          next,
          delta,
          helpful: delta.add.some((a) => relaxed.helpful.has(formatAtom(a))),
        }];
      });
    // Helpful ones only: an action is told helpful from its schema's
    // effects before its rules are checked (most are not, and checking
    // each costs an evaluation).
    let successors = options.helpfulOnly
      ? successorsOf((schema, args) =>
        schema.add.some((a) => relaxed.helpful.has(formatAtom(groundAtom(a, args))))
      ).filter((x) => x.helpful)
      : [];
    if (successors.length === 0) successors = successorsOf();
    for (const { next, delta, helpful } of successors) {
      const after = node.facts.clone();
      after.apply(delta);
      const key = stateKey(after);
      if (seen.has(key)) continue;
      seen.add(key);
      const plan = [...node.plan, next];
      if (done(after)) return plan;
      held += after.size;
      if (held > maxAtoms) return undefined;
      open.push({ facts: after, plan, h, helpful });
    }
  }
  return undefined;
}

/** The ground precondition atoms of `action` (its schema's, bound); undefined when unknown. */
function targetAtoms(
  vocab: Vocabulary,
  schemas: readonly ActionSchema[],
  action: string,
): Atom[] | undefined {
  const m = matchAction(vocab, action);
  const schema = m && schemas.find((s) => s.action === m.action);
  return schema && schema.pre.map((p) => groundAtom(p, m.args));
}

function groundAtom(lifted: LiftedAtom, args: Readonly<Record<string, Value>>): Atom {
  return {
    pred: lifted.pred,
    args: lifted.args.map((a) => "param" in a ? args[a.param] as AtomArg : a.value),
  };
}

/** The actions the model allows in `facts`, bound by joining preconditions against the facts. */
function applicableActions(
  model: LookaheadModel,
  schemas: readonly ActionSchema[],
  facts: FactStore,
  keep?: (schema: ActionSchema, args: Record<string, Value>) => boolean,
): string[] {
  const out: string[] = [];
  for (const schema of schemas) {
    for (const args of bindings(model.vocab, schema, facts)) {
      if (keep && !keep(schema, args)) continue;
      const text = renderAction(own(model.vocab.actions, schema.action)!, args);
      if (model.unmet(facts, text).length === 0) out.push(text);
    }
  }
  return out;
}

/**
 * Every binding of a schema's parameters under which its precondition atoms
 * hold in `facts` (parameters no atom binds range over the objects of their
 * type); with `seed`, only those under which its atom matches one of its
 * atoms (the bindings a layer's new atoms make possible).
 */
function bindings(
  vocab: Vocabulary,
  schema: ActionSchema,
  facts: FactStore,
  seed?: { atom: LiftedAtom; matches: readonly Atom[] },
): Record<string, Value>[] {
  const params = own(vocab.actions, schema.action)!.params;
  const types = new Map(params.map((p) => [p.name, p.type]));
  const out: Record<string, Value>[] = [];
  const scope: Record<string, Value> = {};
  const left = new Set(schema.pre);
  const patternOf = (atom: LiftedAtom) =>
    atom.args.map((a) =>
      "value" in a ? a.value : a.param in scope ? scope[a.param] as AtomArg : null
    );
  const join = (first?: typeof seed): void => {
    if (left.size === 0) return free(0);
    // The atom with the fewest matches under the parameters bound so far
    // goes next: joined in their written order, a long list of
    // preconditions can enumerate every pair of cells before the one atom
    // that says where the agent stands.
    let atom = first?.atom ?? schema.pre[0];
    let matches: readonly Atom[] | undefined = first?.matches;
    if (first === undefined) {
      for (const candidate of left) {
        const found = facts.query(candidate.pred, patternOf(candidate));
        if (matches === undefined || found.length < matches.length) {
          atom = candidate;
          matches = found;
          if (found.length === 0) break;
        }
      }
    }
    left.delete(atom);
    for (const match of matches!) {
      const bound: string[] = [];
      let ok = true;
      atom.args.forEach((a, k) => {
        if (!ok) return;
        const v = match.args[k];
        // A seed's atoms were not matched against the atom's constants.
        if (!("param" in a)) {
          if (v !== a.value) ok = false;
          return;
        }
        if (!(a.param in scope)) {
          // A fact binds a parameter only to an object of the parameter's type.
          const type = typeof v === "string" ? facts.typeOf(v) : undefined;
          if (type !== undefined && !isAssignable(vocab, type, types.get(a.param)!)) ok = false;
          else {
            scope[a.param] = v;
            bound.push(a.param);
          }
        } else if (scope[a.param] !== v) ok = false;
      });
      if (ok) join();
      for (const p of bound) delete scope[p];
    }
    left.add(atom);
  };
  const free = (k: number): void => {
    if (k === params.length) {
      out.push({ ...scope });
      return;
    }
    const p = params[k];
    if (p.name in scope) return free(k + 1);
    for (const o of facts.objectsOfType(p.type)) {
      scope[p.name] = o;
      free(k + 1);
    }
    delete scope[p.name];
  };
  join(seed);
  return out;
}

/**
 * Per set of schemas, the last state whose relaxed graph ran to its end
 * (some target atom was never reached) and every atom that graph holds: a
 * search that fails at its first state is asked again and again from the
 * same state, each time for another atom, and on a large state each graph
 * costs much.
 */
const closures = new WeakMap<readonly ActionSchema[], { key: string; closure: FactView }>();

/** A state's distance to the target in the relaxed planning graph, and the atoms worth adding now. */
interface Relaxed {
  cost: number;
  /**
   * Keys of the atoms of the first layer that the relaxed plan needs (FF's
   * helpful actions add one): what an action taken now should make true.
   */
  helpful: ReadonlySet<string>;
  /** When the cost is infinite: every atom the graph reached, the state's own included. */
  closure?: FactView;
}

/**
 * h_add over the relaxed planning graph: each atom costs the layer in which
 * it first becomes true when deletes are ignored; the target's cost is the
 * sum (Infinity when some target atom is unreachable). The relaxed plan
 * read back from the target (each atom's first achiever, its preconditions
 * in turn) says which first-layer atoms it needs.
 */
function relaxedCost(
  vocab: Vocabulary,
  schemas: readonly ActionSchema[],
  facts: FactStore,
  target: readonly Atom[],
): Relaxed {
  const missing = target.filter((a) => !facts.has(a));
  if (missing.length === 0) return { cost: 0, helpful: new Set() };
  const relaxed = facts.clone();
  // Each added atom's layer and the preconditions of its first achiever.
  const reached = new Map<string, { layer: number; pre: Atom[] }>();
  let cost = 0;
  let left = missing;
  // The atoms the last layer added, by predicate: a later layer's new
  // bindings each use one of them (semi-naive evaluation), so it joins from
  // those alone instead of from every atom again.
  let fresh: Map<string, Atom[]> | undefined;
  const layerBindings = (schema: ActionSchema) => {
    if (fresh === undefined) return bindings(vocab, schema, relaxed);
    const out: Record<string, Value>[] = [];
    for (const atom of schema.pre) {
      const matches = fresh.get(atom.pred);
      // One by one: spreading a large layer's bindings overflows the stack.
      if (matches) {
        for (const b of bindings(vocab, schema, relaxed, { atom, matches })) out.push(b);
      }
    }
    return out;
  };
  for (let layer = 1; left.length > 0; layer++) {
    const added: Atom[] = [];
    for (const schema of schemas) {
      for (const args of layerBindings(schema)) {
        let pre: Atom[] | undefined;
        for (const e of schema.add) {
          const atom = groundAtom(e, args);
          if (relaxed.has(atom)) continue;
          const key = formatAtom(atom);
          if (reached.has(key)) continue;
          pre ??= schema.pre.map((p) => groundAtom(p, args));
          reached.set(key, { layer, pre });
          added.push(atom);
        }
      }
    }
    fresh = new Map();
    for (const atom of added) {
      if (!relaxed.add(atom)) continue;
      const list = fresh.get(atom.pred);
      if (list) list.push(atom);
      else fresh.set(atom.pred, [atom]);
    }
    if (fresh.size === 0) return { cost: Infinity, helpful: new Set(), closure: relaxed };
    const still = left.filter((a) => !relaxed.has(a));
    cost += (left.length - still.length) * layer;
    left = still;
  }
  const helpful = new Set<string>();
  const needed = new Set<string>();
  const need = (atoms: readonly Atom[]) => {
    for (const a of atoms) {
      const key = formatAtom(a);
      const r = reached.get(key);
      if (!r || needed.has(key)) continue;
      needed.add(key);
      if (r.layer === 1) helpful.add(key);
      else need(r.pre);
    }
  };
  need(missing);
  return { cost, helpful };
}

function stateKey(facts: FactStore): string {
  return facts.toLines().join("\n");
}
