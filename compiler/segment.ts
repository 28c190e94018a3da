/**
 * Subgoal segmentation: a grounded trace is cut after every landmark step
 * (a fact change the vocabulary declares as the end of a subgoal, such as
 * an item becoming held). The lifted landmark is the segment's signature;
 * segments with the same signature across traces form the dataset of one
 * skill. A segment's parameters are the landmark's objects, lifted to their
 * class where the vocabulary has a class predicate (`is_type(x, T)`), and
 * its postcondition is the lifted landmark.
 *
 * @module
 */
import type { Atom, AtomArg, FactView, Value } from "../dsl/facts.ts";
import type { LandmarkDecl, Vocabulary } from "../dsl/vocabulary.ts";
import { own } from "../dsl/vocabulary.ts";
import { isObjectType } from "../dsl/vocabulary.ts";
import { matchAction } from "../dsl/action.ts";
import { parseExpr } from "../dsl/expr/parse.ts";
import { evalExpr } from "../dsl/expr/eval.ts";
import type { Param } from "../dsl/graph/schema.ts";
import type { GroundedTrace } from "./ground.ts";

/** A landmark found at a step. */
export interface LandmarkHit {
  /** Index of the declaration among the landmarks in use (`vocab.landmarks`, or derived ones). */
  decl: number;
  /** The declaration itself. */
  declaration: LandmarkDecl;
  /** The atom added or removed. */
  atom: Atom;
}

/** Options of {@linkcode segmentTrace}. */
export interface SegmentOptions {
  /** The landmarks to cut at. @default vocab.landmarks */
  landmarks?: readonly LandmarkDecl[];
  /**
   * Landmark arguments kept as objects rather than lifted to their class,
   * keyed `<declaration index>:<argument index>` (see {@linkcode segmentTraces}).
   */
  objectArgs?: ReadonlySet<string>;
  /**
   * Predicates no step changes about an object already known (the task's
   * description: goals, kinds, where things grow). A landmark object with
   * no such fact is a means the skill chooses (the server to deploy to),
   * not a parameter; without this set every landmark object is one.
   */
  staticPreds?: ReadonlySet<string>;
}

/** One parameter of a segment: its name, type and value in this segment. */
export interface SegmentParam extends Param {
  value: Value;
  /** The landmark argument it lifts, and the class predicate used (if any). */
  arg: number;
  classPred?: string;
}

/** A subgoal segment of one trace. */
export interface Segment {
  /** The grounded trace it comes from. */
  trace: GroundedTrace;
  /** Position of that trace among the inputs. */
  traceIndex: number;
  /** First step index (inclusive) and end (exclusive) in the trace. */
  start: number;
  end: number;
  /** Indices of the accepted (not rejected) steps in `[start, end)`. */
  steps: number[];
  /** The landmark at step `end - 1`; none when the vocabulary declares no landmarks. */
  landmark?: LandmarkHit;
  /** The group key: landmark declaration and parameter types. */
  signature: string;
  /** Parameter values for this segment (theta). */
  params: SegmentParam[];
}

/** Segments sharing a signature: the dataset of one skill. */
export interface SegmentGroup {
  signature: string;
  /** The skill name. */
  name: string;
  /** The landmark declaration; none for whole-trace segments. */
  landmark?: LandmarkDecl;
  params: Param[];
  /** The lifted landmark as a condition over the parameters, when there is one. */
  post?: string;
  segments: Segment[];
}

/**
 * Finds the landmark of step `i` of a grounded trace, if any: the first
 * declaration (in vocabulary order) matched by an atom the step really adds
 * (or removes) and whose `when` condition holds before the step.
 */
export function landmarkAt(
  g: GroundedTrace,
  i: number,
  vocab: Vocabulary,
  decls: readonly LandmarkDecl[] = vocab.landmarks ?? [],
): LandmarkHit | undefined {
  const step = g.steps[i];
  if (step.rejected !== undefined) return undefined;
  const before = g.states[i];
  for (let d = 0; d < decls.length; d++) {
    const decl = decls[d];
    const atoms = decl.on === "add" ? step.delta.add : step.delta.remove;
    for (const atom of atoms) {
      if (atom.pred !== decl.pred) continue;
      const wasTrue = before.has(atom);
      if (decl.on === "add" ? wasTrue : !wasTrue) continue;
      if (decl.when !== undefined && !conditionHolds(decl.when, atom.args, before, vocab)) continue;
      return { decl: d, declaration: decl, atom };
    }
  }
  return undefined;
}

