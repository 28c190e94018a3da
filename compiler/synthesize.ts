/**
 * Builds the structured program of a skill from a set of instances:
 * Branching aligns their sequences into blocks, Lifting turns each aligned
 * action's constants into expressions, loops come from LoopFold, and every
 * block that some members skip gets a guard by predicate invention from the
 * situations of the members that take it (positives) and skip it
 * (negatives).
 *
 * @module
 */
import { freshIds } from "../dsl/graph/ids.ts";
import type { Expr } from "../dsl/expr/ast.ts";
import type { FactView, Value } from "../dsl/facts.ts";
import type { Vocabulary } from "../dsl/vocabulary.ts";
import { freeVars } from "../dsl/expr/vars.ts";
import { valueEquals } from "../dsl/expr/eval.ts";
import { parseExpr } from "../dsl/expr/parse.ts";
import { printExpr } from "../dsl/expr/print.ts";
import type { ActionRelations } from "./action_relations.ts";
import type { Instance, Item } from "./instances.ts";
import { type Stmt, stmtReads } from "./program_tree.ts";
import { type AlignInput, alignSequences, type Block, toBlocks } from "./operators/branching.ts";
import {
  evalText,
  hardChoice,
  liftAction,
  type Occurrence,
  type Scope,
} from "./operators/lifting.ts";
import { type LoopPlan, roleIn } from "./operators/loop_fold.ts";
import { callActions } from "./skill_action.ts";
import { inventPredicate } from "./invent.ts";
import type { Example } from "./synth_types.ts";

/** A sequence being emitted: one instance, or one loop iteration. */
interface Member {
  id: number;
  inst: Instance;
  elems: Item[];
  exits: boolean;
  /** Values of the variables it has bound. */
  scope: Record<string, Value>;
  /** Trace step index of its next action: the current state is `states[cursor]`. */
  cursor: number;
}

/** The result of synthesis. */
export interface Synthesis {
  body: Stmt[];
  /** One line per decision (for --explain). */
  notes: string[];
  /**
   * Guards that are weak evidence: not a single literal, yet they tell one
   * situation from twenty or more (some conjunction singles out any one),
   * with the instance (`Instance.id`) of that situation.
   */
  weak: { cond: string; instance: number }[];
}

/** What the emit functions share while one program is synthesized. */
interface Emitter {
  vocab: Vocabulary;
  /** The relations each action's arguments stood in (see `actionRelations`). */
  relations: ActionRelations;
  plan: LoopPlan | undefined;
  paramTypes: Readonly<Record<string, string>>;
  /** Fresh variable names, never a predicate's or function's. */
  names: (base: string) => string;
  /** Member ids (instances, then loop iterations). */
  nextId: number;
  notes: string[];
  weak: Synthesis["weak"];
  /** The situations each guard was invented from, for {@linkcode enablingGuards}. */
  guards: Map<Stmt, GuardSource>;
}

/** The situations a guard was invented from. */
interface GuardSource {
  positives: Example[];
  negatives: Example[];
  types: Record<string, string>;
  hoisted: Stmt[];
  scope: Scope;
}

/**
 * Synthesizes the program body for `instances` (already folded with `plan`);
 * object selections for an action's arguments keep the action's `relations`.
 */
export function synthesizeProgram(
  instances: readonly Instance[],
  plan: LoopPlan | undefined,
  paramTypes: Readonly<Record<string, string>>,
  vocab: Vocabulary,
  relations: ActionRelations = new Map(),
): Synthesis {
  const em: Emitter = {
    vocab,
    relations,
    plan,
    paramTypes,
    // Variable names: fresh, and never a predicate's or function's name.
    names: freshIds([
      ...Object.keys(paramTypes),
      ...Object.keys(vocab.predicates),
      ...Object.keys(vocab.functions),
    ]),
    nextId: 0,
    notes: [],
    weak: [],
    guards: new Map(),
  };
  const members: Member[] = instances.map((inst) => ({
    id: em.nextId++,
    inst,
    elems: inst.items,
    exits: true,
    scope: { ...inst.args },
    cursor: inst.segment.steps[0] ?? inst.segment.start,
  }));
  const scope: Scope = { types: { ...paramTypes }, bound: new Map() };
  const { stmts } = emitSequence(em, members, scope);
  return { body: stmts, notes: em.notes, weak: em.weak };
}

