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
 * Where decisions are left that no consistent rule takes, the list ends
 * with rules that decide a few of the demonstrated decisions they act in
 * otherwise than the expert (at most a fifth, each rule saying how many):
 * an expert's plan has moments no short rule agrees with (a door unlocked
 * on the way because the key was at hand), and they would otherwise hide
 * the strategy the rest of its decisions share.
 *
 * @module
 */
import type { Atom, FactView } from "../../dsl/facts.ts";
import { matchAction } from "../../dsl/action.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import type { GroundedTrace } from "../ground.ts";
import { BUILTIN_CALLS, KEYWORDS } from "../../dsl/expr/ast.ts";
import { goalPredicateNames } from "../../dsl/goal_predicates.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import type { FactStore } from "../../runtime/fact_store.ts";
import {
  type Conjunction,
  countChoices,
  type Derived,
  freshName,
  type Literal,
  literalKey,
  literalVars,
  NONE,
  renameLiteral,
  satisfiable,
  StateIndex,
  TypeIndex,
} from "./conjunction.ts";
import {
  agreedLiterals,
  CLOSER,
  distanceText,
  findMovers,
  movedArgument,
  type Mover,
  MoverDistances,
  type MoverStep,
  moverVariables,
  movesIn,
} from "./movers.ts";
import { ruleLiteralText } from "./rule_text.ts";
import { type Chain, findChains, SETTLED, settled } from "./settled.ts";
import { goalRelations } from "./goals.ts";
import { ENOUGH, enough, type Supply } from "./supplies.ts";
import { BLOCKING, findGates, type Gate, GateStates, STRANDED, WANTED } from "./gates.ts";
import { orderGoals, PENDING, pending, type PendingGoal, pendingGoals } from "./pending.ts";

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
  /**
   * The demonstrated decisions it acts in that the expert decided otherwise
   * (only a rule learned for the few left, see `learnPolicy`).
   */
  otherwise?: number;
}

/** A learned decision list. */
export interface Policy {
  rules: PolicyRule[];
  /** Demonstrated decisions no rule reproduces (the list is consistent when there are none). */
  uncovered: PolicyExample[];
  /** All demonstrated decisions. */
  examples: number;
  /** The movers closer literals refer to (`closer:<index>`). */
  movers: Mover[];
  /** The chains settled literals refer to (`settled:<index>`). */
  chains: Chain[];
  /** The goal relations pending literals refer to. */
  goals: PendingGoal[];
  /** The supplies enough literals refer to (`enough:<index>`). */
  supplies: Supply[];
  /** The gates blocking and wanted literals refer to (`blocking:<index>`, `wanted:<index>`). */
  gates: Gate[];
}

/** Limits of {@linkcode learnPolicy}. */
export interface PolicyOptions {
  /** Literals a rule may add to its action's observed preconditions. @default 4 */
  maxLiterals?: number;
  /** Variables a rule may add to its action's parameters. @default 2 */
  maxExtraVars?: number;
  /** Conditions kept per search depth. @default 8 */
  beamWidth?: number;
  /**
   * Work allowed for the whole search, in conditions checked against one
   * demonstrated state: past it, no further rule is searched for (the list
   * learned so far is kept, its decisions left uncovered said); the rules
   * that decide a few otherwise get half as much again. Bounds time and
   * memory on large demonstrations. @default 2,000,000
   */
  maxWork?: number;
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
 * Learns a decision list consistent with the examples, then rules for the
 * decisions it leaves that decide a few otherwise (see the module doc).
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

/**
 * Where the search for a rule starts: each action's (or each typed variant's)
 * observed preconditions, the action of each variant, and the key of an
 * example's start.
 */
interface SearchStarts {
  bases: ReadonlyMap<string, Conjunction>;
  variants: ReadonlyMap<string, string>;
  keyOf: (e: PolicyExample) => string;
}

/** A candidate condition, scored on the remaining examples. */
interface Scored {
  condition: Conjunction;
  keys: Set<string>;
  /** The remaining examples it fires in (by index). */
  fires: number[];
  /** The remaining examples of its action whose expert arguments satisfy it. */
  pos: number[];
  /** The remaining examples it fires in and would decide otherwise than the expert. */
  neg: number[];
  /** For a consistent condition: its description length per decision it takes (see `#cost`). */
  cost?: number;
}

class Learner {
  readonly #types: TypeIndex;
  readonly #index: StateIndex[];
  readonly #static: Set<string>;
  readonly #maxLiterals: number;
  readonly #maxExtra: number;
  readonly #width: number;
  readonly #maxWork: number;
  #work = 0;
  /** Share of the decisions a rule takes that it may decide otherwise (0 while rules must be consistent). */
  #tolerance = 0;
  /** The demonstrated decisions rules learned while tolerating decide otherwise. */
  readonly #decidedOtherwise: number[] = [];
  /** Rules that head for where another rule acts, a jump away (see `#seekRules`). */
  readonly #seeking = new Set<PolicyRule>();
  /** Rules rewritten to move to where another rule acts: their mover and that rule (see `#towardAfter`). */
  readonly #movesTo = new Map<PolicyRule, { mover: Mover; aim: PolicyRule }>();
  /** The distances along each mover of `#movers`, in its order (its closer literals'). */
  #distances: MoverDistances[] = [];
  /** The work past which no further rule is searched for. */
  #workLimit: number;
  /** Where the search under way stops (its share of the work left). */
  #searchLimit = Infinity;
  readonly #explain?: (line: string) => void;
  readonly #trivialCache = new Map<string, boolean>();
  readonly #params = new WeakMap<Conjunction, number>();
  /** Computed predicates (closer literals), filled once the movers are known. */
  readonly #derived = new Map<string, Derived>();
  #movers: Mover[] = [];
  /** What holders hold and an action uses up (`enough:<index>` literals). */
  #supplies: Supply[] = [];
  /** Places movers cannot enter until an action opens them (`blocking:` and `wanted:` literals). */
  #gates: Gate[] = [];
  /** Movers whose steps join any two places (see `findMovers`'s `jumps`). */
  #jumps: Mover[] = [];
  #chains: Chain[] = [];
  /** Each action's observed preconditions (as literal keys, every type's). */
  readonly #baseKeys = new Map<string, string[]>();
  /** The example each demonstrated state belongs to (for the expert's own step, see `#tie`). */
  readonly #exampleOf = new Map<StateIndex, number>();
  #probeCache?: { state: StateIndex; idle: ReadonlySet<string> }[];
  readonly #idleCache = new Map<string, number>();
  readonly #signatures = new Map<PolicyExample, string>();
  readonly #goals: PendingGoal[];
  /** The goal relations in the order the demonstrations achieved them (see `orderGoals`). */
  readonly #ordered: PendingGoal[];

  constructor(
    readonly examples: readonly PolicyExample[],
    readonly traces: readonly GroundedTrace[],
    readonly vocab: Vocabulary,
    options: PolicyOptions,
  ) {
    this.#types = new TypeIndex(vocab);
    const preds = Object.keys(vocab.predicates);
    this.#index = examples.map((e) => new StateIndex(e.state, preds, this.#types, this.#derived));
    this.#index.forEach((state, i) => this.#exampleOf.set(state, i));
    const changed = new Set<string>();
    for (const g of traces) {
      for (const s of g.steps) {
        for (const a of [...s.delta.add, ...s.delta.remove]) changed.add(a.pred);
      }
    }
    this.#static = new Set(preds.filter((p) => !changed.has(p)));
    this.#maxLiterals = options.maxLiterals ?? 4;
    this.#maxExtra = options.maxExtraVars ?? 2;
    this.#width = options.beamWidth ?? 8;
    this.#maxWork = options.maxWork ?? 2_000_000;
    this.#workLimit = this.#maxWork;
    if (options.explain) this.#explain = options.explain;
    // The relations the demonstrated goals ask for (the others would only
    // lengthen the rules' text).
    const asked = this.#asked;
    this.#goals = pendingGoals(vocab).filter((g) => asked.has(g.goal));
    // The rules are learned without the order (it holds in every demonstrated
    // state that matters) and say it: the search stays the same.
    this.#ordered = orderGoals(this.#goals, traces);
    if (this.#goals.length > 0) {
      this.#derived.set(PENDING, (state, [x]) => pending(this.#goals, state, x));
    }
  }

  run(): Policy {
    let remaining = this.examples.map((_, i) => i);
    const rules: PolicyRule[] = [];
    const bases = new Map<string, Conjunction>();
    const actions = new Set(this.examples.map((e) => e.action));
    for (const action of actions) bases.set(action, this.#base(action));
    // An action the expert used on objects of several types (one `click` for
    // products, options and buttons) is learned per type: each rule binds
    // objects of the type it was seen with.
    const variants = new Map<string, string>();
    for (const action of actions) {
      const signatures = new Set(
        this.examples.filter((e) => e.action === action).map((e) => this.#signature(e)),
      );
      if (signatures.size < 2) continue;
      for (const sig of signatures) {
        const key = `${action}\u0000${sig}`;
        bases.set(key, this.#base(action, false, sig.split(",")));
        variants.set(key, action);
      }
      bases.delete(action);
    }
    for (const [key, base] of bases) {
      const action = variants.get(key) ?? key;
      const keys = this.#baseKeys.get(action) ?? [];
      keys.push(...base.literals.map(literalKey));
      this.#baseKeys.set(action, keys);
    }
    const keyOf = (e: PolicyExample) =>
      bases.has(e.action) ? e.action : `${e.action}\u0000${this.#signature(e)}`;
    // What held in every demonstrated use, the atoms they keep included.
    const held = new Map([...actions].map((action) => [action, this.#base(action, true)]));
    this.#findMovers(held);
    this.#findGates(held);
    this.#agreeOnMoves(bases, variants);
    this.#chains = findChains(this.vocab, this.#types, this.#index, this.#static);
    this.#chains.forEach((chain, c) => {
      this.#derived.set(`${SETTLED}${c}`, (state, [x]) => settled(chain, state, x));
      this.#explain?.(
        `policy: ${chain.pred} chains objects; settled(x) says nothing below x is misplaced`,
      );
    });
    const starts: SearchStarts = { bases, variants, keyOf };
    remaining = this.#cover(rules, remaining, starts);
    this.#dropIdleGoalLiterals(rules);
    this.#askEnabled(rules, held);
    this.#askApart(rules);
    this.#alignMoverRules(rules);
    this.#settleRules(rules);
    this.#pursueGoals(rules);
    this.#purposeMoves(rules, bases, held);
    this.#countSupplies(rules);
    this.#mirrorMoverRules(rules, bases);
    this.#seekRules(rules, held, remaining);
    this.#openGates(rules, held);
    remaining = this.#tolerate(rules, remaining, starts);
    this.#towardAfter(rules, held);
    this.#relaxKinds(rules, held);
    this.#relaxGoals(rules);
    this.#relaxPassing(rules);
    this.#preferGoals(rules);
    this.#preferPending(rules);
    this.#keepAchieved(rules);
    this.#askCarried(rules, held);
    this.#actBeforeMoving(rules);
    this.#widenTypes(rules);
    const uncovered = [...remaining, ...this.#decidedOtherwise].sort((a, b) => a - b)
      .map((i) => this.examples[i]);
    if (uncovered.length > 0) {
      const first = uncovered[0];
      this.#explain?.(
        `policy: ${uncovered.length} decisions no rule reproduces (first: ${first.action} ${
          first.args.join(" ")
        } at step ${first.step + 1} of trace ${first.trace + 1})`,
      );
    }
    return {
      rules,
      uncovered,
      examples: this.examples.length,
      movers: this.#movers,
      chains: this.#chains,
      goals: this.#ordered,
      supplies: this.#supplies,
      gates: this.#gates,
    };
  }

  /**
   * Drops from each rule the literals about the goal (`goal_at(x, l)`,
   * a pending `l`) that excluded nothing in the demonstrations: in every
   * demonstrated state that reaches the rule, no binding of the rest of its
   * condition falls foul of the literal, so the rule takes the same actions
   * there without it. In three small problems with one parcel each, "no
   * parcel is to come here" held wherever the van drove on; in a larger
   * one a van stops at every place another parcel is to come to.
   */
  #dropIdleGoalLiterals(rules: PolicyRule[]): void {
    rules.forEach((rule, i) => {
      const reaching = this.#reaching(rules, i).map((k) => this.#index[k]);
      let { literals } = rule.condition;
      const { types } = rule.condition;
      for (let k = literals.length - 1; k >= 0; k--) {
        const l = literals[k];
        const ofGoal = l.pred === PENDING || this.#goalPreds.includes(l.pred);
        if (!ofGoal || l.none !== undefined) continue;
        const rest = literals.filter((_, j) => j !== k);
        // Flipped, the literal denies it of each binding only where the
        // rest binds its objects: a variable it alone binds would be
        // denied of every object at once.
        const bound = (v: number) =>
          rest.some((r) =>
            !r.negated && r.none === undefined && this.vocab.predicates[r.pred] !== undefined &&
            r.args.includes(v)
          );
        if (!l.args.every(bound)) continue;
        const against = { types, literals: [...rest, { ...l, negated: !l.negated }] };
        if (reaching.some((state) => satisfiable(against, state))) continue;
        literals = rest;
      }
      if (literals.length === rule.condition.literals.length) return;
      rules[i] = { ...rule, condition: { types, literals } };
      this.#explain?.(
        `policy rule ${i + 1} without what never mattered: ${this.#ruleText(rules[i])}`,
      );
    });
  }

  /**
   * Adds to each rule what held of one of its action's objects at every
   * demonstrated use and another action makes true (`power_on(i)` of a
   * `calibrate(s, i, d)`, which `switch_on` sets up), where the rule then
   * fires in the same demonstrated states: three small problems switched
   * every instrument they calibrated on first, and a larger one has
   * instruments nobody switched on.
   */
  #askEnabled(rules: PolicyRule[], held: ReadonlyMap<string, Conjunction>): void {
    const made = new Set(
      this.examples.flatMap((e) => this.traces[e.trace].steps[e.step].delta.add.map((a) => a.pred)),
    );
    rules.forEach((rule, i) => {
      const params = this.vocab.actions[rule.action].params.length;
      const has = new Set(rule.condition.literals.map(literalKey));
      // What the action makes itself is no one else's setting up.
      const own = new Set(
        this.#uses(rule.action).flatMap((e) =>
          this.traces[e.trace].steps[e.step].delta.add.map((a) => a.pred)
        ),
      );
      const more = (held.get(rule.action)?.literals ?? []).filter((l) =>
        !l.negated && l.none === undefined && l.args.length === 1 && l.args[0] < params &&
        made.has(l.pred) && !own.has(l.pred) && !has.has(literalKey(l))
      );
      this.#askMore(rules, i, more, "asks what was set up");
    });
  }

