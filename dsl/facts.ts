/**
 * Ground atoms and the read-only view of a fact store that the expression
 * evaluator queries. The store itself lives in `runtime/fact_store.ts`; the
 * language only needs this interface.
 *
 * @module
 */
import { z } from "zod";

/** A runtime value: an object id or string, a number, a boolean, or a list. */
export type Value = string | number | boolean | Value[];

/** Zod schema of a {@linkcode Value}. */
export const ValueSchema: z.ZodType<Value> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.array(ValueSchema)])
);

/** An argument of a ground atom: an object id, a string value or a number. */
export type AtomArg = string | number;

/** A ground atom `pred(arg1, ..., argN)`. */
export interface Atom {
  /** Predicate name, e.g. `contains`. */
  pred: string;
  /** Ground arguments, e.g. `["fridge 1", "apple 1"]`. */
  args: AtomArg[];
}

/** Zod schema of an {@linkcode Atom}. */
export const AtomSchema: z.ZodType<Atom, Atom> = z.object({
  pred: z.string().min(1),
  args: z.array(z.union([z.string(), z.number()])),
});

/**
 * A change to a fact store: atoms to remove, then atoms to add, and objects
 * (id -> type name) that become known.
 */
export interface FactDelta {
  /** Atoms that become true. */
  add: Atom[];
  /** Atoms that become false (applied before `add`). */
  remove: Atom[];
  /** Newly known objects with their type, e.g. `{"apple 1": "Item"}`. */
  objects?: Record<string, string>;
}

/** Zod schema of a {@linkcode FactDelta}. */
export const FactDeltaSchema: z.ZodType<FactDelta, FactDelta> = z.object({
  add: z.array(AtomSchema),
  remove: z.array(AtomSchema),
  objects: z.record(z.string(), z.string()).optional(),
});

/** An empty delta. */
export function emptyDelta(): FactDelta {
  return { add: [], remove: [], objects: {} };
}

/**
 * What the evaluator may ask of a fact store. `null` in a query pattern is a
 * wildcard; results come in insertion order so evaluation is deterministic.
 */
export interface FactView {
  /** Whether the ground atom holds. */
  has(atom: Atom): boolean;
  /** All atoms of `pred` whose arguments match `pattern` (`null` = any). */
  query(pred: string, pattern: (AtomArg | null)[]): Atom[];
  /**
   * Ids of known objects whose declared type is exactly `type`, in
   * first-seen order. Not to be changed by the caller.
   */
  objectsOfType(type: string): readonly string[];
  /** Declared type of an object id, if known. */
  typeOf(id: string): string | undefined;
  /**
   * A number equal in two views only if they hold the same atoms of `pred`
   * (without `pred`: the same objects with the same types); views without
   * it keep nothing derived across evaluations.
   */
  version?(pred?: string): number;
}

/**
 * The canonical text of an atom: `pred('a b', 3)`. Strings are single-quoted
 * with `\` escapes, matching the expression syntax.
 *
 * @example Usage
 * ```ts
 * import { formatAtom } from "./facts.ts";
 * console.log(formatAtom({ pred: "inventory", args: ["oak planks", 4] }));
 * // inventory('oak planks', 4)
 * ```
 */
export function formatAtom(atom: Atom): string {
  return `${atom.pred}(${atom.args.map(formatLiteral).join(", ")})`;
}

/**
 * The expression-syntax literal for a value: numbers as is, strings quoted.
 *
 * @example Usage
 * ```ts
 * import { formatLiteral } from "./facts.ts";
 * console.log(formatLiteral("it's")); // 'it\'s'
 * ```
 */
export function formatLiteral(value: Value): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return `[${value.map(formatLiteral).join(", ")}]`;
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}
