/**
 * A skill graph laid out for drawing: each node's box and text, each edge's
 * route and label, and a frame around every loop body, placed by dagre (a
 * layered graph layout) top to bottom.
 *
 * @module
 */
import dagre from "@dagrejs/dagre";
import type { Edge, Node, Skill } from "../dsl/graph/schema.ts";

/** A node placed: centre, size and the lines it shows. */
export interface PlacedNode {
  node: Node;
  x: number;
  y: number;
  width: number;
  height: number;
  /** The node's text, one entry per line: its kind's words, then its expression. */
  lines: string[];
  /** The graft the node belongs to, if honing added it. */
  graft?: string;
}

/** An edge placed: its route and where its label goes. */
export interface PlacedEdge {
  edge: Edge;
  points: { x: number; y: number }[];
  label: { x: number; y: number };
}

/** The frame around a loop's body. */
export interface PlacedFrame {
  loop: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A whole skill laid out. */
export interface SkillLayout {
  skill: Skill;
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  frames: PlacedFrame[];
}

const CHAR = 7.2;
const LINE = 16;
const PAD = 12;
const MAX_LINE = 46;

/** What a node shows, line by line. */
export function nodeLines(node: Node): string[] {
  switch (node.kind) {
    case "data":
      return [`${node.var} :=`, ...wrap(node.expr)];
    case "check":
      return ["check", ...wrap(node.cond)];
    case "loop":
      return [`for ${node.var} in`, ...wrap(node.over)];
    case "primitive":
      return [
        node.action,
        ...Object.entries(node.args).flatMap(([k, v]) => wrap(`${k} = ${v}`)),
      ];
    case "terminal":
      return [
        node.outcome,
        ...(node.message ? wrap(node.message) : []),
        ...(node.diagnosis ? wrap(`why: ${node.diagnosis}`) : []),
      ];
  }
}

/** Lines of at most {@linkcode MAX_LINE} characters, cut at spaces where possible. */
function wrap(text: string): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > MAX_LINE) {
    const cut = rest.lastIndexOf(" ", MAX_LINE);
    const at = cut > MAX_LINE / 2 ? cut : MAX_LINE;
    out.push(rest.slice(0, at));
    rest = rest.slice(at).trimStart();
  }
  out.push(rest);
  return out;
}

/**
 * The nodes of each loop's body: what its `body` edge reaches before coming
 * back to the loop.
 */
export function loopBodies(skill: Skill): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const next = new Map<string, Edge[]>();
  for (const e of skill.edges) next.set(e.from, [...next.get(e.from) ?? [], e]);
  for (const loop of skill.nodes.filter((n) => n.kind === "loop")) {
    const body = new Set<string>();
    const todo = (next.get(loop.id) ?? []).filter((e) => e.label === "body").map((e) => e.to);
    while (todo.length > 0) {
      const id = todo.pop()!;
      if (id === loop.id || body.has(id)) continue;
      body.add(id);
      for (const e of next.get(id) ?? []) todo.push(e.to);
    }
    // What the loop reaches when done is not its body, even if the body also reaches it.
    const after = new Set<string>();
    const rest = (next.get(loop.id) ?? []).filter((e) => e.label !== "body").map((e) => e.to);
    while (rest.length > 0) {
      const id = rest.pop()!;
      if (after.has(id) || id === loop.id) continue;
      after.add(id);
      for (const e of next.get(id) ?? []) rest.push(e.to);
    }
    out.set(loop.id, new Set([...body].filter((id) => !after.has(id))));
  }
  return out;
}

/**
 * Lays a skill out.
 *
 * @example Usage
 * ```ts ignore
 * const layout = layoutSkill(skill);
 * console.log(layout.nodes.length === skill.nodes.length); // true
 * ```
 */
export function layoutSkill(skill: Skill): SkillLayout {
  const g = new dagre.graphlib.Graph({ compound: true, multigraph: true });
  g.setGraph({ rankdir: "TB", nodesep: 28, ranksep: 36, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  const graftOf = new Map<string, string>();
  for (const graft of skill.grafts ?? []) for (const id of graft.nodes) graftOf.set(id, graft.id);
  const lines = new Map<string, string[]>();
  for (const node of skill.nodes) {
    const text = nodeLines(node);
    lines.set(node.id, text);
    const width = Math.max(...text.map((l) => l.length)) * CHAR + 2 * PAD;
    g.setNode(node.id, { width: Math.max(width, 70), height: text.length * LINE + 2 * PAD });
  }
  // Loops' bodies as clusters; the innermost loop owns a node.
  const bodies = loopBodies(skill);
  const owner = new Map<string, string>();
  const sorted = [...bodies].sort((a, b) => b[1].size - a[1].size);
  for (const [loop, body] of sorted) {
    g.setNode(`frame:${loop}`, {});
    for (const id of body) owner.set(id, loop);
  }
  for (const [id, loop] of owner) g.setParent(id, `frame:${loop}`);
  for (const [loop] of sorted) {
    const outer = owner.get(loop);
    if (outer) g.setParent(`frame:${loop}`, `frame:${outer}`);
  }
  skill.edges.forEach((e, i) => {
    g.setEdge(
      e.from,
      e.to,
      { label: e.label, width: e.label.length * CHAR, height: LINE },
      `e${i}`,
    );
  });
  dagre.layout(g);
  const nodes: PlacedNode[] = skill.nodes.map((node) => {
    const n = g.node(node.id);
    const graft = graftOf.get(node.id);
    return {
      node,
      x: n.x,
      y: n.y,
      width: n.width,
      height: n.height,
      lines: lines.get(node.id)!,
      ...(graft ? { graft } : {}),
    };
  });
  const edges: PlacedEdge[] = skill.edges.map((edge, i) => {
    const e = g.edge({ v: edge.from, w: edge.to, name: `e${i}` });
    return { edge, points: e.points, label: { x: e.x ?? e.points[0].x, y: e.y ?? e.points[0].y } };
  });
  const frames: PlacedFrame[] = sorted.flatMap(([loop]) => {
    const f = g.node(`frame:${loop}`);
    if (!f || f.width === undefined) return [];
    return [{
      loop,
      x: f.x - f.width / 2,
      y: f.y - f.height / 2,
      width: f.width,
      height: f.height,
    }];
  });
  const size = g.graph();
  return { skill, width: size.width ?? 0, height: size.height ?? 0, nodes, edges, frames };
}
