/**
 * Learning an action model from transitions: per action template, the
 * feasibility rules (preconditions true in every success, chosen by greedy
 * set cover of the failures, as in WALL-E 2.0 and the dual-memory agents)
 * and the lifted effects (atoms added or removed in every success).
 *
 * Results are plain data (texts), the serialisable form of the model.
 *
 * @module
 */
import { callNames, type Expr } from "../../dsl/expr/ast.ts";
import { evalExpr } from "../../dsl/expr/eval.ts";
import { matchAction } from "../../dsl/action.ts";
import type { Atom, AtomArg, FactDelta, FactView, Value } from "../../dsl/facts.ts";
import type { ActionDecl, ActionParam, Vocabulary } from "../../dsl/vocabulary.ts";
import { own } from "../../dsl/vocabulary.ts";
import { isAssignable } from "../../dsl/vocabulary.ts";
import {
  type Candidate,
  CandidateKind,
  candidateLiterals,
  type Situation,
} from "./_action_literals.ts";
import { formatLiteral } from "../../dsl/facts.ts";
import type { ActionEntryData, ActionRule } from "../action_model_data.ts";

/**
 * One observed step: the state before it, the action text, whether the
 * environment accepted it, and the fact change it caused.
 */
export interface Transition {
  /** The state before the action (a snapshot: it must not change afterwards). */
  facts: FactView;
  /** The action text, e.g. `open door 1`. */
  action: string;
  /** `false` when the environment rejected the action. */
  ok: boolean;
  /** The fact change, when the action was accepted and it is known. */
  delta?: FactDelta;
}

/** Options of the learner. */
export interface ActionLearnOptions {
  /**
   * Most confirmed rules per action (the set cover stops there).
   * @default {8}
   */
  maxRules?: number;
  /**
   * Fewest still-unexplained failures a rule must reject to enter the cover;
   * raise it to ignore rules that explain a single, perhaps noisy, failure.
   * @default {1}
   */
  minCover?: number;
  /**
   * Successes an action needs before any rule is learned for it: with none,
   * every candidate is vacuously true in all successes, so rules would only
   * restate the failures.
   * @default {1}
   */
  minSuccesses?: number;
  /**
   * Most hypotheses kept per action that has no failures.
   * @default {16}
   */
  maxHypotheses?: number;
}

/** Defaults of {@linkcode ActionLearnOptions}. */
export const DEFAULT_ACTION_LEARN_OPTIONS: Required<ActionLearnOptions> = {
  maxRules: 8,
  minCover: 1,
  minSuccesses: 1,
  maxHypotheses: 16,
};

/** A transition matched to its template. */
interface Sample extends Situation {
  ok: boolean;
  delta?: FactDelta;
}

/**
 * Groups transitions by action template (in vocabulary order); actions that
 * match no template are left out.
 */
export function samplesByAction(
  vocab: Vocabulary,
  transitions: readonly Transition[],
): Map<string, Sample[]> {
  const out = new Map<string, Sample[]>();
  for (const t of transitions) {
    const m = matchAction(vocab, t.action);
    if (!m) continue;
    const list = out.get(m.action) ?? [];
    list.push({ facts: t.facts, scope: m.args, ok: t.ok, delta: t.delta });
    out.set(m.action, list);
  }
  return out;
}

/** Learns the entry of every action template that occurs in `transitions`. */
export function learnEntries(
  vocab: Vocabulary,
  transitions: readonly Transition[],
  options: Required<ActionLearnOptions>,
): Record<string, ActionEntryData> {
  const out: Record<string, ActionEntryData> = {};
  const groups = samplesByAction(vocab, transitions);
  const held = heldSomewhere(vocab, transitions);
  for (const name of Object.keys(vocab.actions)) {
    const samples = groups.get(name);
    if (samples) out[name] = learnEntry(vocab, own(vocab.actions, name)!, samples, held, options);
  }
  return out;
}

/** The predicates that hold in the state before some transition. */
function heldSomewhere(vocab: Vocabulary, transitions: readonly Transition[]): Set<string> {
  return new Set(
    Object.keys(vocab.predicates).filter((pred) =>
      transitions.some((t) => t.facts.query(pred, []).length > 0)
    ),
  );
}