function conditionHolds(
  text: string,
  args: AtomArg[],
  facts: FactView,
  vocab: Vocabulary,
): boolean {
  const parsed = parseExpr(text);
  if (!parsed.ok) {
    throw new SyntaxError(`Landmark condition "${text}": ${parsed.error.message}`);
  }
  const scope: Record<string, Value> = {};
  args.forEach((a, i) => scope[`a${i}`] = a);
  const r = evalExpr(parsed.value, { vocab, facts, scope });
  return r.ok && r.value === true;
}

/**
 * Cuts a grounded trace into segments, one per landmark; steps after the
 * last landmark form no segment. A vocabulary without landmarks makes the
 * whole trace one segment whose signature is the trace's goal.
 */
export function segmentTrace(
  g: GroundedTrace,
  traceIndex: number,
  vocab: Vocabulary,
  options: SegmentOptions = {},
): Segment[] {
  const landmarks = options.landmarks ?? vocab.landmarks ?? [];
  if (landmarks.length === 0) {
    // No declared subgoals: the whole episode is one task-level segment.
    const steps = range(0, g.steps.length).filter((k) => g.steps[k].rejected === undefined);
    if (steps.length === 0) return [];
    const type = g.trace.task.type ?? "task";
    return [{
      trace: g,
      traceIndex,
      start: 0,
      end: g.steps.length,
      steps,
      signature: `task:${type}`,
      params: [],
    }];
  }
  const segments: Segment[] = [];
  let start = 0;
  for (let i = 0; i < g.steps.length; i++) {
    const hit = landmarkAt(g, i, vocab, landmarks);
    if (!hit) continue;
    const steps = range(start, i + 1).filter((k) => g.steps[k].rejected === undefined);
    const params = segmentParams(g, i, hit, vocab, options.objectArgs, options.staticPreds);
    const decl = hit.declaration;
    const chosen = hit.atom.args.flatMap((value, arg) =>
      typeof value === "string" && !params.some((p) => p.arg === arg) &&
        g.states[i + 1].typeOf(value) !== undefined
        ? [`some ${g.states[i + 1].typeOf(value)}`]
        : []
    );
    segments.push({
      trace: g,
      traceIndex,
      start,
      end: i + 1,
      steps,
      landmark: hit,
      signature: `${decl.pred}:${decl.on}(${
        [...params.map((p) => `${p.name}: ${p.type}`), ...chosen].join(", ")
      })`,
      params,
    });
    start = i + 1;
  }
  return segments;
}

/**
 * Cuts every trace of a set into segments, deciding across traces what one
 * trace cannot tell:
 *
 * - **Landmarks.** A vocabulary without any gets them from the data (see
 *   {@linkcode deriveLandmarks}), so a new domain needs no hand-picked
 *   subgoals to get reusable skills.
 * - **Object or class.** A landmark argument is lifted to its class (the
 *   skill chooses or finds an object of it) unless the object is already
 *   known whenever such a segment starts (the caller can name it) and
 *   either the class loses its identity (one trace reaches the landmark for
 *   two objects of the same class: two roses watered, two apples placed)
 *   or the task names the object itself (a fact of the first observation
 *   that never changes and is no class fact: `wanted(api 2)`). Then the
 *   argument stays an object, so calls on different objects differ and the
 *   postcondition binds the object the skill acted on.
 */
