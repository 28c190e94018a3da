/**
 * Honing's changes as small, replayable edits. A graft, its removal or
 * solidification and a narrowed precondition are each recorded as data
 * beside the history line, so that a change made against one version of a
 * library can be applied again to a newer version another process wrote
 * meanwhile ({@linkcode replayEdits}): concurrent honing then merges
 * instead of dropping work.
 *
 * @module
 */
import { z } from "zod";
import { freshIds } from "../../dsl/graph/ids.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import { printExpr } from "../../dsl/expr/print.ts";
import type { Edge, Graft, Node, Skill } from "../../dsl/graph/schema.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { compileSkill } from "../exec/program.ts";

/** One corrective action of a graft: an action and its argument expressions. */
export interface GraftStep {
  action: string;
  args: Record<string, string>;
}

/**
 * A replayable change to one skill:
 * - `graft`: insert `guard ? steps : nothing` before node `before`, as graft `graft`
 *   (with `repeat`, `while guard: steps`: the last step goes back to the guard; with
 *   `instead`, the steps replace the node: the last goes where the node's `next` edge goes);
 * - `remove`: remove graft `graft` and restore the edges it redirected;
 * - `solidify`: mark graft `graft` permanent;
 * - `narrow`: exclude the context `cond` from the precondition and add `note` to the summary.
 */
export type SkillEdit =
  | {
    op: "graft";
    skill: string;
    graft: string;
    before: string;
    guard: string;
    steps: GraftStep[];
    repeat?: boolean;
    instead?: boolean;
  }
  | { op: "remove"; skill: string; graft: string }
  | { op: "solidify"; skill: string; graft: string }
  | { op: "narrow"; skill: string; cond?: string; note: string };

const Name = z.string().min(1).max(200);
/** Zod schema of a {@linkcode SkillEdit}. */
export const SkillEditSchema: z.ZodType<SkillEdit, SkillEdit> = z.discriminatedUnion("op", [
  z.object({
    op: z.literal("graft"),
    skill: Name,
    graft: Name,
    before: Name,
    guard: z.string().min(1),
    steps: z.array(
      z.object({ action: Name, args: z.record(z.string(), z.string()) }).strict(),
    ).min(1),
    repeat: z.boolean().optional(),
    instead: z.boolean().optional(),
  }).strict(),
  z.object({ op: z.literal("remove"), skill: Name, graft: Name }).strict(),
  z.object({ op: z.literal("solidify"), skill: Name, graft: Name }).strict(),
  z.object({ op: z.literal("narrow"), skill: Name, cond: z.string().optional(), note: z.string() })
    .strict(),
]);

/** What {@linkcode applySkillEdit} did. */
export interface EditResult {
  /** The skill after the edit (the input itself when nothing changed). */
  skill: Skill;
  /** For a graft: the id it has in the result (a new one, or an equal graft already there). */
  graft?: string;
  /** Set when the edit did not apply as recorded: why, in words. */
  note?: string;
}

/**
 * Applies one edit to `skill`. Never throws on an edit that no longer fits
 * (a node or graft that is gone, a graft id taken): the result says what
 * happened instead.
 *
 * @example Usage
 * ```ts ignore
 * const { skill: narrowed } = applySkillEdit(skill, {
 *   op: "narrow", skill: skill.name, cond: "locked(b)", note: "Does not apply when locked(b).",
 * });
 * ```
 */
export function applySkillEdit(
  skill: Skill,
  edit: SkillEdit,
  options: { graftId?: string } = {},
): EditResult {
  switch (edit.op) {
    case "graft":
      return insertGraft(skill, edit, options.graftId ?? edit.graft);
    case "remove": {
      const graft = (skill.grafts ?? []).find((g) => g.id === edit.graft);
      if (!graft) return { skill, note: `graft ${edit.graft} is no longer in the skill` };
      const removed = removeGraft(skill, graft);
      return removed ? { skill: removed } : { skill, note: `graft ${edit.graft} is malformed` };
    }
    case "solidify": {
      const graft = (skill.grafts ?? []).find((g) => g.id === edit.graft);
      if (!graft) return { skill, note: `graft ${edit.graft} is no longer in the skill` };
      if (graft.status === "permanent") return { skill };
      return {
        skill: {
          ...skill,
          grafts: (skill.grafts ?? []).map((g) =>
            g === graft ? { ...g, status: "permanent" as const } : g
          ),
        },
      };
    }
    case "narrow": {
      const doc = { ...skill.doc };
      if (edit.cond !== undefined && !(doc.excluded ?? []).includes(edit.cond)) {
        doc.excluded = [...(doc.excluded ?? []), edit.cond];
        const not = negation(edit.cond);
        doc.pre = doc.pre ? `(${doc.pre}) and ${not}` : not;
      }
      if (!doc.summary.includes(edit.note)) doc.summary = `${doc.summary} ${edit.note}`;
      return { skill: { ...skill, doc } };
    }
  }
}

/**
 * Replays `edits` (made against an older version) on `skills`, in order.
 * A graft whose id is taken gets the next free one (later edits of the
 * batch follow the renaming); a graft equal to one already there (same
 * node, guard and steps) is not added twice; an edit whose result does not
 * compile against `vocab` is left out. Each note says what differed, keyed
 * by the edit's index.
 */
