/**
 * Reflective planning: when an action of a skill is rejected, search for a
 * short corrective plan that makes it succeed. Candidates are actions over
 * the failed action's own arguments (open what could not be taken from, go
 * to what could not be reached); each is tried in the environment, then the
 * failed action again. A learned action model, when given, ranks the
 * candidates whose predicted effects supply the failed action's unmet
 * preconditions first.
 *
 * @module
 */
import { matchAction, renderAction } from "../../dsl/action.ts";
import type { Atom, FactDelta, Value } from "../../dsl/facts.ts";
import { own, type Vocabulary } from "../../dsl/vocabulary.ts";
import type { Environment, OnlineGrounder } from "../environment.ts";
import type { FactStore } from "../fact_store.ts";

/** A rejected action to recover from. */
export interface RejectedAction {
  /** The action text the environment rejected. */
  action: string;
  /** The environment's reason. */
  reason: string;
}

/** Ranks candidate corrective actions (e.g. a learned action model). */
export interface RecoveryAdvisor {
  /** Preconditions of `action` unmet in `facts`, as expression texts; empty when unknown. */
  unmet(facts: FactStore, action: string): string[];
  /** Predicted fact change of `action`, when known. */
  predict(facts: FactStore, action: string): FactDelta | undefined;
}

/** One step of a found recovery. */
export interface RecoveryStep {
  action: string;
  observation: string;
  /** The fact change the step caused. */
  delta: FactDelta;
}

/** What recovery search found. */
export interface RecoveryResult {
  /** The corrective actions (in order), then the failed action, succeeded. */
  ok: boolean;
  /** Corrective steps taken (without the retried action). */
  plan: RecoveryStep[];
  /** The retried action's step, when it succeeded. */
  retry?: RecoveryStep;
  /** Actions sent to the environment in total (tries included). */
  actions: number;
  /** Candidates tried, for the trace. */
  tried: string[];
  /** The environment ended the episode during recovery. */
  done?: boolean;
  reward?: number;
}

/** Options of {@linkcode recoverAction}. */
export interface RecoveryOptions {
  /** Most corrective actions tried. @default 8 */
  maxTries?: number;
  advisor?: RecoveryAdvisor;
}

/**
 * Corrective actions for a rejected action: every vocabulary action whose
 * arguments can all be filled with arguments of the failed action (by
 * type), other than the failed action itself.
 */
export function recoveryCandidates(vocab: Vocabulary, failed: string): string[] {
  const m = matchAction(vocab, failed);
  if (!m) return [];
  const decl = own(vocab.actions, m.action)!;
  const values = decl.params.map((p) => ({ type: p.type, value: m.args[p.name] }));
  const out: string[] = [];
  for (const [name, d] of Object.entries(vocab.actions)) {
    if (d.params.length === 0) continue;
    const choices = d.params.map((p) =>
      values.filter((v) => v.type === p.type && typeof v.value === "string").map((v) => v.value)
    );
    if (choices.some((c) => c.length === 0)) continue;
    for (const combo of product(choices)) {
      const args: Record<string, Value> = {};
      d.params.forEach((p, i) => args[p.name] = combo[i]);
      const text = renderAction(d, args);
      if (text !== failed && name !== m.action && !out.includes(text)) out.push(text);
    }
  }
  return out;
}

function product<T>(lists: T[][]): T[][] {
  return lists.reduce<T[][]>(
    (acc, list) => acc.flatMap((prefix) => list.map((x) => [...prefix, x])),
    [[]],
  );
}

/**
 * Searches for a corrective action: tries each candidate (best ranked first)
 * and, when the environment accepts it, retries the failed action. Stops at
 * the first retry that succeeds. Facts are updated as observations arrive.
 */
export async function recoverAction(
  rejected: RejectedAction,
  ctx: { env: Environment; grounder: OnlineGrounder; facts: FactStore; vocab: Vocabulary },
  options: RecoveryOptions = {},
): Promise<RecoveryResult> {
  const maxTries = options.maxTries ?? 8;
  let candidates = recoveryCandidates(ctx.vocab, rejected.action);
  if (options.advisor) candidates = rank(candidates, rejected.action, ctx.facts, options.advisor);
  const result: RecoveryResult = { ok: false, plan: [], actions: 0, tried: [] };
  const send = async (action: string) => {
    const step = await ctx.env.step(action);
    result.actions++;
    const g = await ctx.grounder.step(ctx.facts, action, step.observation);
    ctx.facts.apply(g.delta);
    if (step.done) {
      result.done = true;
      result.reward = step.reward;
    }
    return {
      ok: g.rejected === undefined,
      step: { action, observation: step.observation, delta: g.delta },
    };
  };
  for (const candidate of candidates.slice(0, maxTries)) {
    result.tried.push(candidate);
    const first = await send(candidate);
    if (result.done) return result;
    if (!first.ok) continue;
    result.plan.push(first.step);
    const retry = await send(rejected.action);
    if (result.done) {
      result.ok = (result.reward ?? 0) > 0;
      result.retry = retry.step;
      return result;
    }
    if (retry.ok) {
      result.ok = true;
      result.retry = retry.step;
      return result;
    }
    // Keep the accepted step: it changed the state; the next candidate may need it.
  }
  return result;
}

function rank(
  candidates: string[],
  failed: string,
  facts: FactStore,
  advisor: RecoveryAdvisor,
): string[] {
  const unmet = new Set(advisor.unmet(facts, failed));
  const score = (c: string) => {
    if (advisor.unmet(facts, c).length > 0) return 2; // predicted to fail itself
    const d = advisor.predict(facts, c);
    if (!d) return 1;
    const supplies = d.add.some((a) => unmet.has(atomText(a))) ||
      d.remove.some((a) => unmet.has(`not ${atomText(a)}`));
    return supplies ? 0 : 1;
  };
  return candidates.map((c, i) => ({ c, i, s: score(c) })).sort((a, b) => a.s - b.s || a.i - b.i)
    .map((x) => x.c);
}

function atomText(a: Atom): string {
  return `${a.pred}(${a.args.map((x) => typeof x === "string" ? `'${x}'` : String(x)).join(", ")})`;
}