export function segmentTraces(grounded: readonly GroundedTrace[], vocab: Vocabulary): Segment[] {
  const landmarks = (vocab.landmarks ?? []).length > 0
    ? vocab.landmarks!
    : deriveLandmarks(grounded, vocab);
  const staticPreds = staticPredicates(grounded, vocab);
  const first = grounded.flatMap((g, i) => segmentTrace(g, i, vocab, { landmarks, staticPreds }));
  const known = new Map<string, boolean>();
  const repeated = new Set<string>();
  /** Per argument key and trace: the trace, and each class value's objects reaching the landmark. */
  const reached = new Map<string, { g: GroundedTrace; byClass: Map<string, Set<string>> }>();
  for (const segment of first) {
    if (!segment.landmark) continue;
    const { atom, decl } = segment.landmark;
    for (const p of segment.params) {
      if (p.classPred === undefined) continue;
      const object = atom.args[p.arg];
      const key = `${decl}:${p.arg}`;
      const seen = typeof object === "string" &&
        segment.trace.states[segment.start].typeOf(object) !== undefined;
      known.set(key, (known.get(key) ?? true) && seen);
      const entry = reached.get(`${key}@${segment.traceIndex}`) ??
        { g: segment.trace, byClass: new Map<string, Set<string>>() };
      reached.set(`${key}@${segment.traceIndex}`, entry);
      const objects = entry.byClass.get(String(p.value)) ?? new Set<string>();
      entry.byClass.set(String(p.value), objects.add(String(object)));
      if (objects.size > 1) repeated.add(key);
    }
  }
  // The task names the objects it is about when a fact of its first
  // observation that never changes holds of exactly the objects the trace
  // reaches the landmark for (`wanted(api 2)`), in every trace.
  const unary = [...staticPreds].filter((p) => own(vocab.predicates, p)?.params.length === 1);
  const names = (key: string) => {
    const traces = [...reached].filter(([k]) => k.startsWith(`${key}@`)).map(([, v]) => v);
    return unary.some((pred) =>
      traces.every(({ g, byClass }) => {
        const objects = new Set([...byClass.values()].flatMap((set) => [...set]));
        const extension = new Set(g.states[0].query(pred, []).map((a) => String(a.args[0])));
        return extension.size === objects.size && [...objects].every((o) => extension.has(o));
      })
    );
  };
  const objectArgs = new Set(
    [...known].filter(([key, k]) => k && (repeated.has(key) || names(key))).map(([key]) => key),
  );
  if (objectArgs.size === 0) return first;
  return grounded.flatMap((g, i) =>
    segmentTrace(g, i, vocab, { landmarks, objectArgs, staticPreds })
  );
}

/**
 * Landmarks read off the data for a vocabulary that declares none: the
 * predicates whose atoms the last step of a successful trace makes true
 * (what reached the goal) and that no step of any trace makes false
 * (persistent progress). Each becomes `{ pred, on: "add" }`, in order of
 * first appearance; none when the traces show no such predicate.
 */
export function deriveLandmarks(
  grounded: readonly GroundedTrace[],
  vocab: Vocabulary,
): LandmarkDecl[] {
  const removed = new Set<string>();
  for (const g of grounded) {
    for (const step of g.steps) for (const a of step.delta.remove) removed.add(a.pred);
  }
  const preds: string[] = [];
  for (const g of grounded) {
    if (g.trace.success === false) continue;
    const last = g.steps.findLastIndex((s) => s.rejected === undefined);
    if (last < 0) continue;
    for (const atom of g.steps[last].delta.add) {
      if (!(atom.pred in vocab.predicates) || removed.has(atom.pred)) continue;
      if (g.states[last].has(atom) || preds.includes(atom.pred)) continue;
      preds.push(atom.pred);
    }
  }
  return preds.map((pred) => ({ pred, on: "add" as const }));
}

/**
 * The parameters of a segment ending at step `i`: each object argument of
 * the landmark atom becomes a parameter named after the role it plays in the
 * landmark step's action (`item`, `target`), lifted to its class when a
 * class predicate (`p(Object, ValueType)` with exactly one value for the
 * object) holds and the argument is not in `objectArgs`, else kept as the
 * object itself.
 */
export function segmentParams(
  g: GroundedTrace,
  i: number,
  hit: LandmarkHit,
  vocab: Vocabulary,
  objectArgs: ReadonlySet<string> = new Set(),
  staticPreds?: ReadonlySet<string>,
): SegmentParam[] {
  const after = g.states[i + 1];
  const before = g.states[i];
  const predDecl = own(vocab.predicates, hit.atom.pred);
  const action = matchAction(vocab, g.steps[i].action);
  const params: SegmentParam[] = [];
  const used = new Set<string>();
  hit.atom.args.forEach((value, arg) => {
    const declared = predDecl?.params[arg] ?? "Object";
    if (typeof value !== "string" || !isObjectType(vocab, declared)) return;
    if (staticPreds && !describedBy(value, before, vocab, staticPreds)) return;
    const role = roleOf(action?.args, value) ?? `${declared.toLowerCase()}`;
    const cls = objectArgs.has(`${hit.decl}:${arg}`)
      ? undefined
      : classOf(value, after, vocab) ?? classOf(value, before, vocab);
    const base = cls ? `${role}_type` : role;
    let name = base;
    for (let k = 2; used.has(name) || name in vocab.predicates || name in vocab.functions; k++) {
      name = `${base}_${k}`;
    }
    used.add(name);
    params.push(
      cls
        ? { name, type: cls.type, value: cls.value, arg, classPred: cls.pred }
        : { name, type: after.typeOf(value) ?? declared, value, arg },
    );
  });
  return params;
}

