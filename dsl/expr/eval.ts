/**
 * The evaluator: computes an expression's value over a fact store and a
 * scope of variable values. Evaluation is deterministic (domains come in
 * fact-store order) except where the caller's `choose` hook picks among the
 * candidates of a `select_one`.
 *
 * @module
 */
import { childExprs, type Expr, type Span } from "./ast.ts";
import { type ExprError, exprError } from "./errors.ts";
import { printExpr } from "./print.ts";
import { freeVars } from "./vars.ts";
import { err, ok, type Result } from "../result.ts";
import { type AtomArg, type FactView, formatLiteral, type Value } from "../facts.ts";
import { isObjectType, own, subtypesOf, type Vocabulary } from "../vocabulary.ts";

/** Everything evaluation reads. */
export interface EvalEnv {
  /** Predicates, functions and the type hierarchy. */
  vocab: Vocabulary;
  /** The facts that predicates and functions are read from. */
  facts: FactView;
  /** Values of the variables in scope. */
  scope: Readonly<Record<string, Value>>;
  /** The expression text, for error lines and columns. */
  source?: string;
  /**
   * Picks the result of a `select_one` among ALL candidates that satisfy its
   * body (in domain order); `undefined` falls back to the first. A
   * consistency checker uses it to take the choice that matches an expert.
   */
  choose?: (candidates: Value[], expr: Expr) => Value | undefined;
  /**
   * Work allowed for one evaluation, counted in quantifier iterations (each
   * candidate a quantifier tries is one unit): nested quantifiers multiply,
   * and an expression that would run longer fails with an error saying so.
   * @default {@linkcode DEFAULT_EVAL_BUDGET}
   */
  budget?: number;
}

/** Quantifier iterations one evaluation may take by default (about a second of work). */
export const DEFAULT_EVAL_BUDGET = 2_000_000;

/**
 * Evaluates an expression.
 *
 * @param expr The expression.
 * @param env Vocabulary, facts, scope and optional `choose` hook.
 * @returns The value, or the first error with the span of the failing node.
 *
 * @example Usage
 * ```ts
 * import { parseExpr } from "./parse.ts";
 * import { evalExpr } from "./eval.ts";
 * import { FactStore } from "../../runtime/fact_store.ts";
 * const vocab = {
 *   name: "demo",
 *   types: { Item: { kind: "object" as const } },
 *   predicates: { holds: { params: ["Item"] } },
 *   functions: {},
 *   actions: {},
 * };
 * const facts = new FactStore([{ pred: "holds", args: ["b"] }], { a: "Item", b: "Item" });
 * const r = parseExpr("select_one(x: Item, holds(x))");
 * console.log(r.ok && evalExpr(r.value, { vocab, facts, scope: {} })); // { ok: true, value: "b" }
 * ```
 */
export function evalExpr(expr: Expr, env: EvalEnv): Result<Value, ExprError> {
  try {
    return ok(new Evaluator(env).evaluate(expr, new RootScope(env.scope)));
  } catch (e) {
    if (e instanceof EvalFailure) return err(e.error);
    throw e;
  }
}

/**
 * Thrown inside the evaluator to unwind at the first error; it never escapes
 * {@linkcode evalExpr}. Exceptions thrown by the `choose` hook pass through.
 * No `Error`: synthesis evaluates candidates that fail often, and capturing
 * a stack each time was the evaluator's largest cost.
 */
class EvalFailure {
  constructor(readonly error: ExprError) {}
}

/** The variables in scope: read, never copied (a quantifier adds a frame). */
interface Scope {
  get(name: string): Value | undefined;
  has(name: string): boolean;
}

/** The caller's variables. */
class RootScope implements Scope {
  constructor(readonly vars: Readonly<Record<string, Value>>) {}
  get(name: string): Value | undefined {
    return Object.hasOwn(this.vars, name) ? this.vars[name] : undefined;
  }
  has(name: string): boolean {
    return Object.hasOwn(this.vars, name);
  }
}