/** The facts where a member is. */
function factsOf(m: Member): FactView {
  return m.inst.segment.trace.states[m.cursor];
}

/** A member's situation, with the variables of `s` it has bound. */
function exampleOf(m: Member, s: Scope): Example {
  return { facts: factsOf(m), scope: pick(m.scope, Object.keys(s.types)) };
}

/** Aligns the members' sequences into blocks and emits them. */
function emitSequence(em: Emitter, ms: Member[], s: Scope): { stmts: Stmt[]; terminal: boolean } {
  const byId = new Map(ms.map((m) => [m.id, m]));
  const inputs: AlignInput<Item>[] = ms.map((m) => ({
    member: m.id,
    elems: m.elems,
    exits: m.exits,
  }));
  // A call on an object the scope does not hold (a family's member, where
  // the loop is at the family) is another step than a call on a variable.
  const calls = callActions(em.vocab);
  const keys = new Map<Item, string>();
  for (const m of ms) {
    for (const item of m.elems) {
      if (item.kind !== "step" || !calls.has(item.step.action)) continue;
      const values = new Set(Object.values(m.scope));
      const onScope = Object.values(item.step.args).some((v) => values.has(v));
      if (!onScope) keys.set(item, `${item.step.action}@related`);
    }
  }
  const blocks = toBlocks(
    alignSequences(
      inputs,
      (item) => keys.get(item) ?? keyOf(item),
      (id, item) => roleOf(byId.get(id)!, item, em.vocab),
    ),
    inputs,
  );
  return emitBlocks(em, blocks, byId, s, undefined);
}

/**
 * Emits blocks in order. A guarded block takes the blocks after it that
 * only its own members execute into its `then` branch, so the variables it
 * binds stay in scope for them.
 */
function emitBlocks(
  em: Emitter,
  blocks: Block<Item>[],
  byId: Map<number, Member>,
  s: Scope,
  context: ReadonlySet<number> | undefined,
): { stmts: Stmt[]; terminal: boolean } {
  const stmts: Stmt[] = [];
  let terminal = false;
  let i = 0;
  while (i < blocks.length) {
    const block = blocks[i];
    const reaching = context ? block.reaching.filter((id) => context.has(id)) : block.reaching;
    const skipping = reaching.filter((id) => !block.members.includes(id)).map((id) =>
      byId.get(id)!
    );
    const guarded = skipping.length > 0;
    let j = i + 1;
    if (guarded && block.exiting.length < block.members.length) {
      const own = new Set(block.members);
      while (j < blocks.length && blocks[j].members.every((id) => own.has(id))) j++;
    }
    const positives = block.members.map((id) => exampleOf(byId.get(id)!, s));
    const negatives = skipping.map((m) => exampleOf(m, s));
    const blockScope: Scope = guarded
      ? { types: { ...s.types }, bound: new Map(s.bound), loopVar: s.loopVar }
      : s;
    const body = emitBlock(em, block, byId, blockScope);
    if (j > i + 1) {
      const nested = emitBlocks(
        em,
        blocks.slice(i + 1, j),
        byId,
        blockScope,
        new Set(block.members),
      );
      body.stmts.push(...nested.stmts);
    }
    if (guarded) {
      const keys = blocks.slice(i, j).flatMap((b) => b.columns.map((c) => c.key));
      const hoist = hoistBindings(
        em,
        body.stmts,
        block.members.map((id) => byId.get(id)!),
        skipping,
        positives,
        negatives,
        s,
        blockScope,
      );
      const cond = invent(
        em,
        hoist.positives,
        hoist.negatives,
        s,
        describe(keys),
        hoist.vars,
        [block.members.map((id) => byId.get(id)!.inst.id), skipping.map((m) => m.inst.id)],
      );
      const guard: Stmt = { kind: "if", cond, then: body.stmts, else: [] };
      em.guards.set(guard, {
        positives: hoist.positives,
        negatives: hoist.negatives,
        types: { ...s.types },
        hoisted: hoist.stmts,
        scope: s,
      });
      stmts.push(...hoist.stmts, guard);
    } else {
      stmts.push(...body.stmts);
      if (body.terminal) terminal = true;
    }
    i = j;
  }
  enablingGuards(em, stmts);
  return { stmts, terminal };
}

