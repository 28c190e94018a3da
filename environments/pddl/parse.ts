/**
 * A reader for the PDDL of classical planning benchmarks: domains with
 * `:strips` and `:typing` (types with parents, `either` types, typed or
 * untyped parameters, constants), predicates, and actions whose
 * precondition is a conjunction of literals (negated ones and equalities
 * `(= ?a ?b)` allowed) and of conditions built with `and`, `or`, `not`,
 * `imply`, `exists` and `forall`, and whose effect is a conjunction of added
 * and deleted atoms and of effects by chance (`(probabilistic 0.8 <effect>
 * ...)`, pddlgym's probabilistic domains); problems with objects, an
 * initial state of ground atoms and a conjunctive goal. Anything else
 * (conditional effects, numeric fluents, quantified goals) is an error
 * naming the file, line and column and what was expected.
 *
 * pddlgym's convention is read too: a domain whose comment line
 * `; (:actions name1 name2 ...)` names some of its predicates declares
 * those as **action predicates**: each operator lists one first in its
 * precondition, and no problem's `:init` holds them (pddlgym lets the
 * agent choose them). They are dropped from the domain's predicates and
 * preconditions, so the operators read as plain STRIPS.
 *
 * @module
 */

/** A PDDL syntax or subset error, with where it is. */
export class PddlError extends Error {
  /** The file (or a name for the text). */
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
  /** Creates the error. */
  constructor(file: string, line: number, column: number, message: string) {
    super(`${file}:${line}:${column}: ${message}`);
    this.name = "PddlError";
    this.file = file;
    this.line = line;
    this.column = column;
  }
}

/** A typed name: a parameter (`?x`) or an object. */
export interface TypedName {
  name: string;
  /**
   * The declared type; `object` when untyped; `(either a b)` is written
   * `either a b` (see {@linkcode eitherTypes}).
   */
  type: string;
}

/** The prefix of an `(either ...)` type's name. */
const EITHER = "either ";

/** The member types of an `either` type (`either a b` -> `[a, b]`), else `[type]`. */
export function eitherTypes(type: string): string[] {
  return type.startsWith(EITHER) ? type.slice(EITHER.length).split(" ") : [type];
}

/** The predicate of an equality literal `(= ?a ?b)`: never a fact. */
export const EQUALITY = "=";

/** An atom whose arguments are parameters (`?x`) or objects. */
export interface PddlAtom {
  pred: string;
  args: string[];
}

/** A literal of a precondition or goal. */
export interface PddlLiteral extends PddlAtom {
  /** `(not (p ...))`. */
  negated: boolean;
}

/**
 * A precondition beyond a literal: a conjunction, a disjunction (`imply a b`
 * reads as `(or (not a) b)`), a negation of one of those, or a quantifier
 * over the objects of a type.
 */
export type PddlFormula =
  | { op: "literal"; literal: PddlLiteral }
  | { op: "and" | "or"; items: PddlFormula[] }
  | { op: "not"; item: PddlFormula }
  | { op: "exists" | "forall"; vars: TypedName[]; body: PddlFormula };

/**
 * An effect that happens by chance: at most one of its outcomes, each with
 * its probability (none with the rest).
 */
export interface PddlChance {
  outcomes: { probability: number; add: PddlAtom[]; del: PddlAtom[] }[];
}

/** An action schema. */
export interface PddlAction {
  name: string;
  params: TypedName[];
  /** The precondition's conjuncts that are literals. */
  precondition: PddlLiteral[];
  /**
   * The precondition's other conjuncts (`or`, `imply`, `exists`, `forall`),
   * which must hold too; absent for a plain STRIPS action.
   */
  condition?: PddlFormula[];
  /** The certain effects. */
  add: PddlAtom[];
  del: PddlAtom[];
  /** Effects by chance (`probabilistic`), each drawn on its own; absent when none. */
  chances?: PddlChance[];
}

/** The effects of an action and of some outcomes of its chances. */
export type Effects = { add: PddlAtom[]; del: PddlAtom[] };

/** The action's certain effects and those of the outcomes `pick` takes of each chance. */
export function effectsWith(
  a: PddlAction,
  pick: (chance: PddlChance) => PddlChance["outcomes"],
): Effects {
  if (!a.chances) return { add: a.add, del: a.del };
  const outcomes = a.chances.flatMap(pick);
  return {
    add: [...a.add, ...outcomes.flatMap((o) => o.add)],
    del: [...a.del, ...outcomes.flatMap((o) => o.del)],
  };
}

