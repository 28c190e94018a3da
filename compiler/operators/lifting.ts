/**
 * Lifting: replace the constant arguments of an aligned action by
 * expressions that produce, in every recorded situation, the constant the
 * expert used: a parameter or earlier variable, a typed selection bound by a
 * DataOp, a function of the scope, or an amount relative to the quantity the
 * action changes (`need(r, x) - count(x)`: get what is missing). Constants
 * that differ across traces thereby become parameters or typed selections.
 *
 * @module
 */
import type { Expr } from "../../dsl/expr/ast.ts";
import { evalExpr, valueEquals } from "../../dsl/expr/eval.ts";
import { printExpr } from "../../dsl/expr/print.ts";
import { freeVars, renameVars } from "../../dsl/expr/vars.ts";
import { type FactView, formatLiteral, type Value } from "../../dsl/facts.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import { isAssignable, isObjectType, own, type Vocabulary } from "../../dsl/vocabulary.ts";
import { callActions } from "../skill_action.ts";
import type { Stmt } from "../program_tree.ts";
import type { StepRef } from "../instances.ts";
import type { GroundedStep } from "../ground.ts";
import { type Binding, synthesizeBinding } from "../bind.ts";
import { functionTerms } from "../_synth_literals.ts";
import type { ActionRelation } from "../action_relations.ts";

/** One recorded occurrence of the aligned action. */
export interface Occurrence {
  member: number;
  step: StepRef;
  /** The state before the action. */
  facts: FactView;
  /** The grounded step (for the fact change it caused). */
  grounded: GroundedStep;
  /** Values of the variables in scope for this member. */
  scope: Record<string, Value>;
  /** The action is the segment's landmark step. */
  landmark: boolean;
  /** The state after the action, when known. */
  after?: FactView;
}

/** Variables in scope: name -> type, plus the expression each was bound with. */
export interface Scope {
  types: Record<string, string>;
  /** The innermost loop's variable, if inside a loop body. */
  loopVar?: string;
  /** Expression text -> variable, to reuse an existing binding. */
  bound: Map<string, string>;
}

/** The lifted action. */
export interface LiftedAction {
  /** DataOps to run first, then the action (guarded when the amount may be zero). */
  stmts: Stmt[];
  /** New variables and their value per member. */
  values: Map<number, Record<string, Value>>;
  /** New variables' types. */
  types: Record<string, string>;
  /** Why each argument got its expression (for --explain). */
  notes: string[];
}

/**
 * Lifts one aligned action. `names` allocates fresh variable names;
 * `relations` are those the action's arguments stood in whenever it was
 * applied (see `actionRelations`), which every object selection keeps.
 */
