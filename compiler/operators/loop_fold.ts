/**
 * LoopFold: detect runs of the same action over different objects and fold
 * them into a loop over a `select_all` whose filter held, when the run
 * started, for every object the expert visited. The head of an iteration is
 * the repeated action; the iteration holds everything up to the next head
 * (the last iteration: the steps that still mention its object).
 *
 * @module
 */
import type { Expr } from "../../dsl/expr/ast.ts";
import { evalExpr } from "../../dsl/expr/eval.ts";
import { printExpr } from "../../dsl/expr/print.ts";
import type { Value } from "../../dsl/facts.ts";
import { isAssignable, own, type Vocabulary } from "../../dsl/vocabulary.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import type { Instance, Item, StepRef } from "../instances.ts";
import { type Binding, synthesizeBinding } from "../bind.ts";
import { linkedElement } from "../_bind_parts.ts";
import { originalOf } from "../copies.ts";
import type { Segment } from "../segment.ts";
import { conjunction, constantCount, exprSize } from "../_synth_expr.ts";
import type { FactView } from "../../dsl/facts.ts";

/** How a group's loop is built. */
export interface LoopPlan {
  /** Head action template and the parameter holding the iteration object. */
  head: string;
  role: string;
  /**
   * Further actions that may start an iteration instead of the head, each
   * with its parameter holding the iteration object (an ingredient is
   * fetched, or crafted by a call of the skill itself).
   */
  alternates?: Record<string, string>;
  /**
   * An iteration's element may be an object of the list that a fact relates
   * to its first step's object (see {@linkcode relatedElement}).
   */
  related?: boolean;
  /**
   * The type of the head's objects that start an iteration, when only
   * those do (the head acts on objects of other types too: `click` on a
   * product, then on option values, then on `Buy Now`); the others stay
   * plain steps.
   */
  headType?: string;
  /** Loop variable name and type. */
  var: string;
  type: string;
  /** Bindings needed before the loop (e.g. an object the filter mentions). */
  pre: { var: string; expr: string; type: string }[];
  /** The list expression: `select_all(v: T, filter)`. */
  over: string;
}

/** Options of {@linkcode planLoop} and {@linkcode foldInstance}. */
export interface LoopOptions {
  /**
   * Loops run through their whole list: a segment that ends in a loop's
   * last iteration ends after the loop, not inside it (the task level,
   * where the episode ends when the last goal object is done). Otherwise
   * such a loop is a search that exits when it finds what it looks for.
   * @default false
   */
  enumerate?: boolean;
}

/** Candidate heads: (action, parameter) pairs whose value changes between repeats. */
function headCandidates(
  instance: Instance,
  vocab: Vocabulary,
  typed: boolean,
): Map<string, number> {
  const values = new Map<string, Set<string | number>>();
  for (const it of instance.items) {
    if (it.kind !== "step") continue;
    const decl = own(vocab.actions, it.step.action);
    for (const p of decl?.params ?? []) {
      if (p.type === "Num" || p.type === "Str") continue;
      const type = typed ? objectType(instance, it.step, p.name) : undefined;
      if (typed && type === undefined) continue;
      const key = `${it.step.action}\u0000${p.name}${typed ? `\u0000${type}` : ""}`;
      const set = values.get(key) ?? new Set();
      set.add(it.step.args[p.name]);
      values.set(key, set);
    }
  }
  const out = new Map<string, number>();
  for (const [key, set] of values) if (set.size >= 2) out.set(key, set.size);
  return out;
}

/** The declared type of a step's argument in the state it was taken in. */
function objectType(instance: Instance, step: StepRef, param: string): string | undefined {
  const value = step.args[param];
  return typeof value === "string"
    ? instance.segment.trace.states[step.index].typeOf(value)
    : undefined;
}

/**
 * Splits an instance's steps at each occurrence of the head: a prefix, the
 * iterations, and a suffix (steps after the last iteration that mention
 * neither its object nor anything first seen during it).
 */
