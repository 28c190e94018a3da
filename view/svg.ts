/**
 * A laid-out skill as SVG, in the paper's visual language: bindings
 * (DataOp) as blue boxes, checks as yellow hexagons, loops as orange boxes
 * framing their body, actions as green rounded boxes, ends as green or red
 * capsules; grafted nodes dashed purple. Marks drawn on it show a run
 * (visited nodes and taken edges with counts, the failure with its
 * diagnosis) or a version's diff (added nodes). Every node is a `g` with
 * `data-node`, every edge one with `data-edge`, for readers and tests.
 *
 * @module
 */
import type { Node } from "../dsl/graph/schema.ts";
import type { PlacedEdge, PlacedNode, SkillLayout } from "./layout.ts";

/** What to draw on the graph. */
export interface GraphMarks {
  /** Times each node was evaluated in a run. */
  visits?: ReadonlyMap<string, number>;
  /** Times each edge (`from->to`) was taken. */
  taken?: ReadonlyMap<string, number>;
  /** The node where the run failed, and why. */
  failed?: { node: string; message: string };
  /** Nodes a version added (a diff against the version before). */
  added?: ReadonlySet<string>;
}

const FILL: Record<Node["kind"], string> = {
  data: "#dbeafe",
  check: "#fef3c7",
  loop: "#ffedd5",
  primitive: "#dcfce7",
  terminal: "#f1f5f9",
};

const STROKE: Record<Node["kind"], string> = {
  data: "#2563eb",
  check: "#ca8a04",
  loop: "#ea580c",
  primitive: "#16a34a",
  terminal: "#475569",
};

/** Escapes text for XML. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/**
 * The SVG of a layout with its marks.
 *
 * @example Usage
 * ```ts ignore
 * const svg = skillSvg(layoutSkill(skill), { visits: new Map([["get", 2]]) });
 * ```
 */
export function skillSvg(layout: SkillLayout, marks: GraphMarks = {}): string {
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="skill-graph" data-skill="${
      escapeXml(layout.skill.name)
    }" width="${Math.ceil(layout.width)}" height="${Math.ceil(layout.height)}" viewBox="0 0 ${
      Math.ceil(layout.width)
    } ${Math.ceil(layout.height)}" font-family="ui-monospace, monospace" font-size="12">`,
    `<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#64748b"/></marker>` +
    `<marker id="arrow-taken" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#db2777"/></marker></defs>`,
  ];
  for (const f of layout.frames) {
    parts.push(
      `<rect class="loop-frame" data-loop="${
        escapeXml(f.loop)
      }" x="${f.x}" y="${f.y}" width="${f.width}" height="${f.height}" rx="10" fill="#fff7ed" stroke="#fdba74" stroke-dasharray="6 4"/>`,
    );
  }
  for (const e of layout.edges) parts.push(edgeSvg(e, marks));
  for (const n of layout.nodes) parts.push(nodeSvg(n, marks));
  parts.push("</svg>");
  return parts.join("\n");
}

function edgeSvg(e: PlacedEdge, marks: GraphMarks): string {
  const key = `${e.edge.from}->${e.edge.to}`;
  const taken = marks.taken?.get(key) ?? 0;
  const d = e.points.map((p, i) => `${i === 0 ? "M" : "L"}${p.x.toFixed(1)},${p.y.toFixed(1)}`)
    .join(" ");
  const cls = ["edge", `label-${e.edge.label}`, ...(taken > 0 ? ["taken"] : [])].join(" ");
  const stroke = taken > 0 ? "#db2777" : "#94a3b8";
  const text = e.edge.label === "next" ? "" : e.edge.label;
  const count = taken > 0 ? ` ×${taken}` : "";
  return `<g class="${cls}" data-edge="${escapeXml(key)}" data-taken="${taken}">` +
    `<path d="${d}" fill="none" stroke="${stroke}" stroke-width="${taken > 0 ? 2.5 : 1.5}"${
      e.edge.label === "body" ? ' stroke-dasharray="5 3"' : ""
    } marker-end="url(#${taken > 0 ? "arrow-taken" : "arrow"})"/>` +
    (text || count
      ? `<text x="${e.label.x}" y="${e.label.y + 4}" text-anchor="middle" fill="${
        taken > 0 ? "#be185d" : "#475569"
      }">${escapeXml(text + count)}</text>`
      : "") +
    `</g>`;
}