export function liftAction(
  action: string,
  occurrences: readonly Occurrence[],
  scope: Scope,
  vocab: Vocabulary,
  names: (base: string) => string,
  relations: readonly ActionRelation[] = [],
): LiftedAction {
  const decl = own(vocab.actions, action)!;
  const binds: Stmt[] = [];
  const values = new Map<number, Record<string, Value>>(
    occurrences.map((o) => [o.member, {}]),
  );
  const types: Record<string, string> = {};
  const notes: string[] = [];
  const args: Record<string, string> = {};
  let guard: string | undefined;
  const localTypes = () => ({ ...scope.types, ...types });
  const memberScope = (o: Occurrence) => ({ ...o.scope, ...values.get(o.member)! });
  // Arguments that already are variables first, so the others can use them.
  const isVar = (name: string) =>
    occurrences.every((o) => {
      const v = o.step.args[name];
      return Object.entries(o.scope).some(([k, x]) => x === v && k in scope.types);
    });
  // Then objects, then numbers: an amount may be relative to an object bound here.
  const rank = (p: { name: string; type: string }) =>
    isVar(p.name) ? 0 : p.type === "Num" || p.type === "Str" ? 2 : 1;
  const ordered = [...decl.params].sort((a, b) => rank(a) - rank(b));
  for (const p of ordered) {
    const examples = occurrences.map((o) => ({
      facts: o.facts,
      scope: memberScope(o),
      target: o.step.args[p.name] as Value,
    }));
    const within = (selection: string, determined: boolean) =>
      withinRelations(selection, p.name, determined, {
        relations,
        params: decl.params,
        args,
        varTypes: localTypes(),
        examples,
        vocab,
      });
    // The landmark action makes the subgoal itself; only preparatory actions
    // top a quantity up to what a later step needs.
    const preparatory = occurrences.every((o) => !o.landmark);
    const relative = p.type === "Num" && preparatory
      ? relativeAmount(occurrences, examples, p.name, localTypes(), vocab)
      : undefined;
    if (relative) {
      args[p.name] = relative.amount;
      guard = relative.guard;
      notes.push(
        `${p.name} := ${relative.amount} (what the action adds to reach the needed amount)`,
      );
      continue;
    }
    const found = synthesizeBinding({ vocab, varTypes: localTypes() }, examples, {
      type: p.type,
      freshVar: names,
    });
    const best = pickBinding(found, examples);
    const first = examples[0].target;
    const objectType = typeof first === "string" ? occurrences[0].facts.typeOf(first) : undefined;
    // No expression fits every example: the one fitting most of them (a
    // value, not an object), so the skill still reproduces those segments
    // and consolidation weighs the rest (MDL).
    const most = !best && objectType === undefined
      ? mostExamples(examples, localTypes(), p.type, vocab)
      : undefined;
    if (most) {
      args[p.name] = most.text;
      notes.push(`${p.name} := ${most.text} (fits ${most.fits} of ${examples.length} examples)`);
      continue;
    }
    if (!best) {
      const sameValue = examples.every((e) => e.target === first);
      if (sameValue && objectType === undefined) {
        // A value (not an object) used everywhere: keep it as a constant.
        args[p.name] = formatLiteral(first);
        notes.push(`${p.name} = ${formatLiteral(first)} (kept as constant)`);
      } else {
        // Never bake an object id (or one example's value) into a skill. An
        // object is a free choice among the parameter's type (the replay
        // picks the expert's, the agent any); another value an expression
        // that reproduces only this example.
        const free = `select_one(x: ${p.type}, true)`;
        const failing = objectType !== undefined && isObjectType(vocab, p.type)
          ? within(free, false) ?? free
          : `select_idx([${formatLiteral(first)}], 1)`;
        const v = names(p.name);
        binds.push({ kind: "bind", var: v, expr: failing });
        types[v] = objectType ?? p.type;
        args[p.name] = v;
        notes.push(
          `${p.name}: no expression selects ${
            formatLiteral(first)
          }; this candidate cannot reproduce it`,
        );
      }
      continue;
    }
    // Intermediate bindings, reusing an identical earlier one.
    const renames = new Map<string, string>();
    // An earlier binding of the same expression is reused only where it still
    // has the value the expression has now: the state may have changed since.
    const current = (
      v: string | undefined,
      wanted: (o: Occurrence, i: number) => Value | undefined,
    ) =>
      v !== undefined &&
      occurrences.every((o, i) => {
        const now = wanted(o, i);
        return now !== undefined && valueEquals(memberScope(o)[v], now);
      });
    for (const s of best.steps) {
      const text = renameText(s.expr, renames);
      const existing = scope.bound.get(text);
      if (existing && current(existing, (o) => evalText(text, o.facts, memberScope(o), vocab))) {
        renames.set(s.var, existing);
        continue;
      }
      const v = names((typeOfSelection(s.expr) ?? s.var).toLowerCase());
      renames.set(s.var, v);
      binds.push({ kind: "bind", var: v, expr: renameText(s.expr, renames) });
      scope.bound.set(text, v);
      types[v] = typeOfSelection(s.expr) ?? "Object";
      for (const o of occurrences) {
        const r = evalText(text, o.facts, memberScope(o), vocab);
        if (r !== undefined) values.get(o.member)![v] = r;
      }
      notes.push(`${v} := ${text}`);
    }
    const text = (best.steps.length === 0 ? within(best.text, best.determined) : undefined) ??
      softChoice(best, renameText(best.expr, renames));
    if (best.expr.kind === "quant" && best.expr.op === "select_one") {
      const bound = scope.bound.get(text);
      const existing = current(bound, (_o, i) => examples[i].target) ? bound : undefined;
      const v = existing ?? names(p.name);
      if (!existing) {
        binds.push({ kind: "bind", var: v, expr: text });
        scope.bound.set(text, v);
        types[v] = occurrences[0].facts.typeOf(String(examples[0].target)) ?? p.type;
        occurrences.forEach((o, i) => values.get(o.member)![v] = examples[i].target);
        notes.push(`${v} := ${text}${best.determined ? "" : " (any candidate; replay picks)"}`);
      }
      args[p.name] = v;
    } else {
      args[p.name] = text;
      if (best.expr.kind !== "var") notes.push(`${p.name} := ${text}`);
    }
  }
  const act: Stmt = { kind: "act", action, args };
  // A call of a skill that raised a quantity of its argument up to what a
  // later step needs is repeated while the quantity falls short (one batch
  // of a recipe may not be enough).
  const repeat = callActions(vocab).has(action)
    ? quantityGuard(occurrences, args, memberScope, { ...scope.types, ...types }, vocab)
    : undefined;
  if (repeat) {
    notes.push(`${action}: repeated while ${repeat}`);
    return {
      stmts: [{ kind: "if", cond: repeat, then: [...binds, act], else: [], repeat: true }],
      values,
      types: {},
      notes,
    };
  }
  const stmts: Stmt[] = guard ? [{ kind: "if", cond: guard, then: [...binds, act], else: [] }] : [
    ...binds,
    act,
  ];
  return { stmts, values, types: guard ? {} : types, notes };
}

