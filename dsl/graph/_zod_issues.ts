/**
 * Turns zod's schema issues into skill issues that name the field and node.
 *
 * @module
 */
import type { z } from "zod";
import type { SkillIssue } from "./issue.ts";

type ZodIssue = z.core.$ZodIssue;

/** A zod issue reduced to a path and a message. */
interface PlainIssue {
  path: PropertyKey[];
  message: string;
}

/**
 * Flattens union errors: the branch whose `kind` matched explains the
 * problem; when no branch matched, the `kind` itself is the problem.
 */
function flattenZod(issue: ZodIssue, input: unknown): PlainIssue[] {
  if (issue.code !== "invalid_union" || issue.errors.length === 0) {
    return [{ path: issue.path, message: issue.message }];
  }
  const isKind = (i: ZodIssue): boolean => i.path.length === 1 && i.path[0] === "kind";
  const branch = issue.errors.find((b) => !b.some(isKind));
  if (branch) {
    return branch.flatMap((i) => flattenZod({ ...i, path: [...issue.path, ...i.path] }, input));
  }
  const kinds = issue.errors.flatMap((b) =>
    b.flatMap((i) => isKind(i) && i.code === "invalid_value" ? i.values.map(String) : [])
  );
  let value: unknown = input;
  for (const p of issue.path) value = (value as Record<PropertyKey, unknown> | null)?.[p];
  const kind = (value as { kind?: unknown } | null)?.kind;
  return [{
    path: [...issue.path, "kind"],
    message: `unknown kind ${JSON.stringify(kind)} (expected ${
      kinds.map((k) => `"${k}"`).join(", ")
    })`,
  }];
}

/**
 * Skill issues from zod issues: the path becomes `field` (`nodes[2].kind`)
 * and, inside a node, the node's id names it.
 */
export function zodIssues(zi: ZodIssue[], input: unknown): SkillIssue[] {
  return zi.flatMap((z) => flattenZod(z, input)).map((i) => {
    const field = i.path.map((p, k) =>
      typeof p === "number" ? `[${p}]` : `${k === 0 ? "" : "."}${String(p)}`
    ).join("");
    const issue: SkillIssue = {
      field,
      message: field === "" ? `Skill: ${i.message}` : `Field "${field}": ${i.message}`,
    };
    if (i.path[0] === "nodes" && typeof i.path[1] === "number") {
      const nodes = (input as { nodes?: unknown } | null)?.nodes;
      const id = Array.isArray(nodes)
        ? (nodes[i.path[1]] as { id?: unknown } | null)?.id
        : undefined;
      if (typeof id === "string") {
        issue.node = id;
        issue.message = `Node "${id}": field "${field}": ${i.message}`;
      }
    }
    return issue;
  });
}