/** One more variable over an outer scope; its value is set as the quantifier runs. */
class Frame implements Scope {
  value: Value | undefined;
  constructor(readonly outer: Scope, readonly name: string) {}
  get(name: string): Value | undefined {
    return name === this.name ? this.value : this.outer.get(name);
  }
  has(name: string): boolean {
    return name === this.name ? this.value !== undefined : this.outer.has(name);
  }
}

/**
 * What evaluations keep between them, since a skill's conditions are
 * evaluated again and again over facts whose objects rarely change (a
 * fact store hands out the same array for a type until one is declared):
 * each list's places, each view's merged domains, each vocabulary's
 * subtypes.
 */
const placesIn = new WeakMap<readonly Value[], Map<Value, number>>();
const mergedDomains = new WeakMap<
  FactView,
  Map<string, { parts: readonly (readonly string[])[]; list: readonly string[] }>
>();
const subtypeLists = new WeakMap<Vocabulary, Map<string, string[]>>();

/** `subtypesOf`, once per vocabulary and type. */
function subtypesCached(vocab: Vocabulary, type: string): string[] {
  let byType = subtypeLists.get(vocab);
  if (byType === undefined) subtypeLists.set(vocab, byType = new Map());
  let list = byType.get(type);
  if (list === undefined) byType.set(type, list = subtypesOf(vocab, type));
  return list;
}

/**
 * Shortest paths kept across evaluations (see {@linkcode Evaluator}'s
 * `sharedDistances`): per vocabulary, per graph, per versions of what its
 * edge reads, per scope and target. A skill's conditions ask for the same
 * distances over a map whose predicates rarely change, at every step and
 * every simulated step.
 */
const keptDistances = new WeakMap<
  Vocabulary,
  Map<string, Map<string, Map<string, Map<Value, number>>>>
>();
/** Closed quantifiers' values kept across evaluations, like distances. */
const keptClosed = new WeakMap<Vocabulary, Map<string, Map<string, Value>>>();

/** An expression's text; kept per expression. */
function printedOf(e: Expr): string {
  let text = printedTexts.get(e);
  if (text === undefined) printedTexts.set(e, text = printExpr(e));
  return text;
}
const printedTexts = new WeakMap<Expr, string>();

/** Versions of one graph (or closed quantifier) kept at most; beyond, the oldest goes. */
const KEPT_VERSIONS = 16;

/**
 * What `store` keeps for `vocab`, `key` and `versions`, made by `make`
 * where nothing is kept yet (the key's oldest version goes past
 * `KEPT_VERSIONS`).
 */
function keptEntry<T>(
  store: WeakMap<Vocabulary, Map<string, Map<string, T>>>,
  vocab: Vocabulary,
  key: string,
  versions: string,
  make: () => T,
): T {
  let byKey = store.get(vocab);
  if (!byKey) store.set(vocab, byKey = new Map());
  let byVersions = byKey.get(key);
  if (!byVersions) byKey.set(key, byVersions = new Map());
  let kept = byVersions.get(versions);
  if (kept === undefined) {
    kept = make();
    if (byVersions.size >= KEPT_VERSIONS) byVersions.delete(byVersions.keys().next().value!);
    byVersions.set(versions, kept);
  }
  return kept;
}

/**
 * The predicates an expression reads (a distance's edge condition, a
 * closed quantifier; a function through its predicate), sorted;
 * `undefined` when it names one the vocabulary does not know or picks
 * with `select_one` (which a `choose` hook may steer).
 */
function predicatesRead(e: Expr, vocab: Vocabulary): readonly string[] | undefined {
  let byVocab = predicatesReadOf.get(e);
  if (byVocab === undefined) predicatesReadOf.set(e, byVocab = new WeakMap());
  if (byVocab.has(vocab)) return byVocab.get(vocab)!;
  const preds = new Set<string>();
  let known = true;
  const visit = (x: Expr) => {
    if (x.kind === "call" && x.name !== "len" && x.name !== "select_idx") {
      if (own(vocab.predicates, x.name)) preds.add(x.name);
      else {
        const fn = own(vocab.functions, x.name);
        if (fn) preds.add(fn.predicate);
        else known = false;
      }
    }
    if (x.kind === "quant" && x.op === "select_one") known = false;
    childExprs(x).forEach(visit);
  };
  visit(e);
  const out = known ? [...preds].sort() : undefined;
  byVocab.set(vocab, out);
  return out;
}
const predicatesReadOf = new WeakMap<Expr, WeakMap<Vocabulary, readonly string[] | undefined>>();

