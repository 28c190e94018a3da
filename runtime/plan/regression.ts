/**
 * Goal regression over skill postconditions: when a call fails, which other
 * calls would provide what it was missing?
 *
 * 1. **What the failure names.** The objects of the rejected actions, the
 *    last first (typed by the action's template), the string constants of
 *    the failure diagnosis's condition, then the failed call's own
 *    arguments.
 * 2. **What it was about.** The predicates the failed run evaluated (the
 *    expressions of the nodes it visited, functions counted as the
 *    predicate they are read from), those of the diagnosis, and those of
 *    the failed skill's own postcondition (what it was for).
 * 3. **Producers.** A skill is proposed for a named object when one of its
 *    parameters can be bound to the object, to the object's class (a
 *    predicate `p(T, V)` with one value of value type `V`), or to an object
 *    related to it by a binary predicate between objects of its type
 *    (`member(x, family)`); its other parameters take the failed call's
 *    arguments of the same name and type. Its postcondition must mention
 *    that parameter, share a predicate with the failure (class predicates
 *    aside), and be false now, unless it states a quantity (`count(x) > 0`),
 *    which a second call can increase. A producer that would fail before
 *    its first action in the current facts (a dry run of the pure step) is
 *    dropped.
 *
 * Nothing here knows a domain: everything comes from the vocabulary, the
 * skills' postconditions and the failure.
 *
 * @module
 */
import type { Expr } from "../../dsl/expr/ast.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import { matchAction } from "../../dsl/action.ts";
import type { FactView, Value } from "../../dsl/facts.ts";
import { isAssignable, isObjectType, own, type Vocabulary } from "../../dsl/vocabulary.ts";
import { checkArgs } from "../exec/args.ts";
import type { RunEvent, RunResult } from "../exec/interpreter.ts";
import type { SkillLibrary } from "../store/library.ts";
import { checkPostcondition, postconditionOf } from "../exec/postcondition.ts";
import type { Program } from "../exec/program.ts";
import { initialState, step } from "../exec/step.ts";
import { withValueDomains } from "../exec/value_domains.ts";

/** What regression reads of a failed call. */
export interface FailureView {
  /** The skill as it was run. */
  program: Program;
  /** The arguments of the call. */
  args: Readonly<Record<string, Value>>;
  /** How the run ended. */
  result: RunResult;
  /** The events of the run (nested calls included). */
  events: readonly RunEvent[];
}

/** A proposed subgoal: a call that would provide what a failure missed. */
export interface Subgoal {
  /** The call. */
  call: { skill: string; args: Record<string, Value> };
  /** The object (or value) of the failure it answers. */
  object: string;
  /** How the parameter was bound: to the object, its class, or a related object. */
  via: "object" | "class" | "related";
  /** For `class` and `related`: the predicate used. */
  relation?: string;
  /** Its postcondition already holds: it is proposed to produce more of a quantity. */
  more: boolean;
  /** Its postcondition with the arguments bound. */
  condition: string;
}

/** Options of {@linkcode regressionCandidates}. */
export interface RegressionOptions {
  /** Keys (see `callKey`) of calls not to propose: those on the goal stack or already tried (the failed call is never proposed). */
  exclude?: ReadonlySet<string>;
  /** Most subgoals returned. @default 8 */
  limit?: number;
}

/**
 * The subgoals for a failed call, best first: by how specific the named
 * object is (a rejected action's, the diagnosis's, the call's own), then
 * bound to the object itself, to its class, to related objects. For the
 * object and its class, producers of what is missing come before producers
 * of more of a quantity already there; for related objects (substitutes)
 * it is the other way round, since the failed skill will use the
 * substitute it already holds.
 *
 * @example Usage
 * ```ts ignore
 * const subgoals = regressionCandidates(library, { program, args, result, events }, facts);
 * for (const s of subgoals) console.log(s.call.skill, s.call.args, s.via, s.condition);
 * ```
 */