/**
 * `f(v) < E` for a call whose argument `v` had `f(v)` below `E` before the
 * call and at least `E` after it, in every occurrence: `f` a numeric
 * function of the argument (`count(item)`), `E` a function of variables in
 * scope (`need(recipe, item)`).
 */
function quantityGuard(
  occurrences: readonly Occurrence[],
  args: Readonly<Record<string, string>>,
  scopeOf: (o: Occurrence) => Record<string, Value>,
  varTypes: Readonly<Record<string, string>>,
  vocab: Vocabulary,
): string | undefined {
  if (occurrences.some((o) => o.after === undefined)) return undefined;
  const numeric = Object.entries(vocab.functions).filter(([, f]) => f.returns === "Num");
  for (const v of Object.values(args)) {
    if (!(v in varTypes)) continue;
    for (const [f, decl] of numeric) {
      if (decl.params.length !== 1 || !isAssignable(vocab, varTypes[v], decl.params[0])) continue;
      const term = `${f}(${v})`;
      const before = occurrences.map((o) => evalText(term, o.facts, scopeOf(o), vocab));
      const after = occurrences.map((o) => evalText(term, o.after!, scopeOf(o), vocab));
      for (const e of functionTerms(vocab, varTypes, "Num", false)) {
        if (e.kind !== "call" || e.name === f || e.args.length > 2) continue;
        if (!e.args.some((a) => a.kind === "var" && a.name === v)) continue;
        const need = printExpr(e);
        const fits = occurrences.every((o, i) => {
          const n = evalText(need, o.facts, scopeOf(o), vocab);
          const b = before[i];
          const a = after[i];
          return typeof n === "number" && typeof b === "number" && typeof a === "number" &&
            b < n && n <= a;
        });
        if (fits) return `${term} < ${need}`;
      }
    }
  }
  return undefined;
}

/**
 * The expression without steps or constants that yields the target in the
 * most examples, tried from each example's own bindings; only when it fits
 * more than half of them.
 */
function mostExamples(
  examples: readonly { facts: FactView; scope: Record<string, Value>; target: Value }[],
  varTypes: Record<string, string>,
  type: string,
  vocab: Vocabulary,
): { text: string; fits: number } | undefined {
  if (examples.length < 3) return undefined;
  const tried = new Set<string>();
  let best: { text: string; fits: number } | undefined;
  for (const e of examples) {
    for (const b of synthesizeBinding({ vocab, varTypes }, [e], { type, limit: 5 })) {
      if (b.steps.length > 0 || b.constants > 0 || !b.determined || tried.has(b.text)) continue;
      tried.add(b.text);
      const fits = examples.filter((x) => {
        const v = evalText(b.text, x.facts, x.scope, vocab);
        return v !== undefined && valueEquals(v, x.target);
      }).length;
      if (!best || fits > best.fits) best = { text: b.text, fits };
    }
    if (tried.size > 40) break;
  }
  return best && best.fits * 2 > examples.length ? best : undefined;
}

/**
 * A free choice among interchangeable objects whose filter is only about
 * the object itself (`water_left(x) > 0`: the expert took a full can) is a
 * preference, not a requirement: `select_one(x: T, P(x) or not exists(y:
 * T, P(y)))` takes such an object when there is one and any object of the
 * type otherwise, where a filter demanding it would fail. A filter relating
 * the object to the scope (`grows_in(plant, x)`) stays as it is.
 */