/** Each `distance` node's graph as text: its node type, variables and edge. */
const graphKeys = new WeakMap<Expr, string>();

/**
 * The key of a `distance` node's graph: nodes with the same one (a rule
 * comparing the distances of two places to a target) share their searches.
 */
function graphKey(e: Extract<Expr, { kind: "distance" }>): string {
  let key = graphKeys.get(e);
  if (key === undefined) {
    graphKeys.set(e, key = [e.type, e.from, e.to, printExpr(e.edge)].join("\u0001"));
  }
  return key;
}

class Evaluator {
  readonly #budget: number;
  /** Quantifier iterations left of the budget. */
  #left: number;
  constructor(readonly env: EvalEnv) {
    this.#budget = this.#left = env.budget ?? DEFAULT_EVAL_BUDGET;
  }

  fail(span: Span, message: string): never {
    throw new EvalFailure(exprError("eval", message, span, this.env.source ?? ""));
  }

  evaluate(e: Expr, scope: Scope): Value {
    switch (e.kind) {
      case "num":
      case "str":
      case "bool":
        return e.value;
      case "var": {
        const v = scope.get(e.name);
        return v === undefined ? this.fail(e.span, `Unknown variable "${e.name}"`) : v;
      }
      case "list":
        return e.items.map((item) => this.evaluate(item, scope));
      case "call":
        return this.call(e, scope);
      case "not":
        return !this.bool(e.arg, scope, `"not" needs a boolean`);
      case "neg":
        return -this.num(e.arg, scope, `Unary "-" needs a number`);
      case "binary":
        return this.binary(e, scope);
      case "quant":
        return this.quant(e, scope);
      case "distance":
        return this.distance(e, scope);
    }
  }

  private bool(e: Expr, scope: Scope, what: string): boolean {
    const v = this.evaluate(e, scope);
    return typeof v === "boolean" ? v : this.fail(e.span, `${what} but got ${formatLiteral(v)}`);
  }

  private num(e: Expr, scope: Scope, what: string): number {
    const v = this.evaluate(e, scope);
    return typeof v === "number" ? v : this.fail(e.span, `${what} but got ${formatLiteral(v)}`);
  }

  private list(e: Expr, scope: Scope, what: string): Value[] {
    const v = this.evaluate(e, scope);
    return Array.isArray(v) ? v : this.fail(e.span, `${what} but got ${formatLiteral(v)}`);
  }

  private call(e: Extract<Expr, { kind: "call" }>, scope: Scope): Value {
    if (e.name === "len" || e.name === "select_idx") return this.builtin(e, scope);
    const pred = own(this.env.vocab.predicates, e.name);
    const fn = pred ? undefined : own(this.env.vocab.functions, e.name);
    if (!pred && !fn) this.fail(e.span, `Unknown predicate "${e.name}"`);
    const params = (pred ?? fn)!.params;
    if (params.length !== e.args.length) {
      const what = pred ? "Predicate" : "Function";
      this.fail(
        e.span,
        `${what} "${e.name}" expects ${plural(params.length)} but got ${e.args.length}`,
      );
    }
    const args = e.args.map((a, i): AtomArg => {
      const v = this.evaluate(a, scope);
      if (typeof v === "string" || typeof v === "number") return v;
      return this.fail(
        a.span,
        `Argument ${i + 1} of "${e.name}" must be a string or number but is ${formatLiteral(v)}`,
      );
    });
    if (pred) return this.env.facts.has({ pred: e.name, args });
    const atom = this.env.facts.query(fn!.predicate, [...args, null])[0];
    if (atom && atom.args.length > args.length) return atom.args[atom.args.length - 1];
    if (fn!.default !== undefined) return fn!.default;
    return this.fail(e.span, `No value for ${e.name}(${args.map(formatLiteral).join(", ")})`);
  }

