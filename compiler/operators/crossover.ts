/**
 * Crossover: transplant a guarded step from a donor skill into other skills
 * by rebinding its input. The donor pattern is an action on a variable
 * followed by a check on that variable alone whose `yes` branch performs
 * one more action on it and rejoins (`go to r; if is_closed(r): open r`).
 * Wherever another skill performs the same anchor action on its own
 * variable without that check, the check and its action are inserted with
 * the variable renamed. A transplant is kept only if the recipient still
 * reproduces every segment it reproduced before.
 *
 * @module
 */
import { freshIds } from "../../dsl/graph/ids.ts";
import type { Expr } from "../../dsl/expr/ast.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import { printExpr } from "../../dsl/expr/print.ts";
import { freeVars, renameVars } from "../../dsl/expr/vars.ts";
import type { Edge, Node, PrimitiveNode, Skill } from "../../dsl/graph/schema.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { compileSkill } from "../../runtime/exec/program.ts";
import { replaySegment } from "../consistency.ts";
import { instanceOf, replaySegmentOf } from "../instances.ts";
import type { SegmentGroup } from "../segment.ts";

/** A guarded follow-up of an anchor action, found in a donor skill. */
export interface Transplant {
  donor: string;
  /** The anchor action and the argument carrying the variable. */
  anchor: string;
  arg: string;
  /** Condition and follow-up action, written over the placeholder variable `__v`. */
  cond: string;
  action: string;
  args: Record<string, string>;
}

/** Finds transplantable patterns in a skill. */
export function findTransplants(skill: Skill): Transplant[] {
  const byId = new Map(skill.nodes.map((n) => [n.id, n]));
  const out = (id: string, label: string) =>
    skill.edges.find((e) => e.from === id && e.label === label)?.to;
  const found: Transplant[] = [];
  for (const p of skill.nodes) {
    if (p.kind !== "primitive") continue;
    const cId = out(p.id, "next");
    const c = cId ? byId.get(cId) : undefined;
    if (!c || c.kind !== "check") continue;
    const qId = out(c.id, "yes");
    const q = qId ? byId.get(qId) : undefined;
    if (!q || q.kind !== "primitive" || out(q.id, "next") !== out(c.id, "no")) continue;
    for (const [arg, text] of Object.entries(p.args)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(text)) continue;
      const cond = parseExpr(c.cond);
      if (!cond.ok || !onlyVar(cond.value, text)) continue;
      const args: Record<string, string> = {};
      let ok = true;
      for (const [k, v] of Object.entries(q.args)) {
        const e = parseExpr(v);
        if (!e.ok || !onlyVar(e.value, text)) ok = false;
        else args[k] = renameVar(e.value, text, "__v");
      }
      if (!ok) continue;
      found.push({
        donor: skill.name,
        anchor: p.action,
        arg,
        cond: renameVar(cond.value, text, "__v"),
        action: q.action,
        args,
      });
    }
  }
  return found;
}

function onlyVar(e: Expr, name: string): boolean {
  const vars = freeVars(e);
  return vars.size === 1 && vars.has(name);
}

function renameVar(e: Expr, from: string, to: string): string {
  return printExpr(renameVars(e, { [from]: to }));
}

/** Inserts a transplant after every matching anchor of `skill`; undefined when none applies. */
export function applyTransplant(skill: Skill, t: Transplant): Skill | undefined {
  if (skill.name === t.donor) return undefined;
  const nodes: Node[] = [...skill.nodes];
  let edges: Edge[] = [...skill.edges];
  const fresh = freshIds(nodes.map((n) => n.id));
  let changed = false;
  for (const p of skill.nodes) {
    if (p.kind !== "primitive" || p.action !== t.anchor) continue;
    const v = (p as PrimitiveNode).args[t.arg];
    if (!v || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) continue;
    const next = edges.find((e) => e.from === p.id && e.label === "next");
    if (!next) continue;
    const cond = renameText(t.cond, "__v", v);
    const already = skill.nodes.find((n) => n.id === next.to);
    if (already?.kind === "check" && already.cond === cond) continue;
    const checkId = fresh(`check_${t.action}`);
    const actId = fresh(t.action);
    nodes.push({ id: checkId, kind: "check", cond });
    nodes.push({
      id: actId,
      kind: "primitive",
      action: t.action,
      args: Object.fromEntries(
        Object.entries(t.args).map(([k, a]) => [k, renameText(a, "__v", v)]),
      ),
    });
    edges = edges.filter((e) => e !== next);
    edges.push({ from: p.id, to: checkId, label: "next" });
    edges.push({ from: checkId, to: actId, label: "yes" });
    edges.push({ from: checkId, to: next.to, label: "no" });
    edges.push({ from: actId, to: next.to, label: "next" });
    changed = true;
  }
  return changed ? { ...skill, nodes, edges } : undefined;
}

function renameText(text: string, from: string, to: string): string {
  const e = parseExpr(text);
  return e.ok ? renameVar(e.value, from, to) : text;
}

/**
 * Applies every transplant found in any skill to the others, keeping a
 * change only when the recipient's covered segments stay covered. Returns
 * the skills (changed ones replaced).
 */
export function crossover(
  skills: readonly Skill[],
  groups: readonly SegmentGroup[],
  vocab: Vocabulary,
  explain: (line: string) => void,
): Skill[] {
  const transplants = skills.flatMap(findTransplants);
  const out = [...skills];
  out.forEach((skill, i) => {
    let current = skill;
    for (const t of transplants) {
      const candidate = applyTransplant(current, t);
      if (!candidate) continue;
      const compiledOld = compileSkill(current, vocab);
      const compiledNew = compileSkill(candidate, vocab);
      if (!compiledNew.ok || !compiledOld.ok) continue;
      const instances = groups[i].segments.map((s, k) => instanceOf(s, k, vocab));
      const keeps = instances.every((inst) => {
        const seg = replaySegmentOf(inst);
        return !replaySegment(compiledOld.value, inst.args, seg).ok ||
          replaySegment(compiledNew.value, inst.args, seg).ok;
      });
      const line = `[${current.name}] Crossover from ${t.donor}: after "${t.anchor}", if ${
        renameText(t.cond, "__v", "<" + t.arg + ">")
      } then ${t.action}`;
      if (keeps) {
        current = compiledNew.value.skill;
        explain(`${line}: accepted (covered segments stay covered)`);
      } else explain(`${line}: rejected (a covered segment would no longer be reproduced)`);
    }
    out[i] = current;
  });
  return out;
}