export function splitIterations(
  steps: StepRef[],
  head: string,
  role: string,
  seenBefore: (object: string | number, step: StepRef) => boolean = () => true,
  alternates: Readonly<Record<string, string>> = {},
  elementOf: (step: StepRef, object: string | number) => string | number = (_s, o) => o,
  accepts: (step: StepRef) => boolean = () => true,
): {
  prefix: StepRef[];
  iterations: StepRef[][];
  suffix: StepRef[];
  /** The loop's element of each iteration (the object its first step acts on, or relates to). */
  elements: (string | number)[];
} {
  const roles: Record<string, string> = { ...alternates, [head]: role };
  // The head starts an iteration; an alternate only where it acts on
  // another element than the iteration in progress (else it belongs to it).
  const starts: number[] = [];
  const elements: (string | number)[] = [];
  let current: string | number | undefined;
  steps.forEach((s, i) => {
    if (!(s.action in roles) || !accepts(s)) return;
    const element = elementOf(s, s.args[roles[s.action]]);
    if (s.action !== head && starts.length > 0 && element === current) return;
    starts.push(i);
    elements.push(element);
    current = element;
  });
  if (starts.length === 0) return { prefix: steps, iterations: [], suffix: [], elements: [] };
  const prefix = steps.slice(0, starts[0]);
  const iterations: StepRef[][] = [];
  for (let k = 0; k < starts.length - 1; k++) {
    iterations.push(steps.slice(starts[k], starts[k + 1]));
  }
  const last = steps.slice(starts[starts.length - 1]);
  // The last iteration keeps the steps on its object, and on objects first
  // seen during it (what the search found).
  const object = last[0].args[roles[last[0].action]];
  let end = 1;
  while (
    end < last.length &&
    Object.values(last[end].args).some((v) => v === object || !seenBefore(v, last[0]))
  ) end++;
  iterations.push(last.slice(0, end));
  return { prefix, iterations, suffix: last.slice(end), elements };
}

/**
 * The element an action relates to: its object when the list holds it,
 * else the one element of the list not yet taken that a fact of the state
 * links to the object (an ingredient listed as a family, crafted as one of
 * its members); else the object itself.
 */
export function relatedElement(
  list: readonly Value[],
  facts: FactView,
  object: string | number,
  vocab: Vocabulary,
  taken: ReadonlySet<Value>,
): string | number {
  if (list.includes(object)) return object;
  return linkedElement(list, facts, object, vocab, taken) ?? object;
}

/**
 * Plans the loop of a group, if any instance repeats an action over
 * different objects: the head most instances repeat, and the most specific
 * filter that held at the start of each run for every object it visited.
 */
export function planLoop(
  instances: readonly Instance[],
  vocab: Vocabulary,
  paramTypes: Readonly<Record<string, string>>,
  options: LoopOptions = {},
): LoopPlan | undefined {
  // An action over objects of several types (one `click` for products,
  // options and buttons) may repeat over one of them only: when no loop
  // fits the action as a whole, the head is the action on one type.
  return planLoopOf(instances, vocab, paramTypes, options, false) ??
    planLoopOf(instances, vocab, paramTypes, options, true);
}

/** Accepts the steps whose object has the plan's head type (every step without one). */
function headAccepts(
  inst: Instance,
  plan: Pick<LoopPlan, "head" | "role" | "headType">,
): (step: StepRef) => boolean {
  const { headType } = plan;
  if (headType === undefined) return () => true;
  return (step) => step.action !== plan.head || objectType(inst, step, plan.role) === headType;
}

