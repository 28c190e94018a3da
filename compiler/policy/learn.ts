/**
 * Policy induction: a decision list of lifted rules learned from the
 * demonstrations' states and actions, the way generalised policies are
 * learned from small examples (Khardon's action strategies, PG3's lifted
 * decision lists). Each rule is an action of the vocabulary and a
 * condition over its parameters and a few more variables, written with the
 * state's predicates and the goal's (`goal_at(b, r)`):
 *
 * ```
 * drop(b, r, g)  if carry(b, g) and at_robby(r) and goal_at(b, r)
 * pick(b, r, g)  if at(b, r) and at_robby(r) and free(g) and goal_at(b, x) and not at(b, x)
 * move(r1, r2)   if at_robby(r1) and carry(b, g) and goal_at(b, r2)
 * ...
 * ```
 *
 * In a state the first rule whose condition some binding satisfies acts,
 * with such a binding (the free choice of the skill's `select_one`). The
 * list is **consistent** with the demonstrations: in every demonstrated
 * state the first rule that applies is the expert's action, and the
 * expert's arguments satisfy it (the existential over the free choice, as
 * in the skills' consistency check). Rules are found greedily, most
 * demonstrated states first: for each action a beam search over
 * conjunctions, from the action's observed preconditions (literals true of
 * its arguments before every demonstrated use that the action consumes, or
 * that no action changes) adding the literals that tell the states where
 * the expert took it from those where it did something else.
 *
 * @module
 */
import type { FactView } from "../../dsl/facts.ts";
import { matchAction } from "../../dsl/action.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import type { GroundedTrace } from "../ground.ts";
import {
  type Conjunction,
  ConjunctionEvaluator,
  type Literal,
  literalKey,
  literalText,
} from "./conjunction.ts";

/** One demonstrated decision: the state and the expert's action in it. */
export interface PolicyExample {
  state: FactView;
  /** The vocabulary action. */
  action: string;
  /** Its arguments, in the action's parameter order. */
  args: string[];
  /** Where it comes from: trace and step. */
  trace: number;
  step: number;
}

/** A rule of the decision list: the action and its condition. */
export interface PolicyRule {
  action: string;
  /**
   * The condition: variables `0 .. params - 1` are the action's parameters
   * in order, the others range over objects the condition relates them to.
   */
  condition: Conjunction;
  /** The demonstrated decisions it takes (when it is reached), and how many states it acts in. */
  covers: number;
  fires: number;
}

/** A learned decision list. */
export interface Policy {
  rules: PolicyRule[];
  /** Demonstrated decisions no rule reproduces (the list is consistent when there are none). */
  uncovered: PolicyExample[];
  /** All demonstrated decisions. */
  examples: number;
}

/** Limits of {@linkcode learnPolicy}. */
export interface PolicyOptions {
  /** Literals a rule may add to its action's observed preconditions. @default 4 */
  maxLiterals?: number;
  /** Variables a rule may add to its action's parameters. @default 2 */
  maxExtraVars?: number;
  /** Conditions kept per search depth. @default 8 */
  beamWidth?: number;
  /** Receives one line per decision (for `--explain`). */
  explain?: (line: string) => void;
}

/**
 * The demonstrated decisions of grounded traces: every accepted step whose
 * action matches a vocabulary action with object arguments.
 */
export function policyExamples(
  traces: readonly GroundedTrace[],
  vocab: Vocabulary,
): PolicyExample[] {
  const out: PolicyExample[] = [];
  traces.forEach((g, t) => {
    g.steps.forEach((s, i) => {
      if (s.rejected !== undefined) return;
      const m = matchAction(vocab, s.action);
      if (!m) return;
      const args = vocab.actions[m.action].params.map((p) => m.args[p.name]);
      if (!args.every((a) => typeof a === "string")) return;
      out.push({ state: g.states[i], action: m.action, args: args as string[], trace: t, step: i });
    });
  });
  return out;
}