  private builtin(e: Extract<Expr, { kind: "call" }>, scope: Scope): Value {
    const arity = e.name === "len" ? 1 : 2;
    if (e.args.length !== arity) {
      this.fail(e.span, `"${e.name}" expects ${plural(arity)} but got ${e.args.length}`);
    }
    const items = this.list(e.args[0], scope, `Argument 1 of "${e.name}" must be a list`);
    if (e.name === "len") return items.length;
    const n = this.num(e.args[1], scope, `Argument 2 of "select_idx" must be a number`);
    if (!Number.isInteger(n) || n < 0 || n >= items.length) {
      this.fail(
        e.span,
        `Index ${n} of select_idx is out of range for a list of ${items.length} item${
          items.length === 1 ? "" : "s"
        }`,
      );
    }
    return items[n];
  }

  private binary(e: Extract<Expr, { kind: "binary" }>, scope: Scope): Value {
    switch (e.op) {
      case "and":
        return this.bool(e.left, scope, `"and" needs booleans`) &&
          this.bool(e.right, scope, `"and" needs booleans`);
      case "or":
        return this.bool(e.left, scope, `"or" needs booleans`) ||
          this.bool(e.right, scope, `"or" needs booleans`);
      case "==":
        return valueEquals(this.evaluate(e.left, scope), this.evaluate(e.right, scope));
      case "!=":
        return !valueEquals(this.evaluate(e.left, scope), this.evaluate(e.right, scope));
    }
    const what = `"${e.op}" needs numbers`;
    const a = this.num(e.left, scope, what);
    const b = this.num(e.right, scope, what);
    switch (e.op) {
      case "<":
        return a < b;
      case ">":
        return a > b;
      case "<=":
        return a <= b;
      case ">=":
        return a >= b;
      case "+":
        return a + b;
      case "-":
        return a - b;
      case "*":
        return a * b;
      case "/":
        return b === 0 ? this.fail(e.span, `Division by zero in ${printExpr(e)}`) : a / b;
    }
  }

  /**
   * Distances to a target, per graph (`distance` nodes with the same
   * nodes and edge share one), per scope of its edge and target.
   */
  readonly #distances = new Map<string, Map<string, Map<Value, number>>>();

  /**
   * A `distance`: shortest path lengths to the target are found once per
   * evaluation, by a search backwards from it (each step's predecessors are
   * the nodes the edge condition admits, looked up through an atom of it
   * where one narrows them), and shared by every start asked about.
   */
  private distance(e: Extract<Expr, { kind: "distance" }>, scope: Scope): number {
    const target = this.evaluate(e.target, scope);
    const source = this.evaluate(e.source, scope);
    const key = [
      ...freeScope(e.edge, scope, [e.from, e.to]),
      formatLiteral(target),
    ].join("\u0001");
    const graph = graphKey(e);
    let byScope = this.#distances.get(graph);
    if (!byScope) this.#distances.set(graph, byScope = this.sharedDistances(e, graph));
    let dist = byScope.get(key);
    if (!dist) {
      dist = this.shortestTo(e, scope, target);
      byScope.set(key, dist);
    }
    return dist.get(source) ?? this.domainOf(e.type).length;
  }

  /**
   * The distances of a graph, per scope and target, for this evaluation:
   * those kept for the versions of the objects and of every predicate its
   * edge reads, when the facts have versions and the edge reads only
   * predicates (the facts do not change while an expression is evaluated);
   * else a map of its own.
   */
  private sharedDistances(
    e: Extract<Expr, { kind: "distance" }>,
    graph: string,
  ): Map<string, Map<Value, number>> {
    const versions = this.versionsRead(e.edge);
    if (versions === undefined) return new Map();
    return keptEntry(keptDistances, this.env.vocab, graph, versions, () => new Map());
  }