/**
 * A block runs because what follows needs it: where a selection after the
 * block finds nothing in every situation that takes the block and finds
 * something in every one that skips it, "nothing to select" is the guard
 * (boot a server when no server has a free slot), whatever smaller
 * predicate happened to separate the few situations seen.
 */
function enablingGuards(em: Emitter, stmts: Stmt[]): void {
  stmts.forEach((st, k) => {
    const seen = em.guards.get(st);
    if (!seen || st.kind !== "if") return;
    for (const next of stmts.slice(k + 1)) {
      if (next.kind !== "bind") continue;
      const parsed = parseExpr(next.expr);
      if (!parsed.ok) continue;
      const e = hardChoice(parsed.value);
      if (e.kind !== "quant" || e.op !== "select_one") continue;
      if (![...freeVars(e)].every((v) => v in seen.types)) continue;
      const cond = `not ${printExpr({ ...e, op: "exists" })}`;
      const holds = (ex: Example) => evalText(cond, ex.facts, ex.scope, em.vocab);
      if (
        seen.positives.every((ex) => holds(ex) === true) &&
        seen.negatives.every((ex) => holds(ex) === false)
      ) {
        if (cond !== st.cond) em.notes.push(`branch (enabling): ${cond} replaces ${st.cond}`);
        st.cond = cond;
        // The block makes the selection possible: what it selects is required.
        next.expr = printExpr(e);
        break;
      }
    }
  });
  // Bindings hoisted for a guard that does not read them go back into the
  // block: evaluated before the guard, they could fail where the block is
  // skipped.
  for (let k = stmts.length - 1; k >= 0; k--) {
    const st = stmts[k];
    const seen = em.guards.get(st);
    if (!seen || st.kind !== "if") continue;
    const read = stmtReads([{ kind: "if", cond: st.cond, then: [], else: [] }]);
    const later = stmtReads(stmts.slice(k + 1));
    for (const h of [...seen.hoisted].reverse()) {
      if (h.kind !== "bind" || read.has(h.var) || later.has(h.var)) continue;
      const at = stmts.indexOf(h);
      if (at < 0) continue;
      stmts.splice(at, 1);
      k--;
      st.then.unshift(h);
      // Out of scope after the guard again: later steps must not reuse it.
      delete seen.scope.types[h.var];
      if (seen.scope.bound.get(h.expr) === h.var) seen.scope.bound.delete(h.expr);
    }
  }
}

/**
 * The columns of one block, then its exit (success) where members end.
 */
