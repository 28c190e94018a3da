/**
 * Mermaid flowcharts as the exchange format of skills, in the dialect of the
 * paper's skill induction prompt (seeds/nsi.txt, appendix B): `Interface`,
 * `DataOp`, `Check`, `LoopControl`, `PrimitiveAction` and `Spec` classes,
 * labels with `<br>` lines and `{{VAR}}` placeholders, a `START` interface
 * carrying the signature and `Yes`/`No`, `body`/`done` edge labels.
 *
 * The export carries the whole IR, so `mermaidToSkill(skillToMermaid(s))`
 * gives `s` back; the reader is lenient about layout (shapes, quotes,
 * wrapping, escapes, class lines) and strict about meaning.
 *
 * @module
 */
import { canonicalExpr, type Interpretation, interpretNode } from "./_mermaid_nodes.ts";
import { encodeLabelText } from "./_mermaid_labels.ts";
import { readMermaid } from "./_mermaid_syntax.ts";
import { loopBodies } from "./_control_flow.ts";
import { err, ok, type Result } from "../result.ts";
import type { Vocabulary } from "../vocabulary.ts";
import { own } from "../vocabulary.ts";
import {
  type Edge,
  type EdgeLabel,
  GraftSchema,
  type Node,
  type Skill,
  type SkillDoc,
  type SkillInput,
} from "./schema.ts";
import { type SkillIssue, type SkillSignatures, variableTypes } from "./validate.ts";

/** Options of {@linkcode skillToMermaid}. */
export interface MermaidExportOptions {
  /** When given: action templates in action labels, and variable types in bindings. */
  vocab?: Vocabulary;
  /** Signatures of callable skills, for the argument types of skill calls. */
  skills?: SkillSignatures;
}

/** Options of {@linkcode mermaidToSkill}. */
export interface MermaidParseOptions {
  /** The skill name; overrides the START signature's name. */
  name?: string;
  /** The vocabulary name recorded in the skill. */
  vocabulary: string;
  /** When given, an action label without `name:` is recognised by its template. */
  vocab?: Vocabulary;
  /** Signatures of callable skills. */
  skills?: SkillSignatures;
}

const CLASS_DEFS = [
  "classDef Spec fill:#f4f4ff,stroke:#6a6ab2,stroke-dasharray: 4 3,stroke-width:2px;",
  "classDef Interface fill:#e2e2f2,stroke:#6a6ab2,stroke-width:2px;",
  "classDef LoopControl fill:#f9e4b7,stroke:#b99b37,stroke-width:2px;",
  "classDef PrimitiveAction fill:#f9c2c2,stroke:#c23737,stroke-width:2px;",
  "classDef Check fill:#d0e1f9,stroke:#4378a2,stroke-width:2px;",
  "classDef DataOp fill:#f0f0f0,stroke:#888888,stroke-width:2px;",
];

/** Ids the format itself uses, and words Mermaid reads as keywords. */
const RESERVED = new Set([
  "START",
  "FLOW_SPEC",
  "LEGEND",
  "end",
  "graph",
  "flowchart",
  "subgraph",
  "class",
  "classDef",
  "style",
  "linkStyle",
  "click",
  "direction",
]);

const SHOWN_LABEL: Record<EdgeLabel, string> = {
  next: "",
  yes: "Yes",
  no: "No",
  body: "body",
  done: "done",
  failed: "failed",
};

/**
 * Exports a skill as a Mermaid flowchart in the paper's dialect.
 *
 * @param skill The skill.
 * @param options A vocabulary (for action templates and variable types).
 * @returns The flowchart text.
 *
 * @example Usage
 * ```ts
 * import { skillToMermaid } from "./mermaid.ts";
 * const text = skillToMermaid({
 *   format: "skillc/skill@1", name: "noop", vocabulary: "v", params: [], doc: { summary: "Nothing." },
 *   entry: "ok", nodes: [{ id: "ok", kind: "terminal", outcome: "success" }], edges: [],
 * });
 * console.log(text.includes("START --> ok")); // true
 * ```
 */
