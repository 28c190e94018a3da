/**
 * Argument tuples for an action nobody has seen work yet: the tuples whose
 * objects the state's atoms relate come first. An action mostly applies to
 * objects that stand in relations (a truck, the place it stands at, a
 * place of the same city and that city), so trying those first finds an
 * accepted use in a few tries where the objects number in the hundreds.
 *
 * @module
 */
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { subtypesOf } from "../../dsl/vocabulary.ts";
import type { FactStore } from "../fact_store.ts";
import { product } from "./product.ts";

/** Options of {@linkcode relatedGroundings}. */
export interface RelatedGroundingOptions {
  /** Tuples gathered before ranking. @default 5000 */
  limit?: number;
}

/**
 * The argument assignments of an action over a state's objects of each
 * parameter's type, those whose objects the state's atoms relate most
 * first, among equally related ones those of distinct objects first.
 *
 * Where every tuple fits in `limit`, all are ranked. Else the tuples are
 * built a parameter at a time, each time the parameter with the fewest
 * objects related to those already chosen (sharing an atom with one of
 * them) taking those objects, a parameter nothing chosen relates to taking
 * every object of its type: tuples of unrelated objects are never built
 * while related ones are left.
 *
 * @param params The action's parameters.
 * @param facts The state.
 * @param vocab The vocabulary (for subtypes).
 * @param options The limit on tuples ranked.
 *
 * @example Usage
 * ```ts
 * import { relatedGroundings } from "./related_groundings.ts";
 * import { FactStore } from "../fact_store.ts";
 * const vocab = {
 *   name: "v",
 *   types: { Obj: { kind: "object" as const } },
 *   predicates: { at: { params: ["Obj", "Obj"] } },
 *   functions: {},
 *   actions: {},
 * };
 * const facts = new FactStore([{ pred: "at", args: ["t", "l"] }], { t: "Obj", l: "Obj", m: "Obj" });
 * const params = [{ name: "who", type: "Obj" }, { name: "from", type: "Obj" }];
 * console.log(relatedGroundings(params, facts, vocab).next().value); // { who: "t", from: "l" }
 * ```
 */
export function* relatedGroundings(
  params: readonly { name: string; type: string }[],
  facts: FactStore,
  vocab: Vocabulary,
  options: RelatedGroundingOptions = {},
): Generator<Record<string, string>> {
  const limit = options.limit ?? 5000;
  const domains = params.map((p) => [
    ...new Set(subtypesOf(vocab, p.type).flatMap((t) => facts.objectsOfType(t))),
  ]);
  if (domains.some((d) => d.length === 0)) return;
  const count = domains.reduce((n, d) => n * d.length, 1);
  const tuples = count <= limit ? product(domains) : relatedTuples(domains, facts, limit);
  // Through the argument index: only the atoms about the tuple's objects.
  const related = (tuple: string[]) => {
    let score = 0;
    for (const a of new Set(tuple.flatMap((o) => facts.atomsAbout(o)))) {
      const n = a.args.filter((x) => typeof x === "string" && tuple.includes(x)).length;
      if (n >= 2) score += n;
    }
    return score;
  };
  const ranked = tuples.map((t) => ({
    t,
    distinct: new Set(t).size === t.length,
    score: related(t),
  }));
  ranked.sort((a, b) => b.score - a.score || Number(b.distinct) - Number(a.distinct));
  for (const { t } of ranked) yield Object.fromEntries(params.map((p, i) => [p.name, t[i]]));
}

/**
 * Up to `limit` tuples, each parameter filled in turn with the objects
 * related to those already chosen (see {@linkcode relatedGroundings}).
 */
function relatedTuples(
  domains: readonly string[][],
  facts: FactStore,
  limit: number,
): string[][] {
  const tuples: string[][] = [];
  const neighbours = new Map<string, Set<string>>();
  const around = (o: string) => {
    let set = neighbours.get(o);
    if (set === undefined) {
      set = new Set();
      for (const a of facts.atomsAbout(o)) {
        for (const x of a.args) if (typeof x === "string" && x !== o) set.add(x);
      }
      neighbours.set(o, set);
    }
    return set;
  };
  const walk = (chosen: (string | undefined)[]) => {
    if (tuples.length >= limit) return;
    const open = chosen.flatMap((o, i) => o === undefined ? [i] : []);
    if (open.length === 0) {
      tuples.push(chosen as string[]);
      return;
    }
    const near = new Set(chosen.flatMap((o) => o === undefined ? [] : [...around(o)]));
    // The parameter with the fewest objects related to those chosen, of
    // the smaller type on a tie (a town before a place: the places of the
    // town then relate); one nothing chosen relates to only when every
    // open one is such.
    let best: { at: number; objects: string[]; rank: number[] } | undefined;
    for (const i of open) {
      const relatedHere = domains[i].filter((o) => near.has(o));
      const objects = relatedHere.length > 0 ? relatedHere : domains[i];
      const rank = [relatedHere.length > 0 ? 0 : 1, objects.length, domains[i].length];
      // Lexicographically smaller: at the first place the ranks differ.
      const k = best === undefined ? -1 : rank.findIndex((x, j) => x !== best!.rank[j]);
      if (best === undefined || (k >= 0 && rank[k] < best.rank[k])) best = { at: i, objects, rank };
    }
    for (const o of best!.objects) {
      if (tuples.length >= limit) return;
      const next = [...chosen];
      next[best!.at] = o;
      walk(next);
    }
  };
  walk(domains.map(() => undefined));
  return tuples;
}
