/**
 * Rule literals as text: a closer literal as a comparison of distances, a
 * settled, pending, enough, blocking, wanted or stranded one as what it
 * means, a plain one as the atom.
 *
 * @module
 */
import { type Literal, literalText } from "./conjunction.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { CLOSER, distanceText, type Mover } from "./movers.ts";
import { type Chain, SETTLED, settledText } from "./settled.ts";
import { PENDING, type PendingGoal, pendingText } from "./pending.ts";
import { ENOUGH, enoughText, type Supply } from "./supplies.ts";
import {
  BLOCKING,
  blockingText,
  type Gate,
  STRANDED,
  strandedText,
  WANTED,
  wantedText,
} from "./gates.ts";

/**
 * What the text of a pending literal needs: the goal relations, the
 * vocabulary and the types of the rule's variables; and the supplies
 * enough literals refer to, and the gates blocking, wanted and stranded
 * ones do.
 */
export interface PendingContext {
  goals: readonly PendingGoal[];
  vocab: Vocabulary;
  types: readonly string[];
  supplies?: readonly Supply[];
  gates?: readonly Gate[];
}

/** The gates' literals, by predicate prefix, and their texts (of one signature). */
const GATE_TEXTS = [
  [BLOCKING, blockingText],
  [WANTED, wantedText],
  [STRANDED, strandedText],
] as const;

/**
 * The text of a rule literal: a closer literal as a comparison of
 * distances, a settled one as what it means (see `settled.ts`).
 */
export function ruleLiteralText(
  l: Literal,
  names: readonly string[],
  movers: readonly Mover[],
  chains: readonly Chain[] = [],
  pendingContext?: PendingContext,
): string {
  if (l.pred === PENDING && pendingContext) {
    const { goals, vocab, types } = pendingContext;
    return pendingText(goals, vocab, names[l.args[0]], types[l.args[0]], names, l.negated);
  }
  if (l.pred.startsWith(ENOUGH) && pendingContext?.supplies) {
    const supply = pendingContext.supplies[Number(l.pred.slice(ENOUGH.length))];
    return enoughText(supply, names[l.args[0]], names, l.negated);
  }
  for (const [prefix, text] of GATE_TEXTS) {
    if (!l.pred.startsWith(prefix) || !pendingContext?.gates) continue;
    const { goals, vocab, types, gates } = pendingContext;
    const gate = gates[Number(l.pred.slice(prefix.length))];
    return text(gate, goals, vocab, names[l.args[0]], types[l.args[0]], names, l.negated);
  }
  if (l.pred.startsWith(SETTLED)) {
    const chain = chains[Number(l.pred.slice(SETTLED.length))];
    return settledText(chain, names[l.args[0]], names, l.negated);
  }
  if (!l.pred.startsWith(CLOSER)) return literalText(l, names);
  const mover = movers[Number(l.pred.slice(CLOSER.length))];
  const [a, b, t] = l.args.map((x) => names[x]);
  return `${distanceText(mover, a, t)} < ${distanceText(mover, b, t)}`;
}