/** Every atom an action may add and delete: its certain effects and each outcome of a chance. */
export function effectAtoms(a: PddlAction): Effects {
  return effectsWith(a, (c) => c.outcomes);
}

/**
 * Every atom an action names: its precondition's literals, its conditions'
 * (with the variables quantified where each occurs), and its effects (each
 * outcome of a chance included), each marked as an effect or not.
 */
export function* actionAtoms(
  a: PddlAction,
): Generator<
  { atom: PddlAtom & { negated?: boolean }; scope: readonly TypedName[]; effect: boolean }
> {
  for (const atom of a.precondition) yield { atom, scope: [], effect: false };
  for (const f of a.condition ?? []) {
    for (const l of formulaLiterals(f)) yield { atom: l.literal, scope: l.scope, effect: false };
  }
  const { add, del } = effectAtoms(a);
  for (const atom of [...add, ...del]) yield { atom, scope: [], effect: true };
}

/** The predicates some action of the domain may add or delete. */
export function changingPredicates(domain: PddlDomain): Set<string> {
  return new Set(domain.actions.flatMap((a) => {
    const { add, del } = effectAtoms(a);
    return [...add, ...del].map((x) => x.pred);
  }));
}

/**
 * The effects the action is planned with: its certain effects and the most
 * likely outcome of each chance (none, when nothing happening is at least
 * as likely as any outcome; the first of equals).
 */
export function plannedEffects(a: PddlAction): Effects {
  return effectsWith(a, (c) => {
    const none = 1 - c.outcomes.reduce((sum, o) => sum + o.probability, 0);
    const best = c.outcomes.reduce((x, o) => o.probability > x.probability ? o : x);
    return best.probability > none ? [best] : [];
  });
}

/**
 * The literals of a formula, each with the quantified variables in scope
 * where it occurs (innermost last).
 */
export function* formulaLiterals(
  f: PddlFormula,
  scope: readonly TypedName[] = [],
): Generator<{ literal: PddlLiteral; scope: readonly TypedName[] }> {
  switch (f.op) {
    case "literal":
      yield { literal: f.literal, scope };
      return;
    case "and":
    case "or":
      for (const item of f.items) yield* formulaLiterals(item, scope);
      return;
    case "not":
      yield* formulaLiterals(f.item, scope);
      return;
    default:
      yield* formulaLiterals(f.body, [...scope, ...f.vars]);
  }
}

/** A domain. */
export interface PddlDomain {
  name: string;
  /** Each type's parent (`object` for top-level types; `object` has none). */
  types: Record<string, string>;
  constants: TypedName[];
  predicates: Record<string, TypedName[]>;
  actions: PddlAction[];
  /**
   * pddlgym's action predicates, dropped from `predicates` and from every
   * precondition (see the module doc); empty for a plain STRIPS domain.
   */
  actionPredicates: string[];
}

/** A problem. */
export interface PddlProblem {
  name: string;
  domain: string;
  objects: TypedName[];
  init: PddlAtom[];
  goal: PddlLiteral[];
}

type SExpr =
  | { kind: "atom"; text: string; line: number; column: number }
  | { kind: "list"; items: SExpr[]; line: number; column: number };

/** Reads the text into one s-expression, lower-casing names (PDDL is case-insensitive). */
function read(text: string, file: string): SExpr {
  let i = 0;
  let line = 1;
  let column = 1;
  const advance = () => {
    if (text[i] === "\n") {
      line++;
      column = 1;
    } else column++;
    i++;
  };
  const skip = () => {
    while (i < text.length) {
      if (text[i] === ";") {
        while (i < text.length && text[i] !== "\n") advance();
      } else if (/\s/.test(text[i])) advance();
      else break;
    }
  };
  const expr = (): SExpr => {
    skip();
    if (i >= text.length) throw new PddlError(file, line, column, "unexpected end of file");
    const at = { line, column };
    if (text[i] === "(") {
      advance();
      const items: SExpr[] = [];
      for (;;) {
        skip();
        if (i >= text.length) {
          throw new PddlError(file, at.line, at.column, "this parenthesis is never closed");
        }
        if (text[i] === ")") {
          advance();
          return { kind: "list", items, ...at };
        }
        items.push(expr());
      }
    }
    if (text[i] === ")") throw new PddlError(file, line, column, "unexpected ')'");
    let word = "";
    // A variable starts a new word (`?l - level?l1 - level` occurs in real files).
    while (
      i < text.length && !/[\s();]/.test(text[i]) && !(text[i] === "?" && word !== "")
    ) {
      word += text[i];
      advance();
    }
    return { kind: "atom", text: word.toLowerCase(), ...at };
  };
  const top = expr();
  skip();
  if (i < text.length) throw new PddlError(file, line, column, "text after the definition");
  return top;
}