export function regressionCandidates(
  library: SkillLibrary,
  failure: FailureView,
  facts: FactView,
  options: RegressionOptions = {},
): Subgoal[] {
  const vocab = failure.program.vocab;
  const view = withValueDomains(vocab, facts);
  const context = contextPredicates(failure, vocab);
  // The failed call itself is never its own subgoal.
  const exclude = new Set([
    ...(options.exclude ?? []),
    keyOf({ skill: failure.program.skill.name, args: { ...failure.args } }),
  ]);
  const seen = new Set<string>();
  const found: { subgoal: Subgoal; rank: number; order: number }[] = [];
  for (const named of namedObjects(failure, view.facts, vocab)) {
    for (const program of library.programs()) {
      const post = postconditionOf(program);
      if (typeof post !== "object") continue;
      const postPreds = predicatesOf(post, vocab);
      if (![...postPreds].some((p) => context.has(p) && !isClassPredicate(vocab, p))) continue;
      const mentioned = freeNames(post);
      for (const param of program.skill.params) {
        if (!mentioned.has(param.name)) continue;
        for (const binding of bindingsFor(named, param.type, view.facts, vocab)) {
          const args: Record<string, Value> = { [param.name]: binding.value };
          let complete = true;
          for (const other of program.skill.params) {
            if (other.name === param.name) continue;
            const v = failure.args[other.name];
            const own = failure.program.skill.params.find((p) => p.name === other.name);
            if (v === undefined || own?.type !== other.type) complete = false;
            else args[other.name] = v;
          }
          if (!complete || checkArgs(program.skill.params, args, vocab).length > 0) continue;
          // Two parameters are two roles (a block and what it goes on): one object
          // in both is not a call the demonstrations could have made.
          const values = Object.values(args).filter((v) => typeof v === "string");
          if (new Set(values).size < values.length) continue;
          const call = { skill: program.skill.name, args };
          const key = keyOf(call);
          if (seen.has(key) || exclude.has(key)) continue;
          seen.add(key);
          const check = checkPostcondition(program, args, facts);
          const more = check.holds;
          if (more && !statesQuantity(post, vocab)) continue;
          if (!dryRunActs(program, args, facts)) continue;
          // A substitute already held comes first (the skill will use the one it holds);
          // otherwise what is missing comes before more of what is there.
          const via = binding.via === "object" ? 0 : binding.via === "class" ? 1 : 2;
          const rank = via * 2 + (binding.via === "related" ? (more ? 0 : 1) : more ? 1 : 0);
          found.push({
            subgoal: {
              call,
              object: named.value,
              via: binding.via,
              ...(binding.relation !== undefined ? { relation: binding.relation } : {}),
              more,
              condition: check.condition ?? "",
            },
            rank: named.rank * 10 + rank,
            order: found.length,
          });
        }
      }
    }
  }
  return found
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .slice(0, options.limit ?? 8)
    .map((f) => f.subgoal);
}

/** A canonical key of a call (the same as the planner's `callKey`). */
function keyOf(call: { skill: string; args: Record<string, Value> }): string {
  const args = Object.keys(call.args).sort().map((k) => [k, call.args[k]]);
  return JSON.stringify([call.skill, args]);
}

interface Named {
  value: string;
  type: string;
  /** 0: a rejected action's argument, 1: in the diagnosis, 2: an argument of the call. */
  rank: number;
}

/** The objects and values a failure names, most specific first. */
function namedObjects(failure: FailureView, facts: FactView, vocab: Vocabulary): Named[] {
  const out: Named[] = [];
  const add = (value: Value | undefined, type: string | undefined, rank: number) => {
    if (typeof value !== "string" || type === undefined) return;
    if (!isObjectType(vocab, type) && own(vocab.types, type)?.kind !== "value") return;
    if (out.some((n) => n.value === value)) return;
    out.push({ value, type: facts.typeOf(value) ?? type, rank });
  };
  // Every rejected action, the last first (an earlier one may have been tolerated).
  for (const e of [...failure.events].reverse()) {
    if (e.type !== "observe" || e.rejected === undefined) continue;
    const match = matchAction(vocab, e.action);
    const decl = match ? own(vocab.actions, match.action) : undefined;
    for (const p of decl?.params ?? []) add(match!.args[p.name], p.type, 0);
  }
  const condition = failure.result.diagnosis?.condition;
  if (condition !== undefined) {
    const parsed = parseExpr(condition);
    if (parsed.ok) { for (const s of strings(parsed.value)) add(s, facts.typeOf(s), 1); }
  }
  for (const p of failure.program.skill.params) add(failure.args[p.name], p.type, 2);
  return out;
}