export function replayEdits(
  skills: readonly Skill[],
  edits: readonly SkillEdit[],
  vocab: Vocabulary,
): { skills: Skill[]; notes: Map<number, string> } {
  const byName = new Map(skills.map((s) => [s.name, structuredClone(s)]));
  const notes = new Map<number, string>();
  const renamed = new Map<string, string>();
  let next = nextGraftNumber([...byName.values()]);
  edits.forEach((edit, i) => {
    const skill = byName.get(edit.skill);
    if (!skill) {
      notes.set(i, `skill "${edit.skill}" is no longer in the library`);
      return;
    }
    const key = `${edit.skill}\0${"graft" in edit ? edit.graft : ""}`;
    let result: EditResult;
    if (edit.op === "graft") {
      const taken = [...byName.values()].some((s) =>
        (s.grafts ?? []).some((g) => g.id === edit.graft)
      );
      const id = taken ? `g${next}` : edit.graft;
      result = applySkillEdit(skill, edit, { graftId: id });
      if (result.graft !== undefined) {
        renamed.set(key, result.graft);
        if (result.graft === id) next = Math.max(next, graftNumber(id) + 1);
        if (result.graft !== edit.graft && !result.note) {
          result = { ...result, note: `recorded as ${result.graft}` };
        }
      }
    } else if (edit.op === "remove" || edit.op === "solidify") {
      const graft = renamed.get(key) ?? edit.graft;
      result = applySkillEdit(skill, { ...edit, graft });
    } else {
      result = applySkillEdit(skill, edit);
    }
    if (result.skill !== skill && !compileSkill(result.skill, vocab).ok) {
      notes.set(i, "left out: the edited skill would not validate on this version");
      return;
    }
    if (result.note) notes.set(i, result.note);
    byName.set(edit.skill, result.skill);
  });
  return { skills: skills.map((s) => byName.get(s.name)!), notes };
}

/** The number after the last graft id of `skills` (ids are `g<n>`). */
export function nextGraftNumber(skills: readonly Skill[]): number {
  let next = 1;
  for (const s of skills) {
    for (const g of s.grafts ?? []) next = Math.max(next, graftNumber(g.id) + 1);
  }
  return next;
}

function graftNumber(id: string): number {
  return Number(/(\d+)$/.exec(id)?.[1] ?? 0);
}

/** The node a graft's check falls through to: the node it was grafted before. */
function graftTarget(skill: Skill, graft: Graft): string | undefined {
  return skill.edges.find((e) => e.from === graft.nodes[0] && e.label === "no")?.to;
}

function insertGraft(
  skill: Skill,
  edit: Extract<SkillEdit, { op: "graft" }>,
  graftId: string,
): EditResult {
  if (!skill.nodes.some((n) => n.id === edit.before)) {
    return { skill, note: `node "${edit.before}" is no longer in the skill` };
  }
  const nodeById = new Map(skill.nodes.map((n) => [n.id, n]));
  const same = (skill.grafts ?? []).find((g) => {
    const check = nodeById.get(g.nodes[0]);
    const steps = g.nodes.slice(1).map((id) => nodeById.get(id));
    return graftTarget(skill, g) === edit.before && check?.kind === "check" &&
      check.cond === edit.guard && steps.length === edit.steps.length &&
      steps.every((n, i) =>
        n?.kind === "primitive" && n.action === edit.steps[i].action &&
        sameArgs(n.args, edit.steps[i].args)
      );
  });
  if (same) return { skill, graft: same.id, note: `the same graft is already there as ${same.id}` };
  const fresh = freshIds(skill.nodes.map((n) => n.id));
  const steps: Node[] = edit.steps.map((s) => ({
    id: fresh(`recover_${s.action}`),
    kind: "primitive",
    action: s.action,
    args: { ...s.args },
  }));
  const check: Node = { id: fresh(`graft_${graftId}`), kind: "check", cond: edit.guard };
  const edges: Edge[] = skill.edges.map((e) => e.to === edit.before ? { ...e, to: check.id } : e);
  edges.push({ from: check.id, to: steps[0].id, label: "yes" });
  edges.push({ from: check.id, to: edit.before, label: "no" });
  const after = edit.instead
    ? skill.edges.find((e) => e.from === edit.before && e.label === "next")?.to
    : undefined;
  if (edit.instead && after === undefined) {
    return { skill, note: `node "${edit.before}" has no next edge to continue at` };
  }
  steps.forEach((s, i) =>
    edges.push({
      from: s.id,
      to: i + 1 < steps.length ? steps[i + 1].id : edit.repeat ? check.id : after ?? edit.before,
      label: "next",
    })
  );
  return {
    skill: {
      ...skill,
      entry: skill.entry === edit.before ? check.id : skill.entry,
      nodes: [...skill.nodes, check, ...steps],
      edges,
      grafts: [
        ...(skill.grafts ?? []),
        {
          id: graftId,
          nodes: [check.id, ...steps.map((s) => s.id)],
          status: "tentative",
          successes: 0,
        },
      ],
    },
    graft: graftId,
  };
}

function removeGraft(skill: Skill, graft: Graft): Skill | undefined {
  const [checkId, ...rest] = graft.nodes;
  const target = graftTarget(skill, graft);
  if (target === undefined) return undefined;
  const removed = new Set(graft.nodes);
  return {
    ...skill,
    entry: skill.entry === checkId ? target : skill.entry,
    nodes: skill.nodes.filter((n) => !removed.has(n.id)),
    edges: skill.edges
      .filter((e) => !removed.has(e.from))
      .map((e) => e.to === checkId ? { ...e, to: target } : e)
      .filter((e) => !removed.has(e.to) || rest.length === 0),
    grafts: (skill.grafts ?? []).filter((g) => g.id !== graft.id),
  };
}

function sameArgs(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length &&
    ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

/** `not (cond)`, with a double negation dropped: `not exists(...)` becomes `exists(...)`. */
function negation(cond: string): string {
  const parsed = parseExpr(cond);
  if (parsed.ok && parsed.value.kind === "not") return printExpr(parsed.value.arg);
  return `not (${cond})`;
}