function planLoopOf(
  instances: readonly Instance[],
  vocab: Vocabulary,
  paramTypes: Readonly<Record<string, string>>,
  options: LoopOptions,
  typed: boolean,
): LoopPlan | undefined {
  const votes = new Map<string, { instances: number; values: number; first: number }>();
  for (const inst of instances) {
    for (const [key, n] of headCandidates(inst, vocab, typed)) {
      const v = votes.get(key) ?? { instances: 0, values: 0, first: 0 };
      // Where the candidate first occurs: an iteration starts with the
      // first action of the repeated run ("water p, fertilize p", not
      // "fertilize p, water the next").
      const action = key.split("\u0000")[0];
      const at = inst.items.findIndex((it) => it.kind === "step" && it.step.action === action);
      votes.set(key, { instances: v.instances + 1, values: v.values + n, first: v.first + at });
    }
  }
  const best =
    [...votes.entries()].sort((a, b) =>
      b[1].instances - a[1].instances || b[1].values - a[1].values ||
      a[1].first - b[1].first || a[0].localeCompare(b[0])
    )[0];
  if (!best) return undefined;
  const [head, role, headType] = best[0].split("\u0000");
  const declared = headType ??
    own(vocab.actions, head)!.params.find((p) => p.name === role)?.type ?? "Object";
  const gather = (alternates: Record<string, string>, filter?: Binding) => {
    const roles: Record<string, string> = { ...alternates, [head]: role };
    const examples: LoopExample[] = [];
    let type = declared;
    for (const inst of instances) {
      const steps = inst.items.flatMap((it) => it.kind === "step" ? [it.step] : []);
      const q = filter?.expr;
      const relate = filter && q && isSelectOne(q)
        ? relation(inst, steps, roles, (facts) => {
          const all: Expr = { ...q, op: "select_all" };
          return listAt(filter, all, facts, inst.args, vocab);
        }, vocab)
        : undefined;
      const { iterations, suffix, elements } = splitIterations(
        steps,
        head,
        role,
        seenIn(inst),
        alternates,
        relate,
        headAccepts(inst, { head, role, headType }),
      );
      if (iterations.length < 2) continue;
      const startFacts = inst.segment.trace.states[iterations[0][0].index];
      const all = elements;
      const exits = !options.enumerate && suffix.length === 0;
      // Each object in the state its iteration began in: a filter that keeps
      // holding only for the objects still to visit is the most specific.
      // One list per instance, each example naming how much of it came
      // before: a copy per iteration would cost the square of a long loop.
      const visited: Value[] = [];
      for (const [k, it] of iterations.entries()) {
        const facts = inst.segment.trace.states[it[0].index];
        const target = elements[k];
        type = facts.typeOf(String(target)) ?? type;
        examples.push({
          facts,
          scope: inst.args,
          target,
          inst: inst.id,
          visited,
          seen: k,
          startFacts,
          all,
          exits,
        });
        visited.push(target);
      }
    }
    return { examples, type };
  };
  let alternates: Record<string, string> = {};
  let { examples, type } = gather(alternates);
  if (examples.length === 0) return undefined;
  const segmentOf = (id: number) => instances.find((i) => i.id === id)!.segment;
  let select = chooseFilter(examples, vocab, paramTypes, type, segmentOf);
  if (!select || !isSelectOne(select.expr)) return undefined;
  // Other actions on objects of the same type may start an iteration too,
  // when the filter chosen with them still fits every iteration (and no
  // other instance loses its loop).
  for (const [name, decl] of Object.entries(vocab.actions)) {
    if (name === head) continue;
    const param = decl.params.find((p) =>
      p.type === declared || isAssignable(vocab, p.type, declared) ||
      isAssignable(vocab, declared, p.type)
    );
    if (!param) continue;
    if (
      !instances.some((i) => i.items.some((it) => it.kind === "step" && it.step.action === name))
    ) {
      continue;
    }
    // An action on the segment's own parameter (crafting the item itself)
    // is what the loop prepares for, not one of its iterations.
    const onParam = instances.some((i) =>
      i.items.some((it) =>
        it.kind === "step" && it.step.action === name &&
        Object.values(i.args).includes(it.step.args[param.name])
      )
    );
    if (onParam) continue;
    const trial = { ...alternates, [name]: param.name };
    // Its objects are the list's elements, or objects a fact relates to one.
    let wider = gather(trial, select);
    if (wider.examples.length <= examples.length) continue;
    // The filter must hold for every element, the new ones included: the one
    // chosen without them if it does, else one chosen with them all.
    let filter: Binding | undefined = select;
    if (!fitsAll(filter, wider.examples, vocab)) {
      // Only an enumeration's list may be chosen anew: a search keeps where it looks.
      if (wider.examples.some((e) => e.exits)) continue;
      filter = chooseFilter(wider.examples, vocab, paramTypes, wider.type, segmentOf);
      if (!filter || !isSelectOne(filter.expr)) continue;
      wider = gather(trial, filter);
      if (!fitsAll(filter, wider.examples, vocab)) continue;
    }
    alternates = trial;
    ({ examples, type } = wider);
    select = filter;
  }
  const q = select.expr;
  if (!isSelectOne(q)) return undefined;
  const filter: Expr = { ...q, op: "select_all" };
  const taken = new Set(Object.keys(paramTypes));
  let name = role;
  // `role_i`, then `role_i2`, ...: a single fallback would loop forever when it is taken too.
  for (let k = 1; taken.has(name); k++) name = `${role}_i${k === 1 ? "" : k}`;
  return {
    head,
    role,
    ...(headType !== undefined ? { headType } : {}),
    ...(Object.keys(alternates).length > 0 ? { alternates, related: true } : {}),
    var: name,
    type,
    pre: select.steps.map((s) => ({ var: s.var, expr: s.text, type: typeOfStep(s.expr) })),
    over: printExpr(filter),
  };
}

