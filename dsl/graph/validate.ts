/**
 * Skill validation: schema, graph structure, definite assignment and the
 * types of every expression. Every problem is reported, each naming the node
 * (and the expression position) it concerns; a skill is accepted only when
 * there are none.
 *
 * @module
 */
import { checkExpr, type Expr, freeVars, parseExpr } from "../expr/mod.ts";
import { err, ok, type Result } from "../result.ts";
import {
  formatType,
  isAssignable,
  isKnownType,
  own,
  parseTypeName,
  type Vocabulary,
} from "../vocabulary.ts";
import {
  breadthFirstOrder,
  definitelyAssigned,
  nodesById,
  reachableFrom,
  unassignedPath,
} from "./_control_flow.ts";
import type { SkillIssue } from "./issue.ts";
export type { SkillIssue } from "./issue.ts";
import { checkStructure } from "./_structure.ts";
import { zodIssues } from "./_zod_issues.ts";
import { type Node, type Skill, SkillSchema } from "./schema.ts";

export { loopBodies, outEdge } from "./_control_flow.ts";

/** Callable skill signatures (a library's skills), by name. */
export type SkillSignatures = Record<string, { params: { name: string; type: string }[] }>;

/** Options of {@linkcode validateSkill}. */
export interface ValidateOptions {
  /** Skills that primitive nodes may call besides the vocabulary's actions. */
  skills?: SkillSignatures;
}

/** An expression of a node, with where it sits. */
interface Site {
  node: Node;
  index: number;
  /** Field path inside the node, e.g. `cond` or `args.target`. */
  field: string;
  text: string;
  expr?: Expr;
}

/**
 * Validates a skill: parses it with {@linkcode SkillSchema}, then checks its
 * structure, reachability, definite assignment and expression types.
 *
 * @param input The skill as plain data (e.g. parsed JSON).
 * @param vocab The vocabulary its expressions and actions are checked against.
 * @param options Callable skills of a library.
 * @returns The parsed skill, or every issue found.
 *
 * @example Usage
 * ```ts
 * import { validateSkill } from "./validate.ts";
 * const vocab = { name: "v", types: {}, predicates: {}, functions: {}, actions: {} };
 * const r = validateSkill({
 *   name: "s", vocabulary: "v", params: [], doc: { summary: "" }, entry: "c",
 *   nodes: [{ id: "c", kind: "check", cond: "1" }, { id: "t", kind: "terminal", outcome: "success" }],
 *   edges: [{ from: "c", to: "t", label: "yes" }],
 * }, vocab);
 * console.log(!r.ok && r.error.map((i) => i.message));
 * // [ 'Node "c": expected out-edges "yes" and "no" but "no" is missing', 'Node "c": "cond" must be Bool but is Num' ]
 * ```
 */
export function validateSkill(
  input: unknown,
  vocab: Vocabulary,
  options: ValidateOptions = {},
): Result<Skill, SkillIssue[]> {
  const parsed = SkillSchema.safeParse(input);
  if (!parsed.success) return err(zodIssues(parsed.error.issues, input));
  const skill = parsed.data;
  if (skill.vocabulary !== vocab.name) {
    // Its predicates and actions would be read in another vocabulary's sense.
    return err([{
      field: "vocabulary",
      message:
        `Skill "${skill.name}" is written for vocabulary "${skill.vocabulary}" but the environment's is "${vocab.name}"`,
    }]);
  }
  const issues = checkStructure(skill);
  checkParams(skill, vocab, issues);
  const sites = parseSites(skill, issues);
  const inferred = inferTypes(skill, vocab, sites);
  checkTypeConflicts(skill, inferred, issues);
  checkExpressions(skill, vocab, sites, inferred.env, options.skills ?? {}, issues);
  checkAssignments(skill, sites, issues);
  checkDoc(skill, vocab, issues);
  return issues.length > 0 ? err(issues) : ok(skill);
}

/**
 * The inferred type of every variable of a valid (or partly valid) skill:
 * parameters, data-node and loop variables.
 *
 * @example Usage
 * ```ts
 * import { variableTypes } from "./validate.ts";
 * const vocab = { name: "v", types: {}, predicates: {}, functions: {}, actions: {} };
 * const skill = {
 *   format: "skillc/skill@1" as const, name: "s", vocabulary: "v", params: [], doc: { summary: "" },
 *   entry: "d",
 *   nodes: [{ id: "d", kind: "data" as const, var: "n", expr: "1 + 2" }],
 *   edges: [],
 * };
 * console.log(variableTypes(skill, vocab)); // { n: "Num" }
 * ```
 */
