/**
 * Gives a Mermaid node's label its meaning in the skill IR: decides the
 * node's kind (from its class or its label prefix) and finds the
 * expressions, bindings, action and outcome the label carries.
 *
 * @module
 */
import { parseExpr, printExpr } from "../expr/mod.ts";
import type { Vocabulary } from "../vocabulary.ts";
import { own } from "../vocabulary.ts";
import {
  type Binding,
  field,
  type LabelFields,
  labelFields,
  labelLines,
  parseBindings,
  pythonicToExpr,
  resolvePlaceholders,
  splitTopLevel,
  unquoteText,
} from "./_mermaid_labels.ts";
import type { Node, Param, SkillDoc } from "./schema.ts";
import type { SkillSignatures } from "./validate.ts";

/** What a Mermaid node is, once read. */
export type Interpretation =
  | { kind: "node"; node: Node }
  | { kind: "start"; name?: string; params: Param[] }
  | { kind: "spec"; doc: SkillDoc }
  | { kind: "legend" }
  | { kind: "error"; message: string };

type Category = "data" | "check" | "loop" | "primitive" | "interface" | "spec";

const CATEGORY: Record<string, Category> = {
  data: "data",
  dataop: "data",
  check: "check",
  checkop: "check",
  loop: "loop",
  loopcontrol: "loop",
  loopop: "loop",
  primitive: "primitive",
  primitiveaction: "primitive",
  primitiveop: "primitive",
  action: "primitive",
  interface: "interface",
  terminal: "interface",
  terminalop: "interface",
  spec: "spec",
};

const KIND_PREFIX = new RegExp(`^\\s*(${Object.keys(CATEGORY).join("|")})\\s*:`, "i");

/**
 * The canonical text of an expression; the paper's Python-flavoured forms
 * are rewritten first when the text does not parse as is. Text that still
 * does not parse is returned unchanged for the validator to report.
 */
export function canonicalExpr(text: string): string {
  const t = text.trim();
  const direct = parseExpr(t);
  if (direct.ok) return printExpr(direct.value);
  const again = parseExpr(pythonicToExpr(t));
  return again.ok ? printExpr(again.value) : t;
}

/** Turns the paper's `List_T` type spelling into `List<T>`. */
function normalizeType(type: string): string {
  const t = type.trim();
  const m = /^List_(.+)$/.exec(t);
  return m ? `List<${normalizeType(m[1])}>` : t;
}

/**
 * Reads one Mermaid node.
 *
 * @param id The Mermaid node id.
 * @param raw The raw label text, if the node has one.
 * @param cls The node's class, if assigned.
 * @param opts Vocabulary and skill signatures used to recognise actions.
 */