function softChoice(best: Binding, text: string): string {
  const e = best.expr;
  if (best.determined || best.steps.length > 0) return text;
  if (e.kind !== "quant" || e.op !== "select_one" || e.domain.kind !== "type") return text;
  if (e.body.kind === "bool") return text;
  const outside = [...freeVars(e.body)].filter((v) => v !== e.var);
  if (outside.length > 0) return text;
  const body = printExpr(e.body);
  // A name the body does not use (its own quantifiers included).
  let other = `${e.var}2`;
  for (let k = 3; new RegExp(`\\b${other}\\b`).test(body); k++) other = `${e.var}${k}`;
  const renamed = printExpr(renameVars(e.body, { [e.var]: other }));
  return `select_one(${e.var}: ${e.domain.type}, ${body} or not exists(${other}: ${e.domain.type}, ${renamed}))`;
}

/** What {@linkcode withinRelations} reads. */
interface RelationContext {
  relations: readonly ActionRelation[];
  /** The action's parameters. */
  params: readonly { name: string; type: string }[];
  /** The arguments lifted so far: parameter to expression text. */
  args: Readonly<Record<string, string>>;
  varTypes: Readonly<Record<string, string>>;
  examples: readonly { facts: FactView; scope: Record<string, Value>; target: Value }[];
  vocab: Vocabulary;
}

/**
 * An object selection for an action's argument, kept within the relations
 * the action's arguments always stood in: `select_one(x: T, R and C)`, where
 * `R` relates `x` to the arguments bound before it (and, through `exists`,
 * to those bound after it: a place from which some road leads on to the
 * destination) and `C` is the selection's own filter. `R` is what every
 * application of the action showed; `C`, learned from the examples of this
 * one step, may be a coincidence of them. Where `C` singled out the
 * expert's object in one example only, both are required: an object that
 * meets `C` but not `R` (a detour through a state no road of the action
 * passes) would make the action fail, and where none meets both the
 * choices made before were the wrong ones. Where several examples agree
 * on such a `C`, it is evidence enough and stays as it is. An
 * under-determined `C` (a choice among several) becomes a preference among
 * the related objects, `R and (C or not exists(y: T, R' and C'))`, as
 * `softChoice` makes it; a free choice becomes a choice among them.
 * `undefined` when no relation applies, or when the result would no longer
 * yield each example's target.
 */