/**
 * Learns a decision list consistent with the examples (see the module doc).
 *
 * @param examples The demonstrated decisions (see {@linkcode policyExamples}).
 * @param traces The grounded traces they come from (for what actions change).
 * @param vocab Their vocabulary.
 * @returns The rules, and the decisions no rule reproduces.
 *
 * @example Usage
 * ```ts ignore
 * const examples = policyExamples(grounded, kit.vocabulary);
 * const policy = learnPolicy(examples, grounded, kit.vocabulary);
 * console.log(policy.rules.length, policy.uncovered.length);
 * ```
 */
export function learnPolicy(
  examples: readonly PolicyExample[],
  traces: readonly GroundedTrace[],
  vocab: Vocabulary,
  options: PolicyOptions = {},
): Policy {
  const learner = new Learner(examples, traces, vocab, options);
  return learner.run();
}

/** A candidate condition with the examples it covers and the states it fires in. */
interface Scored {
  condition: Conjunction;
  keys: Set<string>;
  /** Indices (into the remaining examples) of the positives whose expert arguments satisfy it. */
  pos: number[];
  /** Indices of the remaining examples it fires in and would decide otherwise than the expert. */
  neg: number[];
  /** Indices of the remaining examples it fires in. */
  fires: number[];
  /** For a consistent condition: its description length (see `#cost`). */
  cost?: number;
}

class Learner {
  readonly #eval: ConjunctionEvaluator;
  readonly #static: Set<string>;
  readonly #maxLiterals: number;
  readonly #maxExtra: number;
  readonly #width: number;
  readonly #explain?: (line: string) => void;

  constructor(
    readonly examples: readonly PolicyExample[],
    readonly traces: readonly GroundedTrace[],
    readonly vocab: Vocabulary,
    options: PolicyOptions,
  ) {
    this.#eval = new ConjunctionEvaluator(vocab);
    const changed = new Set<string>();
    for (const g of traces) {
      for (const s of g.steps) {
        for (const a of [...s.delta.add, ...s.delta.remove]) changed.add(a.pred);
      }
    }
    this.#static = new Set(Object.keys(vocab.predicates).filter((p) => !changed.has(p)));
    this.#maxLiterals = options.maxLiterals ?? 4;
    this.#maxExtra = options.maxExtraVars ?? 2;
    this.#width = options.beamWidth ?? 8;
    if (options.explain) this.#explain = options.explain;
  }

