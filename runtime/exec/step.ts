/**
 * The interpreter's pure step. State `xi = (node, scope, loops, counters)`;
 * facts are read, never written, here. A data, check or loop node evaluates
 * and moves on (a think step, no action); a primitive node yields the action
 * to perform and waits for {@linkcode resume}; a terminal ends the run.
 *
 * @module
 */
import { own } from "../../dsl/vocabulary.ts";
import type { Expr } from "../../dsl/expr/ast.ts";
import { formatExprError } from "../../dsl/expr/errors.ts";
import { evalExpr, valueEquals } from "../../dsl/expr/eval.ts";
import { printExpr } from "../../dsl/expr/print.ts";
import { substitute } from "../../dsl/expr/vars.ts";
import { renderAction } from "../../dsl/action.ts";
import type { FactView, Value } from "../../dsl/facts.ts";
import { formatLiteral } from "../../dsl/facts.ts";
import type { EdgeLabel, LoopNode } from "../../dsl/graph/schema.ts";
import type { Program } from "./program.ts";

/**
 * Limits that make every run end. Both count from the run's last action
 * (or skill call): a loop that acts on every pass is bounded by the
 * action budget of whoever runs it (a decision list runs as long as the
 * episode), a loop that only thinks by these.
 */
export interface Budgets {
  /** Node evaluations (think and act) between two actions of a skill run. @default 500 */
  maxSteps: number;
  /** Visits of any single node between two actions; a loop that makes no progress hits it. @default 100 */
  maxVisits: number;
}

/** Default budgets. */
export const DEFAULT_BUDGETS: Budgets = { maxSteps: 500, maxVisits: 100 };

/** An enumeration in progress. */
export interface LoopFrame {
  items: Value[];
  index: number;
}

/** The interpreter state of one skill run (plain data). */
export interface RunState {
  node: string;
  /** The node evaluated just before `node` (tells loop entry from continuation). */
  prev?: string;
  scope: Record<string, Value>;
  loops: Record<string, LoopFrame>;
  /** Visits of each node on a cycle since the last action (no other node can be visited twice). */
  visits: Record<string, number>;
  /** Node evaluations so far. */
  steps: number;
  /** `steps` when the run last acted (or called a skill); 0 before. */
  actedAt?: number;
  /**
   * The last `select_one` binding since the run last acted: the state
   * before it and the objects it bound so far. A call that cannot be made
   * (a cycle), or that failed without acting, takes another of its
   * objects instead (see `otherChoice`).
   */
  choice?: Choice;
  /** Set by `otherChoice`: the binding at `node` takes none of `tried`. */
  retry?: { node: string; tried: readonly Value[] };
}

/** A binding that may take another object. */
export interface Choice {
  node: string;
  /** The state before the binding. */
  before: RunState;
  /** The objects bound so far, the current one last. */
  tried: readonly Value[];
}

/** Why a run failed, grounded in the node and the facts. */
export interface Diagnosis {
  /** The node where the run ended. */
  node: string;
  /** What went wrong. */
  message: string;
  /** The failure condition with the scope's values substituted, when the node has one. */
  condition?: string;
  /** Whether that condition holds in the final facts. */
  holds?: boolean;
}

/** What one step produced. */
export type StepOutcome =
  | { kind: "think"; node: string; text: string; state: RunState }
  | {
    kind: "act";
    node: string;
    action: string;
    /** The state after the action, its think budgets started again. */
    state: RunState;
    /** The state when the action is not sent after all (skipped): budgets keep counting. */
    unsent: RunState;
  }
  | {
    kind: "call";
    node: string;
    skill: string;
    args: Record<string, Value>;
    /** The state after the call, its think budgets started again. */
    state: RunState;
    /** The state when the call is not made after all: budgets keep counting. */
    unsent: RunState;
  }
  | {
    kind: "end";
    node: string;
    outcome: "success" | "failure";
    diagnosis?: Diagnosis;
    state: RunState;
  };

/** The outcome that ends a run. */
export type EndOutcome = Extract<StepOutcome, { kind: "end" }>;