class Reader {
  constructor(readonly file: string) {}
  fail(e: SExpr, message: string): never {
    throw new PddlError(this.file, e.line, e.column, message);
  }
  list(e: SExpr, what: string): SExpr[] {
    return e.kind === "list" ? e.items : this.fail(e, `expected ${what}, got "${e.text}"`);
  }
  word(e: SExpr | undefined, what: string, parent?: SExpr): string {
    if (!e) return this.fail(parent!, `expected ${what}`);
    return e.kind === "atom" ? e.text : this.fail(e, `expected ${what}, got a list`);
  }
  /**
   * `a b - t c - u d` into typed names (untyped: `object`). `?x -t`, the
   * dash against the type as some published domains write it, reads as
   * `?x - t` (no PDDL name starts with a dash).
   */
  typedList(items: SExpr[], what: string): TypedName[] {
    const out: TypedName[] = [];
    let pending: string[] = [];
    for (let k = 0; k < items.length; k++) {
      const w = this.word(items[k], what);
      if (w === "-") {
        const type = this.type(items[k + 1], items[k]);
        for (const name of pending) out.push({ name, type });
        pending = [];
        k++;
      } else if (w.startsWith("-")) {
        for (const name of pending) out.push({ name, type: w.slice(1) });
        pending = [];
      } else pending.push(w);
    }
    for (const name of pending) out.push({ name, type: "object" });
    return out;
  }
  /** A type name, or `(either a b ...)` as `either a b ...`. */
  type(e: SExpr | undefined, after: SExpr): string {
    if (e?.kind !== "list") return this.word(e, "a type after '-'", after);
    const items = e.items.map((x) => this.word(x, "a type name"));
    if (items[0] !== "either" || items.length < 2) {
      this.fail(e, `expected a type or (either <type> ...), got "(${items.join(" ")})"`);
    }
    return `${EITHER}${items.slice(1).join(" ")}`;
  }
  atom(e: SExpr, what: string): PddlAtom {
    const items = this.list(e, what);
    const pred = this.word(items[0], "a predicate name", e);
    if (pred === "and" || pred === "not" || pred === "or" || pred === "forall") {
      this.fail(e, `expected an atom, got "(${pred} ...)"`);
    }
    return { pred, args: items.slice(1).map((a) => this.word(a, "an argument")) };
  }
  literal(e: SExpr, what: string): PddlLiteral {
    const items = this.list(e, what);
    const head = items[0]?.kind === "atom" ? items[0].text : "";
    if (head === "not") {
      if (items.length !== 2) this.fail(e, "(not ...) takes one atom");
      return { ...this.atom(items[1], "an atom"), negated: true };
    }
    if (["or", "imply", "forall", "exists", "when"].includes(head)) {
      this.fail(
        e,
        `"${head}" is not in the supported subset here (a conjunction of literals${
          head === "when" ? "; conditional effects are not supported" : ""
        })`,
      );
    }
    return { ...this.atom(e, what), negated: false };
  }
  /** Whether `e` is a literal: an atom or `(not <atom>)`. */
  isLiteral(e: SExpr): boolean {
    if (e.kind !== "list") return false;
    const head = e.items[0]?.kind === "atom" ? e.items[0].text : "";
    if (head === "not") return e.items.length === 2 && this.isLiteral(e.items[1]);
    return !FORMULA_HEADS.includes(head);
  }
  /** A precondition: its conjuncts that are literals, and the others as formulas. */
  precondition(e: SExpr): { literals: PddlLiteral[]; formulas: PddlFormula[] } {
    const literals: PddlLiteral[] = [];
    const formulas: PddlFormula[] = [];
    const conjunct = (x: SExpr) => {
      const items = this.list(x, "a precondition");
      if (items.length === 0) return;
      if (items[0].kind === "atom" && items[0].text === "and") items.slice(1).forEach(conjunct);
      else if (this.isLiteral(x)) literals.push(this.literal(x, "a precondition"));
      else formulas.push(this.formula(x));
    };
    conjunct(e);
    return { literals, formulas };
  }
  /** A formula of `and`, `or`, `not`, `imply`, `exists`, `forall` over literals. */
  formula(e: SExpr): PddlFormula {
    const items = this.list(e, "a condition");
    const head = items[0]?.kind === "atom" ? items[0].text : "";
    switch (head) {
      case "and":
      case "or":
        return { op: head, items: items.slice(1).map((x) => this.formula(x)) };
      case "not":
        if (items.length !== 2) this.fail(e, "(not ...) takes one condition");
        return { op: "not", item: this.formula(items[1]) };
      case "imply":
        if (items.length !== 3) this.fail(e, "(imply ...) takes two conditions");
        return {
          op: "or",
          items: [{ op: "not", item: this.formula(items[1]) }, this.formula(items[2])],
        };
      case "exists":
      case "forall": {
        if (items.length !== 3) this.fail(e, `(${head} (?x - type ...) <condition>) expected`);
        const vars = this.typedList(this.list(items[1], "(?x - type ...)"), "a variable");
        const loose = vars.find((v) => !v.name.startsWith("?"));
        if (loose) this.fail(items[1], `variable "${loose.name}" must start with "?"`);
        return { op: head, vars, body: this.formula(items[2]) };
      }
      case "when":
        return this.fail(e, `"when" belongs in an effect; conditional effects are not supported`);
      default:
        return { op: "literal", literal: this.literal(e, "a condition") };
    }
  }
  /** `(probabilistic p1 e1 p2 e2 ...)`: each outcome a conjunction of literals. */
  chance(e: SExpr): PddlChance {
    const items = this.list(e, "(probabilistic <p> <effect> ...)").slice(1);
    if (items.length === 0 || items.length % 2 !== 0) {
      this.fail(e, "(probabilistic ...) takes pairs of a probability and an effect");
    }
    const outcomes: PddlChance["outcomes"] = [];
    for (let k = 0; k < items.length; k += 2) {
      const text = this.word(items[k], "a probability");
      const probability = probabilityOf(text);
      if (probability === undefined) {
        this.fail(items[k], `expected a probability between 0 and 1, got "${text}"`);
      }
      const add: PddlAtom[] = [];
      const del: PddlAtom[] = [];
      for (const l of this.conjunction(items[k + 1], "an outcome")) {
        (l.negated ? del : add).push({ pred: l.pred, args: l.args });
      }
      outcomes.push({ probability, add, del });
    }
    const total = outcomes.reduce((sum, o) => sum + o.probability, 0);
    if (total > 1 + 1e-9) this.fail(e, `the probabilities add up to ${total}, more than 1`);
    return { outcomes };
  }
  /** A conjunction (or one literal), as literals. */
  conjunction(e: SExpr, what: string): PddlLiteral[] {
    const items = this.list(e, what);
    if (items.length === 0) return [];
    if (items[0].kind === "atom" && items[0].text === "and") {
      return items.slice(1).map((x) => this.literal(x, what));
    }
    return [this.literal(e, what)];
  }
}