/** The ways a parameter of type `type` can be bound for a named object. */
function bindingsFor(
  named: Named,
  type: string,
  facts: FactView,
  vocab: Vocabulary,
): { value: string; via: Subgoal["via"]; relation?: string }[] {
  const out: { value: string; via: Subgoal["via"]; relation?: string }[] = [];
  const isObject = isObjectType(vocab, named.type);
  if (isObject ? isAssignable(vocab, named.type, type) : named.type === type) {
    out.push({ value: named.value, via: "object" });
  }
  if (!isObject) return out;
  for (const [pred, decl] of Object.entries(vocab.predicates)) {
    if (decl.params.length !== 2) continue;
    const [a, b] = decl.params;
    if (isClassPredicate(vocab, pred) && b === type && isAssignable(vocab, named.type, a)) {
      const atoms = facts.query(pred, [named.value, null]);
      if (atoms.length === 1 && typeof atoms[0].args[1] === "string") {
        out.push({ value: atoms[0].args[1], via: "class", relation: pred });
      }
    }
    // A relation between objects of the named object's own type (a family and its members).
    if (
      isObjectType(vocab, a) && isObjectType(vocab, b) && isAssignable(vocab, named.type, a) &&
      isAssignable(vocab, named.type, b)
    ) {
      const related = [
        ...facts.query(pred, [null, named.value]).map((x) => x.args[0]),
        ...facts.query(pred, [named.value, null]).map((x) => x.args[1]),
      ];
      for (const r of related) {
        if (typeof r !== "string" || r === named.value) continue;
        const rt = facts.typeOf(r);
        if (rt !== undefined && isAssignable(vocab, rt, type)) {
          out.push({ value: r, via: "related", relation: pred });
        }
      }
    }
  }
  return out;
}

/** A class predicate: `p(T, V)` with `T` an object type and `V` a value type. */
function isClassPredicate(vocab: Vocabulary, pred: string): boolean {
  const decl = own(vocab.predicates, pred);
  return decl?.params.length === 2 && isObjectType(vocab, decl.params[0]) &&
    vocab.types[decl.params[1]]?.kind === "value";
}

/** The predicates the failed run evaluated, its diagnosis's, and its skill's postcondition's. */
function contextPredicates(failure: FailureView, vocab: Vocabulary): Set<string> {
  const out = new Set<string>();
  const depth = failure.events.find((e) => e.type === "start")?.depth ?? 0;
  const visited = new Set<string>();
  for (const e of failure.events) {
    if (e.depth === depth && (e.type === "think" || e.type === "act" || e.type === "end")) {
      visited.add(e.node);
    }
  }
  for (const [key, expr] of failure.program.exprs) {
    if (visited.has(key.slice(0, key.indexOf(".")))) {
      for (const p of predicatesOf(expr, vocab)) out.add(p);
    }
  }
  const condition = failure.result.diagnosis?.condition;
  if (condition !== undefined) {
    const parsed = parseExpr(condition);
    if (parsed.ok) { for (const p of predicatesOf(parsed.value, vocab)) out.add(p); }
  }
  // What the failed skill was for: a subgoal of the same kind is about it too.
  const post = postconditionOf(failure.program);
  if (typeof post === "object") { for (const p of predicatesOf(post, vocab)) out.add(p); }
  return out;
}

/** Predicates an expression reads; a function counts as the predicate it is read from. */
function predicatesOf(expr: Expr, vocab: Vocabulary): Set<string> {
  const out = new Set<string>();
  walk(expr, (e) => {
    if (e.kind !== "call") return;
    if (e.name in vocab.predicates) out.add(e.name);
    else {
      const fn = own(vocab.functions, e.name);
      if (fn) out.add(fn.predicate ?? e.name);
    }
  });
  return out;
}