function withinRelations(
  selection: string,
  param: string,
  determined: boolean,
  ctx: RelationContext,
): string | undefined {
  // Examples that agree on a determined selection are its evidence enough.
  if (determined && ctx.examples.length > 1) return undefined;
  const parsed = parseExprCached(selection);
  if (!parsed || parsed.kind !== "quant" || parsed.op !== "select_one") return undefined;
  if (parsed.domain.kind !== "type" || ctx.relations.length === 0) return undefined;
  const x = parsed.var;
  const type = parsed.domain.type;
  const typeOf = new Map(ctx.params.map((q) => [q.name, q.type]));
  const bound = (q: string) =>
    q !== param && ctx.args[q] !== undefined && ctx.args[q] in ctx.varTypes;
  const open = (q: string) =>
    q !== param && ctx.args[q] === undefined && isObjectType(ctx.vocab, typeOf.get(q) ?? "");
  const usable = ctx.relations.filter((r) =>
    r.params.every((q) => q === param || bound(q) || open(q))
  );
  // The parameters reached from `param` through relations, in the order first reached.
  const reached = [param];
  for (let grew = true; grew;) {
    grew = false;
    for (const r of usable) {
      if (!r.params.some((q) => reached.includes(q))) continue;
      for (const q of r.params) {
        if (open(q) && !reached.includes(q)) {
          reached.push(q);
          grew = true;
        }
      }
    }
  }
  const body = printExpr(parsed.body);
  const taken = new Set([...Object.keys(ctx.varTypes), ...freeVars(parsed.body), x]);
  const fresh = (base: string) => {
    let name = base;
    for (let k = 2; taken.has(name) || new RegExp(`\\b${name}\\b`).test(body); k++) {
      name = `${base}${k}`;
    }
    taken.add(name);
    return name;
  };
  const other = fresh(`${x}2`);
  const opened = new Map(reached.slice(1).map((q) => [q, fresh(`${x}_${q}`)]));
  const literal = (r: ActionRelation, v: string) =>
    `${r.pred}(${r.params.map((q) => q === param ? v : opened.get(q) ?? ctx.args[q]).join(", ")})`;
  const touching = usable.filter((r) => r.params.some((q) => reached.includes(q)));
  const holds = (text: string) =>
    ctx.examples.every((e) =>
      evalText(text, e.facts, { ...e.scope, [x]: e.target }, ctx.vocab) === true
    );
  const direct = touching.filter((r) => r.params.every((q) => !opened.has(q)))
    .filter((r) => holds(literal(r, x)));
  const through = touching.filter((r) => r.params.some((q) => opened.has(q)));
  const existential = (v: string) =>
    [...opened].reduceRight(
      (inner, [q, name]) => `exists(${name}: ${typeOf.get(q)}, ${inner})`,
      through.map((r) => literal(r, v)).join(" and "),
    );
  // Through arguments bound later only when that leads to one bound already.
  const reach = through.some((r) => r.params.some(bound)) && holds(existential(x));
  const relatedLiterals = (v: string) => [
    ...direct.map((r) => literal(r, v)),
    ...(reach ? [existential(v)] : []),
  ];
  const related = (v: string) => relatedLiterals(v).join(" and ");
  const required = relatedLiterals(x);
  const conjuncts = conjunctTexts(parsed.body);
  // Nothing the filter does not already ask.
  if (required.every((r) => conjuncts.includes(r))) return undefined;
  // The filter's own conjuncts that are not among the relations: the preference.
  const preferred = conjuncts.filter((c) => c !== "true" && !required.includes(c));
  const rename = (c: string) => printExpr(renameVars(parseExprCached(c)!, { [x]: other }));
  const text = preferred.length === 0 || determined
    ? `select_one(${x}: ${type}, ${[related(x), ...preferred].join(" and ")})`
    : `select_one(${x}: ${type}, ${related(x)} and ((${
      preferred.join(" and ")
    }) or not exists(${other}: ${type}, ${related(other)} and (${
      preferred.map(rename).join(" and ")
    }))))`;
  const checked = parseExprCached(text);
  if (!checked) return undefined;
  // Still each example's target (the preference held for it, and so did the relations).
  const yields = ctx.examples.every((e) => {
    const v = evalText(text, e.facts, e.scope, ctx.vocab);
    return v !== undefined && valueEquals(v, e.target);
  });
  const exact = ctx.examples.every((e) => {
    const v = evalText(selection, e.facts, e.scope, ctx.vocab);
    return v !== undefined && valueEquals(v, e.target);
  });
  return yields || !exact ? printExpr(checked) : undefined;
}

/** The top-level conjuncts of an expression, printed. */
function conjunctTexts(e: Expr): string[] {
  return e.kind === "binary" && e.op === "and"
    ? [...conjunctTexts(e.left), ...conjunctTexts(e.right)]
    : [printExpr(e)];
}

/**
 * The required form of a preferring choice (see `softChoice` and
 * `withinRelations`): `select_one(x: T, P or not exists(y: T, P'))` gives
 * `select_one(x: T, P)`, and `select_one(x: T, R and (P or not exists(y: T,
 * R' and P')))` gives `select_one(x: T, R and P)`; any other expression is
 * returned as it is.
 */
export function hardChoice(e: Expr): Expr {
  if (e.kind !== "quant" || e.op !== "select_one" || e.body.kind !== "binary") return e;
  if (e.domain.kind !== "type") return e;
  const required = (body: Expr, within?: Expr): Expr | undefined => {
    if (body.kind !== "binary" || body.op !== "or") return undefined;
    const { left, right } = body;
    if (right.kind !== "not" || right.arg.kind !== "quant") return undefined;
    if (right.arg.op !== "exists" || right.arg.domain.kind !== "type") return undefined;
    if (e.domain.kind !== "type" || right.arg.domain.type !== e.domain.type) return undefined;
    const back = renameVars(right.arg.body, { [right.arg.var]: e.var });
    const wanted: Expr = within ? { ...body, op: "and", left: within, right: left } : left;
    return printExpr(back) === printExpr(wanted) ? wanted : undefined;
  };
  // `P or not exists(y: T, P')`, and kept within relations (`withinRelations`):
  // `R and (P or not exists(y: T, R' and P'))`.
  const body = required(e.body) ??
    (e.body.op === "and" ? required(e.body.right, e.body.left) : undefined);
  return body ? { ...e, body } : e;
}