/** A probability written as a decimal or a fraction (`0.8`, `1/3`), if in [0, 1]. */
function probabilityOf(text: string): number | undefined {
  const m = text.match(/^(\d+(?:\.\d*)?|\.\d+)(?:\/(\d+(?:\.\d*)?))?$/);
  if (!m) return undefined;
  const p = Number(m[1]) / (m[2] === undefined ? 1 : Number(m[2]));
  return Number.isFinite(p) && p >= 0 && p <= 1 ? p : undefined;
}

/** The heads of a condition that is no literal. */
const FORMULA_HEADS = ["and", "or", "imply", "exists", "forall", "when"];

/** The sections `(:key ...)` of a definition after its header. */
function sections(r: Reader, items: SExpr[]): { key: string; body: SExpr[]; at: SExpr }[] {
  return items.map((s) => {
    const parts = r.list(s, "a section such as (:predicates ...)");
    const key = r.word(parts[0], "a section keyword", s);
    if (!key.startsWith(":")) r.fail(s, `expected a section keyword, got "${key}"`);
    return { key, body: parts.slice(1), at: s };
  });
}

function header(
  r: Reader,
  top: SExpr,
  kind: "domain" | "problem",
): { name: string; rest: SExpr[] } {
  const items = r.list(top, `(define (${kind} ...) ...)`);
  if (r.word(items[0], "define", top) !== "define") r.fail(items[0], `expected "define"`);
  const head = r.list(items[1] ?? r.fail(top, `expected (${kind} <name>)`), `(${kind} <name>)`);
  if (r.word(head[0], kind, items[1]) !== kind) r.fail(items[1], `expected (${kind} <name>)`);
  return { name: r.word(head[1], `the ${kind} name`, items[1]), rest: items.slice(2) };
}