export function interpretNode(
  id: string,
  raw: string | undefined,
  cls: string | undefined,
  opts: { vocab?: Vocabulary; skills?: SkillSignatures },
): Interpretation {
  const f = labelFields(labelLines(raw ?? ""), KIND_PREFIX);
  const byClass = cls === undefined ? undefined : CATEGORY[cls.toLowerCase()];
  const byPrefix = f.prefix === undefined ? undefined : CATEGORY[f.prefix.toLowerCase()];
  if (byClass && byPrefix && byClass !== byPrefix) {
    return error(`its class "${cls}" and its label prefix "${f.prefix}:" disagree`);
  }
  const category = byClass ?? byPrefix ??
    (id === "START" ? "interface" : /^(LEGEND|FLOW_SPEC)$/.test(id) ? "spec" : undefined);
  if (!category) {
    return error(
      `cannot determine its kind (give it a class such as ":::Check" or a label such as "Check: ...")`,
    );
  }
  if (raw === undefined && category !== "spec") return error("it has no label");
  const local = localBindings(f);
  if (typeof local === "string") return error(local);
  const irId = field(f, "id") ?? id;
  const doc = field(f, "doc");
  const extra = doc === undefined ? {} : { doc };
  const expr = (text: string): string => canonicalExpr(resolvePlaceholders(text, local));
  switch (category) {
    case "data": {
      if (f.fields.filter((x) => x.key === "writes global").length > 1) {
        return error(`a DataOp writes exactly one variable; split it into several DataOp nodes`);
      }
      const text = field(f, "writes global") ?? f.head;
      const b = text ? parseBindings(text) : undefined;
      if (!b || b.length !== 1) {
        return error(`cannot find its binding "writes GLOBAL: (var := expression)"`);
      }
      return node({ id: irId, kind: "data", var: b[0].name, expr: expr(b[0].value), ...extra });
    }
    case "check": {
      const cond = (field(f, "cond", "condition") ?? f.head).replace(/\?\s*$/, "");
      if (cond.trim() === "") return error(`cannot find its condition ("Check: <condition>")`);
      return node({ id: irId, kind: "check", cond: expr(cond), ...extra });
    }
    case "loop": {
      const m = /^for\s+(?:each\s+)?([A-Za-z_]\w*)\s+in\s+([\s\S]+)$/i.exec(f.head);
      if (!m) return error(`cannot find its "For <var> in <list>" header`);
      // The paper's form copies the loop variable into a global: that global is the variable.
      const w = field(f, "writes global");
      const b = w ? parseBindings(w) : undefined;
      const copied = b?.length === 1 && resolvePlaceholders(b[0].value, local) === m[1];
      const after = field(f, "after");
      const order = after === undefined
        ? undefined
        : /^([A-Za-z_]\w*)\s+where\s+([\s\S]+)$/.exec(after.trim());
      if (after !== undefined && !order) {
        return error(`cannot read its precedence "after: <var> where <condition>"`);
      }
      return node({
        id: irId,
        kind: "loop",
        var: copied && b ? b[0].name : m[1],
        over: expr(m[2]),
        ...(order ? { after: { var: order[1], cond: expr(order[2]) } } : {}),
        ...extra,
      });
    }
    case "primitive":
      return readPrimitive(irId, f, local, opts, extra);
    case "interface":
      return readInterface(id, irId, f, extra);
    case "spec":
      return readSpec(id, f);
  }
}

function error(message: string): Interpretation {
  return { kind: "error", message };
}

function node(n: Node): Interpretation {
  return { kind: "node", node: n };
}

/** The `local in:` bindings, name -> resolved expression text, or an error message. */
function localBindings(f: LabelFields): Map<string, string> | string {
  const text = field(f, "local in");
  if (text === undefined) return new Map();
  const b = parseBindings(text);
  if (!b) return `cannot read its "local in: (name: Type = value, ...)" bindings`;
  return new Map(b.map((x) => [x.name, resolvePlaceholders(x.value, new Map())]));
}