/** Where a data node binds its variable by a choice: the program, the node, the state before. */
export interface ChoicePoint {
  program: Program;
  node: string;
  state: RunState;
}

/** What a step may read besides the program and state. */
export interface StepContext {
  facts: FactView;
  budgets?: Partial<Budgets>;
  /**
   * Picks among several `select_one` candidates (consistency replay uses it).
   * A data node's own binding says where it is: the node and the state before
   * it binds (a simulation may go on from there).
   */
  choose?: (candidates: Value[], expr: Expr, at?: ChoicePoint) => Value | undefined;
  /**
   * Picks which remaining element a loop binds next: an index into `items`
   * from `from` on (the elements before it are done); the default is
   * `from`. Replay uses it for the existential order of an unordered loop.
   * Given the whole list and a position (not a copy of the rest) so that a
   * loop over n elements costs n, not n squared.
   */
  chooseNext?: (loop: string, items: readonly Value[], from: number) => number;
  /**
   * Decides a check without evaluating it when it returns a boolean; replay
   * uses it for conditions still to be invented.
   */
  decide?: (check: string) => boolean | undefined;
}

/**
 * The initial state of a run with the given (already type-checked) arguments.
 *
 * @example Usage
 * ```ts ignore
 * const state = initialState(program, { target: "stick" });
 * ```
 */
export function initialState(program: Program, args: Record<string, Value>): RunState {
  return { node: program.skill.entry, scope: { ...args }, loops: {}, visits: {}, steps: 0 };
}

/**
 * Evaluates the current node. Pure: returns a new state and never touches
 * the facts or an environment.
 */