function learnEntry(
  vocab: Vocabulary,
  decl: ActionDecl,
  samples: readonly Sample[],
  held: ReadonlySet<string>,
  options: Required<ActionLearnOptions>,
): ActionEntryData {
  const successes = samples.filter((s) => s.ok);
  const failures = samples.filter((s) => !s.ok);
  const observed = successes.filter((s) => s.delta !== undefined);
  return {
    successes: successes.length,
    failures: failures.length,
    observed: observed.length,
    rules: successes.length < options.minSuccesses
      ? []
      : learnRules(vocab, decl.params, successes, failures, held, options),
    effects: learnEffects(vocab, decl.params, observed),
  };
}

/**
 * Whether a candidate says something of the action's arguments, or is a
 * plain atom of no arguments (`handempty()`), rather than a quantified
 * statement about other objects.
 */
function direct(c: Candidate): boolean {
  return c.aboutArgs || c.kind === CandidateKind.Atom || c.kind === CandidateKind.NotAtom;
}

/** A candidate true in every success, with the failures it rejects. */
interface Kept {
  cand: Candidate;
  rejects: number[];
}

function learnRules(
  vocab: Vocabulary,
  params: readonly ActionParam[],
  successes: readonly Sample[],
  failures: readonly Sample[],
  held: ReadonlySet<string>,
  options: Required<ActionLearnOptions>,
): ActionRule[] {
  const kept: Kept[] = [];
  for (const cand of candidateLiterals(vocab, params, successes, failures)) {
    // A rule that would reject one accepted action is wrong (zero false rejections).
    if (!successes.every((s) => truth(vocab, cand.expr, s) === true)) continue;
    const rejects: number[] = [];
    failures.forEach((f, i) => {
      if (truth(vocab, cand.expr, f) === false) rejects.push(i);
    });
    kept.push({ cand, rejects });
  }
  kept.sort((a, b) => simpler(a.cand, b.cand));
  if (failures.length === 0) {
    // Without failures to rank them, show first what is about the arguments
    // or the whole state (`handempty()`: an atom of no arguments is as much
    // a precondition as one about them), positively; last what no state
    // seen could tell (the negation of a predicate that held in none, such
    // as what a goal forbids where no goal forbade anything).
    const vacuous = (c: Candidate) =>
      negated(c) && [...callNames(c.expr)].every((n) => !held.has(n));
    const ranked = [...kept].sort((a, b) =>
      Number(vacuous(a.cand)) - Number(vacuous(b.cand)) ||
      Number(direct(b.cand)) - Number(direct(a.cand)) ||
      Number(negated(a.cand)) - Number(negated(b.cand)) || simpler(a.cand, b.cand)
    );
    return ranked.slice(0, options.maxHypotheses).map((k) => ({
      text: k.cand.text,
      confirmed: false,
      covers: 0,
    }));
  }
  return greedyCover(kept, failures.length, options).map((k) => ({
    text: k.cand.text,
    confirmed: true,
    covers: k.rejects.length,
  }));
}

/**
 * Greedy set cover of the failures: repeatedly the rule rejecting the most
 * failures not yet explained (ties to the simpler rule, as `kept` is
 * sorted), until none explains at least `minCover` more or `maxRules` are
 * chosen.
 */
function greedyCover(
  kept: readonly Kept[],
  failures: number,
  options: Required<ActionLearnOptions>,
): Kept[] {
  const unexplained = new Uint8Array(failures).fill(1);
  const chosen: Kept[] = [];
  const used = new Set<number>();
  while (chosen.length < options.maxRules) {
    let best = -1;
    let bestGain = 0;
    kept.forEach((k, i) => {
      if (used.has(i)) return;
      let gain = 0;
      for (const f of k.rejects) gain += unexplained[f];
      if (gain > bestGain) [best, bestGain] = [i, gain];
    });
    if (best < 0 || bestGain < Math.max(1, options.minCover)) break;
    used.add(best);
    chosen.push(kept[best]);
    for (const f of kept[best].rejects) unexplained[f] = 0;
  }
  return chosen;
}

/** Order of preference: fewer constants, smaller, atoms before negations and quantifiers, text. */
function simpler(a: Candidate, b: Candidate): number {
  return a.constants - b.constants || a.size - b.size || a.kind - b.kind ||
    (a.text < b.text ? -1 : a.text > b.text ? 1 : 0);
}

function negated(c: Candidate): boolean {
  return c.kind === CandidateKind.NotAtom || c.kind === CandidateKind.NotExists;
}

