/**
 * Primitive actions as a planning fallback: when no skill achieves a
 * subgoal, search short sequences of primitive actions whose effects, as a
 * learned action model predicts them, make the subgoal's condition true.
 * The search is bounded (depth and nodes) and runs on copies of the facts;
 * nothing is sent to the environment here.
 *
 * @module
 */
import { renderAction } from "../../dsl/action.ts";
import type { FactDelta, FactView, Value } from "../../dsl/facts.ts";
import { isAssignable, type Vocabulary } from "../../dsl/vocabulary.ts";
import type { FactStore } from "../fact_store.ts";

/** What the search needs to know of an action model. */
export interface PredictiveModel {
  /** Preconditions known to be unmet (empty when predicted to succeed or unknown). */
  unmet(facts: FactView, action: string): string[];
  /** The predicted fact change; undefined when unknown. */
  predict(facts: FactView, action: string): FactDelta | undefined;
}

/** Options of {@linkcode findPrimitivePlan}. */
export interface PrimitivePlanOptions {
  /** Longest plan. @default 2 */
  maxDepth?: number;
  /** Most states expanded. @default 400 */
  maxNodes?: number;
}

/**
 * The shortest sequence of primitive actions over `objects` that the model
 * predicts to be accepted and to make `goal` true, or undefined. Only
 * actions with a known, non-empty predicted change are considered.
 *
 * @example Usage
 * ```ts ignore
 * const plan = findPrimitivePlan(vocab, facts, model, ["b1"], (f) => f.has(taken("b1")));
 * ```
 */
export function findPrimitivePlan(
  vocab: Vocabulary,
  facts: FactStore,
  model: PredictiveModel,
  objects: readonly string[],
  goal: (facts: FactView) => boolean,
  options: PrimitivePlanOptions = {},
): string[] | undefined {
  const maxDepth = options.maxDepth ?? 2;
  const maxNodes = options.maxNodes ?? 400;
  const actions = groundActions(vocab, facts, objects);
  let frontier: { facts: FactStore; plan: string[] }[] = [{ facts, plan: [] }];
  let expanded = 0;
  for (let depth = 0; depth < maxDepth; depth++) {
    const next: typeof frontier = [];
    for (const node of frontier) {
      if (++expanded > maxNodes) return undefined;
      for (const action of actions) {
        if (model.unmet(node.facts, action).length > 0) continue;
        const delta = model.predict(node.facts, action);
        if (!delta || (delta.add.length === 0 && delta.remove.length === 0)) continue;
        const after = node.facts.clone();
        after.apply(delta);
        const plan = [...node.plan, action];
        if (goal(after)) return plan;
        next.push({ facts: after, plan });
      }
    }
    frontier = next;
  }
  return undefined;
}

/** Every action of the vocabulary with object parameters filled from `objects` (by type). */
function groundActions(vocab: Vocabulary, facts: FactView, objects: readonly string[]): string[] {
  const out: string[] = [];
  let numbers: Value[] | undefined;
  for (const decl of Object.values(vocab.actions)) {
    if (decl.params.length === 0) continue;
    const choices = decl.params.map((p): Value[] =>
      p.type === "Num" ? (numbers ??= numbersAbout(vocab, facts, objects)) : objects.filter((o) => {
        const t = facts.typeOf(o);
        return t !== undefined && isAssignable(vocab, t, p.type);
      })
    );
    if (choices.some((c) => c.length === 0)) continue;
    const combos = choices.reduce<Value[][]>(
      (acc, list) => acc.flatMap((prefix) => list.map((o) => [...prefix, o])),
      [[]],
    );
    for (const combo of combos) {
      const args: Record<string, Value> = {};
      decl.params.forEach((p, i) => args[p.name] = combo[i]);
      const text = renderAction(decl, args);
      if (!out.includes(text)) out.push(text);
    }
  }
  return out;
}

/** Most numbers tried for an amount. */
const MAX_NUMBERS = 4;

/** Numbers tried for an amount: those the facts state of the objects (`needs(r, nugget, 9)`). */
function numbersAbout(vocab: Vocabulary, facts: FactView, objects: readonly string[]): number[] {
  const found = new Set<number>();
  for (const [pred, decl] of Object.entries(vocab.predicates)) {
    const amounts = decl.params.flatMap((t, i) => t === "Num" ? [i] : []);
    if (amounts.length === 0) continue;
    decl.params.forEach((t, i) => {
      if (t === "Num") return;
      for (const o of objects) {
        const pattern: (string | null)[] = decl.params.map(() => null);
        pattern[i] = o;
        for (const atom of facts.query(pred, pattern)) {
          for (const k of amounts) {
            const v = atom.args[k];
            if (typeof v === "number" && v > 0) found.add(v);
          }
        }
      }
    });
  }
  return [...found].sort((a, b) => a - b).slice(0, MAX_NUMBERS);
}