  /**
   * The versions of the objects and of every predicate `e` reads, as a
   * key; `undefined` when the facts have no versions or `e` reads more
   * than predicates (see `predicatesRead`).
   */
  private versionsRead(e: Expr): string | undefined {
    const { facts, vocab } = this.env;
    const preds = facts.version === undefined ? undefined : predicatesRead(e, vocab);
    if (preds === undefined) return undefined;
    return [facts.version!(), ...preds.map((p) => facts.version!(p))].join(",");
  }

  private shortestTo(
    e: Extract<Expr, { kind: "distance" }>,
    scope: Scope,
    target: Value,
  ): Map<Value, number> {
    const nodes = this.domainOf(e.type);
    const dist = new Map<Value, number>([[target, 0]]);
    const to = new Frame(scope, e.to);
    const inner = new Frame(to, e.from);
    // Predecessors: the `from` candidates with the `to` node bound.
    const probe: Extract<Expr, { kind: "quant" }> = {
      kind: "quant",
      op: "select_all",
      var: e.from,
      domain: { kind: "type", type: e.type },
      body: e.edge,
      span: e.span,
    };
    let frontier: Value[] = [target];
    while (frontier.length > 0) {
      const next: Value[] = [];
      for (const v of frontier) {
        to.value = v;
        inner.value = undefined;
        const d = dist.get(v)! + 1;
        for (const u of this.narrow(probe, inner, nodes)) {
          if (dist.has(u)) continue;
          if (--this.#left < 0) {
            this.fail(
              e.span,
              `Evaluation budget exceeded: more than ${this.#budget} steps of "distance"`,
            );
          }
          inner.value = u;
          if (!this.bool(e.edge, inner, `The edge condition of "distance" must be a boolean`)) {
            continue;
          }
          dist.set(u, d);
          next.push(u);
        }
      }
      frontier = next;
    }
    return dist;
  }

  /**
   * The objects of a type (subtypes included), in a deterministic order;
   * computed once per evaluation (nested quantifiers ask again and again).
   * Not to be changed by the caller.
   */
  private domainOf(type: string): readonly string[] {
    return this.typeDomain(type).list;
  }

  /** Each object's place in `domainOf(type)`. */
  private domainIndex(type: string): Map<Value, number> {
    const { list } = this.typeDomain(type);
    let index = placesIn.get(list);
    if (index === undefined) placesIn.set(list, index = new Map(list.map((x, i) => [x, i])));
    return index;
  }

  /**
   * A type's objects, found on first use: the facts' own list where the
   * type has no subtypes, else the lists of its subtypes merged (kept per
   * facts while those lists are the same arrays).
   */
  private typeDomain(type: string): { list: readonly string[] } {
    let d: { list: readonly string[] } | undefined = this.#domains.get(type);
    if (d === undefined) {
      const types = subtypesCached(this.env.vocab, type);
      const facts = this.env.facts;
      if (types.length === 1) d = { list: facts.objectsOfType(type) };
      else {
        const parts = types.map((t) => facts.objectsOfType(t));
        let merged = mergedDomains.get(facts);
        if (merged === undefined) mergedDomains.set(facts, merged = new Map());
        const kept = merged.get(type);
        if (kept !== undefined && kept.parts.every((p, i) => p === parts[i])) d = kept;
        else {
          // A view may list an object under a type and a supertype.
          const fresh = { parts, list: [...new Set(parts.flat())] };
          merged.set(type, fresh);
          d = fresh;
        }
      }
      this.#domains.set(type, d);
    }
    return d;
  }
  readonly #domains = new Map<string, { list: readonly string[] }>();

  /**
   * The candidates in `allowed`, in the candidates' order: found from the
   * few allowed ones when the candidates are a type's domain (`type`) and
   * many, rather than by going through them all.
   */
  private keep(candidates: readonly Value[], allowed: ReadonlySet<Value>, type?: string): Value[] {
    if (type === undefined || allowed.size * 4 > candidates.length) {
      return candidates.filter((x) => allowed.has(x));
    }
    const index = this.domainIndex(type);
    return [...allowed].filter((x) => index.has(x)).sort((a, b) => index.get(a)! - index.get(b)!);
  }