/** One visited object of a loop, with what the filter choice needs to know. */
interface LoopExample {
  /** State when its iteration began. */
  facts: FactView;
  scope: Record<string, Value>;
  target: Value;
  inst: number;
  /** Objects the loop visited, in order: the first `seen` came before it. */
  visited: readonly Value[];
  seen: number;
  /** State when the loop began, and every object the loop visited. */
  startFacts: FactView;
  all: Value[];
  /** The segment ends inside the loop (a search) rather than after it (an enumeration). */
  exits: boolean;
}

/** Iterations whose visited share is computed when a loop has more (see {@linkcode chooseFilter}). */
const STALE_SAMPLE = 64;

/**
 * Chooses the loop's filter. Candidates come from binding synthesis on all
 * iterations and with each instance left out in turn (one odd segment, such
 * as a revisit, should not spoil the filter for all). Cost, lowest wins:
 * expression size, plus 10 x the mean share of the objects already visited
 * by the loop that the filter still keeps (a search should drop what it has
 * seen, so later searches do not revisit it), plus the mean share of all
 * objects it keeps, plus 3 per instance whose iterations it does not fit.
 */
function chooseFilter(
  examples: LoopExample[],
  vocab: Vocabulary,
  paramTypes: Readonly<Record<string, string>>,
  type: string,
  segmentOf: (inst: number) => Segment,
): Binding | undefined {
  const ctx = { vocab, varTypes: paramTypes };
  const instancesIn = [...new Set(examples.map((e) => e.inst))];
  const pool = new Map<string, Binding>();
  const add = (bs: Binding[]) => {
    for (const b of bs) if (isSelectOne(b.expr) && !pool.has(b.text)) pool.set(b.text, b);
  };
  // Scored below with the expert's choice of a step's object, so a chain may
  // go through one of several (the recipe the expert used, of an item's two).
  const options = { type, chooseIntermediates: true };
  add(synthesizeBinding(ctx, examples, { ...options, limit: 12 }));
  if (instancesIn.length > 2) {
    // Leaving out a copy of an instance already left out leaves the same
    // examples (its original's stand in for its own): once per class.
    const leftOut = new Set<Segment>();
    for (const left of instancesIn) {
      const original = originalOf(segmentOf(left));
      if (leftOut.has(original)) continue;
      leftOut.add(original);
      add(
        synthesizeBinding(ctx, examples.filter((e) => e.inst !== left), { ...options, limit: 6 }),
      );
    }
  }
  // Each filter with one conjunct fewer competes too: the synthesizer ranks
  // the most specific first, and a looser list may be the one to keep.
  add([...pool.values()].flatMap((b) => looser(b)));
  // The visited share is a mean over iterations: a long loop's is estimated
  // from evenly spaced ones, each costing its number of earlier visits.
  const staleEvery = Math.max(1, Math.ceil(examples.length / STALE_SAMPLE));
  let best: { b: Binding; cost: number } | undefined;
  for (const b of pool.values()) {
    const q = b.expr as Extract<Expr, { kind: "quant" }>;
    const all: Expr = { ...q, op: "select_all" };
    const misfits = new Set<number>();
    let share = 0;
    let counted = 0;
    let stale = 0;
    let staleCounted = 0;
    for (const [index, e] of examples.entries()) {
      const r = listAt(b, all, e.facts, e.scope, vocab, e.target);
      if (r === undefined || !r.includes(e.target)) {
        misfits.add(e.inst);
        continue;
      }
      const domain = q.domain.kind === "type" ? e.facts.objectsOfType(q.domain.type).length : 0;
      share += domain > 0 ? r.length / domain : 1;
      counted++;
      if (e.seen > 0 && index % staleEvery === 0) {
        const kept = new Set(r);
        let still = 0;
        for (let i = 0; i < e.seen; i++) if (kept.has(e.visited[i])) still++;
        stale += still / e.seen;
        staleCounted++;
      }
    }
    if (counted === 0) continue;
    // An enumeration (the loop runs to its end) should list exactly what the
    // expert visited, as the list stood when the loop began.
    let extra = 0;
    let enumerations = 0;
    for (const inst of new Set(examples.filter((e) => !e.exits).map((e) => e.inst))) {
      const e = examples.find((x) => x.inst === inst)!;
      const listed = listAt(b, all, e.startFacts, e.scope, vocab, e.target);
      if (!listed) continue;
      extra += listed.filter((v) => !e.all.includes(v)).length / Math.max(1, listed.length);
      enumerations++;
    }
    const searches = examples.some((e) => e.exits);
    // A constant in a filter fits the demonstrations by coincidence more
    // often than a relation does (`count(x) == 0` against `count(x) <
    // need(r, x)`): each costs as much as two more nodes and a bit.
    const cost = b.size + (searches ? 10 * (staleCounted ? stale / staleCounted : 0) : 0) +
      50 * (enumerations ? extra / enumerations : 0) + share / counted + 3 * misfits.size +
      2.5 * b.constants;
    if (!best || cost < best.cost || (cost === best.cost && b.text < best.b.text)) {
      best = { b, cost };
    }
  }
  return best?.b;
}