/** Whether a fact of a static predicate mentions the object. */
function describedBy(
  object: string,
  facts: FactView,
  vocab: Vocabulary,
  staticPreds: ReadonlySet<string>,
): boolean {
  for (const pred of staticPreds) {
    const arity = own(vocab.predicates, pred)?.params.length ?? 0;
    for (let at = 0; at < arity; at++) {
      const pattern = Array.from({ length: arity }, (_, i) => i === at ? object : null);
      if (facts.query(pred, pattern).length > 0) return true;
    }
  }
  return false;
}

/**
 * The predicates whose facts no step of the traces changes about an object
 * known before the step (facts about objects a step reveals are new
 * knowledge, not change): the task's description.
 */
export function staticPredicates(
  grounded: readonly GroundedTrace[],
  vocab: Vocabulary,
): Set<string> {
  const changed = new Set<string>();
  for (const g of grounded) {
    g.steps.forEach((step, i) => {
      const before = g.states[i];
      const known = (a: Atom) =>
        a.args.some((x) => typeof x === "string" && before.typeOf(x) !== undefined);
      for (const a of step.delta.remove) changed.add(a.pred);
      for (const a of step.delta.add) if (known(a) && !before.has(a)) changed.add(a.pred);
    });
  }
  return new Set(Object.keys(vocab.predicates).filter((p) => !changed.has(p)));
}

function roleOf(
  args: Record<string, string | number> | undefined,
  value: string,
): string | undefined {
  if (!args) return undefined;
  for (const [name, v] of Object.entries(args)) if (v === value) return name;
  return undefined;
}

/** The class of an object: a predicate `p(T, V)` with V a value type and exactly one value. */
export function classOf(
  object: string,
  facts: FactView,
  vocab: Vocabulary,
): { pred: string; type: string; value: string } | undefined {
  for (const [pred, decl] of Object.entries(vocab.predicates)) {
    if (decl.params.length !== 2) continue;
    const [objType, valueType] = decl.params;
    if (!isObjectType(vocab, objType) || own(vocab.types, valueType)?.kind !== "value") continue;
    const atoms = facts.query(pred, [object, null]);
    if (atoms.length === 1 && typeof atoms[0].args[1] === "string") {
      return { pred, type: valueType, value: atoms[0].args[1] };
    }
  }
  return undefined;
}

/**
 * Groups segments by signature and names each group after its landmark's
 * `skill` name (or `<action>_<predicate>`), with the lifted landmark as
 * postcondition.
 */
export function groupSegments(segments: Segment[], vocab: Vocabulary): SegmentGroup[] {
  const bySignature = new Map<string, Segment[]>();
  for (const s of segments) {
    const list = bySignature.get(s.signature);
    if (list) list.push(s);
    else bySignature.set(s.signature, [s]);
  }
  const groups: SegmentGroup[] = [];
  const names = new Set<string>();
  for (const [signature, list] of bySignature) {
    const first = list[0];
    const decl = first.landmark?.declaration;
    const lastAction = matchAction(vocab, first.trace.steps[first.end - 1].action)?.action ??
      "act";
    const base = decl
      ? decl.skill ?? `${lastAction}_${decl.pred}`
      : `solve_${(first.trace.trace.task.type ?? "task").replace(/[^A-Za-z0-9_]/g, "_")}`;
    let name = base;
    for (let k = 2; names.has(name) || name in vocab.actions; k++) name = `${base}_${k}`;
    names.add(name);
    const post = liftedLandmark(first, vocab, countThreshold(list, vocab));
    groups.push({
      signature,
      name,
      ...(decl ? { landmark: decl } : {}),
      params: first.params.map(({ name, type }) => ({ name, type })),
      ...(post !== undefined ? { post } : {}),
      segments: list,
    });
  }
  return groups;
}