  /**
   * Adds `more` literals to rule `i` where it then fires in the same
   * demonstrated states it is reached in (so every rule after it sees the
   * states it saw); says so with `why`.
   */
  #askMore(rules: PolicyRule[], i: number, more: readonly Literal[], why: string): void {
    if (more.length === 0) return;
    const { condition } = rules[i];
    this.#rewrite(rules, i, {
      types: condition.types,
      literals: [...condition.literals, ...more],
    }, why);
  }

  /**
   * Gives rule `i` `condition` instead where it then fires in the same
   * demonstrated states it is reached in and decides none otherwise (so
   * every rule after it sees the states it saw), or with `asBefore` no more
   * than it did (a rule learned deciding a few otherwise); says so with
   * `why`. Returns whether it did.
   */
  #rewrite(
    rules: PolicyRule[],
    i: number,
    condition: Conjunction,
    why: string,
    asBefore = false,
  ): boolean {
    const rule = rules[i];
    const reaching = this.#reaching(rules, i);
    const before = this.#score(rule.condition, rule.action, reaching);
    const after = this.#score(condition, rule.action, reaching);
    const allowed = asBefore ? before.neg.length : 0;
    if (after.neg.length > allowed || after.fires.join() !== before.fires.join()) return false;
    rules[i] = { ...rule, condition };
    this.#explain?.(`policy rule ${i + 1} ${why}: ${this.#ruleText(rules[i])}`);
    return true;
  }

  /**
   * Adds to each rule what its action never had of one of its objects
   * where another action of the same parameters always had it (`not
   * no_gluten_sandwich(s)` of a `serve_sandwich`, whose gluten-free twin
   * serves only gluten-free ones), where the rule then fires in the same
   * demonstrated states: the property says which action, and the plain one
   * spends no object the other needs.
   */
  #askApart(rules: PolicyRule[]): void {
    const unary = Object.entries(this.vocab.predicates)
      .filter(([p, d]) => d.params.length === 1 && !this.#static.has(p)).map(([p]) => p);
    rules.forEach((rule, i) => {
      const params = this.vocab.actions[rule.action].params.length;
      const uses = this.#uses(rule.action);
      const has = new Set(rule.condition.literals.map(literalKey));
      const more: Literal[] = [];
      for (const pred of unary) {
        for (let v = 0; v < params; v++) {
          const l = { pred, args: [v], negated: true };
          if (has.has(literalKey(l))) continue;
          if (!uses.every((e) => !e.state.has({ pred, args: [e.args[v]] }))) continue;
          if (this.#tellsApart(rule.action, l)) more.push(l);
        }
      }
      this.#askMore(rules, i, more, "keeps apart");
    });
  }

  /**
   * Counts what a rule asks its holder to hold when an action uses it up
   * (see `supplies.ts`): a rule that asks only that the holder hold some
   * such thing (`carrying(m, x)`, the man goes on once he carries a
   * spanner) asks instead that it hold enough for what the goal still
   * asks, where the rule then takes the same decisions in every
   * demonstrated state and acts in no other.
   */
  #countSupplies(rules: PolicyRule[]): void {
    this.#supplies = this.#findSupplies();
    this.#supplies.forEach((supply, k) => {
      const pred = `${ENOUGH}${k}`;
      this.#derived.set(pred, (state, [h]) => enough(supply, state, h));
      this.#explain?.(
        `policy: ${supply.holds} holds ${supply.type}s that each ${supply.goal.pred} uses up`,
      );
      rules.forEach((rule, i) => {
        const { types, literals } = rule.condition;
        const params = this.vocab.actions[rule.action].params.length;
        for (const l of literals) {
          if (l.pred !== supply.holds || l.negated || l.none !== undefined) continue;
          const x = l.args[1 - supply.holder];
          const h = l.args[supply.holder];
          if (x < params) continue;
          // The thing held is any such thing: only its being held, and
          // usable, is said of it.
          const about = literals.filter((o) => o.args.includes(x));
          if (
            about.some((o) =>
              o !== l && !(o.pred === supply.usable && !o.negated && o.none === undefined)
            )
          ) continue;
          const kept = literals.filter((o) => !about.includes(o))
            .map((o) => renameLiteral(o, (v) => v > x ? v - 1 : v));
          const condition = {
            types: types.filter((_, v) => v !== x),
            literals: [...kept, { pred, args: [h > x ? h - 1 : h], negated: false }],
          };
          if (this.#rewrite(rules, i, condition, "counts")) break;
        }
      });
    });
  }

  /**
   * The supplies of the demonstrated actions: an action that, in every
   * demonstrated use, takes a one-argument property away from one of its
   * arguments that another of them holds (`usable(s)` of a spanner the
   * man carries) and makes true a one-argument atom the goal asks for.
   */
  #findSupplies(): Supply[] {
    const out: Supply[] = [];
    const achieved = this.#achievedBy;
    for (const action of new Set(this.examples.map((e) => e.action))) {
      const uses = this.#uses(action);
      const params = this.vocab.actions[action].params;
      for (const [goal, pred] of achieved) {
        if (this.vocab.predicates[pred].params.length !== 1) continue;
        const asked = uses.every((e) => {
          const { add } = this.traces[e.trace].steps[e.step].delta;
          return add.some((a) => a.pred === pred && e.state.has({ pred: goal, args: a.args }));
        });
        if (!asked) continue;
        // The one-argument properties the action took away, with the
        // parameter it took each from.
        const usedUp = Object.entries(this.vocab.predicates)
          .filter(([p, d]) => d.params.length === 1 && !this.#static.has(p))
          .map(([p]) => ({
            usable: p,
            from: this.#changedArgs(action, p, "remove").map(([k]) => k),
          }));
        for (let k = 0; k < params.length; k++) {
          for (const { usable, from } of usedUp) {
            if (!from.includes(k)) continue;
            for (const [holds, h] of Object.entries(this.vocab.predicates)) {
              if (h.params.length !== 2 || this.#static.has(holds)) continue;
              for (const holder of [0, 1]) {
                // A place is where a thing lies, not what holds it.
                if (this.#movers.some((m) => this.#types.fits(h.params[holder], m.type))) continue;
                const held = uses.every((e) =>
                  e.state.query(holds, holder === 0 ? [null, e.args[k]] : [e.args[k], null])
                    .some((a) => e.args.includes(a.args[holder] as string))
                );
                if (!held) continue;
                out.push({
                  holds,
                  holder,
                  usable,
                  type: params[k].type,
                  goal: { pred, goal },
                  goalType: this.vocab.predicates[pred].params[0],
                });
              }
            }
          }
        }
      }
    }
    return out;
  }

  /**
   * Learns rules for the `remaining` decisions, one after the other, each
   * the best the search finds for the decisions the rules before it leave,
   * until none is found; returns the decisions no rule takes. Once the work
   * budget is spent, the searches stop short, and an action's condition
   * found by an earlier search (for an action whose rule was not taken then)
   * stands in for its search, checked on the decisions left.
   */
  #cover(
    rules: PolicyRule[],
    remaining: number[],
    starts: SearchStarts,
  ): number[] {
    const { bases, variants, keyOf } = starts;
    // Each action's condition found last: a search that found one for an
    // action whose rule was not taken found it for decisions still left.
    const earlier = new Map<string, Scored & { action: string }>();
    let spent = false;
    while (remaining.length > 0) {
      let best: Scored & { action: string } | undefined;
      const keys = new Set(remaining.map((i) => keyOf(this.examples[i])));
      const unfound: string[] = [];
      const order = [...keys];
      for (const [k, key] of order.entries()) {
        const action = variants.get(key) ?? key;
        // Each search of a round gets an equal share of the work left, so
        // that one costly action does not leave the others unsearched.
        this.#searchLimit = this.#work +
          Math.max(0, this.#workLimit - this.#work) / (order.length - k);
        const found = this.#search(bases.get(key)!, action, remaining);
        if (found) earlier.set(key, { ...found, action });
        else unfound.push(key);
        if (found && (!best || better(found, best))) best = { ...found, action };
      }
      if (this.#work > this.#workLimit) {
        if (!spent) this.#explain?.(`policy: the search's work budget (${this.#maxWork}) is spent`);
        spent = true;
        // A search the budget cut short: the condition found before, on the decisions left.
        for (const key of unfound) {
          const found = earlier.get(key);
          if (!found) continue;
          const again = this.#rescored(
            found,
            found.action,
            bases.get(key)!.types.length,
            remaining,
          );
          if (again && (!best || better(again, best))) best = { ...again, action: found.action };
        }
      }
      // No rule for one kind of object: one for every kind the action was
      // used on (the kinds a problem tells apart may be chance: both halls
      // known where the boxes and crates lie in rooms and halls alike).
      if (!best) best = this.#unsplit(starts, remaining);
      if (!best) break;
      for (const [key, found] of earlier) if (found.action === best.action) earlier.delete(key);
      const rule: PolicyRule = {
        action: best.action,
        condition: best.condition,
        covers: best.pos.length,
        fires: best.fires.length,
        ...(best.neg.length > 0 ? { otherwise: best.neg.length } : {}),
      };
      rules.push(rule);
      this.#decidedOtherwise.push(...best.neg);
      const otherwise = rule.otherwise ? `; ${otherwiseText(rule.otherwise)}` : "";
      this.#explain?.(
        `policy rule ${rules.length}: ${
          this.#ruleText(rule)
        } (takes ${rule.covers} of the ${remaining.length} decisions left${otherwise})`,
      );
      const fired = new Set(best.fires);
      remaining = remaining.filter((i) => !fired.has(i));
    }
    return remaining;
  }

  /**
   * The best rule, over every kind of object, for an action learned per
   * kind (see `run`) whose decisions some are left of; bases are made once.
   */
  #unsplit(
    starts: SearchStarts,
    remaining: readonly number[],
  ): Scored & { action: string } | undefined {
    const left = new Set(remaining.map((i) => this.examples[i].action));
    let best: Scored & { action: string } | undefined;
    for (const action of new Set(starts.variants.values())) {
      if (!left.has(action)) continue;
      let base = this.#unsplitBases.get(action);
      if (!base) this.#unsplitBases.set(action, base = this.#base(action));
      this.#searchLimit = this.#work + Math.max(0, this.#workLimit - this.#work) / left.size;
      const found = this.#search(base, action, remaining);
      if (found && (!best || better(found, best))) best = { ...found, action };
    }
    return best;
  }
  readonly #unsplitBases = new Map<string, Conjunction>();

  /**
   * Ends the list with rules for the decisions no rule acts in that decide
   * a few of the decisions they take otherwise than the expert (at most
   * a fifth of them): an expert's plan has its moments (a
   * door unlocked on the way because the key was at hand) that no short
   * rule agrees with, and without these rules the strategy the rest of
   * its decisions share is not learned at all. Each acts only where no
   * consistent rule does, so it changes no decision the list made before.
   */
  #tolerate(
    rules: PolicyRule[],
    remaining: number[],
    starts: SearchStarts,
  ): number[] {
    const left = remaining.filter((k) =>
      rules.every((r) => !satisfiable(r.condition, this.#index[k]))
    );
    if (left.length < TOLERATED_MIN) return left;
    this.#tolerance = TOLERANCE;
    this.#workLimit = this.#work + this.#maxWork / 2;
    try {
      return this.#cover(rules, left, starts);
    } finally {
      this.#tolerance = 0;
    }
  }

  /**
   * Whether a scored condition may become a rule: it decides every decision
   * it takes as the expert did, or while tolerating, all but a few of at
   * least five.
   */
  #acceptable(s: Scored): boolean {
    if (this.#tolerance === 0) return s.neg.length === 0;
    return s.pos.length >= TOLERATED_MIN && s.neg.length <= this.#tolerance * s.pos.length;
  }

  /**
   * Gives a rule of a mover's action the reason its sibling rules have: the
   * directions of one walk move for one reason ("closer to the goal"), but
   * the last rules learned take the few decisions left, which no longer
   * tell a reason from chance. A rule without a closer literal gets the
   * closer literals (and their anchor) of a rule of another action of the
   * same mover when, in its place in the list, it then still takes every
   * decision it took.
   */
  #alignMoverRules(rules: PolicyRule[]): void {
    rules.forEach((rule, i) => {
      const m = this.#movers.findIndex((mv) => mv.steps.some((s) => s.action === rule.action));
      const closer = `${CLOSER}${m}`;
      if (m < 0 || rule.condition.literals.some((l) => l.pred === closer)) return;
      const siblings = rules.filter((r) =>
        r.action !== rule.action && this.#movers[m].steps.some((s) => s.action === r.action) &&
        r.condition.literals.some((l) => l.pred === closer)
      );
      if (siblings.length === 0) return;
      const reasons = new Set(siblings.flatMap((r) => r.condition.literals.map(literalKey)));
      const reaching = this.#reaching(rules, i);
      const before = this.#score(rule.condition, rule.action, reaching);
      this.#params.set(rule.condition, this.vocab.actions[rule.action].params.length);
      for (const ext of this.#extensions(rule.condition, rule.action)) {
        if (!ext.literals.some((l) => l.pred === closer)) continue;
        if (!ext.literals.every((l) => reasons.has(literalKey(l)))) continue;
        const condition: Conjunction = {
          types: [...rule.condition.types, ...ext.newTypes],
          literals: [...rule.condition.literals, ...ext.literals],
        };
        const after = this.#score(condition, rule.action, reaching);
        if (after.pos.length === before.pos.length && after.neg.length === 0) {
          rules[i] = { ...rule, condition };
          this.#explain?.(
            `policy rule ${i + 1} moves for its siblings' reason: ${this.#ruleText(rules[i])}`,
          );
          return;
        }
      }
    });
  }

  /** The demonstrated decisions no rule before the `i`th acts in. */
  #reaching(rules: readonly PolicyRule[], i: number): number[] {
    return this.examples.map((_, k) => k).filter((k) =>
      rules.slice(0, i).every((r) => !satisfiable(r.condition, this.#index[k]))
    );
  }

  /**
   * Says of each rule's objects whether they are settled where every
   * decision it takes agrees (`stack(x, y)` only on a settled `y`, as the
   * expert always did; an `unload(h, c, t, p)` only where the surface the
   * goal wants `c` on is settled): a few small demonstrations seldom show the states
   * where it matters, and the shorter rule would build on what must move.
   * The rule then takes the same decisions and acts in no more states.
   */
  #settleRules(rules: PolicyRule[]): void {
    if (this.#chains.length === 0) return;
    rules.forEach((rule, i) => {
      const reaching = this.#reaching(rules, i);
      const taken = this.#score(rule.condition, rule.action, reaching).pos.length;
      const before = rule.condition.literals.length;
      this.#chains.forEach((chain, c) => {
        const pred = `${SETTLED}${c}`;
        // What the goal wants one of the rule's objects on is where the
        // action leads (a crate unloaded where its goal surface is).
        const targets = rule.condition.literals.filter((l) =>
          l.pred === chain.goal && !l.negated && l.none === undefined
        ).map((l) => l.args[1]);
        for (const v of new Set([...this.#joins(rule.action, chain), ...targets])) {
          if (!this.#chained(rule.condition.types[v], chain)) continue;
          if (rule.condition.literals.some((l) => l.pred === pred && l.args[0] === v)) continue;
          for (const negated of [false, true]) {
            const condition: Conjunction = {
              types: rule.condition.types,
              literals: [...rule.condition.literals, { pred, args: [v], negated }],
            };
            if (this.#score(condition, rule.action, reaching).pos.length !== taken) continue;
            rule = rules[i] = { ...rule, condition };
            break;
          }
        }
      });
      if (rule.condition.literals.length === before) return;
      // What the demonstrations told apart by other means the settled
      // literal may now say alone (`goal_on(y, x)`, which only a reversed
      // tower made the reason to take `x` off): a literal about the
      // parameters that is no observed precondition goes where the rule
      // then takes the same decisions and no others.
      const params = this.vocab.actions[rule.action].params.length;
      const base = new Set(this.#baseKeys.get(rule.action) ?? []);
      for (const l of [...rule.condition.literals]) {
        if (base.has(literalKey(l)) || l.pred.startsWith(SETTLED) || l.pred.startsWith(CLOSER)) {
          continue;
        }
        if (!literalVars(l).every((v) => v < params)) continue;
        // The goal atom the action achieves is its purpose, not chance.
        if (this.#achieves(rule.action, l)) continue;
        const condition: Conjunction = {
          types: rule.condition.types,
          literals: rule.condition.literals.filter((x) => x !== l),
        };
        const scored = this.#score(condition, rule.action, reaching);
        if (scored.pos.length === taken && scored.neg.length === 0) {
          rule = rules[i] = { ...rule, condition };
        }
      }
    });
  }

  /**
   * Says of each goal atom a rule acts for that it is not achieved yet
   * (`goal_served(x)` and not `served(x)`) where the rule then still takes
   * every decision it took: the expert never acts for what already holds,
   * but small demonstrations seldom show a state where it matters (a lift
   * sent to the floor of a passenger served long ago).
   */
  #pursueGoals(rules: PolicyRule[]): void {
    const achieved = this.#achievedBy;
    const unary = [...achieved].filter(([g, p]) =>
      this.vocab.predicates[p].params.length === 1 && this.#asked.has(g)
    );
    rules.forEach((rule, i) => {
      const reaching = this.#reaching(rules, i);
      const taken = this.#score(rule.condition, rule.action, reaching).pos.length;
      const nots: Literal[] = [];
      for (const l of rule.condition.literals) {
        const pred = achieved.get(l.pred);
        if (pred !== undefined && !l.negated && l.none === undefined) {
          nots.push({ pred, args: l.args, negated: true });
        }
      }
      // A goal of one object (served, visited): the rule may take only
      // objects that do not have it yet, as the expert only ever did.
      rule.condition.types.forEach((type, v) => {
        for (const [, pred] of unary) {
          if (!this.#types.fits(type, this.vocab.predicates[pred].params[0])) continue;
          nots.push({ pred, args: [v], negated: true });
        }
      });
      for (const not of nots) {
        if (rule.condition.literals.some((x) => literalKey(x) === literalKey(not))) continue;
        const condition: Conjunction = {
          types: rule.condition.types,
          literals: [...rule.condition.literals, not],
        };
        if (this.#score(condition, rule.action, reaching).pos.length !== taken) continue;
        rule = rules[i] = { ...rule, condition };
        this.#explain?.(
          `policy rule ${i + 1} acts for goals not yet achieved: ${this.#ruleText(rule)}`,
        );
      }
    });
  }

  /**
   * Adds to the list, after each rule that says what kind its objects are
   * (a static property of one object: `ispawn(obj)`, `not ismonkey(obj)`)
   * because every demonstrated use had it, the rule without it. Three small
   * problems show the kinds they happen to use, and a rule learned from them
   * names those kinds. Each copy follows its rule, so it acts where the rule
   * does not (a goal over a kind never demonstrated) before the rules after
   * it do (a move to where something else the goal asks for lies, which
   * would otherwise leave each such thing for the next); what the
   * environment then refuses the agent does not send again. Acting on
   * objects no demonstration showed, a copy asks for what every demonstrated
   * use had (`holding(obj)` of a move that carries it, which the kind told
   * apart before).
   */
  #relaxKinds(rules: PolicyRule[], held: ReadonlyMap<string, Conjunction>): void {
    const seen = new Set(rules.map(ruleKey));
    const out: PolicyRule[] = [];
    for (const rule of rules) {
      out.push(rule);
      // A rule that heads for where another acts goes where that rule's
      // own copy acts on any kind (a plane flies only to an airport).
      if (this.#seeking.has(rule)) continue;
      // Only what held in every demonstrated use (the observed
      // preconditions): a kind the search chose tells decisions apart.
      const base = new Set(this.#baseKeys.get(rule.action) ?? []);
      const literals = rule.condition.literals.filter((l) =>
        !(this.#isKind(rule.action, l) && base.has(literalKey(l)))
      );
      if (literals.length === rule.condition.literals.length) continue;
      const has = new Set(literals.map(literalKey));
      for (const l of held.get(rule.action)?.literals ?? []) {
        if (l.negated || l.none !== undefined || this.#static.has(l.pred)) continue;
        if (!has.has(literalKey(l))) literals.push(l);
      }
      this.#addCopy(out, seen, rule, literals, "any kind of object");
    }
    rules.splice(0, rules.length, ...out);
  }

  /**
   * The variables of a condition the goal still asks something of: in a
   * goal literal whose relation the condition says does not hold
   * (`goal_inventory(x) and not inventory(x)`).
   */
  #askedVars(c: Conjunction): Set<number> {
    const keys = new Set(c.literals.map(literalKey));
    return new Set(
      c.literals.filter((l) => {
        const relation = l.negated || l.none !== undefined
          ? undefined
          : this.#relationOfGoal.get(l.pred);
        return relation !== undefined &&
          keys.has(literalKey({ pred: relation, args: l.args, negated: true }));
      }).flatMap(literalVars),
    );
  }

  /**
   * Appends to the list, for each rule that acts for what the goal asks of
   * its objects (`goal_visited(y)`), the rule without it. Acting only where
   * no rule of the list does, a copy goes through what the goal does not
   * name (a city on the way home that no goal asks to visit), which three
   * small demonstrations may never have needed; the choice look-ahead tells
   * the way through from a detour.
   */
  #relaxGoals(rules: PolicyRule[]): void {
    const seen = new Set(rules.map(ruleKey));
    for (const rule of [...rules]) {
      const literals = rule.condition.literals.filter((l) =>
        l.negated || l.none !== undefined || !this.#goalPreds.includes(l.pred)
      );
      if (literals.length === rule.condition.literals.length) continue;
      this.#addCopy(rules, seen, rule, literals, "whatever the goal asks");
    }
  }

  /**
   * Appends to the list, for each rule that says how an object its action
   * passes by stands (`not visited(thru)` of a drive through `thru`, which
   * no demonstrated use changed), the rule without it. Three small problems
   * show the ways they happen to pass; acting only where no rule of the
   * list does, the copy goes through a place already visited when no other
   * way is left, rather than leaving the policy without a rule.
   */
  #relaxPassing(rules: PolicyRule[]): void {
    const seen = new Set(rules.map(ruleKey));
    for (const rule of [...rules]) {
      const passed = this.#passedBy(rule.action);
      if (passed.size === 0) continue;
      const base = new Set(this.#baseKeys.get(rule.action) ?? []);
      const literals = rule.condition.literals.filter((l) =>
        this.#static.has(l.pred) || base.has(literalKey(l)) ||
        !literalVars(l).some((v) => passed.has(v))
      );
      if (literals.length === rule.condition.literals.length) continue;
      this.#addCopy(rules, seen, rule, literals, "however what it passes by stands");
    }
  }

  /** The parameters of `action` no demonstrated use changed an atom of (`thru` of a drive). */
  #passedBy(action: string): Set<number> {
    return this.#paramsWhere(
      action,
      ({ add, remove }, o) => ![...add, ...remove].some((a) => a.args.includes(o)),
    );
  }

  /** The parameters of `action` whose object passes `test` at every demonstrated use. */
  #paramsWhere(
    action: string,
    test: (delta: { add: readonly Atom[]; remove: readonly Atom[] }, object: string) => boolean,
  ): Set<number> {
    const uses = this.#uses(action);
    const params = this.vocab.actions[action].params.length;
    const out = new Set<number>();
    for (let k = 0; k < params && uses.length > 0; k++) {
      if (uses.every((e) => test(this.traces[e.trace].steps[e.step].delta, e.args[k]))) out.add(k);
    }
    return out;
  }

  /**
   * Adds to each rule what held, at every demonstrated use, of the things
   * its action carries along (`holding(t)` of a `carry(t, from, to)` that
   * moves `t` with the robot) and the action leaves as it is: the rule
   * takes every decision it took, and does not carry a thing the robot
   * does not hold because it lies where the robot stands (which no
   * demonstration showed).
   */
  #askCarried(rules: PolicyRule[], held: ReadonlyMap<string, Conjunction>): void {
    rules.forEach((rule, i) => {
      const base = held.get(rule.action);
      if (!base) return;
      const carried = this.#carried(rule.action, base);
      const moved = new Set(
        [...this.#movers, ...this.#jumps].map((m) => movedArgument(m).pred),
      );
      const has = new Set(rule.condition.literals.map(literalKey));
      const more = base.literals.filter((l) =>
        !l.negated && l.none === undefined && !this.#static.has(l.pred) &&
        (l.args.every((a) => carried.has(a)) ||
          (moved.has(l.pred) && l.args.every((a) => a < rule.condition.types.length))) &&
        !has.has(literalKey(l))
      );
      if (more.length === 0) return;
      rules[i] = {
        ...rule,
        condition: { types: rule.condition.types, literals: [...rule.condition.literals, ...more] },
      };
    });
  }

  /**
   * The parameters of `action` whose objects its mover steps move (`t` of
   * `carry(t, from, to)`, whose `at(t, from)` becomes `at(t, to)`): the
   * other arguments of the moved atoms `base` holds at the step's origin.
   */
  #carried(action: string, base: Conjunction): Set<number> {
    const out = new Set<number>();
    for (const mover of [...this.#movers, ...this.#jumps]) {
      const { pred, position } = movedArgument(mover);
      for (const step of mover.steps) {
        if (step.action !== action) continue;
        for (const l of base.literals) {
          if (l.pred !== pred || l.negated || l.none !== undefined) continue;
          if (l.args[position] !== step.from) continue;
          l.args.forEach((v, i) => {
            if (i !== position) out.add(v);
          });
        }
      }
    }
    return out;
  }

  /**
   * Puts before each rule whose action makes true what the goal may ask
   * (`fly(from, to)` adds `visited(to)`) but whose condition does not ask it
   * the rule for objects the goal asks it of (`goal_visited(to)` and not
   * `visited(to)`). The copy acts only where its rule does, so it changes
   * which objects the rule takes, never whether it acts: a flight that three
   * demonstrations took on the way somewhere goes, where it can, to a city
   * the goal names rather than to one that spends a plane for nothing.
   * Between the copy and its rule (after a rule that asks the goal already)
   * comes a copy for the objects the goal names of any kind (grass picked up
   * because the goal asks for it, where the demonstrations only ever picked
   * up logs). No copy goes where a demonstrated decision it would have taken
   * chose other objects.
   */
  #preferGoals(rules: PolicyRule[]): void {
    const achieved = [...this.#achievedBy].filter(([g]) => this.#asked.has(g));
    if (achieved.length === 0) return;
    const seen = new Set(rules.map(ruleKey));
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i];
      for (const [goal, pred] of achieved) {
        for (const args of this.#changedArgs(rule.action, pred)) {
          const asks = (l: Literal) =>
            l.pred === goal && !l.negated && l.args.every((a, k) => a === args[k]);
          const not = { pred, args, negated: true };
          const denies = (l: Literal) => literalKey(l) === literalKey(not);
          let condition = rule.condition;
          // Where the copy for any kind goes: after a rule that asks already.
          let at = i + 1;
          if (!rule.condition.literals.some(asks)) {
            const literals = [...rule.condition.literals, { pred: goal, args, negated: false }];
            if (!literals.some(denies)) literals.push(not);
            condition = { types: rule.condition.types, literals };
            at = i;
            if (
              this.#insertChecked(rules, seen, i, condition, rule.action, "for what the goal asks")
            ) {
              i++;
              at = i;
            }
          } else if (!rule.condition.literals.some(denies)) continue;
          // Then the same whatever kind the demonstrations' objects were (a
          // kind literal, a parameter's type): the goal names this one.
          if (this.#seeking.has(rule)) continue;
          const literals = condition.literals;
          const params = this.vocab.actions[rule.action].params;
          const anyKind: Conjunction = {
            types: condition.types.map((t, v) =>
              v < params.length && args.includes(v) &&
                this.#widenable(rule.action, condition.types, v, true) &&
                !this.#typeTellsApart(rule.action, v, t)
                ? params[v].type
                : t
            ),
            literals: literals.filter((l) =>
              !(this.#isKind(rule.action, l) && args.includes(l.args[0]) &&
                !this.#goalPreds.includes(l.pred))
            ),
          };
          if (
            ruleKey({ action: rule.action, condition: anyKind }) ===
              ruleKey({ action: rule.action, condition })
          ) continue;
          if (
            this.#insertChecked(
              rules,
              seen,
              at,
              anyKind,
              rule.action,
              "for what the goal asks, of any kind",
            ) && at === i
          ) {
            i++;
          }
        }
      }
    }
  }

  /**
   * Moves each rule of an action that moves nothing (a load; a rule that
   * took demonstrated decisions, for what the goal asks of its objects)
   * before the first move rule above it, where it then takes no
   * demonstrated decision otherwise than the expert: with
   * one parcel and two stations a drive to the parcel and its loading never
   * apply in the same state, so the demonstrations leave their order open;
   * with more, the drive to the next parcel would always come first, and
   * nothing would ever be loaded.
   */
  #actBeforeMoving(rules: PolicyRule[]): void {
    const moves = new Set(
      [...new Set(this.examples.map((e) => e.action))].filter((a) => this.#relocates(a)),
    );
    if (moves.size === 0) return;
    for (let j = 0; j < rules.length; j++) {
      const rule = rules[j];
      // Only rules that take demonstrated decisions where they stand (a
      // copy for what the goal asks, before its rule, takes its rule's): a
      // copy for objects no demonstration showed stays a fallback, after
      // the moves.
      if (moves.has(rule.action) || this.#seeking.has(rule)) continue;
      const taken = rule.covers ||
        this.#score(rule.condition, rule.action, this.#reaching(rules, j)).pos.length;
      if (taken === 0) continue;
      // And only for what the goal asks of its objects (a load of the car
      // the goal wants elsewhere), not what makes something new (a
      // sandwich made before the tray moves on, and then another).
      const params = this.vocab.actions[rule.action].params.length;
      const forGoal = rule.condition.literals.some((l) =>
        !l.negated && this.#goalPreds.includes(l.pred) && l.args.some((a) =>
          a < params
        )
      ) || this.#achievesGoal(rule.action);
      // Or it takes up what lies where the mover stands: before the first
      // move it can go before (not one that goes on with enough in hand).
      const takesUp = !forGoal && this.#takesUp(rule.action);
      if (!forGoal && !takesUp) continue;
      const rest = rules.filter((_, k) => k !== j);
      for (let i = 0; i < j; i++) {
        if (!moves.has(rules[i].action)) continue;
        const scored = this.#score(rule.condition, rule.action, this.#reaching(rest, i));
        if (scored.neg.length > 0 || scored.pos.length < taken) {
          if (takesUp) continue;
          break;
        }
        rules.splice(j, 1);
        rules.splice(i, 0, rule);
        this.#explain?.(`policy rule ${i + 1} acts before moving: ${this.#ruleText(rule)}`);
        break;
      }
    }
  }

  /**
   * Whether every demonstrated use of `action` made true an atom the goal
   * asked for (an image the goal wants, taken where the satellite points).
   */
  #achievesGoal(action: string): boolean {
    const uses = this.#uses(action);
    const goalOf = new Map([...this.#achievedBy].map(([goal, pred]) => [pred, goal]));
    return uses.length > 0 &&
      uses.every((e) =>
        this.traces[e.trace].steps[e.step].delta.add.some((a) => {
          const goal = goalOf.get(a.pred);
          return goal !== undefined && e.state.has({ pred: goal, args: a.args });
        })
      );
  }

  /**
   * Whether every demonstrated use of `action` took up something that lay
   * where a mover stood: removed an atom that names the mover's place and
   * not the mover (`lies(c, s)` of a take where `on(p, s)`).
   */
  #takesUp(action: string): boolean {
    const uses = this.#uses(action);
    return uses.length > 0 && uses.every((e) => {
      const { remove } = this.traces[e.trace].steps[e.step].delta;
      return this.#movers.some((mover) => {
        const { pred, position } = movedArgument(mover);
        return e.state.query(pred, []).some((m) => {
          const place = m.args[position];
          const others = m.args.filter((_, k) => k !== position);
          return others.every((o) => e.args.includes(o as string)) &&
            e.args.includes(place as string) &&
            remove.some((a) => a.args.includes(place) && !a.args.some((o) => others.includes(o)));
        });
      });
    });
  }

  /**
   * Whether every demonstrated use of `action` moved something from one of
   * its arguments to another: took an atom away and added the same one
   * but for that argument (`at(truck, from)` to `at(truck, to)`).
   */
  #relocates(action: string): boolean {
    const uses = this.#uses(action);
    return uses.length > 0 && uses.every((e) => {
      const { delta } = this.traces[e.trace].steps[e.step];
      return movesIn({ args: e.args, ...delta }, e.args.length).length > 0;
    });
  }

  /**
   * Puts before each rule that relates a variable to an object of a kind
   * the goal asks things of (a car where the ferry sails to), without
   * asking whether the goal still asks anything of that object, the rule
   * for objects it still does, when that copy takes every decision the
   * rule took: in three small demonstrations every car in sight still had
   * to be moved; in a larger problem many are where they belong already,
   * and going for them is going for nothing. The rule itself stays after
   * its copy, for what no pending object explains.
   */
  #preferPending(rules: PolicyRule[]): void {
    const subjects = this.traces.flatMap((g) =>
      this.#goalSubjects(g.states[0]).map((o) => g.states[0].typeOf(o))
    ).filter((t): t is string => t !== undefined);
    if (subjects.length === 0) return;
    const seen = new Set(rules.map(ruleKey));
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i];
      if (this.#seeking.has(rule)) continue;
      const { types, literals } = rule.condition;
      const asked = this.#askedVars(rule.condition);
      for (let v = 0; v < types.length; v++) {
        const ofSubject = subjects.some((t) => this.#types.fits(t, types[v]));
        const said = literals.some((l) => l.args.includes(v) && !l.negated);
        if (!ofSubject || !said || asked.has(v)) continue;
        if (literals.some((l) => l.pred === PENDING && l.args[0] === v)) continue;
        const condition = {
          types,
          literals: [...literals, { pred: PENDING, args: [v], negated: false }],
        };
        const reaching = this.#reaching(rules, i);
        const before = this.#score(rule.condition, rule.action, reaching).pos.length;
        if (this.#score(condition, rule.action, reaching).pos.length < before) continue;
        if (
          this.#insertChecked(
            rules,
            seen,
            i,
            condition,
            rule.action,
            "for what the goal still asks",
          )
        ) {
          i++;
          break;
        }
      }
    }
  }

  /**
   * Puts after each rule learned for one kind of object at a parameter (a
   * lift off a crate, seen only at distributors) the rule for every object
   * the action takes there (at any place): the copy acts only where its
   * rule does not, and not where a demonstrated decision it would have
   * taken chose otherwise. Three small problems show each kind where it
   * happened to be; without the copy the rule is missing where a larger one
   * puts it elsewhere.
   */
  #widenTypes(rules: PolicyRule[]): void {
    const seen = new Set(rules.map(ruleKey));
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i];
      const params = this.vocab.actions[rule.action].params;
      const { types, literals } = rule.condition;
      // (Not a variable an atom asks to be of the narrower kind: `badge_colour(new, c)`.)
      const widened = params.map((p, k) =>
        this.#widenable(rule.action, types, k) &&
        literals.every((l) =>
          l.args.every((a, j) => {
            const declared = this.vocab.predicates[l.pred]?.params[j];
            return a !== k || declared === undefined || this.#types.fits(p.type, declared);
          })
        )
      );
      if (!widened.includes(true)) continue;
      const condition: Conjunction = {
        types: types.map((t, k) => widened[k] ? params[k].type : t),
        literals,
      };
      if (
        this.#insertChecked(rules, seen, i + 1, condition, rule.action, "for any kind of object")
      ) {
        i++;
      }
    }
  }

  /**
   * Whether the kind a rule of `action` names at parameter `k` (`types[k]`,
   * narrower than the declared type) may be widened to the declared type:
   * not where another demonstrated pairing of kinds differs from the rule's
   * at `k` alone, which has rules of its own (a drop onto a crate asks what
   * one onto a pallet need not). With `overKinds`, a pairing that names
   * only a type above the rule's there (an item, where the rule says a
   * log: a problem with one log types it by its declared type) is no other.
   */
  #widenable(action: string, types: readonly string[], k: number, overKinds = false): boolean {
    if (types[k] === this.vocab.actions[action].params[k].type) return false;
    if (!this.#pairings) {
      // Each action's pairings of kinds, as its demonstrated uses had them.
      this.#pairings = new Map();
      for (const e of this.examples) {
        const sig = this.#signature(e).split(",");
        const list = this.#pairings.get(e.action) ?? [];
        if (!list.some((o) => o.join() === sig.join())) list.push(sig);
        this.#pairings.set(e.action, list);
      }
    }
    return !(this.#pairings.get(action) ?? []).some((o) =>
      o[k] !== types[k] && o.every((t, j) => j === k || t === types[j]) &&
      !(overKinds && this.#types.fits(types[k], o[k]))
    );
  }
  #pairings?: Map<string, string[][]>;

  /**
   * Inserts at `at` the rule of `action` and `condition`, unless a rule of
   * that action and condition is `seen` already or a demonstrated decision
   * reaching `at` would be taken otherwise than the expert; says whether
   * it did.
   */
  #insertChecked(
    rules: PolicyRule[],
    seen: Set<string>,
    at: number,
    condition: Conjunction,
    action: string,
    why: string,
  ): boolean {
    const copy = { action, condition, covers: 0, fires: 0 };
    const key = ruleKey(copy);
    if (seen.has(key)) return false;
    if (this.#score(condition, action, this.#reaching(rules, at)).neg.length > 0) return false;
    seen.add(key);
    rules.splice(at, 0, copy);
    this.#explain?.(`policy rule ${at + 1}, ${why}: ${this.#ruleText(copy)}`);
    return true;
  }

  /**
   * The parameters of each atom of `pred` that `action` added (or, with
   * `side` "remove", removed) in every demonstrated use (`[1]` of
   * `fly(from, to)`, which adds `visited(to)`).
   */
  #changedArgs(action: string, pred: string, side: "add" | "remove" = "add"): number[][] {
    const uses = this.#uses(action);
    if (uses.length === 0) return [];
    const stepOf = (e: PolicyExample) => this.traces[e.trace].steps[e.step];
    const out: number[][] = [];
    for (const atom of stepOf(uses[0]).delta[side]) {
      if (atom.pred !== pred) continue;
      const args = atom.args.map((o) => typeof o === "string" ? uses[0].args.indexOf(o) : -1);
      if (args.some((a) => a < 0) || out.some((o) => o.join() === args.join())) continue;
      const always = uses.every((e) =>
        stepOf(e).delta[side].some((a) =>
          a.pred === pred && a.args.every((o, k) => o === e.args[args[k]])
        )
      );
      if (always) out.push(args);
    }
    return out;
  }

  /**
   * Whether some demonstration's goal asks `goal` of objects of `types`
   * and, in every demonstration, the goal asks nothing of another relation
   * of the objects it asks `goal` of (parcels asked only where they go).
   */
  #askedAlone(goal: string, types: readonly (string | undefined)[]): boolean {
    let asked = false;
    for (const g of this.traces) {
      const state = g.states[0];
      for (const atom of state.query(goal, types.map(() => null))) {
        if (!atom.args.every((o, k) => typeof o === "string" && state.typeOf(o) === types[k])) {
          continue;
        }
        asked = true;
        const others = this.#goalPreds.filter((p) => p !== goal).some((p) =>
          state.query(p, this.vocab.predicates[p].params.map(() => null)).some((a) =>
            a.args.some((o) => atom.args.includes(o))
          )
        );
        if (others) return false;
      }
    }
    return asked;
  }

  /**
   * Makes each rule that a narrower rule of its action comes before (the
   * rule for what the goal still asks, then the rule itself, for what no
   * pending object explains) leave alone what the goal has already: it no
   * longer takes an action that removes an atom the goal asks for while
   * that atom holds (`not goal_at(p, l)` on a pick-up, which removes
   * `at(p, l)`), when no demonstrated use of the action did. No
   * demonstration undid an achieved goal that way; in a larger problem the
   * fallback picks delivered parcels up again, and the goal's own rule
   * puts them back, over and over.
   */
  #keepAchieved(rules: PolicyRule[]): void {
    const achieved = this.#achievedBy;
    if (achieved.size === 0) return;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i];
      const { types, literals } = rule.condition;
      const keys = new Set(literals.map(literalKey));
      const narrower = rules.slice(0, i).some((r) =>
        r.action === rule.action && r.condition.types.join() === types.join() &&
        r.condition.literals.length > literals.length && [...keys].every((k) =>
          r.condition.literals.some((l) => literalKey(l) === k)
        )
      );
      if (!narrower) continue;
      const uses = this.#uses(rule.action);
      const guards: Literal[] = [];
      for (const [goal, pred] of achieved) {
        // A walk off a place the goal names, or a block off another whose
        // tower is misplaced below, is the rules' own business (movers,
        // chains).
        const moves = this.#movers.some((m) =>
          movedArgument(m).pred === pred && m.steps.some((s) => s.action === rule.action)
        );
        if (moves || this.#chains.some((c) => c.pred === pred)) continue;
        for (const args of this.#changedArgs(rule.action, pred, "remove")) {
          const undid = uses.some((e) =>
            e.state.has({ pred: goal, args: args.map((a) => e.args[a]) })
          );
          // Only what the demonstrations' goals asked of such objects, and
          // nothing else of them: a truck's place, which none asked, may be
          // left; a block the goal wants clear and on another is taken off
          // what it stands on wrongly.
          const typesAt = (e: PolicyExample) => args.map((a) => e.state.typeOf(e.args[a]));
          const asked = uses.some((e) => this.#askedAlone(goal, typesAt(e)));
          if (!asked) continue;
          const guard = { pred: goal, args, negated: true };
          if (!undid && !keys.has(literalKey(guard))) guards.push(guard);
        }
      }
      if (guards.length === 0) continue;
      rules[i] = { ...rule, condition: { types, literals: [...literals, ...guards] } };
      this.#explain?.(
        `policy rule ${i + 1} leaves what the goal has alone: ${this.#ruleText(rules[i])}`,
      );
    }
  }

  /**
   * Adds to `list` a copy of `rule` whose condition has `literals`, unless
   * a rule of that action and condition is `seen` already.
   */
  #addCopy(
    list: PolicyRule[],
    seen: Set<string>,
    rule: PolicyRule,
    literals: Literal[],
    why: string,
  ): void {
    const condition: Conjunction = { types: rule.condition.types, literals };
    const key = ruleKey({ action: rule.action, condition });
    if (seen.has(key)) return;
    seen.add(key);
    list.push({ action: rule.action, condition, covers: 0, fires: 0 });
    this.#explain?.(`policy rule ${list.length}, ${why}: ${this.#ruleText(list.at(-1)!)}`);
  }

  /**
   * Whether `l` says what kind its one object is (a static property:
   * `ispawn(obj)`, `not ismonkey(obj)`) without being what tells `action`
   * from another action (see `#tellsApart`): a kind a copy may drop.
   */
  #isKind(action: string, l: Literal): boolean {
    return l.args.length === 1 && l.none === undefined && this.#static.has(l.pred) &&
      !this.#tellsApart(action, l);
  }

  /**
   * Whether a kind literal is what tells `action` from another demonstrated
   * action of the same parameters (types that fit either way), every use of
   * which had the opposite (`isredstate(to)` of `fly_red`, where `fly_blue`
   * always flew to a state that is not red; `not start(y)` of `go`, where
   * `back` always went to the start): the kind then says which action, not
   * which objects.
   */
  #tellsApart(action: string, l: Literal): boolean {
    return this.#otherActionAlways(
      action,
      (e, i) => this.#index[i].has(l.pred, l.args.map((a) => e.args[a])) === l.negated,
    );
  }

  /**
   * Whether the type `type` of `action`'s parameter `v` is what tells it
   * from another demonstrated action of the same parameters, no use of
   * which had an object of that type there (`paint_red` of a red thing,
   * where `paint_blue` only ever painted blue ones): see `#tellsApart`.
   */
  #typeTellsApart(action: string, v: number, type: string): boolean {
    return this.#otherActionAlways(action, (e) => {
      const t = e.state.typeOf(String(e.args[v]));
      return t === undefined || !this.#types.fits(t, type);
    });
  }

  /**
   * Whether another demonstrated action of `action`'s parameters (types
   * that fit either way) had `holds` at every use (example, its index).
   */
  #otherActionAlways(
    action: string,
    holds: (e: PolicyExample, i: number) => boolean,
  ): boolean {
    const params = this.vocab.actions[action].params;
    const fit = (a: string, b: string) => this.#types.fits(a, b) || this.#types.fits(b, a);
    return [...new Set(this.examples.map((e) => e.action))].some((other) => {
      const theirs = this.vocab.actions[other].params;
      if (other === action || theirs.length !== params.length) return false;
      if (theirs.some((p, i) => !fit(p.type, params[i].type))) return false;
      return this.examples.every((e, i) => e.action !== other || holds(e, i));
    });
  }

  /** A rule as text, with this learner's movers, chains and goal relations. */
  #ruleText(rule: PolicyRule): string {
    return ruleText(
      rule,
      this.vocab,
      this.#movers,
      this.#chains,
      this.#ordered,
      this.#supplies,
      this.#gates,
    );
  }

  /**
   * The relations of what a goal forbids (the conditions of landmarks on
   * removal) that no demonstrated state holds: no rule could tell anything
   * by them, and each would only spend the work budget.
   */
  get #idleForbids(): ReadonlySet<string> {
    if (this.#idleForbidCache) return this.#idleForbidCache;
    const out = new Set<string>();
    for (const l of this.vocab.landmarks ?? []) {
      if (l.on !== "remove" || l.when === undefined) continue;
      const e = parseExpr(l.when);
      if (!e.ok || e.value.kind !== "call" || !Object.hasOwn(this.vocab.predicates, e.value.name)) {
        continue;
      }
      if (!this.#held(e.value.name)) out.add(e.value.name);
    }
    return this.#idleForbidCache = out;
  }
  #idleForbidCache?: ReadonlySet<string>;

  /** The goal predicates some demonstrated goal asks something of. */
  get #asked(): Set<string> {
    return new Set(this.#goalPreds.filter((g) => this.#held(g)));
  }

  /** Whether some demonstrated state holds an atom of `pred`. */
  #held(pred: string): boolean {
    const wild = this.vocab.predicates[pred].params.map(() => undefined);
    return this.#index.some((s) => s.atoms(pred, wild).length > 0);
  }

  /**
   * Says why a move goes where it goes by what it lets the next rule do
   * there: a move whose rule, with its own reason replaced by "another
   * rule then fires with the destination" (a lift goes down to a floor
   * where `depart` then lets a boarded passenger off), takes exactly the
   * decisions it took and no others is rewritten so. A few small
   * demonstrations seldom tell that reason from one that only happened to
   * agree with it (the floor some passenger, boarded or not, wants).
   */
  #purposeMoves(
    rules: PolicyRule[],
    bases: ReadonlyMap<string, Conjunction>,
    held: ReadonlyMap<string, Conjunction>,
  ): void {
    rules.forEach((rule, i) => {
      const base = bases.get(rule.action);
      if (!base || rule.condition.literals.some((l) => l.pred.startsWith(CLOSER))) return;
      for (const mover of this.#movers) {
        const step = mover.steps.find((st) => st.action === rule.action);
        if (!step) continue;
        const { pred: moved, position } = movedArgument(mover);
        const self = moverVariables(base, mover, step) ?? [];
        const reaching = this.#reaching(rules, i);
        const before = this.#score(rule.condition, rule.action, reaching);
        const taken = before.pos.join(",");
        const n = base.types.length;
        let best: Conjunction | undefined;
        // The rule the move goes to act with.
        let aim: PolicyRule | undefined;
        rules.forEach((next, k) => {
          if (k === i || mover.steps.some((st) => st.action === next.action)) return;
          const params = this.vocab.actions[next.action].params.length;
          const types = next.condition.types;
          for (let j = 0; j < params; j++) {
            if (!this.#types.fits(base.types[step.to], types[j])) continue;
            // The next rule's atoms of the moved kind at the destination
            // that may be the mover's (`at(v', l)` of a vehicle, not
            // `at(p, l)` of a parcel) say where the mover will be: they
            // go, and their objects become the mover. The others say what
            // is there, the reason to go.
            const mine = new Map<number, number>();
            const gone = new Set<Literal>();
            for (const l of next.condition.literals) {
              if (l.pred !== moved || l.none !== undefined || l.args[position] !== j) continue;
              const others = l.args.filter((_, a) => a !== position);
              if (others.length !== self.length) continue;
              if (!others.every((v, a) => this.#types.fits(types[v], base.types[self[a]]))) {
                continue;
              }
              // (Where the mover is not goes too: it will be there.)
              if (l.negated) {
                gone.add(l);
                continue;
              }
              if (others.some((v, a) => mine.has(v) && mine.get(v) !== self[a])) continue;
              others.forEach((v, a) => mine.set(v, self[a]));
              gone.add(l);
            }
            // The next rule's variables: `j` is the destination, the
            // mover's are the base's, the others are new.
            const fresh = new Map<number, number>();
            for (let v = 0; v < types.length; v++) {
              if (v !== j && !mine.has(v)) fresh.set(v, n + fresh.size);
            }
            const rename = (v: number) => v === j ? step.to : mine.get(v) ?? fresh.get(v)!;
            const literals = next.condition.literals.filter((l) =>
              !gone.has(l) && !(l.pred === moved && l.args[position] !== j) &&
              !l.pred.startsWith(CLOSER) && !l.pred.startsWith(SETTLED)
            ).map((l) => renameLiteral(l, rename));
            const condition: Conjunction = {
              types: [...base.types, ...[...fresh.keys()].map((v) => types[v])],
              literals: [...base.literals, ...literals],
            };
            if (best && literalCount(condition) >= literalCount(best)) continue;
            const after = this.#score(condition, rule.action, reaching);
            if (after.neg.length === 0 && after.pos.join(",") === taken) {
              best = condition;
              aim = next;
            }
          }
        });
        let toward = false;
        // A move to where the goal names its destination has its reason.
        const aimed = rule.condition.literals.some((l) =>
          !l.negated && l.none === undefined && this.#goalPreds.includes(l.pred) &&
          l.args.includes(step.to)
        );
        // Each way toward where another rule acts that takes some of the
        // rule's decisions and no other, with those it takes.
        const parts: { condition: Conjunction; pos: number[] }[] = [];
        if (!best && !aimed) {
          // Else closer to where another rule acts (a truck driven, empty,
          // toward a parcel some hops away): the seek rules' condition.
          const m = this.#movers.indexOf(mover);
          for (const { step: st, base: b, literals, t } of this.#seekTargets(rules, held, mover)) {
            if (st.action !== rule.action) continue;
            const condition = this.#towardCondition(m, st, b, n, literals, t);
            const after = this.#score(condition, rule.action, reaching);
            if (after.neg.length > 0 || after.pos.length === 0) continue;
            parts.push({ condition, pos: after.pos });
            if (best && literalCount(condition) >= literalCount(best)) continue;
            if (after.pos.join(",") === taken) best = condition;
          }
          toward = best !== undefined;
        }
        if (!best && parts.length > 1) {
          // Two reasons, no one way says both (a truck drives loaded
          // toward where a parcel is wanted, empty toward where one
          // waits): the fewest ways that together take every decision the
          // rule took, each a rule before it.
          const left = new Set(before.pos);
          const ways: PolicyRule[] = [];
          while (left.size > 0) {
            const gain = (p: (typeof parts)[number]) => p.pos.filter((x) => left.has(x)).length;
            const next = parts.reduce((a, b) =>
              gain(b) > gain(a) ||
                (gain(b) === gain(a) && literalCount(b.condition) < literalCount(a.condition))
                ? b
                : a
            );
            if (gain(next) === 0) break;
            for (const x of next.pos) left.delete(x);
            ways.push({ action: rule.action, condition: next.condition, covers: 0, fires: 0 });
          }
          if (left.size > 0 || ways.length < 2) continue;
          rules.splice(i, 0, ...ways);
          this.#explain?.(
            `policy rule ${i + 1} moves for ${ways.length} reasons: ${
              ways.map((w) => this.#ruleText(w)).join("; ")
            }`,
          );
          return;
        }
        if (!best) continue;
        rules[i] = { ...rule, condition: best };
        this.#explain?.(
          `policy rule ${i + 1} moves ${toward ? "toward" : "to"} where another rule acts: ${
            this.#ruleText(rules[i])
          }`,
        );
        if (!toward && aim) this.#movesTo.set(rules[i], { mover, aim });
        return;
      }
    });
  }

  /**
   * Puts after each rule rewritten to move to where another rule acts (see
   * `#purposeMoves`) the rule that moves toward where that one acts (a
   * closer literal), when it takes decisions the rule took and none
   * otherwise: in three small problems what the mover went for was always
   * next door (a spanner in the next room); in a larger one it may lie some
   * moves away, where the rule no longer applies and its copy still does.
   */
  #towardAfter(rules: PolicyRule[], held: ReadonlyMap<string, Conjunction>): void {
    // Where every place is one move from every other, toward is to.
    const spread = new Map<Mover, boolean>();
    for (const [rule, { mover, aim }] of this.#movesTo) {
      if (!spread.has(mover)) {
        const distances = this.#distances[this.#movers.indexOf(mover)];
        spread.set(mover, this.#index.some((s) => distances.spread(s)));
      }
      const i = rules.indexOf(rule);
      if (!spread.get(mover) || i < 0 || !rules.includes(aim)) continue;
      this.#towardCopy(rules, i, mover, aim, held);
    }
  }

  /** The copy of `#towardAfter` for rule `i`, moving with `mover` toward where `aim` acts. */
  #towardCopy(
    rules: PolicyRule[],
    i: number,
    mover: Mover,
    aim: PolicyRule,
    held: ReadonlyMap<string, Conjunction>,
  ): void {
    const rule = rules[i];
    const m = this.#movers.indexOf(mover);
    const reaching = this.#reaching(rules, i);
    let best: { condition: Conjunction; pos: number } | undefined;
    for (const { step, base, n, target, literals, t } of this.#seekTargets(rules, held, mover)) {
      if (step.action !== rule.action || target !== aim) continue;
      const condition = this.#towardCondition(m, step, base, n, literals, t);
      const scored = this.#score(condition, rule.action, reaching);
      if (scored.neg.length > 0 || scored.pos.length === 0) continue;
      const better = !best || scored.pos.length > best.pos ||
        (scored.pos.length === best.pos &&
          literalCount(condition) < literalCount(best.condition));
      if (better) best = { condition, pos: scored.pos.length };
    }
    if (!best) return;
    this.#insertChecked(
      rules,
      new Set(rules.map(ruleKey)),
      i + 1,
      best.condition,
      rule.action,
      "moves toward where another rule acts, some moves away",
    );
  }

  /**
   * Rules that head for where another rule acts, for a mover none of whose
   * rules has a reason to go somewhere and whose steps the list leaves
   * undecided: "move closer to a place where the putdown rule's condition
   * holds, its mover's atom aside" (the place the held key is wanted). The
   * search seldom finds such a rule itself: "closer to" needs a target and
   * what ties it to the state, three literals no single one of which is a
   * good step. Each that takes a few of those decisions goes at the first
   * place in the list where it takes decisions and decides none, or at most
   * a fifth of at least a few, otherwise than the expert; the step's
   * condition is what held at every demonstrated use (the next place open).
   * A mover that goes from any place to any other (a truck between depots)
   * goes to the target itself ("drive to where a hoist holds a crate the
   * truck could load"), whichever of its steps the list decides: its rules
   * learned from a few drives name what those drives happened to have.
   * Such a rule comes after the rule it heads for: a truck where a crate
   * waits loads it before it drives to where another waits.
   */
  #seekRules(
    rules: PolicyRule[],
    held: ReadonlyMap<string, Conjunction>,
    uncovered: readonly number[],
  ): void {
    const all = this.examples.map((_, i) => i);
    this.#movers.forEach((mover, m) => {
      const closerPred = `${CLOSER}${m}`;
      const own = (action: string) => mover.steps.some((st) => st.action === action);
      if (
        rules.some((r) => own(r.action) && r.condition.literals.some((l) => l.pred === closerPred))
      ) {
        return;
      }
      // Only where the list leaves the walk's steps undecided.
      this.#seekFor(
        rules,
        held,
        mover,
        uncovered,
        false,
        (base, n, literals, step, t) => this.#towardCondition(m, step, base, n, literals, t),
      );
    });
    for (const mover of this.#jumps) {
      this.#seekFor(rules, held, mover, all, true, (base, n, literals, step, t) => {
        // The target is the step's destination; the target's other
        // variables follow the step's parameters.
        const index = new Map<number, number>();
        for (const l of literals) {
          for (const v of literalVars(l)) {
            if (v >= n && v !== t && !index.has(v)) index.set(v, n + index.size);
          }
        }
        const types = base.types.slice(0, n);
        for (const [v, w] of index) types[w] = base.types[v];
        // What the target's place must be, the step's base may say already.
        // (The target, named as the step's destination, keeps its kind where narrower.)
        if (this.#types.fits(base.types[t], types[step.to])) types[step.to] = base.types[t];
        const out = [...base.literals];
        const has = new Set(out.map(literalKey));
        for (const l of literals) {
          const renamed = renameLiteral(l, (v) => v === t ? step.to : index.get(v) ?? v);
          if (!has.has(literalKey(renamed))) out.push(renamed);
          has.add(literalKey(renamed));
        }
        return { types, literals: out };
      });
    }
  }

  /**
   * "Closer to `t`, where the target rule acts": a seek target's condition
   * (see `#seekTargets`) with mover `m`'s closer literal for `step`, its
   * first `n` variables the action's parameters.
   */
  #towardCondition(
    m: number,
    step: MoverStep,
    base: Conjunction,
    n: number,
    literals: readonly Literal[],
    t: number,
  ): Conjunction {
    const condition: Conjunction = {
      types: base.types,
      literals: [
        ...base.literals,
        ...literals,
        { pred: `${CLOSER}${m}`, args: [step.to, step.from, t], negated: false },
      ],
    };
    this.#params.set(condition, n);
    return condition;
  }

  /**
   * The seek rules of one mover (see `#seekRules`) that take some of its
   * `decisions`, placed `after` the rule they head for or anywhere: for
   * each of its steps and each rule of another action, `condition` joins
   * the step's base (its `n` variables, then the target rule's), the target
   * rule's literals without the mover's atoms (renamed past the base's
   * variables) and the target variable `t`.
   */
  #seekFor(
    rules: PolicyRule[],
    held: ReadonlyMap<string, Conjunction>,
    mover: Mover,
    decisions: readonly number[],
    after: boolean,
    condition: (
      base: Conjunction,
      n: number,
      literals: Literal[],
      step: MoverStep,
      t: number,
    ) => Conjunction,
    targets?: ReadonlySet<PolicyRule>,
  ): void {
    const own = (action: string) => mover.steps.some((st) => st.action === action);
    const left = decisions.filter((i) => own(this.examples[i].action));
    if (left.length === 0) return;
    for (const { step, base, n, target, literals, t } of this.#seekTargets(rules, held, mover)) {
      if (targets && !targets.has(target)) continue;
      const joined = condition(base, n, literals, step, t);
      this.#params.set(joined, n);
      const takes = this.#score(joined, step.action, left).pos.length;
      if (takes === 0) continue;
      const rule = { action: step.action, condition: joined, covers: 0, fires: 0 };
      // The way to what opens a gate goes where the expert's plans, which
      // saw the whole problem, opened it only once their way got there.
      if (targets) this.#placeBest(rules, rule, "heads for where another rule acts");
      else this.#placeTolerated(rules, rule, after ? target : undefined);
    }
  }

  /**
   * Where a mover's steps may head: for each of its steps and each rule of
   * another action, the step's base (its `n` variables, then the target
   * rule's), the target rule's literals without the mover's atoms (renamed
   * past the base's variables) and the target variable `t`, a place the
   * rest of the target's condition says something of.
   */
  *#seekTargets(
    rules: readonly PolicyRule[],
    held: ReadonlyMap<string, Conjunction>,
    mover: Mover,
  ): Generator<{
    step: MoverStep;
    base: Conjunction;
    n: number;
    target: PolicyRule;
    literals: Literal[];
    t: number;
  }> {
    const own = (action: string) => mover.steps.some((st) => st.action === action);
    const { pred: moved, position } = movedArgument(mover);
    const fit = (a: string, b: string) => this.#types.fits(a, b) || this.#types.fits(b, a);
    for (const step of mover.steps) {
      const base = held.get(step.action);
      if (!base) continue;
      const n = base.types.length;
      const self = moverVariables(base, mover, step);
      if (!self) continue;
      for (const target of [...rules]) {
        if (own(target.action)) continue;
        const params = this.vocab.actions[target.action].params.length;
        // The mover's atoms in the target's condition: those of objects that
        // may be the mover (`at(z, p)` of a truck, not `at(x, p)` of a
        // hoist), which become the step's own. Where the mover is, said
        // twice (`at_robot(x1)`, `at_robot(p)`), is one place: the
        // variables become one before the atoms go.
        const types = target.condition.types;
        const same = new Map<number, number>();
        const at = new Map<string, number>();
        const mine = new Set<Literal>();
        for (const l of target.condition.literals) {
          if (l.pred !== moved) continue;
          const others = l.args.filter((_, i) => i !== position);
          // (`none` stands for any object: it may be the mover.)
          if (!others.every((v, i) => v === NONE || fit(types[v], base.types[self[i]]))) continue;
          // Where the mover is not goes too: it will be elsewhere.
          if (l.negated || l.none !== undefined) {
            mine.add(l);
            continue;
          }
          if (others.some((v, i) => same.has(v) && same.get(v) !== self[i] - n)) continue;
          others.forEach((v, i) => same.set(v, self[i] - n));
          mine.add(l);
          const rest = others.join(",");
          const v = l.args[position];
          const first = at.get(rest);
          // The lower variable stands for both (a parameter, of its declared type).
          if (first === undefined) at.set(rest, v);
          else if (first < v) same.set(v, first);
          else {
            same.set(first, v);
            at.set(rest, v);
          }
        }
        const one = (v: number) => n + (same.get(v) ?? v);
        // One object under two names is of the narrower kind (the badge
        // the target unseals with, the item a swap takes up).
        const joinedTypes = [...base.types, ...target.condition.types];
        for (const [v, to] of same) {
          const kind = target.condition.types[v];
          if (this.#types.fits(kind, joinedTypes[n + to])) joinedTypes[n + to] = kind;
        }
        const literals = target.condition.literals.filter((l) =>
          !mine.has(l) && !l.pred.startsWith(CLOSER)
        ).map((l) => renameLiteral(l, one));
        if (literals.length === target.condition.literals.length) continue;
        for (let j = 0; j < params; j++) {
          if (!this.#types.fits(target.condition.types[j], mover.type)) continue;
          // A target the rest of the condition says nothing of is any place.
          const t = one(j);
          if (!literals.some((l) => !l.negated && l.none === undefined && l.args.includes(t))) {
            continue;
          }
          yield {
            step,
            base: { types: joinedTypes, literals: base.literals },
            n,
            target,
            literals,
            t,
          };
        }
      }
    }
  }

  /**
   * Rules for what blocks the way (see `gates.ts`): the gate's opener where
   * the place it opens blocks, and each action that makes true what the
   * opener needs of an object (`pickup` of a key, for its `holding`) where
   * the object is wanted; each with what held at its every demonstrated
   * use, at the place in the list where it decides fewest demonstrated
   * decisions otherwise, among those where it takes more than that (an
   * expert that saw the whole problem opened a lock only once its way got
   * there; opening it earlier costs an action or two). An action that also
   * takes what the opener needs from another object (a swap of keys) is
   * placed for a wanted object and for one the goal still asks for, giving
   * up only what neither wants. The seek rules then head for where they
   * act: to the key, then next to the lock. First,
   * rules that take up or head for what the goal still asks leave a
   * stranded object alone, where that changes no demonstrated decision.
   */
  #openGates(rules: PolicyRule[], held: ReadonlyMap<string, Conjunction>): void {
    const uses = this.#actionUses();
    const placed = new Set<PolicyRule>();
    this.#gates.forEach((gate, g) => {
      // What the goal wants where the mover cannot go yet waits: the
      // demonstrations took up no such thing.
      const types = gate.links.filter((k) => k.goal).map((k) => k.type);
      rules.forEach((rule, i) => {
        const { literals } = rule.condition;
        for (const l of literals) {
          const v = l.args[0];
          if (l.pred !== PENDING || l.negated || l.none !== undefined) continue;
          if (!types.some((t) => this.#types.fits(rule.condition.types[v], t))) continue;
          const not = { pred: `${STRANDED}${g}`, args: [v], negated: true };
          const condition = { types: rule.condition.types, literals: [...literals, not] };
          if (this.#rewrite(rules, i, condition, "leaves what it cannot bring yet", true)) break;
        }
      });
      const wanted = (v: number, negated = false) => ({
        pred: `${WANTED}${g}`,
        args: [v],
        negated,
      });
      const candidates: { action: string; literals: Literal[] }[] = [
        {
          action: gate.opener,
          literals: [{ pred: `${BLOCKING}${g}`, args: [gate.at], negated: false }],
        },
      ];
      for (const [action, list] of gate.wanted === undefined ? [] : uses) {
        if (action === gate.opener || gate.mover.steps.some((s) => s.action === action)) continue;
        const params = this.vocab.actions[action].params;
        const wanting = (v: number) => this.#types.fits(params[v].type, gate.condition.types[0]);
        const always = (v: number, side: "add" | "remove") =>
          list.every((u) => u[side].some((a) => a.pred === gate.wanted && a.args[0] === u.args[v]));
        // What the action takes the wanted atom from (the key a swap lays
        // down) it gives up only where the opener does not want it either;
        // and a swap takes up what the goal still asks for too, where the
        // goal has nothing left to ask of what it gives up.
        const given = params.flatMap((_, u) => wanting(u) && always(u, "remove") ? [u] : []);
        const giveUp = given.map((u) => wanted(u, true));
        params.forEach((_, v) => {
          if (!always(v, "add") || !wanting(v)) return;
          candidates.push({ action, literals: [wanted(v), ...giveUp] });
          if (given.length === 0) return;
          candidates.push({
            action,
            literals: [
              { pred: PENDING, args: [v], negated: false },
              { pred: `${STRANDED}${g}`, args: [v], negated: true },
              ...giveUp,
              ...given.map((u) => ({ pred: PENDING, args: [u], negated: true })),
            ],
          });
        });
      }
      for (const { action, literals } of candidates) {
        const base = held.get(action);
        if (!base) continue;
        const condition = { types: base.types, literals: [...base.literals, ...literals] };
        const rule = { action, condition, covers: 0, fires: 0 };
        const at = this.#placeBest(rules, rule, "opens what blocks the way");
        if (at) placed.add(at);
      }
    });
    // Then the way to where they act.
    const all = this.examples.map((_, i) => i);
    this.#movers.forEach((mover, m) => {
      this.#seekFor(
        rules,
        held,
        mover,
        all,
        false,
        (base, n, literals, step, t) => this.#towardCondition(m, step, base, n, literals, t),
        placed,
      );
    });
  }

  /**
   * Puts `rule` at the first place in the list (after the rule `after`
   * it heads for a jump away, if given) where it takes decisions, none
   * otherwise than the expert, or at least `TOLERATED_MIN` and at most
   * `TOLERANCE` of them otherwise, unless a rule of its action and condition
   * is there already. A rule placed after the rule it heads for keeps the
   * kinds its step had.
   */
  #placeTolerated(rules: PolicyRule[], rule: PolicyRule, after?: PolicyRule): void {
    const key = ruleKey(rule);
    if (rules.some((r) => ruleKey(r) === key)) return;
    const placed = this.#placeFirst(
      rules,
      rule,
      after ? rules.indexOf(after) + 1 : 0,
      ({ pos, neg }) =>
        (neg.length === 0 && pos.length > 0) ||
        (pos.length >= TOLERATED_MIN && neg.length <= TOLERANCE * pos.length),
      "heads for where another rule acts",
    );
    if (placed && after) this.#seeking.add(placed);
  }

  /**
   * Puts `rule` at the place in the list where it decides fewest
   * demonstrated decisions otherwise than the expert (the first of them),
   * among those where it takes more than it decides otherwise; says `why`
   * with `--explain`. Returns the rule placed, if any.
   */
  #placeBest(rules: PolicyRule[], rule: PolicyRule, why: string): PolicyRule | undefined {
    const key = ruleKey(rule);
    if (rules.some((r) => ruleKey(r) === key)) return undefined;
    let best: { k: number; scored: Scored } | undefined;
    for (const { k, scored } of this.#placings(rules, rule, 0)) {
      if (scored.pos.length <= scored.neg.length) continue;
      if (!best || scored.neg.length < best.scored.neg.length) best = { k, scored };
    }
    return best && this.#insertAt(rules, rule, best.k, best.scored, why);
  }

  /**
   * Puts `rule` at the first place from `start` on where what it decides of
   * the demonstrated decisions reaching that place `accepts`, with what it
   * takes and decides otherwise there; says `why` with `--explain`. Returns
   * the rule placed, if any.
   */
  #placeFirst(
    rules: PolicyRule[],
    rule: PolicyRule,
    start: number,
    accepts: (scored: Scored) => boolean,
    why: string,
  ): PolicyRule | undefined {
    for (const { k, scored } of this.#placings(rules, rule, start)) {
      if (accepts(scored)) return this.#insertAt(rules, rule, k, scored, why);
    }
  }

  /**
   * Each place in the list from `start` on, with what `rule` decides there
   * of the demonstrated decisions reaching it: those reaching the place
   * before that its rule does not act in.
   */
  *#placings(
    rules: readonly PolicyRule[],
    rule: PolicyRule,
    start: number,
  ): Generator<{ k: number; scored: Scored }> {
    let reaching = this.#reaching(rules, start);
    for (let k = start; k <= rules.length; k++) {
      if (k > start) {
        const before = rules[k - 1].condition;
        reaching = reaching.filter((i) => !satisfiable(before, this.#index[i]));
      }
      yield { k, scored: this.#score(rule.condition, rule.action, reaching) };
    }
  }

  /** Inserts `rule` at place `k` with what it decides there; says `why` with `--explain`. */
  #insertAt(
    rules: PolicyRule[],
    rule: PolicyRule,
    k: number,
    scored: Scored,
    why: string,
  ): PolicyRule {
    rules.splice(k, 0, {
      ...rule,
      covers: scored.pos.length,
      fires: scored.fires.length,
      ...(scored.neg.length > 0 ? { otherwise: scored.neg.length } : {}),
    });
    this.#decidedOtherwise.push(...scored.neg);
    this.#explain?.(`policy rule ${k + 1} ${why}: ${this.#ruleText(rules[k])}`);
    return rules[k];
  }

  /**
   * Gives a mover's other directions the rules one direction learned (a
   * lift that went down to where a passenger gets off goes up for the same
   * reason): the expert's moves in a few small problems seldom show every
   * reason in every direction. The rule, with the other action's observed
   * preconditions in place of its own, goes at the first place in the list
   * where it takes no demonstrated decision otherwise than the expert.
   */
  #mirrorMoverRules(rules: PolicyRule[], bases: ReadonlyMap<string, Conjunction>): void {
    for (const rule of [...rules]) {
      const from = bases.get(rule.action);
      if (!from) continue;
      const own = new Set(from.literals.map(literalKey));
      // A rule with no reason of its own (the last decisions left) has none to give.
      if (rule.condition.literals.every((l) => own.has(literalKey(l)))) continue;
      for (const mover of this.#movers) {
        const a = mover.steps.find((st) => st.action === rule.action);
        if (!a) continue;
        for (const b of mover.steps) {
          const to = bases.get(b.action);
          if (b.action === rule.action || !to) continue;
          const map = this.#paramMap(rule.action, a, b);
          if (!map) continue;
          const n = this.vocab.actions[rule.action].params.length;
          const m = this.vocab.actions[b.action].params.length;
          const rename = (v: number) => v < n ? map[v] : v - n + m;
          const condition: Conjunction = {
            types: [...to.types, ...rule.condition.types.slice(n)],
            literals: [
              ...to.literals,
              ...rule.condition.literals.filter((l) => !own.has(literalKey(l))).map((l) =>
                renameLiteral(l, rename)
              ),
            ],
          };
          const keys = condition.literals.map(literalKey).sort().join("&");
          const known = rules.some((r) =>
            r.action === b.action && r.condition.literals.map(literalKey).sort().join("&") === keys
          );
          if (known) continue;
          const start = rules.indexOf(rule) + 1;
          this.#placeFirst(
            rules,
            { action: b.action, condition, covers: 0, fires: 0 },
            start,
            (scored) => scored.neg.length === 0,
            `moves the other way for rule ${start}'s reason`,
          );
        }
      }
    }
  }

  /**
   * How the parameters of `action`, one step of a mover, stand for those of
   * another step `b`: origin for origin, destination for destination, the
   * others in order where their types agree; none where they do not.
   */
  #paramMap(action: string, a: MoverStep, b: MoverStep): number[] | undefined {
    const pa = this.vocab.actions[action].params;
    const pb = this.vocab.actions[b.action].params;
    if (pa.length !== pb.length) return undefined;
    const restA = pa.map((_, i) => i).filter((i) => i !== a.from && i !== a.to);
    const restB = pb.map((_, i) => i).filter((i) => i !== b.from && i !== b.to);
    const map: number[] = [];
    map[a.from] = b.from;
    map[a.to] = b.to;
    for (let k = 0; k < restA.length; k++) {
      if (pa[restA[k]].type !== pb[restB[k]].type) return undefined;
      map[restA[k]] = restB[k];
    }
    return map;
  }

  /**
   * The goal's predicates with the relation each asks for and actions
   * change (`goal_served` of `served`; see `goals.ts`).
   */
  get #achievedBy(): Map<string, string> {
    return new Map(
      [...this.#relationOfGoal].filter(([goal, pred]) =>
        !this.#static.has(pred) && this.#goalPreds.includes(goal)
      ),
    );
  }

  /**
   * Whether `l` asks of the goal what the action makes true in every
   * demonstrated use (`goal_on(x, y)` of `stack(x, y)`, which adds `on(x, y)`).
   */
  #achieves(action: string, l: Literal): boolean {
    const chain = this.#chains.find((c) => c.goal === l.pred);
    if (!chain || l.negated) return false;
    const uses = this.#uses(action);
    return uses.length > 0 && uses.every((e) => {
      const args = l.args.map((v) => e.args[v]);
      return this.traces[e.trace].steps[e.step].delta.add.some((a) =>
        a.pred === chain.pred && a.args.every((x, k) => x === args[k])
      );
    });
  }

  /**
   * The parameters whose being settled an action's use turns on: in every
   * demonstrated use, what it puts something on (`y` of `stack(x, y)`,
   * which adds `on(x, y)`) or what it takes off (`x` of `unstack(x, y)`);
   * `put_down(x)` changes no atom of the relation.
   */
  #joins(action: string, chain: Chain): number[] {
    const uses = this.#uses(action);
    const params = this.vocab.actions[action].params.length;
    const out: number[] = [];
    for (let v = 0; v < params && uses.length > 0; v++) {
      const all = uses.every((e) => {
        const { add, remove } = this.traces[e.trace].steps[e.step].delta;
        const o = e.args[v];
        return add.some((a) => a.pred === chain.pred && a.args[1] === o) ||
          remove.some((a) => a.pred === chain.pred && a.args[0] === o);
      });
      if (all) out.push(v);
    }
    return out;
  }

  /** Whether objects of type `type` may be of the chain's (a settled literal may be said of them). */
  #chained(type: string, chain: Chain): boolean {
    return this.#types.fits(type, chain.type) || this.#types.fits(chain.type, type);
  }

  /** The demonstrated decisions that took `action`. */
  #uses(action: string): PolicyExample[] {
    return this.examples.filter((e) => e.action === action);
  }

  /** Each demonstrated action's uses: arguments and fact change. */
  #actionUses(): Map<string, { args: string[]; add: Atom[]; remove: Atom[] }[]> {
    if (this.#actionUsesKept) return this.#actionUsesKept;
    const uses = new Map<string, { args: string[]; add: Atom[]; remove: Atom[] }[]>();
    for (const e of this.examples) {
      const delta = this.traces[e.trace].steps[e.step].delta;
      const list = uses.get(e.action) ?? [];
      list.push({ args: e.args, add: delta.add, remove: delta.remove });
      uses.set(e.action, list);
    }
    return this.#actionUsesKept = uses;
  }
  #actionUsesKept?: Map<string, { args: string[]; add: Atom[]; remove: Atom[] }[]>;

  /**
   * The gates of the movers (see `gates.ts`), and their blocking and
   * wanted literals as computed predicates.
   */
  #findGates(held: ReadonlyMap<string, Conjunction>): void {
    this.#gates = findGates(this.vocab, this.#movers, this.#actionUses(), held, this.#static);
    this.#gates.forEach((gate, g) => {
      const full = this.#distances[this.#movers.indexOf(gate.mover)];
      const states = new GateStates(gate, this.#goals, full);
      this.#derived.set(`${BLOCKING}${g}`, (state, [l]) => states.blocking(state, l));
      if (gate.wanted !== undefined) {
        this.#derived.set(`${WANTED}${g}`, (state, [x]) => states.wanted(state, x));
      }
      this.#derived.set(`${STRANDED}${g}`, (state, [x]) => states.stranded(state, x));
      this.#explain?.(
        `policy: ${gate.opener} opens places ${gate.mover.steps[0].action} needs ${gate.fluent}${
          gate.wanted ? `; it needs ${gate.wanted} of what it opens with` : ""
        }`,
      );
    });
  }

  /** The movers of the demonstrated actions, and their closer literals as computed predicates. */
  #findMovers(bases: ReadonlyMap<string, Conjunction>): void {
    const { linked, jumps } = findMovers(this.vocab, this.#actionUses(), bases, this.#static);
    this.#movers = linked;
    this.#jumps = jumps;
    this.#distances = linked.map((mover) => new MoverDistances(mover));
    this.#movers.forEach((mover, m) => {
      const distances = this.#distances[m];
      this.#derived.set(
        `${CLOSER}${m}`,
        (state, [a, b, t]) => distances.closer(state, a, b, t),
      );
      // Whether the expert's own step in this demonstrated state brought
      // the mover closer to `t`.
      this.#derived.set(`${EXPERT_CLOSER}${m}`, (state, [t]) => {
        const i = this.#exampleOf.get(state);
        if (i === undefined) return false;
        const e = this.examples[i];
        const step = mover.steps.find((s) => s.action === e.action);
        return step !== undefined && distances.closer(state, e.args[step.to], e.args[step.from], t);
      });
      this.#explain?.(
        `policy: ${mover.steps.map((s) => s.action).join(", ")} move ${mover.key} along ${
          distanceText(mover, "a", "b")
        }`,
      );
    });
  }

  /**
   * Keeps of the observed preconditions of a mover's actions what they
   * agree on about the two places' static features (as `agreeOnSteps` does for the graph):
   * `not is_goal(to)`, which three directions showed and the one that
   * reached the goal did not, was chance, and would keep three of the four
   * directions off the goal.
   */
  #agreeOnMoves(bases: Map<string, Conjunction>, variants: ReadonlyMap<string, string>): void {
    for (const mover of this.#movers) {
      // The bases of the mover's actions (an action learned per type has one per type).
      const members: {
        key: string;
        literals: Literal[];
        from: number;
        to: number;
        group: string;
      }[] = [];
      for (const [key, base] of bases) {
        const step = mover.steps.find((s) => s.action === (variants.get(key) ?? key));
        if (!step) continue;
        const { from, to, action } = step;
        members.push({ key, literals: base.literals, from, to, group: action });
      }
      // Only what is static (the map's features, which a few demonstrations
      // sample by chance); what the actions need of the state stays.
      const agreed = agreedLiterals(members, (l) => this.#static.has(l.pred));
      members.forEach(({ key }, k) => {
        const base = bases.get(key)!;
        if (agreed[k].length === base.literals.length) return;
        const kept = { types: base.types, literals: agreed[k] };
        this.#params.set(kept, base.types.length);
        bases.set(key, kept);
      });
    }
  }

  /**
   * The declared types of an example's arguments, where a type names a
   * kind of object (products, options); a type with a single object (a
   * constant's, `Up`) is no kind, and the parameter's own type stands.
   * Computed once per example.
   */
  #signature(e: PolicyExample): string {
    let sig = this.#signatures.get(e);
    if (sig === undefined) {
      const params = this.vocab.actions[e.action].params;
      sig = e.args.map((a, k) => {
        const type = e.state.typeOf(String(a));
        return type !== undefined && e.state.objectsOfType(type).length >= 2
          ? type
          : params[k].type;
      }).join(",");
      this.#signatures.set(e, sig);
    }
    return sig;
  }

  /**
   * The action's observed preconditions: literals over its parameters true
   * of the expert's arguments before every use, kept when the action
   * consumes them (deletes the atom, or adds the atom of a negated one) or
   * no action changes them (but not a negated static relation); with
   * `persistent`, also the atoms that held before every use and that it
   * leaves alone (a move needs the next place open): what a mover's steps
   * need (see `movers.ts`).
   */
  #base(action: string, persistent = false, narrowed?: readonly string[]): Conjunction {
    const params = this.vocab.actions[action].params;
    const types = narrowed ? [...narrowed] : params.map((p) => p.type);
    const uses = this.examples.map((e, i) => ({ e, i })).filter(({ e }) =>
      e.action === action && (!narrowed || this.#signature(e) === narrowed.join(","))
    );
    const deltas = uses.map(({ e }) => this.traces[e.trace].steps[e.step].delta);
    const literals: Literal[] = [];
    for (const lit of this.#literals({ types, literals: [] }, false)) {
      // What the goal still asks is no precondition either.
      if (lit.pred === PENDING) continue;
      const holdsAll = uses.every(({ e, i }) =>
        this.#index[i].has(lit.pred, lit.args.map((a) => e.args[a])) !== lit.negated
      );
      if (!holdsAll) continue;
      const consumed = uses.every(({ e }, k) => {
        const args = lit.args.map((a) => e.args[a]);
        const list = lit.negated ? deltas[k].add : deltas[k].remove;
        return list.some((x) => x.pred === lit.pred && x.args.every((v, i) => v === args[i]));
      });
      // A static relation that does not hold is, in a few small
      // demonstrations, more likely chance than a precondition.
      const chance = lit.negated && lit.args.length > 1;
      // What the goal asks is no precondition: the demonstrations' goals
      // asking it of the objects acted on is what a rule may learn.
      const goal = this.#goalPreds.includes(lit.pred);
      // A relation among the action's own arguments that held at every use
      // (the hoist at the crate's place) binds the arguments to each other:
      // without it a rule may act with an object from somewhere else.
      const relation = !lit.negated && !goal && lit.none === undefined &&
        new Set(lit.args).size >= 2;
      const kept = consumed || (this.#static.has(lit.pred) && !chance && !goal) || relation ||
        (persistent && !lit.negated && !this.#static.has(lit.pred));
      if (kept) literals.push(lit);
    }
    const base = { types, literals };
    this.#params.set(base, types.length);
    return base;
  }

  /**
   * Whether a literal holds of every typed tuple in every demonstrated
   * state, and so tells nothing: a negated one no atom of its predicate
   * matches (types, and the equalities its repeated variables ask for), a
   * unary one every object of the type has.
   */
  #trivial(lit: Literal, varTypes: readonly string[]): boolean {
    if (this.#derived.has(lit.pred)) return false;
    // A `none` literal's object has the literal's own type.
    const types = (a: number) => a === NONE ? lit.none! : varTypes[a];
    const key = `${literalKey(lit)}:${lit.args.map(types).join(",")}`;
    let v = this.#trivialCache.get(key);
    if (v !== undefined) return v;
    const states = this.#probes.length > 0 ? this.#probes.map((p) => p.state) : this.#index;
    if (lit.negated) {
      v = !states.some((s) =>
        s.atoms(lit.pred, lit.args.map(() => undefined)).some((args) =>
          lit.args.every((a, i) =>
            s.fits(args[i], types(a)) && lit.args.every((b, j) => a !== b || args[i] === args[j])
          )
        )
      );
    } else if (lit.args.length === 1) {
      v = states.every((s) => s.objectsOf(types(lit.args[0])).every((o) => s.has(lit.pred, [o])));
    } else v = false;
    this.#trivialCache.set(key, v);
    return v;
  }

  /**
   * Literals that may extend `c`: each predicate over the variables of `c`
   * (types permitting), positive or negated, or positive with one new
   * variable when `extend` allows; trivial ones left out.
   */
  *#literals(c: Conjunction, extend: boolean): Generator<Literal & { newType?: string }> {
    const n = c.types.length;
    const canAdd = extend && n - (this.#params.get(c) ?? n) < this.#maxExtra;
    const idle = this.#idleForbids;
    for (const [pred, decl] of Object.entries(this.vocab.predicates)) {
      if (idle.has(pred)) continue;
      const arity = decl.params.length;
      const choices = decl.params.map((t) => {
        const vars: number[] = [];
        c.types.forEach((vt, v) => {
          if (this.#types.fits(vt, t)) vars.push(v);
        });
        return vars;
      });
      const pick: number[] = new Array(arity);
      const trivial = (lit: Literal, types: readonly string[]) => this.#trivial(lit, types);
      const extras = (type: string) => this.#noneExtras(c, type);
      const room = (j: number) => this.#noneRoom(pred, j);
      // A static relation of the world, not of the goal, that leaves room
      // for "none" (not `not_eq`, which holds of almost every pair, and which
      // ties a new variable to nothing either).
      const dense = this.#dense(pred);
      const isStatic = this.#static.has(pred) && !this.#goalPreds.includes(pred);
      const isObject = (t: string) => this.vocab.types[t]?.kind === "object";
      const constantsBelow = (t: string) => this.#constantsBelow(t);
      const go = function* (i: number, fresh: number): Generator<Literal & { newType?: string }> {
        if (i === arity) {
          if (fresh < 0) {
            for (const negated of [false, true]) {
              const lit = { pred, args: pick.slice(), negated };
              if (!trivial(lit, c.types)) yield lit;
            }
            // Nothing completes the atom of a static relation at one
            // position ("no heavier item"), or nothing that is also so
            // ("no item still unpacked is heavier").
            for (let j = 0; j < arity && arity > 1 && isStatic; j++) {
              if (!isObject(decl.params[j]) || !room(j)) continue;
              const args = pick.map((a, k) => k === j ? NONE : a);
              if (new Set(args.filter((a) => a !== NONE)).size < arity - 1) continue;
              const lit = { pred, args, negated: true, none: decl.params[j] };
              if (!trivial(lit, c.types)) yield lit;
              for (const extra of extras(decl.params[j])) yield { ...lit, with: [extra] };
            }
          } else {
            const lit = { pred, args: pick.slice(), negated: false };
            // What a rule may ask of a constant is how it stands (the pump
            // at hand), not how it relates others (a direction between two
            // cells, which a variable of the declared type says as well).
            const constants = arity === 1 ? constantsBelow(decl.params[fresh]) : [];
            for (const type of [decl.params[fresh], ...constants]) {
              if (!trivial(lit, [...c.types, type])) yield { ...lit, newType: type };
            }
          }
          return;
        }
        for (const v of choices[i]) {
          pick[i] = v;
          yield* go(i + 1, fresh);
        }
        if (canAdd && fresh < 0 && isObject(decl.params[i]) && !dense) {
          pick[i] = n;
          yield* go(i + 1, i);
        }
      };
      yield* go(0, -1);
    }
    // Whether a place blocks the way, and what opening it wants.
    for (const [g, gate] of this.#gates.entries()) {
      for (let v = 0; v < n; v++) {
        if (this.#types.fits(c.types[v], gate.mover.type)) {
          yield { pred: `${BLOCKING}${g}`, args: [v], negated: false };
        }
        if (gate.wanted !== undefined && this.#types.fits(c.types[v], gate.condition.types[0])) {
          yield { pred: `${WANTED}${g}`, args: [v], negated: false };
        }
      }
    }
    // Whether the goal still asks something of an object.
    if (this.#goals.length === 0) return;
    for (let v = 0; v < n; v++) {
      if (this.vocab.types[c.types[v]]?.kind !== "object") continue;
      for (const negated of [false, true]) yield { pred: PENDING, args: [v], negated };
    }
  }

  /**
   * The types below `type` of a domain's constants (`pump` of its own
   * type): a new variable of such a type names that object (`have(pump)`),
   * which no variable of the declared type can. A type that
   * merely has one object in each small problem (its one depot) is no
   * constant: a larger problem has several.
   */
  #constantsBelow(type: string): string[] {
    let out = this.#constantsCache.get(type);
    if (out === undefined) {
      out = Object.keys(this.vocab.types).filter((t) =>
        t !== type && this.#types.fits(t, type) && this.#isConstant(t)
      );
      this.#constantsCache.set(type, out);
    }
    return out;
  }
  readonly #constantsCache = new Map<string, string[]>();
  /** The relation each goal predicate asks for (`goal_on` -> `on`). */
  get #relationOfGoal(): Map<string, string> {
    this.#relationOfGoalCache ??= new Map(goalRelations(this.vocab).map((r) => [r.goal, r.pred]));
    return this.#relationOfGoalCache;
  }
  #relationOfGoalCache?: Map<string, string>;

  /** Whether `type` is a constant's: its one object is the same in every problem. */
  #isConstant(type: string): boolean {
    const decl = this.vocab.types[type];
    return decl?.kind === "object" && decl.constant !== undefined;
  }

  /**
   * Whether a relation holds of most pairs of objects of its types in the
   * demonstrated states (more than half): no object is then without one.
   */
  #dense(pred: string): boolean {
    let v = this.#denseCache.get(pred);
    if (v === undefined) {
      const arity = this.vocab.predicates[pred].params.length;
      v = arity > 1 && this.#probes.some(({ state }) => {
        // Against the pairs of distinct objects it relates.
        const atoms = state.atoms(pred, new Array(arity).fill(undefined));
        const objects = new Set(atoms.flat()).size;
        return atoms.length > 2 && atoms.length >= 0.9 * objects * (objects - 1);
      });
      this.#denseCache.set(pred, v);
    }
    return v;
  }
  readonly #denseCache = new Map<string, boolean>();

  /**
   * Whether "no object completes this atom at position `j`" can hold: some
   * object, in some demonstrated state, has no atom of the binary relation
   * at the other position (nothing is heavier than the heaviest item; every
   * place is unequal to some other).
   */
  #noneRoom(pred: string, j: number): boolean {
    const key = `${pred}/${j}`;
    let v = this.#roomCache.get(key);
    if (v === undefined) {
      const params = this.vocab.predicates[pred].params;
      v = params.length === 2 && this.#probes.some(({ state }) => {
        // An object the relation knows that lacks a partner at the other position.
        const atoms = state.atoms(pred, [undefined, undefined]);
        const partnered = new Set(atoms.map((a) => a[1 - j]));
        return atoms.some((a) => !partnered.has(a[j]));
      });
      this.#roomCache.set(key, v);
    }
    return v;
  }
  readonly #roomCache = new Map<string, boolean>();

  /**
   * What else the object of a `none` literal of type `type` may be said to
   * be: an atom of a predicate actions change, over it alone or with one
   * variable of `c`, or its negation.
   */
  #noneExtras(c: Conjunction, type: string): { pred: string; args: number[]; negated: boolean }[] {
    const out: { pred: string; args: number[]; negated: boolean }[] = [];
    for (const [pred, decl] of Object.entries(this.vocab.predicates)) {
      if (this.#static.has(pred) || decl.params.length === 0 || decl.params.length > 2) continue;
      decl.params.forEach((t, j) => {
        if (!this.#types.fits(type, t) && !this.#types.fits(t, type)) return;
        if (decl.params.length === 1) {
          for (const negated of [false, true]) out.push({ pred, args: [NONE], negated });
          return;
        }
        const other = decl.params[1 - j];
        c.types.forEach((vt, v) => {
          if (!this.#types.fits(vt, other)) return;
          const args = j === 0 ? [NONE, v] : [v, NONE];
          for (const negated of [false, true]) out.push({ pred, args, negated });
        });
      });
    }
    return out;
  }

  /**
   * The ways to extend a condition of `action` by a step: a literal (see
   * `#literals`), or for an action that moves something (see `movers.ts`)
   * a literal relating a new variable to the state or the goal together
   * with "the destination is closer to it than the origin".
   */
  *#extensions(
    c: Conjunction,
    action: string,
  ): Generator<{ literals: Literal[]; newTypes: string[]; replace?: number }> {
    // Left over from a search the work budget stopped: they extend another condition.
    this.#pendingExtensions.length = 0;
    for (const lit of this.#literals(c, true)) {
      const literal: Literal = {
        pred: lit.pred,
        args: lit.args,
        negated: lit.negated,
        ...(lit.none !== undefined ? { none: lit.none } : {}),
        ...(lit.with !== undefined ? { with: lit.with } : {}),
      };
      if (lit.newType === undefined) {
        yield { literals: [literal], newTypes: [] };
        continue;
      }
      yield { literals: [literal], newTypes: [lit.newType] };
      // With what is said of the new object alone (a passenger waiting
      // there who is not served yet): alone, the relation may be too weak a
      // step for the search to keep.
      const types = [...c.types, lit.newType];
      for (const unary of this.#literals({ types, literals: [] }, false)) {
        if (unary.args.length !== 1 || unary.args[0] !== c.types.length) continue;
        this.#pendingExtensions.push({
          literals: [literal, { pred: unary.pred, args: unary.args, negated: unary.negated }],
          newTypes: [lit.newType],
        });
      }
    }
    yield* this.#pendingExtensions.splice(0);
    const n = c.types.length;
    const params = this.#params.get(c) ?? n;
    this.#chains.forEach((chain, k) => {
      c.types.forEach((vt, v) => {
        if (!this.#chained(vt, chain)) return;
        for (const negated of [false, true]) {
          this.#pendingExtensions.push({
            literals: [{ pred: `${SETTLED}${k}`, args: [v], negated }],
            newTypes: [],
          });
        }
      });
    });
    this.#movers.forEach((mover, m) => {
      for (const step of mover.steps.filter((s) => s.action === action)) {
        const closer = (t: number): Literal => ({
          pred: `${CLOSER}${m}`,
          args: [step.to, step.from, t],
          negated: false,
        });
        for (let v = 0; v < n; v++) {
          if (v !== step.from && v !== step.to && this.#types.fits(c.types[v], mover.type)) {
            this.#pendingExtensions.push({ literals: [closer(v)], newTypes: [] });
          }
        }
        if (n - params >= this.#maxExtra) continue;
        // An anchor: an atom that holds of the new variable (the goal's
        // place), possibly with another new object (where some person is).
        const typed: Conjunction = { types: [...c.types, mover.type], literals: c.literals };
        this.#params.set(typed, params);
        const room = n + 1 - params < this.#maxExtra;
        for (const lit of this.#literals(typed, room)) {
          if (lit.negated || !lit.args.includes(n)) continue;
          // The other new object only as what stands in a relation with
          // the place (`lies(x, place)`).
          if (lit.newType !== undefined && lit.args.length !== 2) continue;
          this.#pendingExtensions.push({
            literals: [{ pred: lit.pred, args: lit.args, negated: false }, closer(n)],
            newTypes: lit.newType === undefined ? [mover.type] : [mover.type, lit.newType],
          });
        }
      }
    });
    yield* this.#pendingExtensions.splice(0);
  }
  readonly #pendingExtensions: { literals: Literal[]; newTypes: string[]; replace?: number }[] = [];

  /** The best consistent condition for `action` over the remaining examples, if any. */
  #search(base: Conjunction, action: string, remaining: readonly number[]): Scored | undefined {
    const params = base.types.length;
    // The search looks at a sample of the decisions left; what it finds is
    // checked on all of them before it is taken.
    const sample = sampled(remaining, (i) => this.examples[i].action === action);
    const start = this.#score(base, action, sample);
    if (start.pos.length === 0) return undefined;
    const found: Scored[] = [];
    if (this.#acceptable(start)) found.push(this.#withCost(start, params));
    let beam = [start];
    const seen = new Set<string>([[...start.keys].sort().join("&")]);
    for (let depth = 0; depth < this.#maxLiterals && beam.length > 0; depth++) {
      const children: Scored[] = [];
      for (const parent of beam) {
        if (this.#work > this.#searchLimit) break;
        for (const ext of this.#extensions(parent.condition, action)) {
          if (this.#work > this.#searchLimit) break;
          const added = ext.literals.map(literalKey);
          if (added.some((k) => parent.keys.has(k))) continue;
          const kept = ext.replace === undefined
            ? parent.condition.literals
            : parent.condition.literals.filter((_, k) => k !== ext.replace);
          const keys = new Set([...kept.map(literalKey), ...added]);
          const types = [...parent.condition.types, ...ext.newTypes];
          // The same literals over a variable of a constant's type say
          // something else (`have(p)` of the pump, not of anything).
          const id = [...keys].sort().join("&") + types.filter((t) => this.#isConstant(t)).join();
          if (seen.has(id)) continue;
          seen.add(id);
          const condition: Conjunction = { types, literals: [...kept, ...ext.literals] };
          if (headsForPending(condition)) continue;
          this.#params.set(condition, params);
          // A longer condition fires in a subset of the states its parent
          // fires in; a narrowed `none` may fire in more.
          const pool = ext.replace === undefined ? parent.fires : sample;
          const scored = this.#score(condition, action, pool, keys);
          if (scored.pos.length === 0) continue;
          if (this.#acceptable(scored)) this.#withCost(scored, params);
          // A literal that takes no decision away and narrows no choice only
          // makes the rule longer.
          const same = scored.pos.length === parent.pos.length &&
            scored.fires.length === parent.fires.length &&
            scored.neg.length === parent.neg.length;
          if (same && (parent.cost === undefined || scored.cost! >= parent.cost)) {
            // Unless it ties a parameter to something more (a new
            // variable: the goal of the ball picked up) and so keeps the
            // rule off objects the expert left alone.
            if (
              parent.cost === undefined || ext.newTypes.length === 0 ||
              this.#idleShare(scored.condition, params) >= this.#idleShare(parent.condition, params)
            ) continue;
          }
          children.push(scored);
          // What the goal asks is read only when a variable needs it.
          let asked: Set<number> | undefined;
          const free = (v: number) =>
            this.#isConstant(scored.condition.types[v]) ||
            (asked ??= this.#askedVars(scored.condition)).has(v);
          if (this.#acceptable(scored) && tied(scored.condition, params, free)) found.push(scored);
        }
      }
      children.sort((a, b) =>
        promise(b) - promise(a) || (a.cost ?? 0) - (b.cost ?? 0) || a.keys.size - b.keys.size
      );
      beam = children.slice(0, this.#width);
    }
    return this.#bestOf(found, params, action, remaining, sample.length < remaining.length);
  }

  /** Which examples a condition decides as the expert did, and which otherwise. */
  #score(
    condition: Conjunction,
    action: string,
    candidates: readonly number[],
    keys: Set<string> = new Set(condition.literals.map(literalKey)),
  ): Scored {
    const fires: number[] = [];
    const pos: number[] = [];
    const neg: number[] = [];
    this.#work += candidates.length;
    for (const i of candidates) {
      const e = this.examples[i];
      const state = this.#index[i];
      if (e.action === action && satisfiable(condition, state, e.args)) {
        fires.push(i);
        pos.push(i);
      } else if (satisfiable(condition, state)) {
        fires.push(i);
        if (!this.#tie(condition, state)) {
          neg.push(i);
        }
      }
    }
    return { condition, keys, fires, pos, neg };
  }

  /**
   * Whether a rule that fires where the expert did something else chose as
   * well as the expert: the rule moves something closer to a target, and
   * the expert's own step, of the same mover, brought it closer to that
   * target too. Of two ways towards a place that are equally short (right
   * then up, or up then right) the expert takes one; a rule taking the
   * other is no worse, and without this no rule about distance would be
   * consistent with a demonstration on a grid.
   */
  #tie(condition: Conjunction, state: StateIndex): boolean {
    const ties: Literal[] = condition.literals.filter((l) =>
      !l.negated && l.pred.startsWith(CLOSER)
    ).map((l) => ({
      pred: `${EXPERT_CLOSER}${l.pred.slice(CLOSER.length)}`,
      args: [l.args[2]],
      negated: false,
    }));
    if (ties.length === 0) return false;
    return satisfiable(
      { types: condition.types, literals: [...condition.literals, ...ties] },
      state,
    );
  }

  /**
   * Sets the description length per decision of a consistent condition:
   * its literals, the bits that name the expert's choice among the
   * bindings it allows in each state it takes (a rule that allows any room
   * to move to says less than one that allows the rooms holding what must
   * be fetched), and its uses of idle objects (see `#idleUses`), over the
   * decisions it takes.
   */
  #withCost(s: Scored, params: number): Scored {
    let bits = 0;
    for (const i of s.pos) {
      bits += Math.log2(Math.max(1, countChoices(s.condition, this.#index[i], params, 32, 400)));
    }
    s.cost = (literalCount(s.condition) * LITERAL_BITS + CHOICE_WEIGHT * bits +
      s.neg.length * EXCEPTION_BITS) / s.pos.length;
    return s;
  }

  /** A condition found before, scored on the decisions left, if still acceptable. */
  #rescored(
    s: Scored,
    action: string,
    params: number,
    remaining: readonly number[],
  ): Scored | undefined {
    const full = this.#score(s.condition, action, remaining, s.keys);
    if (!this.#acceptable(full) || full.pos.length === 0) return undefined;
    const scored = this.#withCost(full, params);
    scored.cost = scored.cost! + IDLE_BITS * this.#idleShare(scored.condition, params);
    return scored;
  }

  /**
   * The best of the consistent conditions found: the cheapest by their
   * description, with the idle objects they would take counted for the
   * cheapest few (counting them is the expensive part).
   */
  #bestOf(
    found: Scored[],
    params: number,
    action: string,
    remaining: readonly number[],
    sampled: boolean,
  ): Scored | undefined {
    found.sort((a, b) => a.cost! - b.cost! || b.pos.length - a.pos.length);
    const top: Scored[] = [];
    for (const s of found) {
      if (top.length >= IDLE_CANDIDATES) break;
      if (!sampled) {
        top.push(s);
        continue;
      }
      // Consistent on the sample; on every decision left too?
      const full = this.#score(s.condition, action, remaining, s.keys);
      if (this.#acceptable(full) && full.pos.length > 0) top.push(this.#withCost(full, params));
    }
    for (const s of top) {
      s.cost = s.cost! + IDLE_BITS * this.#idleShare(s.condition, params);
    }
    top.sort((a, b) => a.cost! - b.cost! || b.pos.length - a.pos.length);
    // Of rules that say as much about the same decisions, the one that acts
    // in more of the demonstrated states says it more generally
    // (`not settled(x)` rather than `goal_on(y, x)`, which only the
    // demonstrations' reversals of a tower made the same).
    const tied = top.filter((s) => s.cost === top[0]?.cost && s.pos.length === top[0].pos.length);
    if (tied.length < 2) return top[0];
    const reach = (s: Scored) =>
      this.#probes.filter((p) => satisfiable(s.condition, p.state)).length;
    return tied.map((s) => ({ s, r: reach(s) })).sort((a, b) => b.r - a.r)[0].s;
  }

  /**
   * How often the condition would let its action take an object the
   * expert never acted on in that demonstration (an idle object: a ball
   * no goal mentions, a room nothing is in): the share of (sampled
   * demonstrated state, parameter) pairs where some idle object satisfies
   * what the condition says of that parameter (the literals about it, and
   * about the extra variables they relate it to). A rule that takes no
   * idle object says why it takes the objects it does.
   */
  #idleShare(c: Conjunction, params: number): number {
    if (params === 0) return 0;
    // Objects nothing is known of, and objects the goal is done with (see
    // `#freshProbes`), count apart: a parameter only a negation says
    // anything of takes an unknown place as readily as a known one.
    const sets = [this.#probes, this.#freshProbes];
    const counts = sets.map(() => 0);
    for (let k = 0; k < params; k++) {
      const local = localCondition(c, k, params);
      if (local.literals.length === 0) continue;
      // Conditions share what they say of a parameter: count each once.
      const key = `${k}|${local.literals.map(literalKey).sort().join("&")}|${
        local.types.join(",")
      }`;
      // The parameter itself, or an extra variable of what the condition
      // says of it (the ball in "move to a room holding a ball").
      const vars = [
        k,
        ...local.types.map((_, v) => v).filter((v) =>
          v >= params && local.literals.some((l) => l.args.includes(v))
        ),
      ];
      sets.forEach((probes, set) => {
        let known = this.#idleCache.get(`${set}|${key}`);
        if (known === undefined) {
          known = probes.filter(({ state, idle }) =>
            vars.some((v) =>
              [...idle].slice(0, v === k ? undefined : IDLE_PER_EXTRA).some((o) => {
                if (!state.fits(o, c.types[v])) {
                  return false;
                }
                const fixed: (string | undefined)[] = [];
                fixed[v] = o;
                return satisfiable(local, state, fixed);
              })
            )
          ).length;
          this.#idleCache.set(`${set}|${key}`, known);
        }
        counts[set] += known;
      });
    }
    return sets.reduce(
      (share, probes, set) =>
        probes.length === 0 ? share : share + counts[set] / (probes.length * params),
      0,
    );
  }

  /**
   * States a larger problem has and three small demonstrations seldom do
   * (see `#idleShare`), each with its idle objects: each demonstration's
   * first state with one more object of each type its actions take, of
   * which nothing is known; its last state, the goal's objects done with;
   * and sampled states with the goal asking of one object what already
   * holds of it.
   */
  get #freshProbes(): { state: StateIndex; idle: ReadonlySet<string> }[] {
    if (this.#freshCache) return this.#freshCache;
    const preds = Object.keys(this.vocab.predicates);
    const types = new Set(
      Object.values(this.vocab.actions).flatMap((a) => a.params.map((p) => p.type)),
    );
    const out = this.traces.map((g) => {
      const facts = g.states[0].clone();
      const idle = new Set<string>();
      for (const type of types) {
        const id = `${FRESH}${type}`;
        facts.declare(id, type);
        idle.add(id);
      }
      return { state: new StateIndex(facts, preds, this.#types, this.#derived), idle };
    });
    // The last state, where the goal holds: what the goal asked of is done
    // with, and a rule that would still act on it acts for nothing.
    for (const g of this.traces) {
      const last = g.states[g.states.length - 1];
      const idle = new Set(this.#goalSubjects(last));
      if (idle.size === 0) continue;
      out.push({ state: new StateIndex(last, preds, this.#types, this.#derived), idle });
    }
    // A state with the goal asking of one object what already holds of it
    // (the parcel wanted where it lies): that object is done with too. A
    // small demonstration never shows one, a larger problem many.
    const achieved = this.#achievedBy;
    for (const g of this.traces) {
      const step = Math.max(1, Math.floor(g.states.length / PROBES_PER_TRACE));
      for (let i = 0; i < g.states.length - 1; i += step) {
        const facts = g.states[i];
        for (const [goal, pred] of achieved) {
          for (const atom of facts.query(goal, [])) {
            const [subject] = atom.args;
            if (typeof subject !== "string" || facts.has({ pred, args: atom.args })) continue;
            const now = facts.query(pred, [subject, ...atom.args.slice(1).map(() => null)]);
            if (now.length !== 1) continue;
            const moved = facts.clone();
            moved.remove(atom);
            moved.add({ pred: goal, args: now[0].args });
            out.push({
              state: new StateIndex(moved, preds, this.#types, this.#derived),
              idle: new Set([subject]),
            });
          }
        }
      }
    }
    return this.#freshCache = out;
  }
  #freshCache?: { state: StateIndex; idle: ReadonlySet<string> }[];

  /** States to probe for idle uses (a sample of each trace's), with each trace's idle objects. */
  get #probes(): { state: StateIndex; idle: ReadonlySet<string> }[] {
    if (this.#probeCache) return this.#probeCache;
    const out: { state: StateIndex; idle: ReadonlySet<string> }[] = [];
    const preds = Object.keys(this.vocab.predicates);
    this.traces.forEach((g, t) => {
      const used = new Set(this.examples.filter((e) => e.trace === t).flatMap((e) => e.args));
      // An object the expert left alone is idle unless it looks, at the
      // start, like one it used (the second gripper of two is as good as
      // the first).
      const profiles = profilesOf(g.states[0]);
      const usedProfiles = new Set([...used].map((o) => profiles.get(o)));
      const idle = new Set<string>();
      for (const o of Object.keys(g.states[0].objects())) {
        if (!used.has(o) && !usedProfiles.has(profiles.get(o))) idle.add(o);
      }
      const step = Math.max(1, Math.floor(g.states.length / PROBES_PER_TRACE));
      for (let i = 0; i < g.states.length; i += step) {
        out.push({ state: new StateIndex(g.states[i], preds, this.#types, this.#derived), idle });
        // The same state with the goal no longer asking anything of one of
        // the objects it asks for: that object is now idle too (a ball no
        // goal mentions must not be picked up).
        // (An object another goal atom names, as where to put something,
        // still plays a part.)
        const named = (o: string) =>
          this.#goalPreds.some((pred) =>
            g.states[i].query(pred, []).some((a) => a.args.indexOf(o) > 0)
          );
        const subjects = this.#goalSubjects(g.states[i]).filter((o) => !named(o));
        for (const o of subjects.slice(0, UNGOALED_PER_PROBE)) {
          const without = g.states[i].clone();
          for (const pred of this.#goalPreds) {
            for (
              const atom of without.query(pred, [
                o,
                ...new Array(this.vocab.predicates[pred].params.length - 1).fill(null),
              ])
            ) {
              without.remove(atom);
            }
          }
          out.push({
            state: new StateIndex(without, preds, this.#types, this.#derived),
            idle: new Set([o]),
          });
        }
      }
    });
    return this.#probeCache = out;
  }

  /**
   * The goal's predicates: those the vocabulary's landmarks are conditioned
   * on (`when: goal_on(a0, a1)`).
   */
  get #goalPreds(): string[] {
    this.#goalPredCache ??= [...goalPredicateNames(this.vocab)].filter((p) =>
      this.vocab.predicates[p].params.length > 0
    );
    return this.#goalPredCache;
  }
  #goalPredCache?: string[];

  /** The objects the goal asks something of (the first argument of a goal atom), in order. */
  #goalSubjects(facts: FactStore): string[] {
    const out = new Set<string>();
    for (const pred of this.#goalPreds) {
      for (const atom of facts.query(pred, [])) {
        if (typeof atom.args[0] === "string") out.add(atom.args[0]);
      }
    }
    return [...out];
  }
}

/** The prefix of the objects `#freshProbes` imagines. */
const FRESH = "\u0000fresh:";

/** The prefix of the computed predicate "the expert's step brought the mover closer to t". */
const EXPERT_CLOSER = "expert_closer:";

/** Decisions of the action, and others, a rule search looks at (see `sampled`). */
const SAMPLE_OWN = 60;
const SAMPLE_OTHER = 120;

/**
 * A sample of the decisions left, evenly spread: at most `SAMPLE_OWN` of
 * the action searched for (`own`) and `SAMPLE_OTHER` of the others.
 */
function sampled(remaining: readonly number[], own: (i: number) => boolean): number[] {
  const spread = (list: number[], max: number) =>
    list.length <= max ? list : list.filter((_, k) =>
      Math.floor(k * max / list.length) !==
        Math.floor((k - 1) * max / list.length)
    );
  const mine = spread(remaining.filter(own), SAMPLE_OWN);
  const others = spread(remaining.filter((i) => !own(i)), SAMPLE_OTHER);
  return [...mine, ...others].sort((a, b) => a - b);
}

/**
 * Whether every extra variable of a condition is related, through its
 * literals, to the action's parameters: one only an atom of its own names
 * ("something is served somewhere") says nothing of the objects the rule
 * takes, and only tells the demonstrations' moments apart by chance. A
 * variable `free` says needs no tie: one of a `constant` type names one
 * object (the pump); one the goal still asks something of (a wheel the goal
 * wants inflated and that is not, for which the pump is fetched) is what the
 * action is for. (A goal already achieved would only tell the moments apart.)
 */
function tied(c: Conjunction, params: number, free: (v: number) => boolean): boolean {
  const reached = new Set(c.types.keys().filter((v) => v < params || free(v)));
  for (let grew = true; grew;) {
    grew = false;
    for (const l of c.literals) {
      const vars = literalVars(l);
      if (!vars.some((v) => reached.has(v)) || vars.every((v) => reached.has(v))) continue;
      vars.forEach((v) => reached.add(v));
      grew = true;
    }
  }
  return reached.size === c.types.length;
}

/** The size of a condition: its literals, a `none` literal counting as one per atom and one more. */
function literalCount(c: Conjunction): number {
  return c.literals.reduce((n, l) => n + (l.none === undefined ? 1 : 2 + (l.with?.length ?? 0)), 0);
}

/** What naming a decision a tolerated rule decides otherwise costs, in bits. */
const EXCEPTION_BITS = 8;
/** The share of its decisions a tolerated rule may decide otherwise (see `#tolerate`). */
const TOLERANCE = 0.2;
/** The fewest decisions a tolerated rule takes. */
const TOLERATED_MIN = 5;
/** What one literal of a rule costs, in bits of its description. */
const LITERAL_BITS = 2;
/** How much more a bit of free choice costs than a bit of the rule (it grows with the task). */
const CHOICE_WEIGHT = 3;
/** What a decision costs, at most, for the idle objects its rule could take (see `#idleShare`). */
const IDLE_BITS = 4;
/** Demonstrated states per trace probed for idle uses. */
const PROBES_PER_TRACE = 6;
/** Idle objects tried per extra variable of a condition (the parameter tries them all). */
const IDLE_PER_EXTRA = 8;
/** Objects per probed state that are probed again with their goal taken away. */
const UNGOALED_PER_PROBE = 2;
/** Consistent conditions per search whose idle uses are counted. */
const IDLE_CANDIDATES = 24;

/**
 * Each object's profile in a state: its type and the predicates and
 * positions it occurs at, with how often (`at/1 x2`): objects with equal
 * profiles play the same part.
 */
function profilesOf(facts: FactStore): Map<string, string> {
  const occurs = new Map<string, string[]>();
  for (const atom of facts.atoms()) {
    atom.args.forEach((a, i) => {
      if (typeof a !== "string") return;
      let l = occurs.get(a);
      if (!l) occurs.set(a, l = []);
      l.push(`${atom.pred}/${i}`);
    });
  }
  const out = new Map<string, string>();
  for (const [o, type] of Object.entries(facts.objects())) {
    out.set(o, `${type}:${(occurs.get(o) ?? []).sort().join(",")}`);
  }
  return out;
}

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
      if (literals.includes(l) || !literalVars(l).some((a) => reached.has(a))) continue;
      literals.push(l);
      for (const a of literalVars(l)) {
        if (a >= params && !reached.has(a)) {
          reached.add(a);
          grew = true;
        }
      }
    }
  }
  return { types: c.types, literals };
}

/** Whether `a` is a better consistent rule than `b`: a shorter description per decision, then more decisions. */
function better(a: Scored, b: Scored): boolean {
  if (a.cost! !== b.cost!) return a.cost! < b.cost!;
  return a.pos.length > b.pos.length;
}

/** A rule's action and condition as one key (the literals' order ignored). */
function ruleKey(r: { action: string; condition: Conjunction }): string {
  const c = r.condition;
  return `${r.action}|${c.types.join(",")}|${c.literals.map(literalKey).sort().join("&")}`;
}

/**
 * Whether a mover's target is picked by a pending literal: what a mover
 * heads for is a place the condition names by an atom, never one picked
 * by what the goal still asks ("some place the goal still names" is any
 * of them, and three small demonstrations seldom have two).
 */
function headsForPending(c: Conjunction): boolean {
  const pendingVars = new Set(c.literals.filter((l) => l.pred === PENDING).map((l) => l.args[0]));
  return c.literals.some((l) => l.pred.startsWith(CLOSER) && pendingVars.has(l.args[2]));
}

/** How promising a partial condition is: its precision, smoothed, then its coverage. */
function promise(s: Scored): number {
  return (s.pos.length + 1) / (s.pos.length + s.neg.length + 2) + s.pos.length * 1e-6;
}

/**
 * The variable names of a rule: its action's parameters, then `x1`, `x2`, ...; a
 * variable of a domain constant's type takes the constant's name (`pump`).
 */
export function ruleVariables(rule: PolicyRule, vocab: Vocabulary): string[] {
  const params = vocab.actions[rule.action].params.map((p) => p.name);
  const reserved = (w: string) =>
    (KEYWORDS as readonly string[]).includes(w) ||
    (BUILTIN_CALLS as readonly string[]).includes(w) || !/^[A-Za-z_]/.test(w);
  const names: string[] = [];
  rule.condition.types.forEach((type, i) => {
    const decl = vocab.types[type];
    // A variable of a constant's type is that object: it reads as its name (`have(pump)`).
    const constant = i >= params.length && decl?.kind === "object" ? decl.constant : undefined;
    const word = constant?.replace(/[^A-Za-z0-9_]/g, "_");
    names.push(
      word && !reserved(word)
        ? freshName(word, [...params, ...names])
        : params[i] ?? freshName(`x${i - params.length + 1}`, names),
    );
  });
  return names;
}

/** What a rule learned while tolerating says of the decisions it takes otherwise. */
export function otherwiseText(count: number): string {
  return `the expert did otherwise in ${count} of the states it acts in`;
}

/** A rule as text: `drop(b, r, g) if carry(b, g) and ...`. */
export function ruleText(
  rule: PolicyRule,
  vocab: Vocabulary,
  movers: readonly Mover[] = [],
  chains: readonly Chain[] = [],
  goals: readonly PendingGoal[] = [],
  supplies: readonly Supply[] = [],
  gates: readonly Gate[] = [],
): string {
  const names = ruleVariables(rule, vocab);
  const params = vocab.actions[rule.action].params.length;
  const context = { goals, vocab, types: rule.condition.types, supplies, gates };
  const cond = rule.condition.literals.map((l) =>
    ruleLiteralText(l, names, movers, chains, context)
  ).join(" and ");
  return `${rule.action}(${names.slice(0, params).join(", ")}) if ${cond || "true"}`;
}
