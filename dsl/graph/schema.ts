/**
 * The skill graph IR as zod schemas; the schemas are the types. A skill is
 * plain JSON data: typed parameters, a docstring with pre/postconditions, and
 * a graph of five node kinds joined by labelled edges. Expressions are kept
 * as text in the expression syntax (see `dsl/expr/ast.ts`) and parsed and
 * type-checked by `validateSkill`.
 *
 * @module
 */
import { z } from "zod";

const Ident: z.ZodString = z.string().regex(
  /^[A-Za-z_][A-Za-z0-9_]*$/,
  "an identifier ([A-Za-z_][A-Za-z0-9_]*)",
);

/** A typed skill parameter. */
export interface Param {
  name: string;
  type: string;
  doc?: string;
}
/** Zod schema of a {@linkcode Param}. */
export const ParamSchema: z.ZodType<Param, Param> = z.object({
  name: Ident,
  type: z.string().min(1),
  doc: z.string().optional(),
});

/** `var := expr`: binds a variable; a think step that emits no action. */
export interface DataNode {
  id: string;
  kind: "data";
  var: string;
  expr: string;
  doc?: string;
}
/** Zod schema of a {@linkcode DataNode}. */
export const DataNodeSchema: z.ZodType<DataNode, DataNode> = z.object({
  id: Ident,
  kind: z.literal("data"),
  var: Ident,
  expr: z.string().min(1),
  doc: z.string().optional(),
});

/** A boolean condition with `yes` and `no` out-edges. */
export interface CheckNode {
  id: string;
  kind: "check";
  cond: string;
  doc?: string;
}
/** Zod schema of a {@linkcode CheckNode}. */
export const CheckNodeSchema: z.ZodType<CheckNode, CheckNode> = z.object({
  id: Ident,
  kind: z.literal("check"),
  cond: z.string().min(1),
  doc: z.string().optional(),
});

/**
 * `for var in over` with `body` and `done` out-edges. Entering from outside
 * the body restarts the enumeration; an edge from inside the body (a node
 * reachable from the `body` successor without passing through the loop)
 * continues it.
 */
export interface LoopNode {
  id: string;
  kind: "loop";
  var: string;
  over: string;
  /**
   * A precedence among the elements, read when the loop is entered: an
   * element is visited after every other element `var` for which `cond`
   * holds with the loop variable bound to the element
   * (`{ var: "ob_2", cond: "goal_on(ob, ob_2)" }`: build from the bottom).
   * Elements it leaves unordered keep the order of `over`; a cycle is
   * broken in that order.
   */
  after?: LoopOrder;
  doc?: string;
}
/** The precedence of a {@linkcode LoopNode}. */
export interface LoopOrder {
  var: string;
  cond: string;
}
/** Zod schema of a {@linkcode LoopNode}. */
export const LoopNodeSchema: z.ZodType<LoopNode, LoopNode> = z.object({
  id: Ident,
  kind: z.literal("loop"),
  var: Ident,
  over: z.string().min(1),
  after: z.object({ var: Ident, cond: z.string().min(1) }).optional(),
  doc: z.string().optional(),
});

/**
 * An action: an environment action template or another skill of the
 * library, with one argument expression per parameter. Out-edge `next`;
 * optional `failed`, taken when the environment rejects the action (without
 * it, a rejection ends the skill with a failure diagnosis).
 */
export interface PrimitiveNode {
  id: string;
  kind: "primitive";
  action: string;
  args: Record<string, string>;
  doc?: string;
}
/** Zod schema of a {@linkcode PrimitiveNode}. */
export const PrimitiveNodeSchema: z.ZodType<PrimitiveNode, PrimitiveNode> = z.object({
  id: Ident,
  kind: z.literal("primitive"),
  action: Ident,
  args: z.record(z.string(), z.string().min(1)),
  doc: z.string().optional(),
});

/**
 * The end of a run: `success`, or `failure` with a diagnosis: a message and
 * an optional condition whose text, with the scope's values substituted, is
 * reported (e.g. `not exists(x: Item, is_type(x, T))`).
 */
export interface TerminalNode {
  id: string;
  kind: "terminal";
  outcome: "success" | "failure";
  message?: string;
  diagnosis?: string;
  doc?: string;
}
/** Zod schema of a {@linkcode TerminalNode}. */
export const TerminalNodeSchema: z.ZodType<TerminalNode, TerminalNode> = z.object({
  id: Ident,
  kind: z.literal("terminal"),
  outcome: z.enum(["success", "failure"]),
  message: z.string().optional(),
  diagnosis: z.string().optional(),
  doc: z.string().optional(),
});