export function variableTypes(skill: Skill, vocab: Vocabulary): Record<string, string> {
  return inferTypes(skill, vocab, parseSites(skill, [])).env;
}

function checkParams(skill: Skill, vocab: Vocabulary, issues: SkillIssue[]): void {
  const seen = new Set<string>();
  skill.params.forEach((p, i) => {
    if (seen.has(p.name)) {
      issues.push({
        field: `params[${i}].name`,
        message: `Parameter "${p.name}" is declared twice`,
      });
    }
    seen.add(p.name);
    if (!isKnownType(vocab, p.type)) {
      issues.push({
        field: `params[${i}].type`,
        message: `Parameter "${p.name}": unknown type "${p.type}"`,
      });
    }
  });
}

function exprTexts(node: Node): { field: string; text: string }[] {
  switch (node.kind) {
    case "data":
      return [{ field: "expr", text: node.expr }];
    case "check":
      return [{ field: "cond", text: node.cond }];
    case "loop":
      return [
        { field: "over", text: node.over },
        ...(node.after ? [{ field: "after.cond", text: node.after.cond }] : []),
      ];
    case "primitive":
      return Object.entries(node.args).map(([k, text]) => ({ field: `args.${k}`, text }));
    case "terminal":
      return node.diagnosis === undefined ? [] : [{ field: "diagnosis", text: node.diagnosis }];
  }
}

/** Parses every node expression; parse errors become issues. Keyed by node id (first node wins). */
function parseSites(skill: Skill, issues: SkillIssue[]): Map<string, Site[]> {
  const out = new Map<string, Site[]>();
  skill.nodes.forEach((node, index) => {
    const sites: Site[] = [];
    for (const { field, text } of exprTexts(node)) {
      const r = parseExpr(text);
      if (r.ok) sites.push({ node, index, field, text, expr: r.value });
      else {
        sites.push({ node, index, field, text });
        issues.push({
          node: node.id,
          field: `nodes[${index}].${field}`,
          line: r.error.line,
          column: r.error.column,
          message: `Node "${node.id}": cannot parse "${field}" ${
            JSON.stringify(text)
          }: ${r.error.message} at ${r.error.line}:${r.error.column}`,
        });
      }
    }
    if (!out.has(node.id)) out.set(node.id, sites);
  });
  return out;
}

interface Inferred {
  /** Variable -> type: parameters, then the first assignment in breadth-first order. */
  env: Record<string, string>;
  /** Node id -> the type it assigns to its variable. */
  assigned: Map<string, string>;
}

/** The element type of a list type name, if it is one. */
function elementType(type: string): string | undefined {
  const t = parseTypeName(type);
  return t?.kind === "list" ? formatType(t.of) : undefined;
}

/**
 * Infers variable types: visit nodes breadth-first from the entry, type each
 * assigning expression with the types known so far, and repeat until no type
 * changes (a variable may be used above its assignment in a loop).
 */
function inferTypes(skill: Skill, vocab: Vocabulary, sites: Map<string, Site[]>): Inferred {
  const params: Record<string, string> = {};
  for (const p of skill.params) {
    if (isKnownType(vocab, p.type) && !(p.name in params)) params[p.name] = p.type;
  }
  let env = { ...params };
  let assigned = new Map<string, string>();
  const order = breadthFirstOrder(skill);
  for (let round = 0; round <= skill.nodes.length + 1; round++) {
    const next = { ...params };
    assigned = new Map();
    for (const id of order) {
      const site = sites.get(id)?.[0];
      if (!site?.expr || (site.node.kind !== "data" && site.node.kind !== "loop")) continue;
      const r = checkExpr(site.expr, { vocab, vars: env }, site.text);
      if (!r.ok) continue;
      const type = site.node.kind === "data" ? r.value : elementType(r.value);
      if (type === undefined) continue;
      assigned.set(id, type);
      if (!(site.node.var in next)) next[site.node.var] = type;
    }
    const same = Object.keys(next).length === Object.keys(env).length &&
      Object.entries(next).every(([k, v]) => env[k] === v);
    env = next;
    if (same) break;
  }
  return { env, assigned };
}