function emitBlock(
  em: Emitter,
  block: Block<Item>,
  byId: Map<number, Member>,
  blockScope: Scope,
): { stmts: Stmt[]; terminal: boolean } {
  const inner: Stmt[] = [];
  let endsInLoopFailure = false;
  for (const col of block.columns) {
    const occ = [...col.occ.entries()].map(([id, item]) => ({ m: byId.get(id)!, item }));
    const first = occ[0].item;
    if (first.kind === "step") {
      const occurrences: Occurrence[] = occ.map(({ m, item }) => {
        const step = (item as Extract<Item, { kind: "step" }>).step;
        return {
          member: m.id,
          step,
          facts: m.inst.segment.trace.states[step.index],
          after: m.inst.segment.trace.states[step.index + 1],
          grounded: m.inst.segment.trace.steps[step.index],
          landmark: step.index === m.inst.segment.end - 1,
          scope: pick(m.scope, Object.keys(blockScope.types)),
        };
      });
      const lifted = liftAction(
        first.step.action,
        occurrences,
        blockScope,
        em.vocab,
        em.names,
        em.relations.get(first.step.action),
      );
      inner.push(...lifted.stmts);
      Object.assign(blockScope.types, lifted.types);
      for (const { m, item } of occ) {
        Object.assign(m.scope, lifted.values.get(m.id));
        m.cursor = (item as Extract<Item, { kind: "step" }>).step.index + 1;
      }
      em.notes.push(...lifted.notes.map((n) => `${first.step.action}: ${n}`));
    } else {
      const loop = emitLoop(
        em,
        occ.map(({ m, item }) => ({ m, loop: item as Extract<Item, { kind: "loop" }> })),
        blockScope,
      );
      inner.push(...loop.stmts);
      endsInLoopFailure = loop.terminal;
    }
  }
  if (block.exiting.length > 0 && !endsInLoopFailure) {
    if (block.exiting.length === block.members.length) inner.push({ kind: "succeed" });
    else {
      const exiting = block.exiting.map((id) => byId.get(id)!);
      const staying = block.members.filter((id) => !block.exiting.includes(id)).map((id) =>
        byId.get(id)!
      );
      const cond = invent(
        em,
        exiting.map((m) => exampleOf(m, blockScope)),
        staying.map((m) => exampleOf(m, blockScope)),
        blockScope,
        "end here",
        [],
        [exiting.map((m) => m.inst.id), staying.map((m) => m.inst.id)],
      );
      inner.push({ kind: "if", cond, then: [{ kind: "succeed" }], else: [] });
    }
  }
  return { stmts: inner, terminal: endsInLoopFailure };
}

/**
 * A loop the members fold into: the bindings its list needs, then the
 * loop over their iterations, and a failure with its diagnosis when every
 * member leaves the loop by ending the run.
 */
function emitLoop(
  em: Emitter,
  occ: { m: Member; loop: Extract<Item, { kind: "loop" }> }[],
  s: Scope,
): { stmts: Stmt[]; terminal: boolean } {
  const plan = em.plan;
  if (!plan) throw new Error("A loop item without a loop plan");
  const stmts: Stmt[] = [];
  // Bindings the loop's list needs, evaluated at the loop's start.
  for (const { m, loop } of occ) m.cursor = loop.iterations[0][0].index;
  const renamed = new Map<string, string>();
  for (const p of plan.pre) {
    const text = rename(p.expr, renamed);
    const existing = s.bound.get(text);
    if (existing) {
      renamed.set(p.var, existing);
      continue;
    }
    const v = em.names(p.type.toLowerCase());
    renamed.set(p.var, v);
    stmts.push({ kind: "bind", var: v, expr: text });
    s.bound.set(text, v);
    s.types[v] = p.type;
    for (const { m } of occ) {
      const value = evalText(text, factsOf(m), m.scope, em.vocab);
      if (value !== undefined) m.scope[v] = value;
    }
  }
  const over = rename(plan.over, renamed);
  const loopVar = em.names(plan.var);
  const bodyScope: Scope = {
    types: { ...s.types, [loopVar]: plan.type },
    bound: new Map(s.bound),
    loopVar,
  };
  const iterations: Member[] = [];
  for (const { m, loop } of occ) {
    loop.iterations.forEach((it, k) => {
      iterations.push({
        id: em.nextId++,
        inst: m.inst,
        elems: it.map((step) => ({ kind: "step" as const, step })),
        exits: loop.exits && k === loop.iterations.length - 1,
        scope: {
          ...m.scope,
          [loopVar]: loop.elements?.[k] ?? it[0].args[roleIn(plan, it[0].action)],
        },
        cursor: it[0].index,
      });
    });
  }
  const body = emitSequence(em, iterations, bodyScope);
  stmts.push({ kind: "loop", var: loopVar, over, body: body.stmts });
  em.notes.push(`loop: for ${loopVar} in ${over} (${iterations.length} iterations folded)`);
  for (const { m, loop } of occ) {
    const last = loop.iterations[loop.iterations.length - 1];
    m.cursor = last[last.length - 1].index + 1;
  }
  const allExit = occ.every(({ loop }) => loop.exits);
  if (!allExit) return { stmts, terminal: false };
  const exitCond = findExitCond(body.stmts);
  let diagnosis: string | undefined;
  if (exitCond) {
    const text = `not exists(${loopVar}: ${plan.type}, ${exitCond})`;
    const parsed = parseExpr(text);
    if (parsed.ok && [...freeVars(parsed.value)].every((v) => v in s.types)) diagnosis = text;
  }
  stmts.push({
    kind: "fail",
    message: `No ${plan.var} in ${over} led to the goal`,
    ...(diagnosis ? { diagnosis } : {}),
  });
  return { stmts, terminal: true };
}