export function skillToMermaid(skill: Skill, options: MermaidExportOptions = {}): string {
  const ids = mermaidIds(skill);
  const mid = (id: string): string => ids.get(id) ?? id;
  const types = options.vocab ? variableTypes(skill, options.vocab) : {};
  const line = (key: string, value: string): string => `${key}: ${encodeLabelText(value)}`;
  const out: string[] = [
    `%% Skill "${skill.name}" (${skill.format}, vocabulary "${skill.vocabulary}")`,
    "flowchart TD",
    "    %% ===================== Class Definitions =====================",
    ...CLASS_DEFS.map((c) => `    ${c}`),
    "",
    "    %% ===================== Spec =====================",
  ];
  const spec = [line("Spec", skill.doc.summary)];
  if (skill.doc.pre !== undefined) spec.push(line("pre", canonicalExpr(skill.doc.pre)));
  if (skill.doc.post !== undefined) spec.push(line("post", canonicalExpr(skill.doc.post)));
  for (const x of skill.doc.excluded ?? []) spec.push(line("excluded", canonicalExpr(x)));
  out.push(`    FLOW_SPEC["${spec.join("<br>")}"]:::Spec`);
  if (skill.grafts !== undefined) out.push(`    %% skillc:grafts ${JSON.stringify(skill.grafts)}`);
  out.push("", "    %% ===================== Interface =====================");
  const signature = skill.params.map((p) => `${p.name}: ${p.type}`).join(", ");
  const start = [line("Interface", `${skill.name}(${signature})`)];
  for (const p of skill.params) if (p.doc !== undefined) start.push(line(`param ${p.name}`, p.doc));
  out.push(`    START(["${start.join("<br>")}"]):::Interface`);
  out.push("", "    %% ===================== Nodes =====================");
  for (const n of skill.nodes) {
    const lines = nodeLines(n, types, options).map(([k, v]) => line(k, v));
    if (mid(n.id) !== n.id) lines.push(line("id", n.id));
    if (n.doc !== undefined) lines.push(line("doc", n.doc));
    const [open, close] = n.kind === "terminal" ? ['(["', '"])'] : ['["', '"]'];
    out.push(`    ${mid(n.id)}${open}${lines.join("<br>")}${close}:::${CLASS_OF[n.kind]}`);
  }
  out.push("", "    %% ===================== Legend links =====================");
  out.push("    START -.- FLOW_SPEC");
  out.push("", "    %% ===================== Control-Flow Edges =====================");
  const bodies = loopBodies(skill);
  const into = (from: string | undefined, to: string): string[] => {
    const body = bodies.get(to);
    if (!body) return [];
    return [from !== undefined && body.has(from) ? "Continue_Loop" : "Start_Loop"];
  };
  const edge = (from: string, to: string, parts: string[]): string => {
    const label = parts.filter((p) => p !== "").join(", ");
    return `    ${from} -->${label === "" ? "" : `|${label}|`} ${to}`;
  };
  out.push(edge("START", mid(skill.entry), into(undefined, skill.entry)));
  for (const e of skill.edges) {
    out.push(edge(mid(e.from), mid(e.to), [SHOWN_LABEL[e.label], ...into(e.from, e.to)]));
  }
  return out.join("\n") + "\n";
}

const CLASS_OF: Record<Node["kind"], string> = {
  data: "DataOp",
  check: "Check",
  loop: "LoopControl",
  primitive: "PrimitiveAction",
  terminal: "Interface",
};

/** Mermaid ids: the node ids, except reserved ones which get a fresh `N_` name. */
function mermaidIds(skill: Skill): Map<string, string> {
  const used = new Set([...skill.nodes.map((n) => n.id), ...RESERVED]);
  const out = new Map<string, string>();
  for (const n of skill.nodes) {
    if (!RESERVED.has(n.id)) continue;
    let id = `N_${n.id}`;
    for (let k = 2; used.has(id); k++) id = `N_${n.id}_${k}`;
    used.add(id);
    out.set(n.id, id);
  }
  return out;
}

