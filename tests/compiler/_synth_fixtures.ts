/**
 * Shared fixtures of the synthesis tests: the `act_*` ALFWorld transcripts
 * grounded step by step, and situations cut from them (take steps, search
 * steps, arrivals at a receptacle), plus soundness checks of results.
 *
 * @module
 */
import { dataUrl } from "../_data.ts";
import assert from "node:assert/strict";
import { alfworldKit, importTranscripts } from "../../environments/alfworld/mod.ts";
import { type GroundedTrace, groundTrace } from "../../compiler/ground.ts";
import type { Binding } from "../../compiler/bind.ts";
import type { Example, SynthesisContext } from "../../compiler/synth_types.ts";
import { checkExpr, evalExpr, valueEquals } from "../../dsl/expr/mod.ts";
import type { Value } from "../../dsl/facts.ts";

const DEMOS = dataUrl("alfworld/react_demos_2per_type.json");

let cache: GroundedTrace[] | undefined;

/** The 12 `act_*` transcripts of the 2-per-type demonstration file, grounded. */
export function alfworldTraces(): GroundedTrace[] {
  cache ??= importTranscripts(Deno.readTextFileSync(DEMOS), "react_demos_2per_type.json")
    .filter((t) => t.task.id?.startsWith("act_"))
    .map((t) => groundTrace(t, alfworldKit.grounder()));
  return cache;
}

/** One grounded transcript by id. */
export function alfworldTrace(id: string): GroundedTrace {
  const g = alfworldTraces().find((t) => t.trace.task.id === id);
  if (!g) throw new Error(`No transcript "${id}"`);
  return g;
}

/** The goal's item class of a grounded transcript. */
export function goalItem(g: GroundedTrace): string {
  return String(g.states[0].query("goal_item", [null])[0].args[0]);
}

/** A situation with an id naming its transcript and step. */
export type Situation = Example & { id: string };

/** Every `take <item> from <r>` step: scope `{r, T}`, target the item. */
export function takeSteps(): (Situation & { target: Value })[] {
  return alfworldTraces().flatMap((g) =>
    g.trace.steps.flatMap((s, i) => {
      const m = /^take (.+) from (.+)$/.exec(s.action);
      if (!m) return [];
      const scope = { r: m[2], T: goalItem(g) };
      return [{ id: `${g.trace.task.id}:${i}`, facts: g.states[i], scope, target: m[1] }];
    })
  );
}

/**
 * The `go to` steps of search phases (from the start or a `put` until the
 * next `take`): scope `{T}`, target the receptacle; `arrived` is the
 * situation after arriving (and opening, when the next step opens it) with
 * scope `{r, T}`, `found` whether the next step takes from it, and `phase`
 * counts the search phases of the transcript (0 for the first).
 */
export function searchSteps(): {
  go: Situation & { target: Value };
  arrived: Situation;
  found: boolean;
  phase: number;
}[] {
  return alfworldTraces().flatMap((g) => {
    const T = goalItem(g);
    const steps = g.trace.steps;
    let searching = true;
    let phase = 0;
    return steps.flatMap((s, i) => {
      if (s.action.startsWith("take ")) searching = false;
      if (s.action.startsWith("put ")) {
        searching = true;
        phase++;
      }
      const m = /^go to (.+)$/.exec(s.action);
      if (!searching || !m) return [];
      const r = m[1];
      const after = steps[i + 1]?.action === `open ${r}` ? i + 2 : i + 1;
      const id = `${g.trace.task.id}:${i}`;
      return [{
        go: { id, facts: g.states[i], scope: { T }, target: r },
        arrived: { id, facts: g.states[after], scope: { r, T } },
        found: steps[after]?.action.startsWith("take ") ?? false,
        phase,
      }];
    });
  });
}

/**
 * Checks a binding: every step and the expression type-check in order, and
 * a determined binding yields each example's target (an under-determined
 * one may yield it: the target is among the candidates).
 */
export function assertSound(
  ctx: SynthesisContext,
  b: Binding,
  examples: readonly (Example & { target: Value })[],
): void {
  const vars: Record<string, string> = { ...ctx.varTypes };
  for (const s of b.steps) {
    const t = checkExpr(s.expr, { vocab: ctx.vocab, vars });
    assert.ok(t.ok, `${s.text} type-checks`);
    vars[s.var] = t.value;
  }
  assert.ok(checkExpr(b.expr, { vocab: ctx.vocab, vars }).ok, `${b.text} type-checks`);
  for (const ex of examples) {
    const scope: Record<string, Value> = { ...ex.scope };
    for (const s of b.steps) {
      const r = evalExpr(s.expr, { vocab: ctx.vocab, facts: ex.facts, scope });
      assert.ok(r.ok, `${s.text} evaluates`);
      scope[s.var] = r.value;
    }
    // Without a choice, select_one takes its first candidate: a determined
    // binding must still give the target.
    const choose = b.determined
      ? undefined
      : (cands: Value[]) => cands.find((c) => valueEquals(c, ex.target));
    const r = evalExpr(b.expr, { vocab: ctx.vocab, facts: ex.facts, scope, choose });
    assert.ok(r.ok, `${b.text} evaluates`);
    assert.ok(valueEquals(r.value, ex.target), `${b.text} yields ${JSON.stringify(ex.target)}`);
  }
}

/** The text of a binding with its steps: `y1 := ...; expr`. */
export function bindingText(b: Binding): string {
  return [...b.steps.map((s) => `${s.var} := ${s.text}`), b.text].join("; ");
}