  /**
   * The candidates that can satisfy the body: when a conjunct of the body
   * is an atom over the bound variable whose other arguments are known,
   * only the objects the facts hold it of (in the domain's order, so the
   * result is what trying every candidate would give, found faster). An
   * atom inside an `exists` of the body narrows as well, its own variable
   * matching anything (`exists(d: dir, move(u, v, d))`: the `u` some move
   * leads from to `v`).
   */
  private narrow(
    e: Extract<Expr, { kind: "quant" }>,
    scope: Scope,
    candidates: readonly Value[],
  ): readonly Value[] {
    if (candidates.length < NARROW_FROM) return candidates;
    // Atoms with a known argument first; those with none only where no such atom says.
    const allowed = this.allowedBy(e.body, e.var, scope, new Set(), false) ??
      this.allowedBy(e.body, e.var, scope, new Set(), true);
    if (allowed === undefined) return candidates;
    // The candidates are the type's own objects, in its order.
    const type = e.domain.kind === "type" && candidates === this.#domains.get(e.domain.type)?.list
      ? e.domain.type
      : undefined;
    return this.keep(candidates, allowed, type);
  }

  /**
   * The values of `target` that can make `e` true, as far as its atoms say
   * (`undefined`: none says): a conjunction what its first atom that says
   * allows (when that is many, narrowed by its atoms with a known
   * argument), or else its first other conjunct that says; a disjunction
   * the values each disjunct allows (when every one does); an atom the
   * facts that match it; an `exists` its body, with the `hidden` variables
   * (those of the quantifiers passed) matching anything. An atom whose other arguments
   * all match anything (`at(k, x)`, `k` hidden) says only with `wild`, and
   * is looked up once per evaluation: it allows much, and at a price.
   */
  private allowedBy(
    e: Expr,
    target: string,
    scope: Scope,
    hidden: ReadonlySet<string>,
    wild: boolean,
  ): Set<Value> | undefined {
    if (e.kind === "binary" && e.op === "or") {
      const union = new Set<Value>();
      for (const d of disjuncts(e)) {
        const part = this.allowedBy(d, target, scope, hidden, wild);
        if (part === undefined) return undefined;
        for (const v of part) union.add(v);
      }
      return union;
    }
    if (e.kind === "binary" && e.op === "and") {
      const all = conjuncts(e);
      // What the first atom that says allows; when that is many, only those
      // the atoms with a known argument allow as well (`location(l) and
      // at(plane, l)`: the plane's one place, not every place).
      let both: Set<Value> | undefined;
      let first: Expr | undefined;
      for (const c of all) {
        if (c.kind !== "call") continue;
        both = this.allowedBy(c, target, scope, hidden, wild);
        if (both !== undefined) {
          first = c;
          break;
        }
      }
      for (const c of all) {
        // Fewer than that are tried in full sooner than looked up further.
        if (both === undefined || both.size < NARROW_FROM) break;
        if (c === first || c.kind !== "call" || !knowsArgument(c, target, scope, hidden)) continue;
        const part = this.allowedBy(c, target, scope, hidden, wild);
        if (part !== undefined) both = intersection(both, part);
      }
      if (both !== undefined) return both;
      for (const c of all) {
        if (c.kind === "call") continue;
        const part = this.allowedBy(c, target, scope, hidden, wild);
        if (part !== undefined) return part;
      }
      return undefined;
    }
    if (e.kind === "quant" && e.op === "exists" && e.var !== target) {
      return this.allowedBy(e.body, target, scope, new Set([...hidden, e.var]), wild);
    }
    if (e.kind !== "call" || !own(this.env.vocab.predicates, e.name)) return undefined;
    const at: number[] = [];
    const pattern: (AtomArg | null)[] = [];
    let known = false;
    let open = false;
    for (const [i, a] of e.args.entries()) {
      if (a.kind === "var" && a.name === target && !hidden.has(a.name)) {
        at.push(i);
        pattern.push(null);
      } else if (a.kind === "var" && hidden.has(a.name)) {
        pattern.push(null);
        open = true;
      } else if (a.kind === "var" && scope.has(a.name)) {
        const v = scope.get(a.name);
        if (typeof v !== "string" && typeof v !== "number") return undefined;
        pattern.push(v);
        known = true;
      } else if (a.kind === "str" || a.kind === "num") {
        pattern.push(a.value);
        known = true;
      } else return undefined;
    }
    if (at.length === 0) return undefined;
    const looseKey = open && !known ? `${e.name}\u0001${at.join(",")}` : undefined;
    if (looseKey !== undefined) {
      if (!wild) return undefined;
      const kept = this.#loose.get(looseKey);
      if (kept !== undefined) return kept;
    }
    const allowed = new Set<Value>();
    for (const atom of this.env.facts.query(e.name, pattern)) {
      const v = atom.args[at[0]];
      if (at.every((i) => atom.args[i] === v)) allowed.add(v);
    }
    if (looseKey !== undefined) this.#loose.set(looseKey, allowed);
    return allowed;
  }
  /** The values atoms with no known argument allow, per predicate and places of the variable. */
  readonly #loose = new Map<string, Set<Value>>();