/** A literal's truth in a situation; `undefined` when it cannot be evaluated. */
export function truth(vocab: Vocabulary, expr: Expr, sit: Situation): boolean | undefined {
  const r = evalExpr(expr, { vocab, facts: sit.facts, scope: sit.scope });
  return r.ok && typeof r.value === "boolean" ? r.value : undefined;
}

/**
 * The lifted effects: atoms some observed success made true (false) and
 * that are true (false) after every observed success. Judging the state
 * after, not the delta alone, keeps an effect when a step re-asserts what
 * already held (painting a red door red adds nothing new).
 */
function learnEffects(
  vocab: Vocabulary,
  params: readonly ActionParam[],
  observed: readonly Sample[],
): { add: string[]; remove: string[] } {
  const effects = (pick: (d: FactDelta) => Atom[], holdsAfter: boolean): string[] => {
    const seen = new Map<string, LiftedAtom>();
    for (const s of observed) {
      for (const a of pick(s.delta!)) {
        for (const l of liftAtom(vocab, params, s, a)) if (!seen.has(l.text)) seen.set(l.text, l);
      }
    }
    const candidates = [...seen.values()];
    const judged = judgeInOnePass(candidates, observed, holdsAfter);
    return candidates
      .filter((l) =>
        judged.get(l) ??
          observed.every((s) => after(s, ground(l, s.scope)) === holdsAfter)
      )
      .map((l) => l.text);
  };
  return { add: effects((d) => d.add, true), remove: effects((d) => d.remove, false) };
}

/** Above this many candidates of one predicate, they are judged in one pass over the samples. */
const SCAN_ABOVE = 16;

/**
 * Judges the candidates of predicates with many of them by one pass over
 * the predicate's atoms after each sample, instead of one lookup per
 * candidate and sample: a long trace whose steps each make a new constant
 * (a count that grows) would otherwise cost the square of its length. Each
 * atom holding after a sample is lifted back over that sample's arguments
 * (constant, or a parameter holding the value), which finds every
 * candidate that grounds to it there.
 */
function judgeInOnePass(
  candidates: readonly LiftedAtom[],
  observed: readonly Sample[],
  holdsAfter: boolean,
): Map<LiftedAtom, boolean> {
  const argKey = (a: LiftedAtom["args"][number]) =>
    "param" in a ? `p${a.param}` : `v${JSON.stringify(a.value)}`;
  const byPred = new Map<string, Map<string, LiftedAtom>>();
  for (const l of candidates) {
    let m = byPred.get(l.pred);
    if (!m) byPred.set(l.pred, m = new Map());
    m.set(l.args.map(argKey).join("\0"), l);
  }
  const out = new Map<LiftedAtom, boolean>();
  for (const [pred, byKey] of byPred) {
    if (byKey.size <= SCAN_ABOVE) continue;
    const holds = new Map<LiftedAtom, number>();
    for (const s of observed) {
      const now = new Map(s.facts.query(pred, []).map((a) => [JSON.stringify(a.args), a]));
      for (const a of s.delta!.remove) if (a.pred === pred) now.delete(JSON.stringify(a.args));
      for (const a of s.delta!.add) if (a.pred === pred) now.set(JSON.stringify(a.args), a);
      for (const atom of now.values()) {
        let keys = [""];
        atom.args.forEach((arg, i) => {
          const opts = [argKey({ value: arg })];
          for (const [name, v] of Object.entries(s.scope)) {
            if (v === arg) opts.push(argKey({ param: name }));
          }
          keys = keys.flatMap((k) => opts.map((o) => i === 0 ? o : `${k}\0${o}`));
        });
        for (const k of keys) {
          const l = byKey.get(k);
          if (l) holds.set(l, (holds.get(l) ?? 0) + 1);
        }
      }
    }
    for (const l of byKey.values()) {
      const n = holds.get(l) ?? 0;
      out.set(l, holdsAfter ? n === observed.length : n === 0);
    }
  }
  return out;
}

/** An atom over parameters (by name) and constants. */
interface LiftedAtom {
  text: string;
  pred: string;
  args: ({ param: string } | { value: AtomArg })[];
}

/** The ground atom of a lifted one under argument values. */
export function ground(
  lifted: Pick<LiftedAtom, "pred" | "args">,
  scope: Readonly<Record<string, Value>>,
): Atom {
  return {
    pred: lifted.pred,
    args: lifted.args.map((a) => "param" in a ? scope[a.param] as AtomArg : a.value),
  };
}

