/**
 * Structural checks of a skill graph: unique node ids, a known entry, edges
 * between known nodes, the out-edge labels each node kind requires, and
 * reachability of every node from the entry.
 *
 * @module
 */
import { edgesBy, reachableFrom } from "./_control_flow.ts";
import { type Edge, type EdgeLabel, type Node, OUT_EDGES, type Skill } from "./schema.ts";
import type { SkillIssue } from "./issue.ts";

/** Every structural problem of the skill's graph. */
export function checkStructure(skill: Skill): SkillIssue[] {
  const issues: SkillIssue[] = [];
  const firstIndex = new Map<string, number>();
  skill.nodes.forEach((n, i) => {
    const prev = firstIndex.get(n.id);
    if (prev === undefined) firstIndex.set(n.id, i);
    else {
      issues.push({
        node: n.id,
        field: `nodes[${i}].id`,
        message: `Node "${n.id}": duplicate node id (nodes[${prev}] and nodes[${i}])`,
      });
    }
  });
  const entryKnown = firstIndex.has(skill.entry);
  if (!entryKnown) {
    issues.push({
      node: skill.entry,
      field: "entry",
      message: `Entry "${skill.entry}" is not a node`,
    });
  }
  skill.edges.forEach((e, i) => {
    for (const end of ["from", "to"] as const) {
      if (firstIndex.has(e[end])) continue;
      issues.push({
        node: e[end],
        field: `edges[${i}].${end}`,
        message: `Edge ${i} ("${e.from}" -> "${e.to}", "${e.label}"): ${
          end === "from" ? "source" : "target"
        } node "${e[end]}" does not exist`,
      });
    }
  });
  const outgoing = edgesBy(skill, "from");
  skill.nodes.forEach((n, i) => {
    if (firstIndex.get(n.id) === i) checkOutEdges(n, outgoing.get(n.id) ?? [], issues);
  });
  if (entryKnown) {
    const reachable = new Set(reachableFrom(skill, skill.entry));
    skill.nodes.forEach((n, i) => {
      if (reachable.has(n.id) || firstIndex.get(n.id) !== i) return;
      issues.push({
        node: n.id,
        field: `nodes[${i}]`,
        message: `Node "${n.id}" is not reachable from the entry "${skill.entry}"`,
      });
    });
  }
  return issues;
}

function quoted(labels: string[]): string {
  return labels.map((l) => `"${l}"`).join(" and ");
}

/** Required labels present, no foreign label, no label twice; `out` are the node's out-edges. */
function checkOutEdges(node: Node, out: Edge[], issues: SkillIssue[]): void {
  const rule = OUT_EDGES[node.kind];
  const at = { node: node.id };
  if (node.kind === "terminal") {
    for (const e of out) {
      issues.push({
        ...at,
        message:
          `Node "${node.id}": a terminal node has no out-edges but has "${e.label}" to "${e.to}"`,
      });
    }
    return;
  }
  const missing = rule.required.filter((l) => !out.some((e) => e.label === l));
  if (missing.length > 0) {
    const expected = rule.required.length === 1
      ? `expected out-edge ${quoted(rule.required)}`
      : `expected out-edges ${quoted(rule.required)}`;
    const what = missing.length === rule.required.length && missing.length > 1
      ? "both are missing"
      : rule.required.length === 1
      ? "it is missing"
      : `${quoted(missing)} is missing`;
    issues.push({ ...at, message: `Node "${node.id}": ${expected} but ${what}` });
  }
  const allowed: EdgeLabel[] = [...rule.required, ...rule.optional];
  const byLabel = new Map<EdgeLabel, string[]>();
  for (const e of out) {
    if (!allowed.includes(e.label)) {
      issues.push({
        ...at,
        message:
          `Node "${node.id}": out-edge label "${e.label}" (to "${e.to}") is not allowed on a ${node.kind} node (allowed: ${
            allowed.map((l) => `"${l}"`).join(", ")
          })`,
      });
      continue;
    }
    byLabel.set(e.label, [...(byLabel.get(e.label) ?? []), e.to]);
  }
  for (const [label, targets] of byLabel) {
    if (targets.length < 2) continue;
    issues.push({
      ...at,
      message: `Node "${node.id}": out-edge "${label}" is given ${targets.length} times (to ${
        targets.map((t) => `"${t}"`).join(", ")
      })`,
    });
  }
}
