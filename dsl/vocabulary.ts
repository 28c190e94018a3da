/**
 * A domain vocabulary: the types, predicates, numeric/attribute functions and
 * action templates that skills of one environment may use. Everything
 * domain-specific enters the language through a vocabulary value; the
 * language itself knows no domain.
 *
 * Type names are strings: the built-ins `Object`, `Num`, `Bool`, `Str`,
 * `List<T>`, plus the vocabulary's own object types (subtypes of `Object` or
 * of another object type) and value types (string-valued kinds such as
 * `ItemType`).
 *
 * @module
 */
import { z } from "zod";
import { BUILTIN_CALLS, KEYWORDS } from "./expr/ast.ts";

/** Names of the built-in scalar types. */
export const BUILTIN_TYPES = ["Object", "Num", "Bool", "Str"] as const;

/** A domain type declaration: an object type (with a parent) or a value type. */
export type TypeDecl =
  | { kind: "object"; parent?: string; constant?: string; doc?: string }
  | { kind: "value"; doc?: string };
/** Zod schema of a {@linkcode TypeDecl}. */
export const TypeDeclSchema: z.ZodType<TypeDecl, TypeDecl> = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("object"),
    /** Parent object type; `Object` when omitted. */
    parent: z.string().optional(),
    /** The type's one object, the same in every problem (a domain's constant). */
    constant: z.string().optional(),
    doc: z.string().optional(),
  }),
  z.object({
    kind: z.literal("value"),
    doc: z.string().optional(),
  }),
]);

/** A predicate signature: `contains(Receptacle, Item)`. */
export interface PredicateDecl {
  params: string[];
  doc?: string;
}
/** Zod schema of a {@linkcode PredicateDecl}. */
export const PredicateDeclSchema: z.ZodType<PredicateDecl, PredicateDecl> = z.object({
  params: z.array(z.string()),
  doc: z.string().optional(),
});

/**
 * A function read off a predicate whose last argument is the value:
 * `count(x)` is the `n` with `inventory(x, n)`, or `default` when none holds.
 */
export interface FunctionDecl {
  params: string[];
  returns: string;
  /** The predicate with signature `params + [returns]`. */
  predicate: string;
  /** Value when no atom matches; evaluation fails when omitted. */
  default?: string | number | boolean;
  doc?: string;
}
/** Zod schema of a {@linkcode FunctionDecl}. */
export const FunctionDeclSchema: z.ZodType<FunctionDecl, FunctionDecl> = z.object({
  params: z.array(z.string()),
  returns: z.string(),
  /** The predicate with signature `params + [returns]`. */
  predicate: z.string(),
  /** Value when no atom matches; evaluation fails when omitted. */
  default: z.union([z.string(), z.number(), z.boolean()]).optional(),
  doc: z.string().optional(),
});

/** A typed action parameter. */
export interface ActionParam {
  name: string;
  type: string;
}
/** Zod schema of an {@linkcode ActionParam}. */
export const ActionParamSchema: z.ZodType<ActionParam, ActionParam> = z.object({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
  type: z.string(),
});

/**
 * An action template: `go to {target}` with typed parameters. The text form
 * is the template with each `{param}` replaced by the argument's value.
 */
export interface ActionDecl {
  template: string;
  params: ActionParam[];
  doc?: string;
}
/** Zod schema of an {@linkcode ActionDecl}. */
export const ActionDeclSchema: z.ZodType<ActionDecl, ActionDecl> = z.object({
  template: z.string().min(1),
  params: z.array(ActionParamSchema),
  doc: z.string().optional(),
});

/**
 * A subgoal landmark: a step whose fact change makes an atom of `pred` true
 * (`on: "add"`) or false (`on: "remove"`) ends a subgoal segment. `when` is
 * an optional condition, evaluated in the state before the step, on the
 * atom's arguments named `a0`, `a1`, ... (e.g. `holds(a1)`: the object was
 * held before it was placed; `a1 > count(a0)`: a count went up).
 */
export interface LandmarkDecl {
  pred: string;
  on: "add" | "remove";
  when?: string;
  /** Name for skills induced from segments ending at this landmark. */
  skill?: string;
  doc?: string;
}
/** Zod schema of a {@linkcode LandmarkDecl}. */
export const LandmarkDeclSchema: z.ZodType<LandmarkDecl, LandmarkDecl> = z.object({
  pred: z.string().min(1),
  on: z.enum(["add", "remove"]),
  when: z.string().optional(),
  skill: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
  doc: z.string().optional(),
});