/** The label lines of a node, as `[key, value]` (values unescaped). */
function nodeLines(
  n: Node,
  types: Record<string, string>,
  options: MermaidExportOptions,
): [string, string][] {
  switch (n.kind) {
    case "data": {
      const t = types[n.var] === undefined ? "" : `: ${types[n.var]}`;
      return [["DataOp", `writes GLOBAL: (${n.var}${t} := ${canonicalExpr(n.expr)})`]];
    }
    case "check":
      return [["Check", canonicalExpr(n.cond)]];
    case "loop": {
      const lines: [string, string][] = [
        ["LoopControl", `For ${n.var} in {{${canonicalExpr(n.over)}}}`],
      ];
      if (n.after) lines.push(["after", `${n.after.var} where ${canonicalExpr(n.after.cond)}`]);
      return lines;
    }
    case "primitive": {
      const decl = options.vocab ? own(options.vocab.actions, n.action) : undefined;
      const params = decl?.params ?? options.skills?.[n.action]?.params ?? [];
      const names = Object.keys(n.args);
      const text = decl
        ? decl.template.replace(/\{([A-Za-z_]\w*)\}/g, "{{$1}}")
        : `${n.action}(${names.map((a) => `{{${a}}}`).join(", ")})`;
      const lines: [string, string][] = [["PrimitiveAction", `(action: '${text}')`], [
        "name",
        n.action,
      ]];
      const bindings = names.map((a) => {
        const type = params.find((p) => p.name === a)?.type;
        return `${a}${type === undefined ? "" : `: ${type}`} = {{${canonicalExpr(n.args[a])}}}`;
      });
      if (bindings.length > 0) lines.push(["local in", `(${bindings.join(", ")})`]);
      return lines;
    }
    case "terminal": {
      const lines: [string, string][] = [
        ["Interface", `SUCCESS_FLAG: Bool:=${n.outcome === "success" ? "True" : "False"}`],
      ];
      if (n.message !== undefined) lines.push(["message", n.message]);
      if (n.diagnosis !== undefined) lines.push(["diagnosis", canonicalExpr(n.diagnosis)]);
      return lines;
    }
  }
}

const LABEL_WORDS: Record<string, EdgeLabel> = {
  yes: "yes",
  true: "yes",
  no: "no",
  false: "no",
  body: "body",
  done: "done",
  failed: "failed",
  fail: "failed",
  failure: "failed",
  next: "next",
};

/**
 * Reads a Mermaid flowchart in the paper's dialect into a skill (not yet
 * validated: pass it to `validateSkill`).
 *
 * @param text The flowchart.
 * @param options The vocabulary name (and optionally the skill name and vocabulary).
 * @returns The skill input, or the issues found, each naming its Mermaid line.
 *
 * @example Usage
 * ```ts
 * import { mermaidToSkill } from "./mermaid.ts";
 * const r = mermaidToSkill(
 *   'flowchart TD\n START(["Interface: noop()"]):::Interface\n OK(["Interface: SUCCESS_FLAG: Bool:=True"]):::Interface\n START --> OK',
 *   { vocabulary: "v" },
 * );
 * console.log(r.ok && r.value.entry); // OK
 * ```
 */