function checkTypeConflicts(skill: Skill, inferred: Inferred, issues: SkillIssue[]): void {
  const first = new Map<string, { node?: string; type: string }>();
  for (const p of skill.params) if (!first.has(p.name)) first.set(p.name, { type: p.type });
  const byId = nodesById(skill);
  for (const id of breadthFirstOrder(skill)) {
    const type = inferred.assigned.get(id);
    const node = byId.get(id);
    if (type === undefined || !node || (node.kind !== "data" && node.kind !== "loop")) continue;
    const prev = first.get(node.var);
    if (!prev) {
      first.set(node.var, { node: id, type });
      continue;
    }
    if (sameType(prev.type, type)) continue;
    const message = prev.node === undefined
      ? `Node "${id}": variable "${node.var}" is a parameter of type ${prev.type} and cannot be assigned ${type}`
      : `Node "${id}": variable "${node.var}" is assigned ${type} here but ${prev.type} at node "${prev.node}"`;
    issues.push({ node: id, field: `nodes[${skill.nodes.indexOf(node)}].var`, message });
  }
}

function sameType(a: string, b: string): boolean {
  const x = parseTypeName(a);
  const y = parseTypeName(b);
  return x !== undefined && y !== undefined ? formatType(x) === formatType(y) : a === b;
}

function checkExpressions(
  skill: Skill,
  vocab: Vocabulary,
  sites: Map<string, Site[]>,
  env: Record<string, string>,
  skills: SkillSignatures,
  issues: SkillIssue[],
): void {
  skill.nodes.forEach((node, index) => {
    const own = sites.get(node.id)?.filter((s) => s.index === index) ?? [];
    if (node.kind === "primitive") checkAction(node, index, vocab, skills, issues);
    for (const site of own) {
      if (!site.expr) continue;
      const vars = site.field === "after.cond" ? precedenceVars(node, own, vocab, env) : env;
      if (!vars) continue;
      // A variable without a type is reported where it is assigned (or never is).
      if ([...freeVars(site.expr)].some((v) => !(v in vars))) continue;
      const r = checkExpr(site.expr, { vocab, vars }, site.text);
      const where = { node: node.id, field: `nodes[${index}].${site.field}` };
      if (!r.ok) {
        for (const e of r.error) {
          issues.push({
            ...where,
            line: e.line,
            column: e.column,
            message: `Node "${node.id}": in "${site.field}" ${
              JSON.stringify(site.text)
            }: ${e.message} at ${e.line}:${e.column}`,
          });
        }
        continue;
      }
      const type = r.value;
      const bad = (message: string): number =>
        issues.push({ ...where, message: `Node "${node.id}": ${message}` });
      if (
        (site.field === "cond" || site.field === "diagnosis" || site.field === "after.cond") &&
        type !== "Bool"
      ) {
        bad(`"${site.field}" must be Bool but is ${type}`);
      }
      if (site.field === "over" && elementType(type) === undefined) {
        bad(`"over" must be a List but is ${type}`);
      }
      if (node.kind === "primitive") {
        const name = site.field.slice("args.".length);
        const param = actionParams(node.action, vocab, skills)?.find((p) => p.name === name);
        if (param && !isAssignable(vocab, type, param.type)) {
          bad(`argument "${name}" of action "${node.action}" must be ${param.type} but is ${type}`);
        }
      }
    }
  });
}

/**
 * The variables a loop's precedence reads: the loop variable and the
 * other element, both of the element type; undefined when `over` does not
 * type-check (reported there).
 */
function precedenceVars(
  node: Node,
  sites: readonly Site[],
  vocab: Vocabulary,
  env: Record<string, string>,
): Record<string, string> | undefined {
  const over = sites.find((s) => s.field === "over");
  if (node.kind !== "loop" || !node.after || !over?.expr) return undefined;
  const r = checkExpr(over.expr, { vocab, vars: env }, over.text);
  const element = r.ok ? elementType(r.value) : undefined;
  if (element === undefined) return undefined;
  return { ...env, [node.var]: element, [node.after.var]: element };
}

function actionParams(
  action: string,
  vocab: Vocabulary,
  skills: SkillSignatures,
): { name: string; type: string }[] | undefined {
  return own(vocab.actions, action)?.params ?? own(skills, action)?.params;
}