/**
 * Parses a domain file's text.
 *
 * @param text The PDDL text.
 * @param file Its name, for errors.
 * @throws {PddlError} On syntax outside the supported subset, naming line and column.
 *
 * @example Usage
 * ```ts
 * import { parseDomain } from "./parse.ts";
 * const d = parseDomain("(define (domain d) (:predicates (p ?x)) (:action a :parameters (?x) :precondition (p ?x) :effect (not (p ?x))))", "d.pddl");
 * console.log(d.actions[0].del); // [{ pred: "p", args: ["?x"] }]
 * ```
 */
export function parseDomain(text: string, file: string): PddlDomain {
  const r = new Reader(file);
  const { name, rest } = header(r, read(text, file), "domain");
  const domain: PddlDomain = {
    name,
    types: {},
    constants: [],
    predicates: {},
    actions: [],
    actionPredicates: [],
  };
  for (const s of sections(r, rest)) {
    switch (s.key) {
      case ":requirements":
        for (const req of s.body) {
          const w = r.word(req, "a requirement");
          if (!SUPPORTED_REQUIREMENTS.includes(w)) {
            r.fail(
              req,
              `requirement "${w}" is not supported (${SUPPORTED_REQUIREMENTS.join(", ")})`,
            );
          }
        }
        break;
      case ":types":
        for (const t of r.typedList(s.body, "a type")) {
          if (t.name !== "object") domain.types[t.name] = t.type;
        }
        break;
      case ":constants":
        for (const x of r.typedList(s.body, "a constant")) domain.constants.push(x);
        break;
      case ":predicates":
        for (const p of s.body) {
          const items = r.list(p, "(<predicate> ?x ...)");
          domain.predicates[r.word(items[0], "a predicate name", p)] = r.typedList(
            items.slice(1),
            "a parameter",
          );
        }
        break;
      case ":action":
        domain.actions.push(parseAction(r, s.body, s.at));
        break;
      default:
        r.fail(s.at, `section "${s.key}" is not supported`);
    }
  }
  const used = [
    ...Object.values(domain.types),
    ...domain.constants.map((c) => c.type),
    ...Object.values(domain.predicates).flat().map((p) => p.type),
    ...domain.actions.flatMap((a) => a.params.map((p) => p.type)),
    ...domain.actions.flatMap((a) =>
      [...actionAtoms(a)].flatMap((x) => x.scope.map((v) => v.type))
    ),
  ].flatMap(eitherTypes);
  for (const t of used) {
    if (t !== "object" && !Object.hasOwn(domain.types, t)) {
      throw new PddlError(file, 1, 1, `type "${t}" is used but not declared in :types`);
    }
  }
  dropActionPredicates(domain, text, file);
  for (const a of domain.actions) {
    for (const { atom: l, effect } of actionAtoms(a)) {
      if (l.pred === EQUALITY && !effect) {
        if (l.args.length !== 2) {
          throw new PddlError(file, 1, 1, `action "${a.name}": "=" takes 2 arguments`);
        }
        continue;
      }
      const decl = Object.hasOwn(domain.predicates, l.pred) ? domain.predicates[l.pred] : undefined;
      if (!decl) {
        throw new PddlError(file, 1, 1, `action "${a.name}" uses undeclared predicate "${l.pred}"`);
      }
      if (decl.length !== l.args.length) {
        throw new PddlError(
          file,
          1,
          1,
          `action "${a.name}": "${l.pred}" takes ${decl.length} arguments, got ${l.args.length}`,
        );
      }
    }
  }
  return domain;
}

/** The requirements the reader understands. */
const SUPPORTED_REQUIREMENTS = [
  ":strips",
  ":typing",
  ":negative-preconditions",
  ":equality",
  ":disjunctive-preconditions",
  ":existential-preconditions",
  ":universal-preconditions",
  ":quantified-preconditions",
  // ADL's conditional effects are refused where an effect uses one.
  ":adl",
  ":probabilistic-effects",
];

/**
 * Reads pddlgym's `; (:actions a b ...)` comment and drops the action
 * predicates it names from the predicates and the preconditions. An effect
 * on one, or a name that is no predicate, is an error: the convention is
 * then not what the file means.
 */
