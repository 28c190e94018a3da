// Replaying an expert trace in a fresh simulator and through a kit's
// grounder at once: every reply must be the recorded one, and after every
// step the belief must agree with the simulator's true facts on the given
// predicates. Shared by the example-kit tests.
import assert from "node:assert/strict";
import {
  type Atom,
  type Environment,
  FactStore,
  formatAtom,
  type Grounder,
  type Trace,
} from "../../mod.ts";

/** A simulator whose true facts can be read after each step. */
export type TruthfulEnv = Environment & { trueFacts(): Atom[] };

/** Canonical sorted lines of the atoms of `preds` (all when omitted). */
export function lines(atoms: Atom[], preds?: readonly string[]): string[] {
  return atoms.filter((a) => !preds || preds.includes(a.pred)).map(formatAtom).sort();
}

/**
 * Replays `trace` in `env` (reset by the trace's task id) and grounds it
 * with `grounder`, comparing belief and truth on `preds` before the first
 * step and after each; fails on any rejection or text the grounder did not
 * understand. Returns the final belief.
 */
export async function replay(
  trace: Trace,
  env: TruthfulEnv,
  grounder: Grounder,
  preds: readonly string[],
): Promise<FactStore> {
  const id = trace.task.id!;
  const reset = await env.reset({ id });
  assert.equal(reset.observation, trace.initial, id);
  const facts = new FactStore();
  const first = grounder.initial(trace.initial, trace.goal);
  assert.equal(first.unknown, undefined, `${id}: initial ${first.unknown}`);
  facts.apply(first.delta);
  assert.deepEqual(lines(facts.atoms(), preds), lines(env.trueFacts(), preds), `${id} start`);
  for (const [i, s] of trace.steps.entries()) {
    const where = `${id} step ${i} "${s.action}"`;
    const result = await env.step(s.action);
    assert.equal(result.observation, s.observation, where);
    const g = grounder.step(facts, s.action, s.observation);
    assert.equal(g.rejected, undefined, where);
    assert.equal(g.unknown, undefined, `${where}: ${g.unknown}`);
    facts.apply(g.delta);
    assert.deepEqual(lines(facts.atoms(), preds), lines(env.trueFacts(), preds), where);
  }
  return facts;
}