function nodeSvg(n: PlacedNode, marks: GraphMarks): string {
  const { node } = n;
  const visits = marks.visits?.get(node.id) ?? 0;
  const failed = marks.failed?.node === node.id;
  const added = marks.added?.has(node.id) ?? false;
  const cls = [
    "node",
    `kind-${node.kind}`,
    ...(node.kind === "terminal" ? [`outcome-${node.outcome}`] : []),
    ...(visits > 0 ? ["visited"] : []),
    ...(failed ? ["failed"] : []),
    ...(n.graft ? ["graft"] : []),
    ...(added ? ["added"] : []),
  ].join(" ");
  const x = n.x - n.width / 2;
  const y = n.y - n.height / 2;
  let fill = FILL[node.kind];
  let stroke = STROKE[node.kind];
  if (node.kind === "terminal") {
    fill = node.outcome === "success" ? "#dcfce7" : "#fee2e2";
    stroke = node.outcome === "success" ? "#15803d" : "#b91c1c";
  }
  if (n.graft) stroke = "#7c3aed";
  const width = failed ? 4 : visits > 0 || added ? 3 : 1.5;
  if (failed) stroke = "#dc2626";
  else if (visits > 0) stroke = "#db2777";
  const dash = n.graft ? ' stroke-dasharray="6 3"' : "";
  const attrs = `fill="${fill}" stroke="${stroke}" stroke-width="${width}"${dash}`;
  let shape: string;
  switch (node.kind) {
    case "check": {
      const k = 10;
      shape = `<polygon points="${x + k},${y} ${x + n.width - k},${y} ${x + n.width},${n.y} ${
        x + n.width - k
      },${y + n.height} ${x + k},${y + n.height} ${x},${n.y}" ${attrs}/>`;
      break;
    }
    case "terminal":
      shape = `<rect x="${x}" y="${y}" width="${n.width}" height="${n.height}" rx="${
        n.height / 2
      }" ${attrs}/>`;
      break;
    case "primitive":
      shape = `<rect x="${x}" y="${y}" width="${n.width}" height="${n.height}" rx="10" ${attrs}/>`;
      break;
    case "loop":
      shape = `<rect x="${x}" y="${y}" width="${n.width}" height="${n.height}" rx="4" ${attrs}/>` +
        `<rect x="${x + 3}" y="${y + 3}" width="${n.width - 6}" height="${
          n.height - 6
        }" rx="3" fill="none" stroke="${stroke}" stroke-width="1"/>`;
      break;
    default:
      shape = `<rect x="${x}" y="${y}" width="${n.width}" height="${n.height}" ${attrs}/>`;
  }
  const text = n.lines.map((line, i) =>
    `<text x="${n.x}" y="${y + 12 + 16 * (i + 0.8)}" text-anchor="middle"${
      i === 0 ? ' font-weight="bold"' : ""
    }>${escapeXml(line)}</text>`
  ).join("");
  const badge = visits > 0
    ? `<g class="visits"><circle cx="${x + n.width}" cy="${y}" r="10" fill="#db2777"/><text x="${
      x + n.width
    }" y="${y + 4}" text-anchor="middle" fill="white" font-size="10">${visits}</text></g>`
    : "";
  const fresh = added
    ? `<g class="new"><rect x="${x - 6}" y="${
      y - 8
    }" width="30" height="14" rx="7" fill="#7c3aed"/><text x="${x + 9}" y="${
      y + 3
    }" text-anchor="middle" fill="white" font-size="10">new</text></g>`
    : "";
  const why = failed
    ? `<text class="diagnosis" x="${n.x}" y="${
      y + n.height + 14
    }" text-anchor="middle" fill="#b91c1c">${escapeXml(marks.failed!.message)}</text>`
    : "";
  const title = `${node.id} (${node.kind}${n.graft ? `, graft ${n.graft}` : ""})${
    node.doc ? `: ${node.doc}` : ""
  }`;
  return `<g class="${cls}" data-node="${
    escapeXml(node.id)
  }" data-kind="${node.kind}" data-visits="${visits}">` +
    `<title>${escapeXml(title)}</title>${shape}${text}${badge}${fresh}${why}</g>`;
}