/** A whole domain vocabulary. */
export interface Vocabulary {
  name: string;
  types: Record<string, TypeDecl>;
  predicates: Record<string, PredicateDecl>;
  functions: Record<string, FunctionDecl>;
  actions: Record<string, ActionDecl>;
  /**
   * Fact changes that mark the end of a subgoal, used to cut traces into
   * segments for induction. Without landmarks a whole trace is one segment.
   */
  landmarks?: LandmarkDecl[];
}
/** The input form of a vocabulary: `functions` may be omitted. */
export type VocabularyInput = Omit<Vocabulary, "functions"> & {
  functions?: Record<string, FunctionDecl>;
};
/** Zod schema of a {@linkcode Vocabulary}; names are checked by {@linkcode vocabularyProblems}. */
export const VocabularySchema: z.ZodType<Vocabulary, VocabularyInput> = z.object({
  name: z.string().min(1),
  types: z.record(z.string(), TypeDeclSchema),
  predicates: z.record(z.string(), PredicateDeclSchema),
  functions: z.record(z.string(), FunctionDeclSchema).default({}),
  actions: z.record(z.string(), ActionDeclSchema),
  landmarks: z.array(LandmarkDeclSchema).optional(),
}).superRefine((vocab, ctx) => {
  for (const message of vocabularyProblems(vocab)) ctx.addIssue({ code: "custom", message });
});

/** Names a vocabulary entry cannot take: the expression language's keywords and built-ins. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([...KEYWORDS, ...BUILTIN_CALLS]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What is wrong with a vocabulary's names and signatures, one message per
 * problem naming the entry and the reason: a predicate, function or action
 * named like an expression keyword or built-in (`and`, `in`, `len`), a name
 * that is no identifier, a type declared twice over a built-in, an unknown
 * parameter type, a function whose predicate is missing, an action whose
 * template and parameters disagree. Empty when the vocabulary is sound.
 *
 * @example Usage
 * ```ts
 * import { vocabularyProblems } from "./vocabulary.ts";
 * const vocab = { name: "v", types: {}, predicates: { in: { params: [] } }, functions: {}, actions: {} };
 * console.log(vocabularyProblems(vocab));
 * // [ 'predicate "in": the name is reserved by the expression language (a keyword or built-in)' ]
 * ```
 */
export function vocabularyProblems(vocab: Vocabulary): string[] {
  const problems: string[] = [];
  const named = (kind: string, name: string) => {
    if (!IDENTIFIER.test(name)) {
      problems.push(`${kind} "${name}": a name must be an identifier (letters, digits, _)`);
    } else if (RESERVED_NAMES.has(name)) {
      problems.push(
        `${kind} "${name}": the name is reserved by the expression language (a keyword or built-in)`,
      );
    }
  };
  const knownType = (where: string, type: string) => {
    if (!isKnownType(vocab, type)) problems.push(`${where}: unknown type "${type}"`);
  };
  for (const name of Object.keys(vocab.types)) {
    named("type", name);
    if ((BUILTIN_TYPES as readonly string[]).includes(name) || name === "List") {
      problems.push(`type "${name}": the name is a built-in type`);
    }
  }
  for (const [name, decl] of Object.entries(vocab.predicates)) {
    named("predicate", name);
    decl.params.forEach((t, i) => knownType(`predicate "${name}" parameter ${i + 1}`, t));
  }
  for (const [name, decl] of Object.entries(vocab.functions)) {
    named("function", name);
    if (name in vocab.predicates) {
      problems.push(`function "${name}": a predicate has the same name`);
    }
    decl.params.forEach((t, i) => knownType(`function "${name}" parameter ${i + 1}`, t));
    knownType(`function "${name}" result`, decl.returns);
    const pred = own(vocab.predicates, decl.predicate);
    if (!pred) {
      problems.push(`function "${name}": its predicate "${decl.predicate}" is not declared`);
    } else if (pred.params.length !== decl.params.length + 1) {
      problems.push(
        `function "${name}": predicate "${decl.predicate}" must have ${
          decl.params.length + 1
        } parameters (the function's and the value)`,
      );
    }
  }
  for (const [name, decl] of Object.entries(vocab.actions)) {
    named("action", name);
    const inTemplate = new Set(
      [...decl.template.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]),
    );
    for (const p of decl.params) {
      knownType(`action "${name}" parameter "${p.name}"`, p.type);
      if (!inTemplate.has(p.name)) {
        problems.push(`action "${name}": parameter "${p.name}" does not occur in the template`);
      }
    }
    for (const t of inTemplate) {
      if (!decl.params.some((p) => p.name === t)) {
        problems.push(`action "${name}": template slot {${t}} is not a declared parameter`);
      }
    }
  }
  return problems;
}

const checkedVocabularies = new WeakSet<Vocabulary>();

/**
 * Throws a `TypeError` listing {@linkcode vocabularyProblems} when there are
 * any; each vocabulary object is checked once.
 *
 * @example Usage
 * ```ts
 * import { assertVocabulary } from "./vocabulary.ts";
 * assertVocabulary({ name: "v", types: {}, predicates: {}, functions: {}, actions: {} });
 * ```
 */