function checkAction(
  node: Extract<Node, { kind: "primitive" }>,
  index: number,
  vocab: Vocabulary,
  skills: SkillSignatures,
  issues: SkillIssue[],
): void {
  const params = actionParams(node.action, vocab, skills);
  const at = { node: node.id, field: `nodes[${index}].action` };
  if (!params) {
    issues.push({
      ...at,
      message:
        `Node "${node.id}": unknown action "${node.action}" (neither a vocabulary action nor a skill)`,
    });
    return;
  }
  const names = params.map((p) => `"${p.name}"`).join(", ") || "none";
  for (const p of params) {
    if (!(p.name in node.args)) {
      issues.push({
        ...at,
        message: `Node "${node.id}": missing argument "${p.name}" of action "${node.action}"`,
      });
    }
  }
  for (const a of Object.keys(node.args)) {
    if (!params.some((p) => p.name === a)) {
      issues.push({
        node: node.id,
        field: `nodes[${index}].args.${a}`,
        message:
          `Node "${node.id}": unknown argument "${a}" of action "${node.action}" (parameters: ${names})`,
      });
    }
  }
}

function checkAssignments(skill: Skill, sites: Map<string, Site[]>, issues: SkillIssue[]): void {
  const params = skill.params.map((p) => p.name);
  const assignedIn = definitelyAssigned(skill, params);
  const everAssigned = new Set(params);
  for (const n of skill.nodes) if (n.kind === "data" || n.kind === "loop") everAssigned.add(n.var);
  for (const id of reachableFrom(skill, skill.entry)) {
    const have = assignedIn.get(id) ?? new Set<string>();
    const reported = new Set<string>();
    for (const site of sites.get(id) ?? []) {
      if (!site.expr) continue;
      const node = site.node;
      // A precedence binds the loop variable and the other element itself.
      const own = site.field === "after.cond" && node.kind === "loop" && node.after
        ? new Set([node.var, node.after.var])
        : undefined;
      for (const v of freeVars(site.expr)) {
        if (have.has(v) || reported.has(v) || own?.has(v)) continue;
        reported.add(v);
        const where = { node: id, field: `nodes[${site.index}].${site.field}` };
        if (!everAssigned.has(v)) {
          issues.push({ ...where, message: `Node "${id}": variable "${v}" is never assigned` });
          continue;
        }
        const path = unassignedPath(skill, v, id);
        const via = path ? ` (not assigned on the path ${path.join(" -> ")})` : "";
        issues.push({
          ...where,
          message: `Node "${id}": variable "${v}" may be read before it is assigned${via}`,
        });
      }
    }
  }
}

function checkDoc(skill: Skill, vocab: Vocabulary, issues: SkillIssue[]): void {
  const env: Record<string, string> = {};
  for (const p of skill.params) if (isKnownType(vocab, p.type)) env[p.name] = p.type;
  const texts: { field: string; text: string }[] = [];
  if (skill.doc.pre !== undefined) texts.push({ field: "doc.pre", text: skill.doc.pre });
  if (skill.doc.post !== undefined) texts.push({ field: "doc.post", text: skill.doc.post });
  (skill.doc.excluded ?? []).forEach((text, i) =>
    texts.push({ field: `doc.excluded[${i}]`, text })
  );
  for (const { field, text } of texts) {
    const r = parseExpr(text);
    if (!r.ok) {
      issues.push({
        field,
        line: r.error.line,
        column: r.error.column,
        message: `Docstring "${field}": cannot parse ${
          JSON.stringify(text)
        }: ${r.error.message} at ${r.error.line}:${r.error.column}`,
      });
      continue;
    }
    const stray = [...freeVars(r.value)].filter((v) => !skill.params.some((p) => p.name === v));
    if (stray.length > 0) {
      const names = stray.map((v) => `"${v}"`).join(", ");
      issues.push({
        field,
        message: `Docstring "${field}": may only use parameters, not ${names}`,
      });
      continue;
    }
    if (Object.keys(env).length < skill.params.length) continue; // a parameter type is already reported
    const t = checkExpr(r.value, { vocab, vars: env }, text);
    if (!t.ok) {
      for (const e of t.error) {
        issues.push({
          field,
          line: e.line,
          column: e.column,
          message: `Docstring "${field}": ${e.message} at ${e.line}:${e.column}`,
        });
      }
    } else if (t.value !== "Bool") {
      issues.push({ field, message: `Docstring "${field}" must be Bool but is ${t.value}` });
    }
  }
}