  /** The candidates a quantifier ranges over, in a deterministic order. */
  private domain(e: Extract<Expr, { kind: "quant" }>, scope: Scope): readonly Value[] {
    if (e.domain.kind === "in") {
      return this.list(e.domain.list, scope, `Domain of "${e.op}" must be a list`);
    }
    const type = e.domain.type;
    if (!isObjectType(this.env.vocab, type)) {
      this.fail(e.span, `Domain of "${e.op}" must be an object type but "${type}" is not`);
    }
    return this.domainOf(type);
  }

  private quant(e: Extract<Expr, { kind: "quant" }>, scope: Scope): Value {
    // A quantifier that reads no variable from outside is the same
    // wherever it is nested (`not exists(l: T, ...)` inside a quantifier
    // over every place): worked out once per evaluation.
    if (e.op === "select_one" || !isClosed(e)) return this.quantify(e, scope);
    let kept = this.#closed.get(e);
    if (kept === undefined) {
      // Kept across evaluations too, as distances are: the same rule text
      // is asked in every condition of a list, at every step.
      const versions = this.versionsRead(e);
      kept = versions === undefined
        ? this.quantify(e, scope)
        : keptEntry(keptClosed, this.env.vocab, printedOf(e), versions, () => {
          const v = this.quantify(e, scope);
          // (A list handed to later evaluations must stay as it is.)
          if (Array.isArray(v)) Object.freeze(v);
          return v;
        });
      this.#closed.set(e, kept);
    }
    return kept;
  }
  /** The closed quantifiers' values in this evaluation. */
  readonly #closed = new Map<Expr, Value>();

  private quantify(e: Extract<Expr, { kind: "quant" }>, scope: Scope): Value {
    const candidates = this.narrow(e, scope, this.domain(e, scope));
    const inner = new Frame(scope, e.var);
    const holds = (c: Value): boolean => {
      if (--this.#left < 0) {
        this.fail(
          e.span,
          `Evaluation budget exceeded: more than ${this.#budget} quantifier iterations (nested quantifiers multiply)`,
        );
      }
      inner.value = c;
      return this.bool(e.body, inner, `Body of "${e.op}" must be a boolean`);
    };
    // A body that does not read the variable is the same for every
    // candidate (`exists(w: T, move(u, v))`): tried once.
    const once = (e.op === "exists" || e.op === "forall") && candidates.length > 1 &&
      !bodyReads(e);
    switch (e.op) {
      case "exists":
        return once ? holds(candidates[0]) : candidates.some(holds);
      case "forall":
        return once ? holds(candidates[0]) : candidates.every(holds);
      case "select_all":
        return candidates.filter(holds);
      case "select_one": {
        if (!this.env.choose) {
          const found = candidates.find(holds);
          if (found !== undefined) return found;
        } else {
          const matching = candidates.filter(holds);
          if (matching.length > 0) return this.env.choose(matching, e) ?? matching[0];
        }
        const domain = e.domain.kind === "type"
          ? `: ${e.domain.type}`
          : ` in ${printExpr(e.domain.list)}`;
        return this.fail(e.span, `select_one found no ${e.var}${domain} with ${printExpr(e.body)}`);
      }
    }
  }
}