/**
 * The element of each step for an instance: the loop's list is evaluated
 * where its first candidate step starts, and each step's object is related
 * to an element not taken yet (see {@linkcode relatedElement}).
 */
function relation(
  inst: Instance,
  steps: readonly StepRef[],
  roles: Readonly<Record<string, string>>,
  listIn: (facts: FactView) => Value[] | undefined,
  vocab: Vocabulary,
): (step: StepRef, object: string | number) => string | number {
  const first = steps.find((s) => s.action in roles);
  const list = first ? listIn(inst.segment.trace.states[first.index]) ?? [] : [];
  const taken = new Set<Value>();
  return (step, object) => {
    const e = relatedElement(list, inst.segment.trace.states[step.index], object, vocab, taken);
    taken.add(e);
    return e;
  };
}

/** The selection with each one of its top-level conjuncts left out. */
function looser(b: Binding): Binding[] {
  const q = b.expr;
  if (q.kind !== "quant") return [];
  const parts: Expr[] = [];
  const flatten = (e: Expr) => {
    if (e.kind === "binary" && e.op === "and") {
      flatten(e.left);
      flatten(e.right);
    } else parts.push(e);
  };
  flatten(q.body);
  if (parts.length < 2) return [];
  return parts.map((_, k) => {
    const expr: Expr = { ...q, body: conjunction(parts.filter((_, j) => j !== k)) };
    const text = printExpr(expr);
    return {
      ...b,
      expr,
      text,
      determined: false,
      size: b.steps.reduce((n, s) => n + exprSize(s.expr), 0) + exprSize(expr),
      constants: b.steps.reduce((n, s) => n + constantCount(s.expr), 0) + constantCount(expr),
    };
  });
}

/** Whether a loop filter holds, when each iteration began, for that iteration's object. */
function fitsAll(b: Binding, examples: readonly LoopExample[], vocab: Vocabulary): boolean {
  const q = b.expr as Extract<Expr, { kind: "quant" }>;
  const all: Expr = { ...q, op: "select_all" };
  return examples.every((e) => {
    const listed = listAt(b, all, e.facts, e.scope, vocab, e.target);
    return listed !== undefined && listed.includes(e.target);
  });
}

/**
 * The list `all` gives after the binding's steps. A step that selects one
 * of several objects takes the first under which the list holds `target`
 * when one is given, as replay chooses for the expert (else its first).
 */
function listAt(
  b: Binding,
  all: Expr,
  facts: FactView,
  scope: Record<string, Value>,
  vocab: Vocabulary,
  target?: Value,
  from = 0,
): Value[] | undefined {
  if (from === b.steps.length) {
    const r = evalExpr(all, { vocab, facts, scope });
    return r.ok && Array.isArray(r.value) ? r.value : undefined;
  }
  const s = b.steps[from];
  const options = s.expr.kind === "quant" && s.expr.op === "select_one"
    ? evalExpr({ ...s.expr, op: "select_all" }, { vocab, facts, scope })
    : undefined;
  if (
    target !== undefined && options?.ok && Array.isArray(options.value) &&
    options.value.length > 1
  ) {
    let first: Value[] | undefined;
    for (const v of options.value.slice(0, MAX_STEP_CHOICES)) {
      const list = listAt(b, all, facts, { ...scope, [s.var]: v }, vocab, target, from + 1);
      if (list?.includes(target)) return list;
      first ??= list;
    }
    return first;
  }
  const r = evalExpr(s.expr, { vocab, facts, scope });
  return r.ok
    ? listAt(b, all, facts, { ...scope, [s.var]: r.value }, vocab, target, from + 1)
    : undefined;
}