function readPrimitive(
  id: string,
  f: LabelFields,
  local: Map<string, string>,
  opts: { vocab?: Vocabulary; skills?: SkillSignatures },
  extra: { doc?: string },
): Interpretation {
  const head = /^\(?\s*action\s*:\s*([\s\S]*?)\s*\)?\s*$/i.exec(f.head)?.[1] ??
    field(f, "action") ?? f.head;
  const text = unquoteText(head).replace(/\s+/g, " ").trim();
  const bindings: Binding[] = [...local].map(([name, value]) => ({ name, value }));
  let name = field(f, "name");
  let args: Record<string, string> | undefined;
  if (name === undefined) {
    for (const [action, decl] of Object.entries(opts.vocab?.actions ?? {})) {
      args = matchTemplate(decl.template, text, local);
      if (args) {
        name = action;
        break;
      }
    }
    name ??= /^([A-Za-z_]\w*)\s*\(/.exec(text)?.[1];
    if (name === undefined) {
      return error(`cannot determine its action (add a line "name: <action>")`);
    }
  }
  const template = (opts.vocab ? own(opts.vocab.actions, name) : undefined)?.template;
  const params = (opts.vocab ? own(opts.vocab.actions, name) : undefined)?.params ??
    (opts.skills ? own(opts.skills, name) : undefined)?.params;
  const namesFit = params === undefined ||
    bindings.every((b) => params.some((p) => p.name === b.name));
  if (!args && template && !(namesFit && bindings.length > 0)) {
    args = matchTemplate(template, text, local);
  }
  args ??= Object.fromEntries(bindings.map((b) => [b.name, canonicalExpr(b.value)]));
  return node({ id, kind: "primitive", action: name, args, ...extra });
}

/**
 * Matches an action text such as `go to {{rec}}` against a template `go to
 * {target}`; placeholders become expressions, plain words string literals.
 */
function matchTemplate(
  template: string,
  text: string,
  local: Map<string, string>,
): Record<string, string> | undefined {
  const parts = template.split(/\{([A-Za-z_]\w*)\}/);
  const pattern = parts.map((p, i) =>
    i % 2 === 1 ? "(.+?)" : p.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+")
  ).join("\\s*");
  const m = new RegExp(`^${pattern}$`, "i").exec(text);
  if (!m) return undefined;
  const args: Record<string, string> = {};
  for (let i = 1; i < parts.length; i += 2) {
    const got = m[(i + 1) / 2].trim();
    args[parts[i]] = got.includes("{{") || local.has(got)
      ? canonicalExpr(resolvePlaceholders(got, local))
      : `'${got.replace(/[\\']/g, "\\$&")}'`;
  }
  return args;
}

const SIGNATURE = /^([A-Za-z_]\w*)\s*\(([\s\S]*)\)\s*$/;

function readInterface(
  id: string,
  irId: string,
  f: LabelFields,
  extra: { doc?: string },
): Interpretation {
  const outcome = field(f, "outcome")?.toLowerCase() ??
    /SUCCESS_FLAG\s*(?::\s*\w+\s*)?:?=\s*(true|false)/i.exec(f.head)?.[1].toLowerCase() ??
    /^(success|failure)\b/i.exec(f.head)?.[1].toLowerCase() ??
    (id === "START"
      ? undefined
      : /succ/i.test(id)
      ? "true"
      : /fail/i.test(id)
      ? "false"
      : undefined);
  const sig = SIGNATURE.exec(f.head);
  if (outcome === undefined || id === "START") {
    if (!sig) {
      return id === "START" ? { kind: "start", params: [] } : error(
        `cannot tell whether it is the START interface ("Interface: name(param: Type)") or an end ("SUCCESS_FLAG: Bool:=True")`,
      );
    }
    const params: Param[] = [];
    for (const part of splitTopLevel(sig[2])) {
      const m = /^\{*([A-Za-z_]\w*)\}*\s*:\s*([^=]+?)\s*(?:=[\s\S]*)?$/.exec(part);
      if (!m) return error(`cannot read parameter "${part}" (expected "name: Type")`);
      const pdoc = f.fields.find((x) => x.key === `param ${m[1].toLowerCase()}`)?.value;
      params.push({
        name: m[1],
        type: normalizeType(m[2]),
        ...(pdoc === undefined ? {} : { doc: pdoc }),
      });
    }
    return { kind: "start", name: sig[1], params };
  }
  const success = outcome === "success" || outcome === "true";
  if (!success && outcome !== "failure" && outcome !== "false") {
    return error(`unknown outcome "${outcome}" (expected "success" or "failure")`);
  }
  const message = field(f, "message");
  const diagnosis = field(f, "diagnosis");
  return node({
    id: irId,
    kind: "terminal",
    outcome: success ? "success" : "failure",
    ...(message === undefined ? {} : { message }),
    ...(diagnosis === undefined
      ? {}
      : { diagnosis: canonicalExpr(resolvePlaceholders(diagnosis, new Map())) }),
    ...extra,
  });
}

function readSpec(id: string, f: LabelFields): Interpretation {
  if (id === "LEGEND" || /^type legend/i.test(f.head)) return { kind: "legend" };
  const expr = (t: string): string => canonicalExpr(resolvePlaceholders(t, new Map()));
  const pick = (...keys: string[]): string | undefined => {
    const v = field(f, ...keys);
    return v === undefined ? undefined : expr(v);
  };
  const doc: SkillDoc = { summary: field(f, "summary") ?? f.head };
  const pre = pick("pre", "precondition", "preconditions", "start condition", "start conditions");
  const post = pick(
    "post",
    "postcondition",
    "postconditions",
    "success condition",
    "success conditions",
  );
  const excluded = f.fields.filter((x) => x.key === "excluded").map((x) => expr(x.value));
  if (pre !== undefined) doc.pre = pre;
  if (post !== undefined) doc.post = post;
  if (excluded.length > 0) doc.excluded = excluded;
  return { kind: "spec", doc };
}