export function mermaidToSkill(
  text: string,
  options: MermaidParseOptions,
): Result<SkillInput, SkillIssue[]> {
  const { items, issues: syntax } = readMermaid(text);
  const issues: SkillIssue[] = syntax.map((s) => ({
    line: s.line,
    message: `Line ${s.line}: ${s.message}`,
  }));
  const defs = new Map<string, { line: number; label?: string; cls?: string }>();
  const order: string[] = [];
  const edges: Extract<(typeof items)[number], { kind: "edge" }>[] = [];
  let grafts: SkillInput["grafts"];
  const at = (line: number, message: string, node?: string): void => {
    issues.push({
      line,
      message: `Line ${line}: ${message}`,
      ...(node === undefined ? {} : { node }),
    });
  };
  for (const item of items) {
    if (item.kind === "edge") edges.push(item);
    else if (item.kind === "comment") {
      const m = /^skillc:grafts\s+(.*)$/.exec(item.text);
      if (!m) continue;
      const g = GraftSchema.array().safeParse(safeJson(m[1]));
      if (g.success) grafts = g.data;
      else at(item.line, "cannot read the grafts comment");
    } else if (item.kind === "class") {
      for (const id of item.ids) {
        const d = defs.get(id) ?? { line: item.line };
        d.cls = item.cls;
        defs.set(id, d);
      }
    } else {
      const { id, label, cls } = item.node;
      const d = defs.get(id) ?? { line: item.line };
      defs.set(id, d);
      if (label !== undefined && d.label === undefined) {
        d.label = label;
        d.line = item.line;
        order.push(id);
      } else if (label !== undefined && d.label !== label) {
        at(
          item.line,
          `node "${id}" is defined again with another label (first at line ${d.line})`,
          id,
        );
      }
      if (cls !== undefined && d.cls !== undefined && d.cls !== cls) {
        at(item.line, `node "${id}" gets class "${cls}" but already has class "${d.cls}"`, id);
      }
      if (cls !== undefined) d.cls = cls;
    }
  }
  const meaning = new Map<string, Interpretation>();
  for (const [id, d] of defs) {
    if (d.label === undefined && d.cls === undefined) continue;
    const m = interpretNode(id, d.label, d.cls, options);
    meaning.set(id, m);
    if (m.kind === "error") at(d.line, `node "${id}": ${m.message}`, id);
  }
  const starts = [...meaning].filter(([, m]) => m.kind === "start");
  const specs = [...meaning].filter(([, m]) => m.kind === "spec");
  if (starts.length === 0) {
    issues.push({
      message: `No START interface node (e.g. START(["Interface: name(param: Type)"]):::Interface)`,
    });
  }
  for (const [id] of starts.slice(1)) {
    at(defs.get(id)?.line ?? 0, `second START interface "${id}"`, id);
  }
  for (const [id] of specs.slice(1)) at(defs.get(id)?.line ?? 0, `second Spec node "${id}"`, id);
  const irId = (id: string): string => {
    const m = meaning.get(id);
    return m?.kind === "node" ? m.node.id : id;
  };
  const irEdges: Edge[] = [];
  const entries: { to: string; line: number }[] = [];
  for (const e of edges) {
    if (!e.arrow) continue; // legend links (-.-, ---) carry no control flow
    const from = meaning.get(e.from);
    const to = meaning.get(e.to);
    if ([from, to].some((m) => m?.kind === "spec" || m?.kind === "legend")) continue;
    if (!from || !to) {
      const which = !from ? e.from : e.to;
      at(e.line, `edge ${!from ? "from" : "to"} undefined node "${which}"`, which);
      continue;
    }
    if (from.kind === "error" || to.kind === "error") continue;
    if (to.kind === "start") {
      at(e.line, `edge into START from "${e.from}"`, e.from);
      continue;
    }
    if (from.kind === "start") {
      entries.push({ to: irId(e.to), line: e.line });
      continue;
    }
    if (from.kind !== "node") continue;
    const labels = edgeLabels(e.label, from.node.kind);
    if (typeof labels === "string") {
      at(e.line, `edge "${e.from}" -> "${e.to}": ${labels}`, from.node.id);
      continue;
    }
    for (const label of labels) irEdges.push({ from: from.node.id, to: irId(e.to), label });
  }
  if (starts.length > 0 && entries.length === 0) {
    at(defs.get(starts[0][0])?.line ?? 0, "no edge from START to the first node");
  }
  for (const extra of entries.slice(1)) at(extra.line, "START has more than one out-edge");
  const start = starts[0]?.[1];
  const name = options.name ?? (start?.kind === "start" ? start.name : undefined);
  if (start && name === undefined) {
    at(defs.get(starts[0][0])?.line ?? 0, `START has no signature "Interface: name(param: Type)"`);
  }
  if (issues.length > 0) return err(issues);
  const spec = specs[0]?.[1];
  const doc: SkillDoc = spec?.kind === "spec" ? spec.doc : { summary: "" };
  const nodes = order.flatMap((id) => {
    const m = meaning.get(id);
    return m?.kind === "node" ? [m.node] : [];
  });
  return ok({
    format: "skillc/skill@1",
    name: name as string,
    vocabulary: options.vocabulary,
    params: start?.kind === "start" ? start.params : [],
    doc,
    entry: entries[0].to,
    nodes,
    edges: irEdges,
    ...(grafts === undefined ? {} : { grafts }),
  });
}

/** The control labels of a Mermaid edge label (`No, Continue_Loop` -> `no`). */
function edgeLabels(label: string, kind: Node["kind"]): EdgeLabel[] | string {
  const found = new Set<EdgeLabel>();
  for (const word of label.split(/[,;/&]+/)) {
    const l = LABEL_WORDS[word.trim().toLowerCase()];
    if (l) found.add(l);
  }
  if (found.size > 0) return [...found];
  if (kind === "check") return `an edge from a Check needs a "Yes" or "No" label, not "${label}"`;
  if (kind === "loop") {
    return `an edge from a LoopControl needs a "body" or "done" label, not "${label}"`;
  }
  return ["next"];
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