  run(): Policy {
    let remaining = [...this.examples];
    const rules: PolicyRule[] = [];
    const bases = new Map<string, Conjunction>();
    for (const action of new Set(this.examples.map((e) => e.action))) {
      bases.set(action, this.#base(action));
    }
    while (remaining.length > 0) {
      let best: Scored & { action: string } | undefined;
      for (const action of new Set(remaining.map((e) => e.action))) {
        const found = this.#search(bases.get(action)!, action, remaining);
        if (found && (!best || better(found, best))) best = { ...found, action };
      }
      if (!best) break;
      const rule: PolicyRule = {
        action: best.action,
        condition: best.condition,
        covers: best.pos.length,
        fires: best.fires.length,
      };
      rules.push(rule);
      this.#explain?.(
        `policy rule ${rules.length}: ${
          ruleText(rule, this.vocab)
        } (takes ${rule.covers} of the ${remaining.length} decisions left)`,
      );
      const fired = new Set(best.fires);
      remaining = remaining.filter((_, i) => !fired.has(i));
    }
    if (remaining.length > 0) {
      this.#explain?.(
        `policy: ${remaining.length} decisions no consistent rule takes (first: ${
          remaining[0].action
        } ${remaining[0].args.join(" ")} at step ${remaining[0].step} of trace ${
          remaining[0].trace + 1
        })`,
      );
    }
    return { rules, uncovered: remaining, examples: this.examples.length };
  }

  /**
   * The action's observed preconditions: literals over its parameters true
   * of the expert's arguments before every use, kept when the action
   * consumes them (deletes the atom, or adds the atom of a negated one) or
   * no action changes them.
   */
  #base(action: string): Conjunction {
    const params = this.vocab.actions[action].params;
    const types = params.map((p) => p.type);
    const uses = this.examples.filter((e) => e.action === action);
    const deltas = uses.map((e) => this.traces[e.trace].steps[e.step].delta);
    const literals: Literal[] = [];
    for (const lit of this.#literals({ types, literals: [] }, false)) {
      if (this.#trivial(lit, types)) continue;
      const holdsAll = uses.every((e) =>
        e.state.has({ pred: lit.pred, args: lit.args.map((a) => e.args[a]) }) !== lit.negated
      );
      if (!holdsAll) continue;
      const consumed = uses.every((e, k) => {
        const args = lit.args.map((a) => e.args[a]);
        const list = lit.negated ? deltas[k].add : deltas[k].remove;
        return list.some((x) => x.pred === lit.pred && x.args.every((v, i) => v === args[i]));
      });
      if (consumed || this.#static.has(lit.pred)) literals.push(lit);
    }
    return { types, literals };
  }

  /**
   * Whether a literal holds of every typed tuple in every demonstrated
   * state, and so tells nothing: a negated one whose predicate never holds
   * of objects of those types, a unary one every object of the type has.
   */
  #trivial(lit: Literal, types: readonly string[]): boolean {
    const key = `${literalKey(lit)}:${lit.args.map((a) => types[a]).join(",")}`;
    let v = this.#trivialCache.get(key);
    if (v !== undefined) return v;
    const fitsArgs = (args: readonly unknown[], facts: FactView) =>
      lit.args.every((a, i) =>
        typeof args[i] === "string" && this.#eval.fits(facts.typeOf(args[i] as string), types[a])
      );
    if (lit.negated) {
      v = !this.#states.some((f) =>
        f.query(lit.pred, lit.args.map(() => null)).some((x) => fitsArgs(x.args, f))
      );
    } else if (lit.args.length === 1) {
      v = this.#states.every((f) =>
        this.#eval.objectsOf(f, types[lit.args[0]]).every((o) =>
          f.has({ pred: lit.pred, args: [o] })
        )
      );
    } else v = false;
    this.#trivialCache.set(key, v);
    return v;
  }
  readonly #trivialCache = new Map<string, boolean>();
  get #states(): FactView[] {
    return this.examples.map((e) => e.state);
  }

  /**
   * Literals that may extend `c`: each predicate over the variables of `c`
   * (types permitting), positive or negated, or positive with one new
   * variable when `extend` allows.
   */
  *#literals(c: Conjunction, extend: boolean): Generator<Literal & { newType?: string }> {
    const n = c.types.length;
    const canAdd = extend && this.#extraOf(c) < this.#maxExtra;
    for (const [pred, decl] of Object.entries(this.vocab.predicates)) {
      const arity = decl.params.length;
      if (arity === 0) {
        yield { pred, args: [], negated: false };
        yield { pred, args: [], negated: true };
        continue;
      }
      // Every assignment of the positions to variables (or one new variable).
      const choices = decl.params.map((t) => {
        const vars: number[] = [];
        c.types.forEach((vt, v) => {
          if (this.#eval.fits(vt, t) || this.#eval.fits(t, vt)) vars.push(v);
        });
        return vars;
      });
      const pick: number[] = new Array(arity);
      const trivial = (lit: Literal) => this.#trivial(lit, c.types);
      const isObject = (t: string) => this.vocab.types[t]?.kind === "object";
      const go = function* (i: number, fresh: number): Generator<Literal & { newType?: string }> {
        if (i === arity) {
          if (fresh < 0) {
            for (const negated of [false, true]) {
              const lit = { pred, args: pick.slice(), negated };
              if (!trivial(lit)) yield lit;
            }
          } else {
            yield { pred, args: pick.slice(), negated: false, newType: decl.params[fresh] };
          }
          return;
        }
        for (const v of choices[i]) {
          pick[i] = v;
          yield* go(i + 1, fresh);
        }
        if (canAdd && fresh < 0 && isObject(decl.params[i])) {
          pick[i] = n;
          yield* go(i + 1, i);
        }
      };
      yield* go(0, -1);
    }
  }

  #extraOf(c: Conjunction): number {
    return c.types.length - (this.#paramsOf.get(c) ?? c.types.length);
  }
  readonly #paramsOf = new WeakMap<Conjunction, number>();

  /** The best consistent condition for `action` over the remaining examples, if any. */
  #search(
    base: Conjunction,
    action: string,
    remaining: readonly PolicyExample[],
  ): Scored | undefined {
    const params = base.types.length;
    this.#paramsOf.set(base, params);
    const all = remaining.map((_, i) => i);
    const start = this.#score(base, action, remaining, all, all);
    if (start.pos.length === 0) return undefined;
    if (start.neg.length === 0) start.cost = this.#cost(start, remaining, params);
    let best: Scored | undefined = start.neg.length === 0 ? start : undefined;
    let beam = [start];
    const seen = new Set<string>([[...start.keys].sort().join("&")]);
    for (let depth = 0; depth < this.#maxLiterals && beam.length > 0; depth++) {
      const children: Scored[] = [];
      for (const parent of beam) {
        for (const lit of this.#literals(parent.condition, true)) {
          const literal: Literal = { pred: lit.pred, args: lit.args, negated: lit.negated };
          const key = literalKey(literal);
          if (parent.keys.has(key)) continue;
          const keys = new Set(parent.keys).add(key);
          const id = [...keys].sort().join("&");
          if (seen.has(id)) continue;
          seen.add(id);
          const condition: Conjunction = {
            types: lit.newType !== undefined
              ? [...parent.condition.types, lit.newType]
              : parent.condition.types,
            literals: [...parent.condition.literals, literal],
          };
          this.#paramsOf.set(condition, params);
          const scored = this.#score(condition, action, remaining, parent.pos, parent.fires, keys);
          if (scored.pos.length === 0) continue;
          if (scored.neg.length === 0) scored.cost = this.#cost(scored, remaining, params);
          // A literal that takes no decision away and narrows no choice only
          // makes the rule longer.
          const same = scored.pos.length === parent.pos.length &&
            scored.fires.length === parent.fires.length;
          if (same && (parent.cost === undefined || scored.cost! >= parent.cost)) continue;
          children.push(scored);
          if (scored.neg.length === 0 && (!best || better(scored, best))) best = scored;
        }
      }
      children.sort((a, b) =>
        promise(b) - promise(a) || (a.cost ?? 0) - (b.cost ?? 0) || a.keys.size - b.keys.size
      );
      beam = children.slice(0, this.#width);
      if (Deno.env.get("POLICY_DEBUG")) {
        for (const b of beam) {
          console.log(
            depth,
            action,
            b.pos.length,
            b.neg.length,
            b.cost,
            b.condition.literals.map((l) =>
              literalText(l, b.condition.types.map((_, i) => `v${i}`))
            ).join(" & "),
          );
        }
      }
    }
    return best;
  }

  /**
   * The description length of a consistent rule's decisions: its literals,
   * plus the bits that name the expert's choice among the bindings the
   * rule allows in each state it takes (a rule that allows any room to
   * move to says less than one that allows the rooms holding what must be
   * fetched).
   */
  #cost(s: Scored, remaining: readonly PolicyExample[], params: number): number {
    let bits = 0;
    for (const i of s.pos) {
      const choices = this.#eval.countChoices(s.condition, remaining[i].state, params, 64);
      bits += Math.log2(Math.max(1, choices));
    }
    return s.condition.literals.length * LITERAL_BITS + bits +
      IDLE_BITS * this.#idleUses(s.condition, params);
  }

  /**
   * How often the condition would let its action take an object the
   * expert never acted on in that demonstration (an idle object: a ball
   * no goal mentions, a room nothing is in): over a sample of the
   * demonstrated states, the idle objects that satisfy what the condition
   * says of that parameter (the literals about it, and about the extra
   * variables they relate it to). A rule that takes no idle object says
   * why it takes the objects it does.
   */
  #idleUses(c: Conjunction, params: number): number {
    let count = 0;
    for (let k = 0; k < params; k++) {
      const local = localCondition(c, k, params);
      if (local.literals.length === 0) continue;
      for (const { state, idle } of this.#probes) {
        for (const o of this.#eval.objectsOf(state, c.types[k])) {
          if (!idle.has(o)) continue;
          const fixed: (string | undefined)[] = [];
          fixed[k] = o;
          if (this.#eval.holds(local, state, fixed)) count++;
        }
      }
    }
    return count;
  }

  /** States to probe for idle uses, with each trace's idle objects. */
  get #probes(): { state: FactView; idle: ReadonlySet<string> }[] {
    if (this.#probeCache) return this.#probeCache;
    const out: { state: FactView; idle: ReadonlySet<string> }[] = [];
    this.traces.forEach((g, t) => {
      const used = new Set(this.examples.filter((e) => e.trace === t).flatMap((e) => e.args));
      const idle = new Set<string>();
      for (const [o] of Object.entries(g.states[0].objects())) if (!used.has(o)) idle.add(o);
      if (idle.size === 0) return;
      const step = Math.max(1, Math.floor(g.states.length / PROBES_PER_TRACE));
      for (let i = 0; i < g.states.length; i += step) out.push({ state: g.states[i], idle });
    });
    return this.#probeCache = out;
  }
  #probeCache?: { state: FactView; idle: ReadonlySet<string> }[];

  /**
   * Scores a condition on the remaining examples, looking only at those its
   * parent covered (`pos`) and fired in (`fires`): a longer condition covers
   * and fires in subsets of them.
   */
  #score(
    condition: Conjunction,
    action: string,
    remaining: readonly PolicyExample[],
    pos: readonly number[],
    fires: readonly number[],
    keys: Set<string> = new Set(condition.literals.map(literalKey)),
  ): Scored {
    const covered = new Set<number>();
    for (const i of pos) {
      const e = remaining[i];
      if (e.action === action && this.#eval.holds(condition, e.state, e.args)) covered.add(i);
    }
    const fired: number[] = [];
    const neg: number[] = [];
    for (const i of fires) {
      const e = remaining[i];
      if (covered.has(i)) {
        fired.push(i);
        continue;
      }
      if (!this.#eval.holds(condition, e.state)) continue;
      fired.push(i);
      neg.push(i);
    }
    return { condition, keys, pos: [...covered], neg, fires: fired };
  }
}

/** What one literal of a rule costs, in bits of its description. */
const LITERAL_BITS = 2;
/** What one use of an idle object costs (see `#idleUses`). */
const IDLE_BITS = 4;
/** Demonstrated states per trace probed for idle uses. */
const PROBES_PER_TRACE = 8;

/**
 * What a condition says of parameter `k`: the literals about it and about
 * the extra variables (from `params` on) they relate it to, with the other
 * parameters left free.
 */
function localCondition(c: Conjunction, k: number, params: number): Conjunction {
  const reached = new Set([k]);
  const literals: Literal[] = [];
  for (let grew = true; grew;) {
    grew = false;
    for (const l of c.literals) {
      if (literals.includes(l) || !l.args.some((a) => reached.has(a))) continue;
      literals.push(l);
      for (const a of l.args) {
        if (a >= params && !reached.has(a)) {
          reached.add(a);
          grew = true;
        }
      }
    }
  }
  return { types: c.types, literals };
}

/** Whether `a` is a better consistent rule than `b`: more decisions, then a shorter description. */
function better(a: Scored, b: Scored): boolean {
  if (a.pos.length !== b.pos.length) return a.pos.length > b.pos.length;
  return (a.cost ?? 0) < (b.cost ?? 0);
}

/** How promising a partial condition is: its precision, smoothed, then its coverage. */
function promise(s: Scored): number {
  return (s.pos.length + 1) / (s.pos.length + s.neg.length + 2) + s.pos.length * 1e-6;
}

/** The variable names of a rule: its action's parameters, then `x1`, `x2`, ... */
export function ruleVariables(rule: PolicyRule, vocab: Vocabulary): string[] {
  const params = vocab.actions[rule.action].params.map((p) => p.name);
  return rule.condition.types.map((_, i) => params[i] ?? `x${i - params.length + 1}`);
}

/** A rule as text: `drop(b, r, g) if carry(b, g) and ...`. */
export function ruleText(rule: PolicyRule, vocab: Vocabulary): string {
  const names = ruleVariables(rule, vocab);
  const params = vocab.actions[rule.action].params.length;
  const cond = rule.condition.literals.map((l) => literalText(l, names)).join(" and ");
  return `${rule.action}(${names.slice(0, params).join(", ")}) if ${cond || "true"}`;
}