/**
 * A guarded block's bindings that hold already where the block starts, in
 * the members that take it and in those that skip it (the can in hand,
 * before "go to the tap, fill the can"), move before the guard, so the
 * guard can be about the objects the block acts on: the can is empty.
 */
function hoistBindings(
  em: Emitter,
  body: Stmt[],
  takers: readonly Member[],
  skipping: readonly Member[],
  positives: readonly Example[],
  negatives: readonly Example[],
  s: Scope,
  inner: Scope,
): { stmts: Stmt[]; vars: string[]; positives: Example[]; negatives: Example[] } {
  const pos = positives.map((e) => ({ ...e, scope: { ...e.scope } }));
  const neg = negatives.map((e) => ({ ...e, scope: { ...e.scope } }));
  const stmts: Stmt[] = [];
  const vars: string[] = [];
  for (let k = 0; k < body.length; k++) {
    const st = body[k];
    if (st.kind !== "bind") continue;
    const parsed = parseExpr(st.expr);
    if (!parsed.ok || ![...freeVars(parsed.value)].every((v) => v in s.types)) continue;
    const posValues = pos.map((e) => evalText(st.expr, e.facts, e.scope, em.vocab));
    const same = posValues.every((v, n) => {
      const bound = takers[n].scope[st.var];
      return v !== undefined && bound !== undefined && valueEquals(v, bound);
    });
    if (!same) continue;
    const negValues = neg.map((e) => evalText(st.expr, e.facts, e.scope, em.vocab));
    if (negValues.some((v) => v === undefined)) continue;
    body.splice(k--, 1);
    stmts.push(st);
    vars.push(st.var);
    s.types[st.var] = inner.types[st.var];
    s.bound.set(st.expr, st.var);
    pos.forEach((e, n) => e.scope[st.var] = posValues[n]!);
    neg.forEach((e, n) => {
      e.scope[st.var] = negValues[n]!;
      skipping[n].scope[st.var] = negValues[n]!;
    });
  }
  return { stmts, vars, positives: pos, negatives: neg };
}

/**
 * The guard of a block: a predicate true where it runs (`positives`) and
 * false where it is skipped; a single situation against many is weak
 * evidence unless the guard is one literal.
 */
