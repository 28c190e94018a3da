/**
 * Value domains: a view of a fact store in which each value type of the
 * vocabulary (a class name such as `ItemType`) is a finite domain, the
 * values that occur in the facts at argument positions of that type.
 *
 * The expression evaluator quantifies over object types only. Task goals,
 * however, are often stated with values (`goal_item('apple')`), and a plan
 * needs to read them: `select_one(t: ItemType, goal_item(t))`. Through this
 * view (a vocabulary in which value types are declared as object types, and
 * facts whose `objectsOfType` lists a value type's values) such expressions
 * type-check and evaluate without changing the language.
 *
 * @module
 */
import type { Atom, AtomArg, FactView } from "../../dsl/facts.ts";
import type { TypeDecl, Vocabulary } from "../../dsl/vocabulary.ts";
import { own } from "../../dsl/vocabulary.ts";

/** A vocabulary and a fact view in which value types are quantifiable. */
export interface ValueDomains {
  /** The vocabulary with every value type declared as an object type. */
  vocab: Vocabulary;
  /** The facts, whose `objectsOfType` also lists the values of value types. */
  facts: FactView;
}

const vocabCache = new WeakMap<Vocabulary, Vocabulary>();

/**
 * The vocabulary with value types turned into (parentless) object types, so
 * that quantifiers may range over them. Cached per vocabulary.
 *
 * @example Usage
 * ```ts
 * import { valueDomainVocabulary } from "./value_domains.ts";
 * const vocab = {
 *   name: "demo",
 *   types: { Color: { kind: "value" as const } },
 *   predicates: { wanted: { params: ["Color"] } },
 *   functions: {},
 *   actions: {},
 * };
 * console.log(valueDomainVocabulary(vocab).types.Color.kind); // object
 * ```
 */
export function valueDomainVocabulary(vocab: Vocabulary): Vocabulary {
  const cached = vocabCache.get(vocab);
  if (cached) return cached;
  const types: Record<string, TypeDecl> = {};
  for (const [name, decl] of Object.entries(vocab.types)) {
    types[name] = decl.kind === "value"
      ? { kind: "object", ...(decl.doc !== undefined ? { doc: decl.doc } : {}) }
      : decl;
  }
  const out: Vocabulary = { ...vocab, types };
  vocabCache.set(vocab, out);
  return out;
}

/**
 * Wraps facts so that value types have domains (see the module doc).
 *
 * @param vocab The real vocabulary (its value types define the domains).
 * @param facts The facts to read.
 * @returns The widened vocabulary and the view.
 *
 * @example Usage
 * ```ts
 * import { withValueDomains } from "./value_domains.ts";
 * import { FactStore } from "../fact_store.ts";
 * import { parseExpr } from "../../dsl/expr/parse.ts";
 * import { evalExpr } from "../../dsl/expr/eval.ts";
 * const vocab = {
 *   name: "demo",
 *   types: { Color: { kind: "value" as const } },
 *   predicates: { wanted: { params: ["Color"] } },
 *   functions: {},
 *   actions: {},
 * };
 * const view = withValueDomains(vocab, new FactStore([{ pred: "wanted", args: ["red"] }]));
 * const expr = parseExpr("select_one(c: Color, wanted(c))");
 * console.log(expr.ok && evalExpr(expr.value, { ...view, scope: {} })); // { ok: true, value: "red" }
 * ```
 */
export function withValueDomains(vocab: Vocabulary, facts: FactView): ValueDomains {
  return { vocab: valueDomainVocabulary(vocab), facts: new ValueDomainView(vocab, facts) };
}

/** The argument positions of each value type: `[predicate, index]` pairs. */
function valuePositions(vocab: Vocabulary): Map<string, [string, number][]> {
  const out = new Map<string, [string, number][]>();
  for (const [pred, decl] of Object.entries(vocab.predicates)) {
    decl.params.forEach((type, i) => {
      if (own(vocab.types, type)?.kind !== "value") return;
      const list = out.get(type);
      if (list) list.push([pred, i]);
      else out.set(type, [[pred, i]]);
    });
  }
  return out;
}

class ValueDomainView implements FactView {
  readonly #facts: FactView;
  readonly #positions: Map<string, [string, number][]>;

  constructor(vocab: Vocabulary, facts: FactView) {
    this.#facts = facts;
    this.#positions = valuePositions(vocab);
  }

  has(atom: Atom): boolean {
    return this.#facts.has(atom);
  }

  query(pred: string, pattern: (AtomArg | null)[]): Atom[] {
    return this.#facts.query(pred, pattern);
  }

  objectsOfType(type: string): readonly string[] {
    const positions = this.#positions.get(type);
    if (!positions) return this.#facts.objectsOfType(type);
    const seen = new Set<string>();
    for (const [pred, i] of positions) {
      for (const atom of this.#facts.query(pred, [])) {
        const v = atom.args[i];
        if (typeof v === "string") seen.add(v);
      }
    }
    return [...seen];
  }

  typeOf(id: string): string | undefined {
    const declared = this.#facts.typeOf(id);
    if (declared !== undefined) return declared;
    for (const type of this.#positions.keys()) {
      if (this.objectsOfType(type).includes(id)) return type;
    }
    return undefined;
  }
}
