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
 * not admissible; plans are short, not optimal. Nothing is sent to the
 * environment here.
 *
 * @module
 */
import { matchAction, renderAction } from "../../dsl/action.ts";
import type { Atom, AtomArg, FactDelta, FactView, Value } from "../../dsl/facts.ts";
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
  const schemas = model.schemas();
  const maxNodes = options.maxNodes ?? 2000;
  const maxLength = options.maxLength ?? 16;
  const maxAtoms = options.maxAtoms ?? 2_000_000;
  let held = 0;
  interface Node {
    facts: FactStore;
    plan: string[];
    h: number;
  }
  const seen = new Set<string>([stateKey(facts)]);
  const open: Node[] = [{ facts, plan: [], h: relaxedCost(model.vocab, schemas, facts, target) }];
  let expanded = 0;
  while (open.length > 0 && expanded < maxNodes) {
    // The open list stays small (hundreds): a linear scan beats a heap's bookkeeping.
    let best = 0;
    for (let i = 1; i < open.length; i++) {
      const a = open[i], b = open[best];
      if (a.h < b.h || (a.h === b.h && a.plan.length < b.plan.length)) best = i;
    }
    const node = open[best];
    open[best] = open[open.length - 1];
    open.pop();
    expanded++;
    if (node.plan.length >= maxLength) continue;
    // Deferred evaluation: a state's heuristic is computed when it is
    // expanded, and its successors queue under it; one relaxed graph per
    // expansion instead of one per successor.
    const h = node.plan.length === 0
      ? node.h
      : relaxedCost(model.vocab, schemas, node.facts, target);
    if (!Number.isFinite(h)) continue;
    for (const next of applicableActions(model, schemas, node.facts)) {
      const delta = model.predict(node.facts, next);
      if (!delta || (delta.add.length === 0 && delta.remove.length === 0)) continue;
      const after = node.facts.clone();
      after.apply(delta);
      const key = stateKey(after);
      if (seen.has(key)) continue;
      seen.add(key);
      const plan = [...node.plan, next];
      if (done(after)) return plan;
      held += after.size;
      if (held > maxAtoms) return undefined;
      open.push({ facts: after, plan, h });
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
): string[] {
  const out: string[] = [];
  for (const schema of schemas) {
    for (const args of bindings(model.vocab, schema, facts)) {
      const text = renderAction(own(model.vocab.actions, schema.action)!, args);
      if (model.unmet(facts, text).length === 0) out.push(text);
    }
  }
  return out;
}

/**
 * Every binding of a schema's parameters under which its precondition atoms
 * hold in `facts` (parameters no atom binds range over the objects of their
 * type).
 */
function bindings(
  vocab: Vocabulary,
  schema: ActionSchema,
  facts: FactStore,
): Record<string, Value>[] {
  const params = own(vocab.actions, schema.action)!.params;
  const types = new Map(params.map((p) => [p.name, p.type]));
  const out: Record<string, Value>[] = [];
  const scope: Record<string, Value> = {};
  const join = (i: number): void => {
    if (i === schema.pre.length) return free(0);
    const atom = schema.pre[i];
    const pattern = atom.args.map((a) =>
      "value" in a ? a.value : a.param in scope ? scope[a.param] as AtomArg : null
    );
    for (const match of facts.query(atom.pred, pattern)) {
      const bound: string[] = [];
      let ok = true;
      atom.args.forEach((a, k) => {
        if (!ok || !("param" in a)) return;
        const v = match.args[k];
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
      if (ok) join(i + 1);
      for (const p of bound) delete scope[p];
    }
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
  join(0);
  return out;
}

/**
 * h_add over the relaxed planning graph: each atom costs the layer in which
 * it first becomes true when deletes are ignored; the target's cost is the
 * sum. Infinity when some target atom is unreachable.
 */
function relaxedCost(
  vocab: Vocabulary,
  schemas: readonly ActionSchema[],
  facts: FactStore,
  target: readonly Atom[],
): number {
  const missing = target.filter((a) => !facts.has(a));
  if (missing.length === 0) return 0;
  const relaxed = facts.clone();
  let cost = 0;
  let left = missing;
  for (let layer = 1; left.length > 0; layer++) {
    const added: Atom[] = [];
    for (const schema of schemas) {
      for (const args of bindings(vocab, schema, relaxed)) {
        for (const e of schema.add) {
          const atom = groundAtom(e, args);
          if (!relaxed.has(atom)) added.push(atom);
        }
      }
    }
    let grew = false;
    for (const atom of added) if (relaxed.add(atom)) grew = true;
    if (!grew) return Infinity;
    const still = left.filter((a) => !relaxed.has(a));
    cost += (left.length - still.length) * layer;
    left = still;
  }
  return cost;
}

function stateKey(facts: FactStore): string {
  return facts.toLines().join("\n");
}
