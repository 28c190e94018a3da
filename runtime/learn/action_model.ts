/**
 * A learned action model: for each action template of a vocabulary, its
 * feasibility rules (preconditions learned from accepted versus rejected
 * transitions) and its lifted effects. It blocks doomed actions before they
 * are sent, predicts fact changes for recovery search, and dry-runs plans.
 *
 * Rules are literals over the template's parameters (`near(door)`,
 * `not exists(x: Key, carried(x))`). A rule is kept only if it is true in
 * every accepted transition of its action; among those, a small set is
 * chosen by greedy set cover of the rejected ones (seeds: WALL-E 2.0 and the
 * dual-memory agent). An action never rejected keeps its always-true
 * literals as hypotheses, reported but never used to block.
 *
 * @module
 */
import { matchAction } from "../../dsl/action.ts";
import { callNames, type Expr } from "../../dsl/expr/ast.ts";
import { checkExpr } from "../../dsl/expr/check.ts";
import { formatExprError } from "../../dsl/expr/errors.ts";
import { evalExpr } from "../../dsl/expr/eval.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import { printExpr } from "../../dsl/expr/print.ts";
import { substitute } from "../../dsl/expr/vars.ts";
import type { AtomArg, FactDelta, FactView } from "../../dsl/facts.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { own } from "../../dsl/vocabulary.ts";
import {
  type ActionLearnOptions,
  DEFAULT_ACTION_LEARN_OPTIONS,
  ground,
  learnEntries,
  mergeEntries,
  type Transition,
} from "./_action_learn.ts";
import {
  ACTION_MODEL_FORMAT,
  type ActionEntryData,
  type ActionModelData,
  ActionModelSchema,
  type ActionRule,
} from "../action_model_data.ts";

export type { ActionLearnOptions, Transition };

/** The answer of {@linkcode ActionModel.check}. */
export type ActionCheckResult = { ok: true } | { ok: false; unmet: string[] };

/** A lifted atom: each argument a parameter name or a constant. */
export interface LiftedAtom {
  pred: string;
  args: ({ param: string } | { value: AtomArg })[];
}

/**
 * What look-ahead search reads of one action: the confirmed preconditions
 * that are plain atoms over the parameters (the others still decide
 * applicability through {@linkcode ActionModel.unmet}) and the effects.
 */
export interface ActionSchema {
  /** The action (template) name. */
  action: string;
  pre: LiftedAtom[];
  add: LiftedAtom[];
  remove: LiftedAtom[];
}
type EffectAtom = LiftedAtom;

/** The parsed form of one entry. */
interface Compiled {
  rules: { text: string; expr: Expr; confirmed: boolean }[];
  add: EffectAtom[];
  remove: EffectAtom[];
}

/**
 * Learns an action model from transitions.
 *
 * @param vocab The vocabulary whose action templates and predicates the model uses.
 * @param transitions Observed steps; actions matching no template are ignored.
 * @param options Learner limits (see {@linkcode ActionLearnOptions}).
 * @returns The model, which remembers `transitions` for {@linkcode ActionModel.update}.
 *
 * @example Usage
 * ```ts
 * import { learnActionModel } from "./action_model.ts";
 * import { FactStore } from "../fact_store.ts";
 * const vocab = {
 *   name: "boxes",
 *   types: { Box: { kind: "object" as const } },
 *   predicates: { is_open: { params: ["Box"] }, taken: { params: ["Box"] } },
 *   functions: {},
 *   actions: { take: { template: "take {b}", params: [{ name: "b", type: "Box" }] } },
 * };
 * const objects = { a: "Box", b: "Box" };
 * const facts = new FactStore([{ pred: "is_open", args: ["a"] }], objects);
 * const model = learnActionModel(vocab, [
 *   { facts, action: "take a", ok: true, delta: { add: [{ pred: "taken", args: ["a"] }], remove: [] } },
 *   { facts, action: "take b", ok: false },
 * ]);
 * console.log(model.check(facts, "take b")); // { ok: false, unmet: ["is_open('b')"] }
 * console.log(model.predict(facts, "take a")?.add); // [{ pred: "taken", args: ["a"] }]
 * ```
 */