/** Any node. */
export type Node = DataNode | CheckNode | LoopNode | PrimitiveNode | TerminalNode;
/** Zod schema of a {@linkcode Node}: the node kinds, told apart by `kind`. */
export const NodeSchema: z.ZodType<Node, Node> = z.union([
  DataNodeSchema,
  CheckNodeSchema,
  LoopNodeSchema,
  PrimitiveNodeSchema,
  TerminalNodeSchema,
]);

/** An edge label; which ones a node needs depends on its kind. */
export type EdgeLabel = "next" | "yes" | "no" | "body" | "done" | "failed";
/** Zod schema of an {@linkcode EdgeLabel}. */
export const EdgeLabelSchema: z.ZodType<EdgeLabel, EdgeLabel> = z.enum([
  "next",
  "yes",
  "no",
  "body",
  "done",
  "failed",
]);

/** A directed, labelled control-flow edge. */
export interface Edge {
  from: string;
  to: string;
  label: EdgeLabel;
}
/** Zod schema of an {@linkcode Edge}. */
export const EdgeSchema: z.ZodType<Edge, Edge> = z.object({
  from: Ident,
  to: Ident,
  label: EdgeLabelSchema,
});

/** The docstring: a summary plus pre- and postconditions as expression text. */
export interface SkillDoc {
  summary: string;
  /** Condition on the facts (and parameters) under which the skill applies. */
  pre?: string;
  /** Condition the skill makes true: its subgoal signature. */
  post?: string;
  /** Contexts excluded by honing, each a condition text. */
  excluded?: string[];
}
/** Zod schema of a {@linkcode SkillDoc}. */
export const SkillDocSchema: z.ZodType<SkillDoc, SkillDoc> = z.object({
  summary: z.string(),
  /** Condition on the facts (and parameters) under which the skill applies. */
  pre: z.string().optional(),
  /** Condition the skill makes true: its subgoal signature. */
  post: z.string().optional(),
  /** Contexts excluded by honing, each a condition text. */
  excluded: z.array(z.string()).optional(),
});

/** A graft's lifecycle state (see honing); absent for induced structure. */
export interface Graft {
  id: string;
  nodes: string[];
  status: "tentative" | "permanent";
  successes: number;
}
/** Zod schema of a {@linkcode Graft}. */
export const GraftSchema: z.ZodType<Graft, Graft> = z.object({
  id: z.string(),
  nodes: z.array(Ident),
  status: z.enum(["tentative", "permanent"]),
  successes: z.number().int().nonnegative(),
});

/** A skill: `(params, vocabulary, graph, doc)`. */
export interface Skill {
  /** Schema version of the skill file format. */
  format: "skillc/skill@1";
  name: string;
  /** The name of the vocabulary (environment) the skill is written against. */
  vocabulary: string;
  params: Param[];
  doc: SkillDoc;
  entry: string;
  nodes: Node[];
  edges: Edge[];
  grafts?: Graft[];
}
/** The input form of a skill: `format` may be omitted. */
export type SkillInput = Omit<Skill, "format"> & { format?: "skillc/skill@1" };
/** Zod schema of a {@linkcode Skill}. */
export const SkillSchema: z.ZodType<Skill, SkillInput> = z.object({
  /** Schema version of the skill file format. */
  format: z.literal("skillc/skill@1").default("skillc/skill@1"),
  name: Ident,
  /** The name of the vocabulary (environment) the skill is written against. */
  vocabulary: z.string().min(1),
  params: z.array(ParamSchema),
  doc: SkillDocSchema,
  entry: Ident,
  nodes: z.array(NodeSchema).min(1),
  edges: z.array(EdgeSchema),
  grafts: z.array(GraftSchema).optional(),
});

/** Which out-edge labels each node kind must (required) or may (optional) have. */
export const OUT_EDGES: Record<Node["kind"], { required: EdgeLabel[]; optional: EdgeLabel[] }> = {
  data: { required: ["next"], optional: [] },
  check: { required: ["yes", "no"], optional: [] },
  loop: { required: ["body", "done"], optional: [] },
  primitive: { required: ["next"], optional: ["failed"] },
  terminal: { required: [], optional: [] },
};

/**
 * The expression texts of a node: a data node's expression, a check's
 * condition, a loop's list, a primitive's arguments, a terminal's diagnosis.
 *
 * @example Usage
 * ```ts
 * import { nodeExpressions } from "./schema.ts";
 * console.log(nodeExpressions({ id: "c", kind: "check", cond: "is_open(b)" })); // [ "is_open(b)" ]
 * ```
 */
export function nodeExpressions(node: Node): string[] {
  switch (node.kind) {
    case "data":
      return [node.expr];
    case "check":
      return [node.cond];
    case "loop":
      return [node.over];
    case "primitive":
      return Object.values(node.args);
    case "terminal":
      return node.diagnosis !== undefined ? [node.diagnosis] : [];
  }
}