/** Candidates of a step tried for the expert's choice. */
const MAX_STEP_CHOICES = 8;

/** Whether an object was already known in the state before a step. */
function seenIn(inst: Instance): (object: string | number, step: StepRef) => boolean {
  const final = inst.segment.trace.states[inst.segment.end];
  // Only objects can be "first seen"; other strings (amounts, texts) never are.
  return (object, step) =>
    typeof object !== "string" || final.typeOf(object) === undefined ||
    inst.segment.trace.states[step.index].typeOf(object) !== undefined;
}

function isSelectOne(e: Expr): e is Extract<Expr, { kind: "quant" }> {
  return e.kind === "quant" && e.op === "select_one";
}

function typeOfStep(e: Expr): string {
  return e.kind === "quant" && e.domain.kind === "type" ? e.domain.type : "Object";
}

/**
 * Folds an instance's head runs into a loop item. A single occurrence is
 * folded only when its object is in the loop's list at that point, so an
 * action aimed at a known object stays a plain step.
 */
export function foldInstance(
  inst: Instance,
  plan: LoopPlan,
  vocab: Vocabulary,
  options: LoopOptions = {},
): Instance {
  const steps = inst.items.flatMap((it) => it.kind === "step" ? [it.step] : []);
  const roles: Record<string, string> = { ...plan.alternates, [plan.head]: plan.role };
  const relate = plan.related
    ? relation(inst, steps, roles, (facts) => listOf(plan, facts, inst.args, vocab), vocab)
    : undefined;
  const { prefix, iterations, suffix, elements } = splitIterations(
    steps,
    plan.head,
    plan.role,
    seenIn(inst),
    plan.alternates,
    relate,
    headAccepts(inst, plan),
  );
  if (iterations.length === 0) return inst;
  // Iterations before the first whose object is in the loop's list stay
  // plain steps (an action aimed at a known object is not part of a search).
  let first = 0;
  while (
    first < iterations.length &&
    !inList(
      plan,
      inst.segment.trace.states[iterations[first][0].index],
      inst.args,
      elements[first],
      vocab,
    )
  ) first++;
  if (first === iterations.length) return inst;
  const looped = iterations.slice(first);
  const exits = !options.enumerate && suffix.length === 0;
  const loop: Item = {
    kind: "loop",
    head: plan.head,
    role: plan.role,
    iterations: looped,
    exits,
    elements: elements.slice(first),
  };
  const items: Item[] = [
    ...[...prefix, ...iterations.slice(0, first).flat()].map((step): Item => ({
      kind: "step",
      step,
    })),
    loop,
    ...suffix.map((step): Item => ({ kind: "step", step })),
  ];
  return { ...inst, items };
}

/** The parameter of an iteration's first action that holds the loop's object. */
export function roleIn(plan: LoopPlan, action: string): string {
  return plan.alternates?.[action] ?? plan.role;
}

function inList(
  plan: LoopPlan,
  facts: FactView,
  args: Record<string, Value>,
  object: Value,
  vocab: Vocabulary,
): boolean {
  return listOf(plan, facts, args, vocab)?.includes(object) ?? false;
}

/** The loop's list in a state: its bindings, then its `select_all`. */
function listOf(
  plan: LoopPlan,
  facts: FactView,
  args: Record<string, Value>,
  vocab: Vocabulary,
): Value[] | undefined {
  const scope: Record<string, Value> = { ...args };
  for (const p of plan.pre) {
    const e = parseExpr(p.expr);
    if (!e.ok) return undefined;
    const r = evalExpr(e.value, { vocab, facts, scope });
    if (!r.ok) return undefined;
    scope[p.var] = r.value;
  }
  const over = parseExpr(plan.over);
  if (!over.ok) return undefined;
  const r = evalExpr(over.value, { vocab, facts, scope });
  return r.ok && Array.isArray(r.value) ? r.value : undefined;
}