export function learnActionModel(
  vocab: Vocabulary,
  transitions: readonly Transition[],
  options: ActionLearnOptions = {},
): ActionModel {
  return ActionModel.learn(vocab, transitions, options);
}

/**
 * Feasibility rules and effects per action template (plain data inside;
 * see {@linkcode ActionModelData}). Immutable: {@linkcode update} returns a
 * new model.
 */
export class ActionModel {
  /** The vocabulary of the rules. */
  readonly vocab: Vocabulary;
  readonly #options: Required<ActionLearnOptions>;
  readonly #transitions: readonly Transition[];
  readonly #prior: ActionModelData | undefined;
  readonly #data: ActionModelData;
  readonly #compiled = new Map<string, Compiled>();

  private constructor(
    vocab: Vocabulary,
    options: Required<ActionLearnOptions>,
    transitions: readonly Transition[],
    prior: ActionModelData | undefined,
  ) {
    this.vocab = vocab;
    this.#options = options;
    this.#transitions = transitions;
    this.#prior = prior;
    const fresh = learnEntries(vocab, transitions, options);
    const actions = prior
      ? mergeEntries(vocab, prior.actions, fresh, transitions, (a, t) => this.#rule(a, t))
      : fresh;
    this.#data = {
      format: ACTION_MODEL_FORMAT,
      vocabulary: vocab.name,
      actions,
      ...(prior?.stated ? { stated: true } : {}),
    };
    for (const [name, entry] of Object.entries(actions)) {
      this.#compiled.set(name, this.#compile(name, entry));
    }
  }

  /**
   * Learns a model from transitions (the same as {@linkcode learnActionModel}).
   *
   * @param vocab The vocabulary.
   * @param transitions Observed steps.
   * @param options Learner limits.
   */
  static learn(
    vocab: Vocabulary,
    transitions: readonly Transition[],
    options: ActionLearnOptions = {},
  ): ActionModel {
    return new ActionModel(
      vocab,
      { ...DEFAULT_ACTION_LEARN_OPTIONS, ...options },
      [...transitions],
      undefined,
    );
  }