/**
 * Prefers determined bindings; an under-determined one only if nothing
 * determined exists; never a literal naming an object.
 */
function pickBinding(
  found: Binding[],
  examples: { facts: FactView; target: Value }[],
): Binding | undefined {
  const usable = found.filter((b) =>
    !(b.expr.kind === "str" &&
      examples.some((e) => e.facts.typeOf(b.expr.kind === "str" ? b.expr.value : "") !== undefined))
  );
  return usable.find((b) => b.determined) ?? usable[0];
}

/**
 * A numeric argument that equals the change the action makes to a function
 * of its other arguments (`get 3 x` raises `count(x)` by 3) is lifted as
 * `E - f(x)`, where `E` explains the value after the action; the action is
 * then guarded by `f(x) < E` (never ask for a zero or negative amount).
 */
function relativeAmount(
  occurrences: readonly Occurrence[],
  examples: { facts: FactView; scope: Record<string, Value>; target: Value }[],
  param: string,
  varTypes: Record<string, string>,
  vocab: Vocabulary,
): { amount: string; guard: string } | undefined {
  for (const [fname, fdecl] of Object.entries(vocab.functions)) {
    if (fdecl.returns !== "Num") continue;
    // The object argument of f among the action's arguments, bound to a variable.
    const first = occurrences[0];
    for (const [argName, argValue] of Object.entries(first.step.args)) {
      if (argName === param || typeof argValue !== "string") continue;
      const varName = Object.entries(first.scope).find(([, v]) => v === argValue)?.[0];
      if (!varName || fdecl.params.length !== 1) continue;
      const afterValues: Value[] = [];
      let ok = true;
      for (const o of occurrences) {
        const obj = o.step.args[argName];
        if (o.scope[varName] !== obj) {
          ok = false;
          break;
        }
        const before = valueOf(o.facts, fdecl.predicate, obj, fdecl.default);
        const added = o.grounded.delta.add.find((a) =>
          a.pred === fdecl.predicate && a.args[0] === obj
        );
        const after = added ? added.args[added.args.length - 1] : undefined;
        if (typeof before !== "number" || typeof after !== "number") {
          ok = false;
          break;
        }
        if (after - before !== o.step.args[param]) {
          ok = false;
          break;
        }
        afterValues.push(after);
      }
      if (!ok) continue;
      const targets = examples.map((e, i) => ({ ...e, target: afterValues[i] }));
      const found = synthesizeBinding({ vocab, varTypes }, targets, { type: "Num" })
        .filter((b) => b.determined && b.steps.length === 0 && b.constants === 0);
      const e = found.find((b) => !printExpr(b.expr).includes(`${fname}(${varName})`));
      if (!e) continue;
      const current = `${fname}(${varName})`;
      return { amount: `${e.text} - ${current}`, guard: `${current} < ${e.text}` };
    }
  }
  return undefined;
}

function valueOf(
  facts: FactView,
  pred: string,
  obj: string | number,
  fallback: string | number | boolean | undefined,
): Value | undefined {
  const atom = facts.query(pred, [obj, null])[0];
  return atom ? atom.args[atom.args.length - 1] : fallback;
}

function typeOfSelection(e: Expr): string | undefined {
  return e.kind === "quant" && e.domain.kind === "type" ? e.domain.type : undefined;
}

function renameText(e: Expr, renames: Map<string, string>): string {
  return printExpr(renames.size === 0 ? e : renameVars(e, Object.fromEntries(renames)));
}

/** Evaluates an expression text; undefined when it fails. */
export function evalText(
  text: string,
  facts: FactView,
  scope: Record<string, Value>,
  vocab: Vocabulary,
): Value | undefined {
  const parsed = parseExprCached(text);
  if (!parsed) return undefined;
  const r = evalExpr(parsed, { vocab, facts, scope });
  return r.ok ? r.value : undefined;
}

const cache = new Map<string, Expr | null>();
function parseExprCached(text: string): Expr | undefined {
  if (!cache.has(text)) {
    const r = parseExpr(text);
    cache.set(text, r.ok ? r.value : null);
  }
  return cache.get(text) ?? undefined;
}