export function assertVocabulary(vocab: Vocabulary): void {
  if (checkedVocabularies.has(vocab)) return;
  const problems = vocabularyProblems(vocab);
  if (problems.length > 0) {
    throw new TypeError(
      `Vocabulary "${vocab.name}" is invalid:\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
  }
  checkedVocabularies.add(vocab);
}

/** A parsed type name. */
export type TypeRef =
  | { kind: "scalar"; name: string }
  | { kind: "list"; of: TypeRef };

/**
 * `record[key]` when `key` is the record's own entry: names that come from
 * data (`constructor`, `__proto__`, `toString`) never reach the prototype.
 *
 * @example Usage
 * ```ts
 * import { own } from "./vocabulary.ts";
 * console.log(own({ a: 1 }, "a"), own({ a: 1 }, "constructor")); // 1 undefined
 * ```
 */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Parses a type name such as `List<Item>`; returns `undefined` when it is
 * not well formed.
 *
 * @example Usage
 * ```ts
 * import { parseTypeName } from "./vocabulary.ts";
 * console.log(parseTypeName("List<Item>")); // { kind: "list", of: { kind: "scalar", name: "Item" } }
 * ```
 */
export function parseTypeName(text: string): TypeRef | undefined {
  // Checkers and synthesis ask for the same few names millions of times.
  if (TYPE_NAMES.has(text)) return TYPE_NAMES.get(text);
  const ref = parseTypeNameOnce(text);
  if (TYPE_NAMES.size < 10_000) TYPE_NAMES.set(text, ref);
  return ref;
}

const TYPE_NAMES = new Map<string, TypeRef | undefined>();

function parseTypeNameOnce(text: string): TypeRef | undefined {
  const t = text.trim();
  const m = /^List\s*<(.*)>$/.exec(t);
  if (m) {
    const inner = parseTypeName(m[1]);
    return inner ? { kind: "list", of: inner } : undefined;
  }
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(t) ? { kind: "scalar", name: t } : undefined;
}

/**
 * The canonical text of a type.
 *
 * @example Usage
 * ```ts
 * import { formatType } from "./vocabulary.ts";
 * console.log(formatType({ kind: "list", of: { kind: "scalar", name: "Num" } })); // List<Num>
 * ```
 */
export function formatType(type: TypeRef): string {
  return type.kind === "list" ? `List<${formatType(type.of)}>` : type.name;
}

/** Whether a type name is known in the vocabulary (built-ins included). */
export function isKnownType(vocab: Vocabulary, name: string): boolean {
  const ref = parseTypeName(name);
  if (!ref) return false;
  if (ref.kind === "list") return isKnownType(vocab, formatType(ref.of));
  return (BUILTIN_TYPES as readonly string[]).includes(ref.name) || ref.name in vocab.types;
}

/** Whether `name` is `Object` or a declared object type. */
export function isObjectType(vocab: Vocabulary, name: string): boolean {
  return name === "Object" || own(vocab.types, name)?.kind === "object";
}

/**
 * Whether a value of type `sub` may stand where `sup` is expected: equal
 * types, object subtypes (transitively), lists covariantly, and `Str` (the
 * type of string literals) wherever an object or value type is expected.
 *
 * @example Usage
 * ```ts
 * import { isAssignable } from "./vocabulary.ts";
 * const vocab = { name: "v", types: { Item: { kind: "object" as const } }, predicates: {}, functions: {}, actions: {} };
 * console.log(isAssignable(vocab, "Item", "Object")); // true
 * ```
 */
export function isAssignable(vocab: Vocabulary, sub: string, sup: string): boolean {
  const a = parseTypeName(sub);
  const b = parseTypeName(sup);
  if (!a || !b) return false;
  if (a.kind === "list" || b.kind === "list") {
    return a.kind === "list" && b.kind === "list" &&
      isAssignable(vocab, formatType(a.of), formatType(b.of));
  }
  if (a.name === b.name) return true;
  if (a.name === "Str") {
    return isObjectType(vocab, b.name) || own(vocab.types, b.name)?.kind === "value";
  }
  if (!isObjectType(vocab, a.name) || !isObjectType(vocab, b.name)) return false;
  if (b.name === "Object") return true;
  const seen = new Set<string>();
  let cur: string | undefined = a.name;
  while (cur && cur !== "Object" && !seen.has(cur)) {
    if (cur === b.name) return true;
    seen.add(cur);
    const decl: TypeDecl | undefined = own(vocab.types, cur);
    cur = decl?.kind === "object" ? (decl.parent ?? "Object") : undefined;
  }
  return false;
}

/**
 * All declared object types that are `type` or its (transitive) subtypes;
 * the domain of a quantifier `exists(x: type, ...)`.
 */
export function subtypesOf(vocab: Vocabulary, type: string): string[] {
  const out = type in vocab.types || type === "Object" ? [type] : [];
  for (const name of Object.keys(vocab.types)) {
    if (name !== type && isObjectType(vocab, name) && isAssignable(vocab, name, type)) {
      out.push(name);
    }
  }
  return out;
}