/** Domains smaller than this are tried in full: looking the atoms up would not pay. */
const NARROW_FROM = 8;

/**
 * Whether an atom names, besides `target`, an argument whose value is
 * known (a constant or a variable in scope, not a `hidden` one): the
 * facts it matches are then found through the index, and are few.
 */
function knowsArgument(
  e: Extract<Expr, { kind: "call" }>,
  target: string,
  scope: Scope,
  hidden: ReadonlySet<string>,
): boolean {
  return e.args.some((a) =>
    a.kind === "str" || a.kind === "num" ||
    (a.kind === "var" && a.name !== target && !hidden.has(a.name) && scope.has(a.name))
  );
}

/** The values in both sets (a new set; neither is changed). */
function intersection(a: ReadonlySet<Value>, b: ReadonlySet<Value>): Set<Value> {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  const out = new Set<Value>();
  for (const v of small) if (large.has(v)) out.add(v);
  return out;
}

/** The disjuncts of an expression (itself when it is no disjunction), left to right. */
function disjuncts(e: Expr): Expr[] {
  return e.kind === "binary" && e.op === "or" ? [...disjuncts(e.left), ...disjuncts(e.right)] : [e];
}

const freeVarsOf = new WeakMap<Expr, string[]>();

/** Whether an expression reads no free variable; kept per expression. */
function isClosed(e: Expr): boolean {
  let closed = closedOf.get(e);
  if (closed === undefined) closedOf.set(e, closed = freeVars(e).size === 0);
  return closed;
}
const closedOf = new WeakMap<Expr, boolean>();

/** Whether a quantifier's body reads its variable; kept per expression. */
function bodyReads(e: Extract<Expr, { kind: "quant" }>): boolean {
  let reads = bodyReadsOf.get(e);
  if (reads === undefined) bodyReadsOf.set(e, reads = freeVars(e.body).has(e.var));
  return reads;
}
const bodyReadsOf = new WeakMap<Expr, boolean>();

/** The values of the scope variables `e` reads (bound ones excepted), as text. */
function freeScope(e: Expr, scope: Scope, bound: readonly string[]): string[] {
  let vars = freeVarsOf.get(e);
  if (!vars) freeVarsOf.set(e, vars = [...freeVars(e)].filter((v) => !bound.includes(v)).sort());
  return vars.map((v) => `${v}=${scope.has(v) ? formatLiteral(scope.get(v)!) : "?"}`);
}

/**
 * The conjuncts of an expression (itself when it is no conjunction), left
 * to right; kept per expression, as a quantifier's body is narrowed at
 * every evaluation.
 */
function conjuncts(e: Expr): readonly Expr[] {
  let out = conjunctsOf.get(e);
  if (out === undefined) {
    out = e.kind === "binary" && e.op === "and"
      ? [...conjuncts(e.left), ...conjuncts(e.right)]
      : [e];
    conjunctsOf.set(e, out);
  }
  return out;
}
const conjunctsOf = new WeakMap<Expr, readonly Expr[]>();

/**
 * Structural equality of values: strings, numbers and booleans by value,
 * lists element-wise. Values of different kinds are unequal.
 *
 * @example Usage
 * ```ts
 * import { valueEquals } from "./eval.ts";
 * console.log(valueEquals([1, "a"], [1, "a"])); // true
 * ```
 */
export function valueEquals(a: Value, b: Value): boolean {
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => valueEquals(x, b[i]));
  }
  return a === b;
}

function plural(n: number): string {
  return n === 1 ? "1 argument" : `${n} arguments`;
}