function dropActionPredicates(domain: PddlDomain, text: string, file: string): void {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => /^\s*;+\s*\(:actions\b/i.test(l));
  if (at < 0) return;
  const m = lines[at].match(/\(:actions\s+([^)]*)\)/i);
  if (!m) throw new PddlError(file, at + 1, 1, `expected "; (:actions <name> ...)"`);
  const names = m[1].trim().toLowerCase().split(/\s+/).filter((n) => n !== "");
  for (const n of names) {
    if (!Object.hasOwn(domain.predicates, n)) {
      throw new PddlError(file, at + 1, 1, `(:actions ...) names "${n}", which is no predicate`);
    }
    for (const a of domain.actions) {
      const effects = effectAtoms(a);
      if ([...effects.add, ...effects.del].some((x) => x.pred === n)) {
        throw new PddlError(
          file,
          at + 1,
          1,
          `action predicate "${n}" is changed by action "${a.name}"`,
        );
      }
      a.precondition = a.precondition.filter((l) => l.pred !== n);
      if (a.condition?.some((f) => [...formulaLiterals(f)].some((l) => l.literal.pred === n))) {
        throw new PddlError(
          file,
          at + 1,
          1,
          `action predicate "${n}" is used inside a condition of action "${a.name}"`,
        );
      }
    }
    delete domain.predicates[n];
  }
  domain.actionPredicates = names;
}

function parseAction(r: Reader, body: SExpr[], at: SExpr): PddlAction {
  const name = r.word(body[0], "the action name", at);
  const action: PddlAction = { name, params: [], precondition: [], add: [], del: [] };
  for (let k = 1; k < body.length; k += 2) {
    const key = r.word(body[k], ":parameters, :precondition or :effect");
    const value = body[k + 1] ?? r.fail(body[k], `expected a value after ${key}`);
    if (key === ":parameters") {
      action.params = r.typedList(r.list(value, "(?x ...)"), "a parameter");
      const loose = action.params.find((p) => !p.name.startsWith("?"));
      if (loose) r.fail(value, `action "${name}": parameter "${loose.name}" must start with "?"`);
    } else if (key === ":precondition") {
      const { literals, formulas } = r.precondition(value);
      action.precondition = literals;
      if (formulas.length > 0) action.condition = formulas;
    } else if (key === ":effect") {
      const conjuncts = r.list(value, "an effect");
      const items = conjuncts.length === 0
        ? []
        : conjuncts[0].kind === "atom" && conjuncts[0].text === "and"
        ? conjuncts.slice(1)
        : [value];
      for (const item of items) {
        const head = item.kind === "list" && item.items[0]?.kind === "atom"
          ? item.items[0].text
          : "";
        if (head === "probabilistic") (action.chances ??= []).push(r.chance(item));
        else {
          const l = r.literal(item, "an effect");
          (l.negated ? action.del : action.add).push({ pred: l.pred, args: l.args });
        }
      }
    } else r.fail(body[k], `"${key}" is not supported in an action`);
  }
  const params = new Set(action.params.map((p) => p.name));
  for (const { atom, scope } of actionAtoms(action)) {
    for (const a of atom.args) {
      if (a.startsWith("?") && !params.has(a) && !scope.some((v) => v.name === a)) {
        r.fail(at, `action "${name}" uses "${a}", which is not a parameter`);
      }
    }
  }
  return action;
}

/**
 * Parses a problem file's text.
 *
 * @throws {PddlError} On syntax outside the supported subset, naming line and column.
 *
 * @example Usage
 * ```ts
 * import { parseProblem } from "./parse.ts";
 * const p = parseProblem("(define (problem p) (:domain d) (:objects a b) (:init (p a)) (:goal (and (p b))))", "p.pddl");
 * console.log(p.goal); // [{ pred: "p", args: ["b"], negated: false }]
 * ```
 */
export function parseProblem(text: string, file: string): PddlProblem {
  const r = new Reader(file);
  const { name, rest } = header(r, read(text, file), "problem");
  const problem: PddlProblem = { name, domain: "", objects: [], init: [], goal: [] };
  for (const s of sections(r, rest)) {
    switch (s.key) {
      case ":domain":
        problem.domain = r.word(s.body[0], "the domain name", s.at);
        break;
      case ":objects":
        for (const x of r.typedList(s.body, "an object")) problem.objects.push(x);
        break;
      case ":init":
        for (const x of s.body.map((a) => r.atom(a, "a ground atom"))) problem.init.push(x);
        break;
      case ":goal":
        problem.goal = r.conjunction(s.body[0] ?? r.fail(s.at, "expected a goal"), "a goal");
        break;
      default:
        r.fail(s.at, `section "${s.key}" is not supported`);
    }
  }
  return problem;
}
