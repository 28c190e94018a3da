/**
 * A program: a validated skill with its expressions parsed and its edges
 * indexed, ready for the interpreter. Compiling once keeps parsing out of
 * the step loop.
 *
 * @module
 */
import type { Expr } from "../../dsl/expr/ast.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import type { EdgeLabel, Node, Skill } from "../../dsl/graph/schema.ts";
import { loopBodies, type SkillIssue, validateSkill } from "../../dsl/graph/validate.ts";
import { cyclicNodes } from "../../dsl/graph/_control_flow.ts";
import type { Result } from "../../dsl/result.ts";
import { err, ok } from "../../dsl/result.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";

/** A callable skill signature, as seen by a caller. */
export interface SkillSignature {
  params: { name: string; type: string }[];
}

/** A compiled skill. */
export interface Program {
  /** The validated skill. */
  readonly skill: Skill;
  /** The vocabulary it was checked against. */
  readonly vocab: Vocabulary;
  /** Nodes by id. */
  readonly nodes: ReadonlyMap<string, Node>;
  /** Out-edges by node id and label. */
  readonly out: ReadonlyMap<string, Partial<Record<EdgeLabel, string>>>;
  /** For each loop, the nodes of its body (an edge from one of them continues the loop). */
  readonly loopBodies: ReadonlyMap<string, ReadonlySet<string>>;
  /** The nodes on a cycle: the only ones a run can visit more than once. */
  readonly cyclic: ReadonlySet<string>;
  /** Parsed expressions keyed `nodeId.field` (`expr`, `cond`, `over`, `diagnosis`, `args.name`). */
  readonly exprs: ReadonlyMap<string, Expr>;
}

/**
 * Validates a skill (given as parsed JSON data) and compiles it.
 *
 * @param input The skill data.
 * @param vocab The vocabulary of its environment.
 * @param skills Signatures of other skills it may call.
 * @returns The program, or every validation issue.
 */
export function compileSkill(
  input: unknown,
  vocab: Vocabulary,
  skills: Record<string, SkillSignature> = {},
): Result<Program, SkillIssue[]> {
  const checked = validateSkill(input, vocab, { skills });
  if (!checked.ok) return checked;
  const skill = checked.value;
  const nodes = new Map(skill.nodes.map((n) => [n.id, n]));
  const out = new Map<string, Partial<Record<EdgeLabel, string>>>();
  for (const n of skill.nodes) out.set(n.id, {});
  for (const e of skill.edges) out.get(e.from)![e.label] = e.to;
  const exprs = new Map<string, Expr>();
  const issues: SkillIssue[] = [];
  const add = (node: string, field: string, text: string | undefined) => {
    if (text === undefined) return;
    const parsed = parseExpr(text);
    if (parsed.ok) exprs.set(`${node}.${field}`, parsed.value);
    else issues.push({ node, field, message: parsed.error.message });
  };
  for (const n of skill.nodes) {
    switch (n.kind) {
      case "data":
        add(n.id, "expr", n.expr);
        break;
      case "check":
        add(n.id, "cond", n.cond);
        break;
      case "loop":
        add(n.id, "over", n.over);
        add(n.id, "after", n.after?.cond);
        break;
      case "primitive":
        for (const [name, text] of Object.entries(n.args)) add(n.id, `args.${name}`, text);
        break;
      case "terminal":
        add(n.id, "diagnosis", n.diagnosis);
        break;
    }
  }
  if (issues.length > 0) return err(issues);
  return ok({
    skill,
    vocab,
    nodes,
    out,
    loopBodies: loopBodies(skill),
    cyclic: cyclicNodes(skill),
    exprs,
  });
}

/**
 * Renders validation issues as lines `file:line:col: node "id": message (at field)`.
 *
 * @example Usage
 * ```ts
 * import { formatIssues } from "./program.ts";
 * console.log(formatIssues([{ node: "a", message: "Unknown action \"fly\"" }], "demo.json"));
 * // demo.json: node "a": Unknown action "fly"
 * ```
 */
export function formatIssues(issues: readonly SkillIssue[], where: string): string {
  return issues.map((i) => {
    const at = i.line !== undefined ? `:${i.line}:${i.column ?? 1}` : "";
    const field = i.field !== undefined && !i.message.includes(i.field) ? ` (at ${i.field})` : "";
    const node = i.node !== undefined && !i.message.includes(`"${i.node}"`)
      ? `node "${i.node}": `
      : "";
    return `${where}${at}: ${node}${i.message}${field}`;
  }).join("\n");
}