function invent(
  em: Emitter,
  positives: Example[],
  negatives: Example[],
  s: Scope,
  what: string,
  first: string[],
  owners: [number[], number[]],
): string {
  const ctx = { vocab: em.vocab, varTypes: s.types };
  const prefer = { prefer: [first, s.loopVar ? [s.loopVar] : [], Object.keys(em.paramTypes)] };
  // A conjunction true where the block runs; else the negation of one true
  // where it is skipped (a disjunction: "craftable or a family").
  const direct = inventPredicate(ctx, positives, negatives, prefer);
  const flipped = direct || positives.length === 0
    ? undefined
    : inventPredicate(ctx, negatives, positives, prefer);
  const found = direct ??
    (flipped && flipped.text !== "true" ? { text: `not (${flipped.text})` } : undefined);
  // One situation against many is weak evidence: some conjunction singles out
  // any one of twenty or more. Only a single literal is believed outright;
  // induction accepts another guard only where it covers more than one segment.
  const lone = Math.min(positives.length, negatives.length) === 1 &&
    Math.max(positives.length, negatives.length) >= SINGLETON_AMONG;
  if (found && lone && !isLiteral(found.text)) {
    em.weak.push({ cond: found.text, instance: owners[positives.length === 1 ? 0 : 1][0] });
    em.notes.push(`branch (${what}): ${found.text} separates a single situation; weak evidence`);
  }
  if (found) {
    em.notes.push(
      `branch (${what}): ${found.text} [${positives.length} take it, ${negatives.length} skip it]`,
    );
    return found.text;
  }
  em.notes.push(
    `branch (${what}): no predicate separates ${positives.length} from ${negatives.length} situations; block disabled`,
  );
  return "false";
}

/** How many situations on the other side make a single one an outlier, not a case. */
const SINGLETON_AMONG = 20;

/**
 * Whether a condition is one atom or comparison, maybe negated or
 * quantified (`exists(x: Box, is_closed(x))`), without connectives.
 */
function isLiteral(text: string): boolean {
  const parsed = parseExpr(text);
  return parsed.ok && literal(parsed.value);
}

function literal(e: Expr): boolean {
  if (e.kind === "not") return literal(e.arg);
  if (e.kind === "quant") return literal(e.body);
  if (e.kind === "call") return true;
  return e.kind === "binary" && e.op !== "and" && e.op !== "or" &&
    e.left.kind !== "quant" && e.right.kind !== "quant";
}

function keyOf(item: Item): string {
  return item.kind === "step" ? item.step.action : `loop:${item.head}`;
}

/**
 * The role a step's objects play for its member: for each argument, the
 * facts (before the step) linking it to a variable in scope, as
 * `pred(var, _)`. Alignment prefers pairing steps with the same role.
 */
function roleOf(m: Member, item: Item, vocab: Vocabulary): string {
  if (item.kind !== "step") return "";
  const facts = m.inst.segment.trace.states[item.step.index];
  const vars = Object.entries(m.scope).filter(([, v]) => typeof v === "string");
  const parts: string[] = [];
  for (const [name, value] of Object.entries(item.step.args).sort()) {
    if (typeof value !== "string") continue;
    const links = new Set<string>();
    for (const [v, bound] of vars) if (bound === value) links.add(`=${v}`);
    for (const [pred, decl] of Object.entries(vocab.predicates)) {
      for (let at = 0; at < decl.params.length; at++) {
        const pattern = decl.params.map((_, i) => i === at ? value : null);
        for (const atom of facts.query(pred, pattern)) {
          atom.args.forEach((a, i) => {
            if (i === at) return;
            for (const [v, bound] of vars) if (bound === a) links.add(`${pred}.${i}:${v}`);
          });
        }
      }
    }
    parts.push(`${name}[${[...links].sort().join(",")}]`);
  }
  return parts.join(" ");
}

function describe(keys: string[]): string {
  return keys.map((k) => k.replace(/^loop:/, "loop ")).join(", ");
}

function pick(scope: Record<string, Value>, keys: string[]): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const k of keys) if (k in scope) out[k] = scope[k];
  return out;
}

/** The guard of the block in a loop body that ends the run with success. */
function findExitCond(stmts: readonly Stmt[]): string | undefined {
  for (const s of stmts) {
    if (s.kind === "if" && s.then.some((t) => t.kind === "succeed")) return s.cond;
  }
  return undefined;
}

function rename(text: string, renames: Map<string, string>): string {
  let out = text;
  for (const [from, to] of renames) {
    if (from !== to) out = out.replace(new RegExp(`\\b${from}\\b(?!\\s*\\()`, "g"), to);
  }
  return out;
}