/** Whether an expression compares a function's value (a quantity that can grow). */
function statesQuantity(expr: Expr, vocab: Vocabulary): boolean {
  let found = false;
  walk(expr, (e) => {
    if (e.kind !== "binary" || !["<", ">", "<=", ">="].includes(e.op)) return;
    const isFn = (x: Expr) => x.kind === "call" && own(vocab.functions, x.name) !== undefined;
    if (isFn(e.left) || isFn(e.right)) found = true;
  });
  return found;
}

function freeNames(expr: Expr): Set<string> {
  const out = new Set<string>();
  walk(expr, (e) => {
    if (e.kind === "var") out.add(e.name);
  });
  return out;
}

function strings(expr: Expr): string[] {
  const out: string[] = [];
  walk(expr, (e) => {
    if (e.kind === "str") out.push(e.value);
  });
  return out;
}

function walk(e: Expr, visit: (e: Expr) => void): void {
  visit(e);
  switch (e.kind) {
    case "list":
      for (const item of e.items) walk(item, visit);
      return;
    case "call":
      for (const arg of e.args) walk(arg, visit);
      return;
    case "not":
    case "neg":
      walk(e.arg, visit);
      return;
    case "binary":
      walk(e.left, visit);
      walk(e.right, visit);
      return;
    case "quant":
      if (e.domain.kind === "in") walk(e.domain.list, visit);
      walk(e.body, visit);
      return;
    case "distance":
      for (const c of [e.edge, e.source, e.target]) walk(c, visit);
      return;
    default:
      return;
  }
}

/**
 * The first action (or skill call, as `skill(args)`) a call would take in
 * the current facts, from a dry run of the pure step; `undefined` when it
 * would end first.
 */
export function firstAction(
  program: Program,
  args: Readonly<Record<string, Value>>,
  facts: FactView,
): string | undefined {
  const first = firstStep(program, args, facts);
  if (first === undefined) return undefined;
  return first.kind === "act" ? first.action : `${first.skill}(${JSON.stringify(first.args)})`;
}

/** The first action or skill call a call would make now (see {@linkcode firstAction}). */
export function firstStep(
  program: Program,
  args: Readonly<Record<string, Value>>,
  facts: FactView,
):
  | { kind: "act"; action: string }
  | { kind: "call"; skill: string; args: Record<string, Value> }
  | undefined {
  let state = initialState(program, { ...args });
  for (let i = 0; i < 1000; i++) {
    const out = step(program, state, { facts });
    if (out.kind === "think") {
      state = out.state;
      continue;
    }
    if (out.kind === "act") return { kind: "act", action: out.action };
    if (out.kind === "call") return { kind: "call", skill: out.skill, args: out.args };
    return undefined;
  }
  return undefined;
}

/**
 * Whether two actions are the same up to their numeric arguments (`get 6
 * wool` and `get 4 wool`): the same template on the same objects.
 */
export function sameActionOnObjects(vocab: Vocabulary, a: string, b: string): boolean {
  const x = matchAction(vocab, a);
  const y = matchAction(vocab, b);
  if (!x || !y) return a === b;
  if (x.action !== y.action) return false;
  const decl = own(vocab.actions, x.action)!;
  return decl.params.every((p) => p.type === "Num" || x.args[p.name] === y.args[p.name]);
}

/**
 * Whether a call gets as far as its first action (or skill call, or a
 * success) in the current facts: a dry run of the pure step, which never
 * touches the environment. A call that would fail before acting is no
 * subgoal worth trying.
 */
export function dryRunActs(
  program: Program,
  args: Readonly<Record<string, Value>>,
  facts: FactView,
): boolean {
  let state = initialState(program, { ...args });
  for (let i = 0; i < 1000; i++) {
    const out = step(program, state, { facts });
    if (out.kind === "think") {
      state = out.state;
      continue;
    }
    return out.kind !== "end" || out.outcome === "success";
  }
  return false;
}

/** Whether a skill's postcondition states a quantity (`count(x) > 0`), which more calls can raise. */
export function postconditionStatesQuantity(program: Program): boolean {
  const post = postconditionOf(program);
  return typeof post === "object" && statesQuantity(post, program.vocab);
}