/** Whether `atom` holds once the sample's delta is applied (removals, then additions). */
function after(s: Sample, atom: Atom): boolean {
  const same = (b: Atom) =>
    b.pred === atom.pred && b.args.length === atom.args.length &&
    b.args.every((x, i) => x === atom.args[i]);
  if (s.delta!.add.some(same)) return true;
  return s.facts.has(atom) && !s.delta!.remove.some(same);
}

/**
 * The liftings of a ground atom over the parameters: every argument a
 * parameter holding it (type permitting), or a constant when it names no
 * object. Several when two parameters hold the same value; none when the
 * atom mentions another object.
 */
function liftAtom(
  vocab: Vocabulary,
  params: readonly ActionParam[],
  sample: Sample,
  atom: Atom,
): LiftedAtom[] {
  const types = own(vocab.predicates, atom.pred)?.params;
  if (!types || types.length !== atom.args.length) return [];
  const newObjects = sample.delta?.objects ?? {};
  let variants: LiftedAtom["args"][] = [[]];
  atom.args.forEach((arg, j) => {
    const opts: LiftedAtom["args"] = params
      .filter((p) => sample.scope[p.name] === arg && isAssignable(vocab, p.type, types[j]))
      .map((p) => ({ param: p.name }));
    const isObject = typeof arg === "string" &&
      (sample.facts.typeOf(arg) !== undefined || arg in newObjects);
    if (opts.length === 0 && !isObject) opts.push({ value: arg });
    variants = variants.flatMap((v) => opts.map((o) => [...v, o]));
  });
  return variants.map((args) => ({
    pred: atom.pred,
    args,
    text: `${atom.pred}(${
      args.map((a) => "param" in a ? a.param : formatLiteral(a.value)).join(", ")
    })`,
  }));
}

/**
 * Merges what a restored model knew (`prior`, whose transitions are gone)
 * with what was learned from new transitions (`fresh`): a prior rule stays
 * only if every new success satisfies it (a hypothesis becomes confirmed
 * when it rejects a new failure), counts add up, and effects are the atoms
 * both agree on.
 */
export function mergeEntries(
  vocab: Vocabulary,
  prior: Readonly<Record<string, ActionEntryData>>,
  fresh: Readonly<Record<string, ActionEntryData>>,
  transitions: readonly Transition[],
  parseRule: (action: string, text: string) => Expr,
): Record<string, ActionEntryData> {
  const groups = samplesByAction(vocab, transitions);
  const out: Record<string, ActionEntryData> = {};
  for (const name of Object.keys(vocab.actions)) {
    const p = prior[name];
    const n = fresh[name];
    if (!p || !n) {
      const only = p ?? n;
      if (only) out[name] = only;
      continue;
    }
    const samples = groups.get(name) ?? [];
    const successes = samples.filter((s) => s.ok);
    const failures = samples.filter((s) => !s.ok);
    const rejected = (text: string): number | undefined => {
      const expr = parseRule(name, text);
      if (!successes.every((s) => truth(vocab, expr, s) === true)) return undefined;
      return failures.filter((f) => truth(vocab, expr, f) === false).length;
    };
    // Earlier rules first (in their order), then the new ones.
    const confirmed = new Map<string, ActionRule>();
    const freshConfirmed = new Map(n.rules.filter((r) => r.confirmed).map((r) => [r.text, r]));
    let hypotheses: ActionRule[] = [];
    for (const r of p.rules) {
      const more = rejected(r.text);
      if (more === undefined) continue;
      const covers = r.covers + more;
      if (r.confirmed || more > 0) confirmed.set(r.text, { text: r.text, confirmed: true, covers });
      else hypotheses.push(r);
    }
    for (const [text, r] of freshConfirmed) if (!confirmed.has(text)) confirmed.set(text, { ...r });
    if (p.successes === 0) hypotheses = n.rules.filter((r) => !r.confirmed);
    if (p.failures + n.failures > 0) hypotheses = [];
    const effects = p.observed === 0 ? n.effects : n.observed === 0 ? p.effects : {
      add: p.effects.add.filter((t) => n.effects.add.includes(t)),
      remove: p.effects.remove.filter((t) => n.effects.remove.includes(t)),
    };
    out[name] = {
      successes: p.successes + n.successes,
      failures: p.failures + n.failures,
      observed: p.observed + n.observed,
      rules: [...confirmed.values(), ...hypotheses],
      effects,
    };
  }
  return out;
}
