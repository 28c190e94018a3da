/**
 * Structured programs: the form induction builds skills in (sequences,
 * guarded blocks, loops), compiled to the skill graph IR. Structure makes
 * alignment and folding simple; the graph is what runs and is stored.
 *
 * @module
 */
import { freshIds } from "../dsl/graph/ids.ts";
import type { Edge, Node, Param, SkillDoc, SkillInput } from "../dsl/graph/schema.ts";
import { parseExpr } from "../dsl/expr/parse.ts";
import { exprNodes } from "../dsl/expr/size.ts";
import { freeVars } from "../dsl/expr/vars.ts";

/** A statement of a structured program. */
export type Stmt =
  | { kind: "bind"; var: string; expr: string }
  | { kind: "act"; action: string; args: Record<string, string> }
  | {
    kind: "if";
    cond: string;
    then: Stmt[];
    else: Stmt[];
    /** Check again after `then` (a while loop): repeat until the condition fails. */
    repeat?: boolean;
  }
  | { kind: "loop"; var: string; over: string; body: Stmt[] }
  | { kind: "succeed" }
  | { kind: "fail"; message: string; diagnosis?: string };

/** A structured skill. */
export interface TreeSkill {
  name: string;
  vocabulary: string;
  params: Param[];
  doc: SkillDoc;
  body: Stmt[];
}

/**
 * Compiles a structured skill to the graph IR. A sequence that runs off its
 * end continues after its enclosing statement: after a loop body comes the
 * loop (next element), after the top level a success terminal.
 *
 * @example Usage
 * ```ts
 * import { treeToSkill } from "./program_tree.ts";
 * const skill = treeToSkill({
 *   name: "look_twice", vocabulary: "v", params: [], doc: { summary: "Look twice." },
 *   body: [{ kind: "act", action: "look", args: {} }, { kind: "act", action: "look", args: {} }],
 * });
 * console.log(skill.nodes.length); // 3
 * ```
 */
export function treeToSkill(tree: TreeSkill): SkillInput {
  const nodes: Node[] = [];
  const edges: Edge[] = [];
  const freshId = freshIds([]);
  const fresh = (base: string): string =>
    freshId(base.replace(/[^A-Za-z0-9_]/g, "_").replace(/^(\d)/, "_$1") || "node");
  let success: string | undefined;
  const successNode = (): string => {
    if (success === undefined) {
      success = fresh("success");
      nodes.push({ id: success, kind: "terminal", outcome: "success" });
    }
    return success;
  };
  // Emits a sequence whose fall-through goes to `cont` (undefined = success); returns its entry.
  const emit = (stmts: Stmt[], cont: () => string): string => {
    let next = cont;
    for (let i = stmts.length - 1; i >= 0; i--) {
      const s = stmts[i];
      const after = next;
      const entry = emitOne(s, after);
      next = () => entry;
    }
    return next();
  };
  const emitOne = (s: Stmt, cont: () => string): string => {
    switch (s.kind) {
      case "bind": {
        const id = fresh(`bind_${s.var}`);
        nodes.push({ id, kind: "data", var: s.var, expr: s.expr });
        edges.push({ from: id, to: cont(), label: "next" });
        return id;
      }
      case "act": {
        const id = fresh(s.action);
        nodes.push({ id, kind: "primitive", action: s.action, args: { ...s.args } });
        edges.push({ from: id, to: cont(), label: "next" });
        return id;
      }
      case "if": {
        const id = fresh("check");
        nodes.push({ id, kind: "check", cond: s.cond });
        const target = cont;
        edges.push({ from: id, to: emit(s.then, s.repeat ? () => id : target), label: "yes" });
        edges.push({ from: id, to: emit(s.else, target), label: "no" });
        return id;
      }
      case "loop": {
        const id = fresh(`each_${s.var}`);
        nodes.push({ id, kind: "loop", var: s.var, over: s.over });
        edges.push({ from: id, to: emit(s.body, () => id), label: "body" });
        edges.push({ from: id, to: cont(), label: "done" });
        return id;
      }
      case "succeed":
        return successNode();
      case "fail": {
        const id = fresh("fail");
        nodes.push({
          id,
          kind: "terminal",
          outcome: "failure",
          message: s.message,
          ...(s.diagnosis !== undefined ? { diagnosis: s.diagnosis } : {}),
        });
        return id;
      }
    }
  };
  const entry = emit(tree.body, successNode);
  // Put the entry first so files read top-down.
  const ordered = [...nodes.filter((n) => n.id === entry), ...nodes.filter((n) => n.id !== entry)];
  return {
    name: tree.name,
    vocabulary: tree.vocabulary,
    params: tree.params,
    doc: tree.doc,
    entry,
    nodes: ordered,
    edges,
  };
}

/**
 * Program size for the MDL objective: one per statement plus the size of
 * every expression (AST nodes).
 */
export function treeSize(stmts: readonly Stmt[]): number {
  let size = 0;
  for (const s of stmts) {
    size += 1;
    switch (s.kind) {
      case "bind":
        size += exprSize(s.expr);
        break;
      case "act":
        for (const a of Object.values(s.args)) size += exprSize(a);
        break;
      case "if":
        size += exprSize(s.cond) + treeSize(s.then) + treeSize(s.else);
        break;
      case "loop":
        size += exprSize(s.over) + treeSize(s.body);
        break;
      case "fail":
        if (s.diagnosis) size += exprSize(s.diagnosis);
        break;
      case "succeed":
        break;
    }
  }
  return size;
}

/** Number of AST nodes of an expression text (0 when it does not parse). */
export function exprSize(text: string): number {
  const r = parseExpr(text);
  return r.ok ? exprNodes(r.value) : 0;
}

/**
 * The variables the statements read (free variables of their expressions),
 * nested statements included.
 */
export function stmtReads(stmts: readonly Stmt[]): Set<string> {
  const out = new Set<string>();
  const read = (text: string | undefined) => {
    if (text === undefined) return;
    const parsed = parseExpr(text);
    if (parsed.ok) { for (const v of freeVars(parsed.value)) out.add(v); }
  };
  const visit = (list: readonly Stmt[]) => {
    for (const st of list) {
      switch (st.kind) {
        case "bind":
          read(st.expr);
          break;
        case "act":
          for (const a of Object.values(st.args)) read(a);
          break;
        case "if":
          read(st.cond);
          visit(st.then);
          visit(st.else);
          break;
        case "loop":
          read(st.over);
          visit(st.body);
          break;
        case "fail":
          read(st.diagnosis);
          break;
        case "succeed":
          break;
      }
    }
  };
  visit(stmts);
  return out;
}