/**
 * The count a landmark's segments all reach and none starts at: the
 * smallest `k` with the landmark's number below `k` where every segment
 * starts and at least `k` where it ends (a count that went from 0 or 2 to
 * 4 or 6 gives 3). `undefined` for landmarks without a number, or when
 * no threshold separates the starts from the ends.
 */
export function countThreshold(
  segments: readonly Segment[],
  vocab: Vocabulary,
): number | undefined {
  let before = -Infinity;
  let after = Infinity;
  for (const s of segments) {
    const atom = s.landmark?.atom;
    if (!atom || s.landmark!.declaration.on !== "add") return undefined;
    const types = own(vocab.predicates, atom.pred)?.params ?? [];
    const at = atom.args.findIndex((a, i) => typeof a === "number" && types[i] === "Num");
    if (at < 0) return undefined;
    after = Math.min(after, atom.args[at] as number);
    const pattern = atom.args.map((a, i) => i === at ? null : a);
    const start = s.trace.states[s.start].query(atom.pred, pattern)
      .map((a) => a.args[at])
      .filter((v): v is number => typeof v === "number");
    const fn = Object.values(vocab.functions).find((f) => f.predicate === atom.pred);
    const value = start.length > 0
      ? Math.max(...start)
      : typeof fn?.default === "number"
      ? fn.default
      : undefined;
    if (value !== undefined) before = Math.max(before, value);
  }
  if (!Number.isFinite(after)) return undefined;
  const k = Number.isFinite(before) ? Math.floor(before) + 1 : after;
  return k <= after ? k : undefined;
}

/**
 * The landmark atom with its objects replaced by parameters or by
 * existentially quantified variables of the parameter's class:
 * `exists(v1: Item, holds(v1) and is_type(v1, item_type))`. A count is
 * stated as `fn(...) >= atLeast` (see {@linkcode countThreshold}), or
 * `fn(...) > 0` without a threshold.
 */
export function liftedLandmark(
  segment: Segment,
  vocab: Vocabulary,
  atLeast?: number,
): string | undefined {
  if (!segment.landmark) return undefined;
  const { atom, declaration: decl } = segment.landmark;
  const predDecl = own(vocab.predicates, atom.pred);
  const terms: string[] = [];
  const classLits: string[] = [];
  const bound: { name: string; type: string }[] = [];
  atom.args.forEach((value, i) => {
    const param = segment.params.find((p) => p.arg === i);
    if (param && param.classPred) {
      const v = `v${i}`;
      bound.push({ name: v, type: predDecl?.params[i] ?? "Object" });
      terms.push(v);
      classLits.push(`${param.classPred}(${v}, ${param.name})`);
    } else if (param) terms.push(param.name);
    else if (typeof value === "string" && isObjectType(vocab, predDecl?.params[i] ?? "")) {
      // An object the skill chose: any object of its type.
      const v = `v${i}`;
      const type = segment.trace.states[segment.end].typeOf(value) ?? predDecl!.params[i];
      bound.push({ name: v, type });
      terms.push(v);
    } else {
      // A non-object argument (a count): quantify it away with a comparison.
      terms.push(`__num${i}`);
    }
  });
  let body: string | undefined;
  const numeric = atom.args.findIndex((_, i) => terms[i] === `__num${i}`);
  if (numeric >= 0) {
    // A count: through the function read off this predicate, if there is one;
    // otherwise the count cannot be named and only the class literals remain.
    const fn = Object.entries(vocab.functions).find(([, f]) => f.predicate === atom.pred);
    const objs = terms.filter((_, i) => i !== numeric);
    const bound = atLeast !== undefined && decl.on === "add" ? ` >= ${atLeast}` : " > 0";
    body = fn ? `${fn[0]}(${objs.join(", ")})${bound}` : undefined;
  } else body = `${atom.pred}(${terms.join(", ")})`;
  if (body !== undefined && decl.on === "remove") body = `not ${body}`;
  const parts = [...(body !== undefined ? [body] : []), ...classLits];
  if (parts.length === 0) return undefined;
  const inner = parts.join(" and ");
  return bound.reduceRight((acc, b) => `exists(${b.name}: ${b.type}, ${acc})`, inner);
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
}