  /**
   * Restores a model from its JSON form (a value or a JSON text).
   *
   * @param json What {@linkcode toJSON} returned, or its text.
   * @param vocab The vocabulary it was learned with.
   * @param options Learner limits for later updates.
   * @throws {TypeError} When the data does not match the schema, names
   *   another vocabulary or an unknown action, or a rule or effect does not
   *   parse or type-check.
   */
  static fromJSON(json: unknown, vocab: Vocabulary, options: ActionLearnOptions = {}): ActionModel {
    let value = json;
    if (typeof json === "string") {
      try {
        value = JSON.parse(json);
      } catch (e) {
        throw new TypeError(`Action model is not valid JSON: ${(e as Error).message}`);
      }
    }
    const parsed = ActionModelSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue.path.length ? ` at "${issue.path.join(".")}"` : "";
      throw new TypeError(`Invalid action model${where}: ${issue.message}`);
    }
    if (parsed.data.vocabulary !== vocab.name) {
      throw new TypeError(
        `Action model was learned for vocabulary "${parsed.data.vocabulary}", not "${vocab.name}"`,
      );
    }
    for (const name of Object.keys(parsed.data.actions)) {
      if (!(name in vocab.actions)) {
        throw new TypeError(`Action model names action "${name}", which "${vocab.name}" lacks`);
      }
    }
    return new ActionModel(vocab, { ...DEFAULT_ACTION_LEARN_OPTIONS, ...options }, [], parsed.data);
  }

  /**
   * Whether the confirmed rules allow an action now.
   *
   * @param facts The current state.
   * @param actionText The action, e.g. `open door 1`.
   * @returns `{ ok: true }`, or the unmet rules with the arguments
   *   substituted (`near('door 1')`). Actions that match no template,
   *   or whose rules cannot be evaluated, are allowed.
   */
  check(facts: FactView, actionText: string): ActionCheckResult {
    const m = matchAction(this.vocab, actionText);
    const compiled = m && this.#compiled.get(m.action);
    if (!m || !compiled) return { ok: true };
    const unmet: string[] = [];
    for (const rule of compiled.rules) {
      if (!rule.confirmed) continue;
      const r = evalExpr(rule.expr, { vocab: this.vocab, facts, scope: m.args });
      if (r.ok && r.value === false) unmet.push(printExpr(substitute(rule.expr, m.args)));
    }
    return unmet.length === 0 ? { ok: true } : { ok: false, unmet };
  }

  /**
   * The rules of an action, hypotheses included, that are false in `facts`
   * under its arguments, as their lifted texts (`airport(loc_to)`), in the
   * model's order; those that read a predicate of `ignore` are left out
   * (what the goal asks is no reason the world refuses an action).
   *
   * @example Usage
   * ```ts ignore
   * model.falseRules(facts, "fly-airplane a1 l00 p0", goalPredicates(vocab)); // ["airport(loc_to)"]
   * ```
   */
  falseRules(
    facts: FactView,
    actionText: string,
    ignore: ReadonlySet<string> = new Set(),
  ): string[] {
    const m = matchAction(this.vocab, actionText);
    const compiled = m && this.#compiled.get(m.action);
    if (!m || !compiled) return [];
    return compiled.rules.filter((rule) => {
      if ([...callNames(rule.expr)].some((n) => ignore.has(n))) return false;
      const r = evalExpr(rule.expr, { vocab: this.vocab, facts, scope: m.args });
      return r.ok && r.value === false;
    }).map((rule) => rule.text);
  }

  /**
   * The confirmed preconditions of an action unmet in `facts`, as texts with
   * the arguments substituted; empty when it is predicted to succeed or
   * unknown. (The form the interpreter and recovery search take.)
   */
  unmet(facts: FactView, actionText: string): string[] {
    const r = this.check(facts, actionText);
    return r.ok ? [] : r.unmet;
  }

  /**
   * The fact change the action is expected to cause: its learned effects
   * applied to the arguments, keeping only real changes (additions not yet
   * true, removals now true).
   *
   * @param facts The current state.
   * @param actionText The action.
   * @returns The delta, or `undefined` when the action matches no template
   *   or was never seen to succeed with a known fact change.
   */
  predict(facts: FactView, actionText: string): FactDelta | undefined {
    const m = matchAction(this.vocab, actionText);
    const compiled = m && this.#compiled.get(m.action);
    if (!m || !compiled || own(this.#data.actions, m.action)!.observed === 0) return undefined;
    return {
      add: compiled.add.map((e) => ground(e, m.args)).filter((a) => !facts.has(a)),
      remove: compiled.remove.map((e) => ground(e, m.args)).filter((a) => facts.has(a)),
      objects: {},
    };
  }

  /**
   * Whether sending the action would change nothing: it has learned effects,
   * every one of them already holds (going where the agent already is), and
   * it has no numeric argument (an amount always changes a count).
   *
   * @param facts The current state.
   * @param actionText The action.
   */
  satisfied(facts: FactView, actionText: string): boolean {
    const m = matchAction(this.vocab, actionText);
    const compiled = m && this.#compiled.get(m.action);
    if (!m || !compiled || own(this.#data.actions, m.action)!.observed === 0) return false;
    if (compiled.add.length === 0 && compiled.remove.length === 0) return false;
    // Only what the action makes true of its arguments shows its work done: effects on none
    // of them (`not on_results()`), or only removals (`not result(b)`, never true of an
    // option), may hold for reasons of their own, so they never make it a no-op.
    const onArgs = compiled.add.some((e) => e.args.some((a) => "param" in a));
    if (!onArgs) return false;
    // An action with an amount (get 2 x) changes a count: never a no-op.
    if (Object.values(m.args).some((v) => typeof v === "number")) return false;
    return compiled.add.every((e) => facts.has(ground(e, m.args))) &&
      compiled.remove.every((e) => !facts.has(ground(e, m.args)));
  }

  /**
   * The rules of an action: confirmed ones in cover order, then hypotheses.
   *
   * @param action The action (template) name, e.g. `open`.
   */
  rules(action: string): ActionRule[] {
    return (own(this.#data.actions, action)?.rules ?? []).map((r) => ({ ...r }));
  }

  /**
   * The lifted effects of an action, e.g. `{ add: ["is_open(door)"], remove: ["locked(door)"] }`.
   *
   * @param action The action (template) name.
   */
  effects(action: string): { add: string[]; remove: string[] } {
    const e = own(this.#data.actions, action)?.effects;
    return { add: [...(e?.add ?? [])], remove: [...(e?.remove ?? [])] };
  }

  /**
   * The actions with known effects, as look-ahead search plans with them
   * (see {@linkcode ActionSchema}).
   */
  schemas(): ActionSchema[] {
    this.#schemas ??= this.#buildSchemas();
    return this.#schemas;
  }

  #schemas: ActionSchema[] | undefined;

  #buildSchemas(): ActionSchema[] {
    const out: ActionSchema[] = [];
    for (const [action, compiled] of this.#compiled) {
      if (own(this.#data.actions, action)!.observed === 0) continue;
      const pre: LiftedAtom[] = [];
      for (const rule of compiled.rules) {
        if (!rule.confirmed || rule.expr.kind !== "call") continue;
        if (!(rule.expr.name in this.vocab.predicates)) continue;
        const args = rule.expr.args.map((a) =>
          a.kind === "var" ? { param: a.name } : { value: constantValue(a) }
        );
        if (args.some((a) => "value" in a && a.value === undefined)) continue;
        pre.push({ pred: rule.expr.name, args: args as LiftedAtom["args"] });
      }
      out.push({ action, pre, add: compiled.add, remove: compiled.remove });
    }
    return out;
  }

  /**
   * The model with each hypothesis taken for a confirmed rule: what held
   * before every observed use of an action, assumed to be needed. A view to
   * plan a last resort with when no rule is confirmed yet (a model learned
   * from demonstrations alone, which never saw an action rejected).
   *
   * @example Usage
   * ```ts ignore
   * const plan = lookaheadTo(model.assumingHypotheses(), facts, target, holds);
   * ```
   */
  assumingHypotheses(): ActionModel {
    this.#assumed ??= this.#confirming(() => () => true);
    return this.#assumed;
  }
  #assumed: ActionModel | undefined;

  /**
   * The model with only the hypotheses an action's own effects vouch for
   * taken for confirmed rules: what it consumes (an atom it removes held
   * before) and what it makes (an atom it adds did not hold). Weaker than
   * {@linkcode assumingHypotheses}, whose rules also keep what merely
   * happened to hold in every demonstration (only logs were ever equipped,
   * so equipping a plank would need it to be a log): a view to plan for
   * goals the demonstrations never asked, at the risk of actions the
   * environment rejects.
   *
   * @example Usage
   * ```ts ignore
   * const plan = lookaheadTo(model.assumingConsumed(), facts, target, holds);
   * ```
   */
  assumingConsumed(): ActionModel {
    this.#consumed ??= this.#confirming((entry) => {
      const vouched = new Set([
        ...entry.effects.remove,
        ...entry.effects.add.map((a) => `not ${a}`),
      ]);
      return (rule) => vouched.has(rule.text);
    });
    return this.#consumed;
  }
  #consumed: ActionModel | undefined;

  /** A view of the model whose rules are those `keep` takes of each action's, all confirmed. */
  #confirming(
    keep: (entry: ActionEntryData) => (rule: ActionEntryData["rules"][number]) => boolean,
  ): ActionModel {
    return new ActionModel(this.vocab, this.#options, [], {
      ...this.#data,
      actions: Object.fromEntries(
        Object.entries(this.#data.actions).map(([name, entry]) => {
          const rules = entry.rules.filter(keep(entry)).map((r) => ({ ...r, confirmed: true }));
          return [name, { ...entry, rules }];
        }),
      ),
    });
  }

  /** Whether the model started from rules the environment states (see {@linkcode ActionModelData.stated}). */
  get stated(): boolean {
    return this.#data.stated === true;
  }

  /** Names of the actions the model has seen, in vocabulary order. */
  actions(): string[] {
    return Object.keys(this.#data.actions);
  }

  /**
   * A new model learned from this model's transitions plus `transitions`
   * (a restored model, which has none, keeps each earlier rule that no new
   * success contradicts).
   *
   * @param transitions New observed steps.
   */
  update(transitions: readonly Transition[]): ActionModel {
    return new ActionModel(
      this.vocab,
      this.#options,
      [...this.#transitions, ...transitions],
      this.#prior,
    );
  }

  /** The plain data form (the transitions are not included). */
  toJSON(): ActionModelData {
    return structuredClone(this.#data);
  }

  /** Parses and type-checks a rule of `action`; throws a `TypeError` naming it. */
  #rule(action: string, text: string): Expr {
    const expr = this.#parse(action, text, "rule");
    const vars = this.#varTypes(action);
    const checked = checkExpr(expr, { vocab: this.vocab, vars }, text);
    if (!checked.ok || checked.value !== "Bool") {
      const why = checked.ok
        ? `it is ${checked.value}, not Bool`
        : checked.error.map((e) => formatExprError(e)).join("; ");
      throw new TypeError(`Rule "${text}" of action "${action}" does not type-check: ${why}`);
    }
    return expr;
  }

  #compile(action: string, entry: ActionEntryData): Compiled {
    return {
      rules: entry.rules.map((r) => ({
        text: r.text,
        expr: this.#rule(action, r.text),
        confirmed: r.confirmed,
      })),
      add: entry.effects.add.map((t) => this.#effect(action, t)),
      remove: entry.effects.remove.map((t) => this.#effect(action, t)),
    };
  }

  /** Parses an effect: a predicate over parameters and constants. */
  #effect(action: string, text: string): EffectAtom {
    const expr = this.#parse(action, text, "effect");
    const vars = this.#varTypes(action);
    const bad = (why: string) =>
      new TypeError(
        `Effect "${text}" of action "${action}" is not an atom over its parameters: ${why}`,
      );
    if (expr.kind !== "call" || !(expr.name in this.vocab.predicates)) {
      throw bad("expected a predicate call");
    }
    const checked = checkExpr(expr, { vocab: this.vocab, vars }, text);
    if (!checked.ok) throw bad(checked.error.map((e) => formatExprError(e)).join("; "));
    return {
      pred: expr.name,
      args: expr.args.map((a) => {
        if (a.kind === "var") return { param: a.name };
        const value = constantValue(a);
        if (value === undefined) throw bad(`argument "${printExpr(a)}" is not a constant`);
        return { value };
      }),
    };
  }

  #parse(action: string, text: string, what: string): Expr {
    const r = parseExpr(text);
    if (!r.ok) {
      throw new TypeError(
        `The ${what} "${text}" of action "${action}" does not parse: ${formatExprError(r.error)}`,
      );
    }
    return r.value;
  }

  #varTypes(action: string): Record<string, string> {
    return Object.fromEntries(
      (own(this.vocab.actions, action)?.params ?? []).map((p) => [p.name, p.type]),
    );
  }
}

function constantValue(e: Expr): AtomArg | undefined {
  if (e.kind === "str" || e.kind === "num") return e.value;
  if (e.kind === "neg" && e.arg.kind === "num") return -e.arg.value;
  return undefined;
}