export function step(program: Program, state: RunState, ctx: StepContext): StepOutcome {
  const budgets = { ...DEFAULT_BUDGETS, ...ctx.budgets };
  const node = program.nodes.get(state.node);
  if (!node) return fail(state, state.node, `Unknown node "${state.node}"`);
  // Only a node on a cycle can be visited twice: counting the others would
  // copy a record as long as the run at every step.
  const cyclic = program.cyclic.has(node.id);
  const visits = cyclic ? (state.visits[node.id] ?? 0) + 1 : 1;
  const s: RunState = {
    ...state,
    scope: { ...state.scope },
    loops: { ...state.loops },
    visits: cyclic ? { ...state.visits, [node.id]: visits } : state.visits,
    steps: state.steps + 1,
  };
  if (s.steps - (s.actedAt ?? 0) > budgets.maxSteps) {
    return fail(s, node.id, `Step budget of ${budgets.maxSteps} exhausted at node "${node.id}"`);
  }
  if (visits > budgets.maxVisits) {
    return fail(
      s,
      node.id,
      `Node "${node.id}" visited more than ${budgets.maxVisits} times without finishing`,
    );
  }
  const evaluate = (field: string): { value: Value } | { error: string } => {
    const expr = program.exprs.get(`${node.id}.${field}`)!;
    const choose = ctx.choose;
    const r = evalExpr(expr, {
      vocab: program.vocab,
      facts: ctx.facts,
      scope: s.scope,
      choose: choose && node.kind === "data"
        ? (candidates, e) => choose(candidates, e, { program, node: node.id, state })
        : choose,
    });
    return r.ok ? { value: r.value } : { error: formatExprError(r.error) };
  };
  switch (node.kind) {
    case "data": {
      const expr = program.exprs.get(`${node.id}.expr`)!;
      const selects = expr.kind === "quant" && expr.op === "select_one" && !ctx.choose;
      const retry = state.retry?.node === node.id ? state.retry.tried : undefined;
      delete s.retry;
      let value: Value;
      if (retry !== undefined && expr.kind === "quant") {
        // Another object than those tried, in the order `select_one` takes them.
        const rest = untried(program, expr, s.scope, ctx.facts, retry);
        if ("error" in rest) return fail(s, node.id, rest.error);
        if (rest.length === 0) {
          return fail(
            s,
            node.id,
            `No other choice for ${node.var} than ${retry.map(formatLiteral).join(", ")}`,
          );
        }
        value = rest[0];
      } else {
        const r = evaluate("expr");
        if ("error" in r) return fail(s, node.id, r.error);
        value = r.value;
      }
      s.scope[node.var] = value;
      if (selects) s.choice = { node: node.id, before: state, tried: [...(retry ?? []), value] };
      return advance(program, s, node.id, "next", `${node.var} := ${formatLiteral(value)}`);
    }
    case "check": {
      const forced = ctx.decide?.(node.id);
      let yes: boolean;
      if (forced !== undefined) yes = forced;
      else {
        const r = evaluate("cond");
        if ("error" in r) return fail(s, node.id, r.error);
        yes = r.value === true;
      }
      return advance(
        program,
        s,
        node.id,
        yes ? "yes" : "no",
        `${node.cond} -> ${yes ? "yes" : "no"}`,
      );
    }
    case "loop": {
      const inBody = s.prev !== undefined && program.loopBodies.get(node.id)?.has(s.prev) === true;
      let frame = s.loops[node.id];
      if (inBody && frame) {
        frame = { items: frame.items, index: frame.index + 1 };
      } else {
        const r = evaluate("over");
        if ("error" in r) return fail(s, node.id, r.error);
        const items = Array.isArray(r.value) ? r.value : [r.value];
        const ordered = node.after ? precedenceOrder(program, node, items, s.scope, ctx) : items;
        if (!Array.isArray(ordered)) return fail(s, node.id, ordered.error);
        frame = { items: ordered, index: 0 };
      }
      if (frame.index < frame.items.length) {
        if (ctx.chooseNext && frame.items.length - frame.index > 1) {
          // Move the chosen remaining element into the current position.
          const pick = ctx.chooseNext(node.id, frame.items, frame.index);
          if (pick > frame.index && pick < frame.items.length) {
            const items = [...frame.items];
            const [chosen] = items.splice(pick, 1);
            items.splice(frame.index, 0, chosen);
            frame = { items, index: frame.index };
          }
        }
        s.loops[node.id] = frame;
        const item = frame.items[frame.index];
        s.scope[node.var] = item;
        const text = `${node.var} := ${formatLiteral(item)} (${
          frame.index + 1
        } of ${frame.items.length})`;
        return advance(program, s, node.id, "body", text);
      }
      delete s.loops[node.id];
      return advance(program, s, node.id, "done", `${node.var}: done after ${frame.items.length}`);
    }
    case "primitive": {
      const args: Record<string, Value> = {};
      for (const name of Object.keys(node.args)) {
        const r = evaluate(`args.${name}`);
        if ("error" in r) return fail(s, node.id, `Argument "${name}": ${r.error}`);
        args[name] = r.value;
      }
      const decl = own(program.vocab.actions, node.action);
      // Acting is progress: the think budgets start again.
      const { choice: _, ...rest } = s;
      const acted: RunState = { ...rest, visits: {}, actedAt: s.steps };
      if (decl) {
        return {
          kind: "act",
          node: node.id,
          action: renderAction(decl, args),
          state: acted,
          unsent: s,
        };
      }
      return { kind: "call", node: node.id, skill: node.action, args, state: acted, unsent: s };
    }
    case "terminal": {
      if (node.outcome === "success") {
        return { kind: "end", node: node.id, outcome: "success", state: s };
      }
      const diagnosis: Diagnosis = { node: node.id, message: node.message ?? "Skill failed" };
      const expr = program.exprs.get(`${node.id}.diagnosis`);
      if (expr) {
        diagnosis.condition = printExpr(substitute(expr, s.scope));
        const r = evalExpr(expr, { vocab: program.vocab, facts: ctx.facts, scope: s.scope });
        if (r.ok) diagnosis.holds = r.value === true;
      }
      return { kind: "end", node: node.id, outcome: "failure", diagnosis, state: s };
    }
  }
}

/**
 * Continues after the action (or skill call) of the current primitive node:
 * on success along `next`; on rejection along `failed` when the node has
 * one, else the run ends with a failure naming the action and the reason.
 */
