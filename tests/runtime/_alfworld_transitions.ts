/**
 * Transitions for action-model tests, generated in the ALFWorld simulator:
 * a seeded random walk that mixes admissible actions with invalid ones
 * (opening or closing a receptacle the agent is not at, going where it is,
 * taking what is not there, taking while holding something or from a closed
 * receptacle, putting while holding nothing, opening what is open), grounded
 * with the ALFWorld grounder. Deterministic for given seeds.
 *
 * @module
 */
import { AlfworldEnv, alfworldKit } from "../../environments/alfworld/mod.ts";
import type { Transition } from "../../runtime/learn/action_model.ts";
import { FactStore } from "../../runtime/fact_store.ts";

/** A small seeded generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

/** Likely invalid actions in the believed state, by kind of mistake. */
function mistakes(facts: FactStore, r: () => number): string[][] {
  const recs = facts.objectsOfType("Receptacle");
  const items = facts.objectsOfType("Item");
  const here = facts.query("locates", [null]).map((a) => String(a.args[0]));
  const holding = facts.query("holds", [null]).length > 0;
  const away = recs.filter((x) => !here.includes(x));
  const has = (pred: string, arg: string) => facts.has({ pred, args: [arg] });
  const takeAll = (recsHere: string[]) =>
    recsHere.flatMap((h) =>
      facts.query("contains", [h, null]).map((a) => `take ${a.args[1]} from ${h}`)
    );
  const closedTakes = takeAll(here.filter((h) => has("is_closed", h)));
  const kinds: string[][] = [
    away.map((x) => `open ${x}`),
    away.map((x) => `close ${x}`),
    here.map((h) => `go to ${h}`),
    items.length && recs.length ? [`take ${pick(r, items)} from ${pick(r, recs)}`] : [],
    holding ? takeAll(here) : [],
    // Rare in a random walk (open, close, then take): weighted up.
    closedTakes,
    closedTakes,
    closedTakes,
    !holding && items.length ? here.map((h) => `put ${pick(r, items)} in/on ${h}`) : [],
    here.filter((h) => has("is_open", h)).map((h) => `open ${h}`),
  ];
  return kinds.filter((k) => k.length > 0);
}

/**
 * Runs one random walk per seed (train-split tasks) of at most `steps`
 * actions; about a third of the actions are drawn from {@linkcode mistakes}.
 * A transition is rejected when the grounder reads the observation as a
 * rejection.
 */
export async function alfworldTransitions(
  seeds: readonly number[],
  steps: number,
): Promise<Transition[]> {
  const env = new AlfworldEnv();
  const out: Transition[] = [];
  for (const seed of seeds) {
    const r = rng(seed * 7919 + 1);
    const grounder = alfworldKit.grounder();
    const reset = await env.reset({ seed, options: { split: "train" } });
    const facts = new FactStore();
    facts.apply(grounder.initial(reset.observation, reset.goal).delta);
    for (let i = 0; i < steps; i++) {
      let action: string;
      if (r() < 0.35) {
        const kinds = mistakes(facts, r);
        action = kinds.length ? pick(r, pick(r, kinds)) : "look";
      } else {
        // Uniform over the kinds of admissible action, so that open, take and
        // put are not drowned by the many "go to" actions.
        const admissible = (await env.admissibleActions())
          .filter((a) => !/^(examine|inventory|look|help)\b/.test(a));
        const kind = pick(r, [...new Set(admissible.map((a) => a.split(" ")[0]))]);
        action = pick(r, admissible.filter((a) => a.split(" ")[0] === kind));
      }
      const step = await env.step(action);
      const grounding = grounder.step(facts, action, step.observation);
      const ok = grounding.rejected === undefined;
      out.push({ facts: facts.clone(), action, ok, delta: ok ? grounding.delta : undefined });
      facts.apply(grounding.delta);
      if (step.done) break;
    }
  }
  return out;
}
