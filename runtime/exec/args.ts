/**
 * Checking skill arguments against typed parameters at the boundary where
 * they enter (command line, planner, another skill).
 *
 * @module
 */
import type { Value } from "../../dsl/facts.ts";
import {
  isObjectType,
  own,
  parseTypeName,
  type TypeRef,
  type Vocabulary,
} from "../../dsl/vocabulary.ts";

/**
 * Checks that `args` has exactly the parameters and values of the right
 * shape; returns one message per problem (empty when fine).
 *
 * @example Usage
 * ```ts
 * import { checkArgs } from "./args.ts";
 * const vocab = { name: "v", types: {}, predicates: {}, functions: {}, actions: {} };
 * console.log(checkArgs([{ name: "n", type: "Num" }], { n: "two" }, vocab));
 * // [ 'Argument "n" must be Num but is "two"' ]
 * ```
 */
export function checkArgs(
  params: readonly { name: string; type: string }[],
  args: Readonly<Record<string, Value>>,
  vocab: Vocabulary,
): string[] {
  const errors: string[] = [];
  for (const p of params) {
    if (!(p.name in args)) {
      errors.push(`Missing argument "${p.name}" (${p.type})`);
      continue;
    }
    const ref = parseTypeName(p.type);
    if (ref && !fits(ref, args[p.name], vocab)) {
      errors.push(`Argument "${p.name}" must be ${p.type} but is ${JSON.stringify(args[p.name])}`);
    }
  }
  const known = new Set(params.map((p) => p.name));
  for (const name of Object.keys(args)) {
    if (!known.has(name)) {
      errors.push(
        `Unknown argument "${name}"; expected ${
          params.map((p) => `"${p.name}"`).join(", ") || "none"
        }`,
      );
    }
  }
  return errors;
}

function fits(type: TypeRef, value: Value, vocab: Vocabulary): boolean {
  if (type.kind === "list") {
    return Array.isArray(value) && value.every((v) => fits(type.of, v, vocab));
  }
  switch (type.name) {
    case "Num":
      return typeof value === "number";
    case "Bool":
      return typeof value === "boolean";
    default:
      return typeof value === "string" &&
        (type.name === "Str" || isObjectType(vocab, type.name) ||
          own(vocab.types, type.name)?.kind === "value");
  }
}