export function resume(
  program: Program,
  state: RunState,
  result: { ok: true } | { ok: false; reason: string; action: string },
): { kind: "continue"; state: RunState } | EndOutcome {
  const node = state.node;
  const out = program.out.get(node);
  const to = result.ok ? out?.next : out?.failed;
  if (to !== undefined) return { kind: "continue", state: { ...state, prev: node, node: to } };
  if (result.ok) return fail(state, node, `Node "${node}" has no "next" edge`);
  return fail(state, node, `Action "${result.action}" failed: ${result.reason}`);
}

/**
 * Takes another object at the last `select_one` binding since the run last
 * acted (another recipe, another binding) when one is left: the way it
 * chose cannot be taken (the call it leads to is already being made by a
 * caller, or failed without acting). The run continues from that binding,
 * which skips the objects already tried. `undefined` when no binding chose
 * since the last action or none is left.
 */
export function otherChoice(
  program: Program,
  state: RunState,
  facts: FactView,
): { kind: "continue"; state: RunState; choice: Choice } | undefined {
  const choice = state.choice;
  if (choice === undefined) return undefined;
  const expr = program.exprs.get(`${choice.node}.expr`);
  if (expr?.kind !== "quant") return undefined;
  const rest = untried(program, expr, choice.before.scope, facts, choice.tried);
  if ("error" in rest || rest.length === 0) return undefined;
  return {
    kind: "continue",
    state: { ...choice.before, retry: { node: choice.node, tried: choice.tried } },
    choice,
  };
}

/** What a `select_one` could bind in `scope` besides `tried`, in the order it takes them. */
function untried(
  program: Program,
  expr: Extract<Expr, { kind: "quant" }>,
  scope: Record<string, Value>,
  facts: FactView,
  tried: readonly Value[],
): Value[] | { error: string } {
  const all = evalExpr({ ...expr, op: "select_all" }, { vocab: program.vocab, facts, scope });
  if (!all.ok) return { error: formatExprError(all.error) };
  return (Array.isArray(all.value) ? all.value : [all.value])
    .filter((v) => !tried.some((t) => valueEquals(t, v)));
}

function advance(
  program: Program,
  s: RunState,
  node: string,
  label: EdgeLabel,
  text: string,
): StepOutcome {
  const to = program.out.get(node)?.[label];
  if (to === undefined) return fail(s, node, `Node "${node}" has no "${label}" edge`);
  return { kind: "think", node, text, state: { ...s, prev: node, node: to } };
}

function fail(state: RunState, node: string, message: string): EndOutcome {
  return { kind: "end", node, outcome: "failure", diagnosis: { node, message }, state };
}

/**
 * The elements of a loop with a precedence (`after`), each after those it
 * must follow; otherwise in their order. A cycle is broken by taking the
 * first remaining element.
 */
function precedenceOrder(
  program: Program,
  node: LoopNode,
  items: readonly Value[],
  scope: Readonly<Record<string, Value>>,
  ctx: StepContext,
): Value[] | { error: string } {
  const expr = program.exprs.get(`${node.id}.after`)!;
  const other = node.after!.var;
  /** waits[i]: the elements i must follow. */
  const waits: Set<number>[] = items.map(() => new Set());
  for (let i = 0; i < items.length; i++) {
    for (let j = 0; j < items.length; j++) {
      if (i === j) continue;
      const r = evalExpr(expr, {
        vocab: program.vocab,
        facts: ctx.facts,
        scope: { ...scope, [node.var]: items[i], [other]: items[j] },
      });
      if (!r.ok) return { error: `after: ${formatExprError(r.error)}` };
      if (r.value === true) waits[i].add(j);
    }
  }
  const out: Value[] = [];
  const done = new Set<number>();
  while (out.length < items.length) {
    let pick = items.findIndex((_, i) => !done.has(i) && [...waits[i]].every((j) => done.has(j)));
    if (pick < 0) pick = items.findIndex((_, i) => !done.has(i));
    done.add(pick);
    out.push(items[pick]);
  }
  return out;
}
