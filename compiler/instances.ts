/**
 * Instances: the segments of one group as induction sees them, a sequence
 * of matched actions (steps) in which LoopFold may have folded runs into
 * loops. Every step keeps its trace position so the states around it can be
 * looked up.
 *
 * @module
 */
import { matchAction } from "../dsl/action.ts";
import type { FactView, Value } from "../dsl/facts.ts";
import type { Vocabulary } from "../dsl/vocabulary.ts";
import type { ReplaySegment } from "./consistency.ts";
import type { Segment } from "./segment.ts";

/** One recorded action matched to its template. */
export interface StepRef {
  /** Step index in the trace (the state before it is `states[index]`). */
  index: number;
  /** Action template name. */
  action: string;
  /** Argument values by template parameter name. */
  args: Record<string, string | number>;
  /** The action text. */
  text: string;
}

/** A folded run: iterations that each start with the same head action. */
export interface LoopItem {
  kind: "loop";
  /** Head action template and the parameter holding the iteration's object. */
  head: string;
  role: string;
  /** Steps of each iteration, head first. */
  iterations: StepRef[][];
  /** Whether the segment ends inside the last iteration. */
  exits: boolean;
  /**
   * The loop's element in each iteration, when it is not the object of the
   * iteration's first step (an object related to it, see `LoopPlan.related`).
   */
  elements?: (string | number)[];
}

/** An element of an instance's top-level sequence. */
export type Item = { kind: "step"; step: StepRef } | LoopItem;

/** A segment prepared for induction. */
export interface Instance {
  /** Position in the group. */
  id: number;
  segment: Segment;
  items: Item[];
  /** Parameter values of the segment (theta). */
  args: Record<string, Value>;
}

/**
 * The instance of a segment before folding: one step per accepted action.
 * Throws a `SyntaxError` naming the trace and step when an action matches no
 * template of the vocabulary.
 */
export function instanceOf(segment: Segment, id: number, vocab: Vocabulary): Instance {
  const items: Item[] = segment.steps.map((index) => {
    const text = segment.trace.steps[index].action;
    const m = matchAction(vocab, text);
    if (!m) {
      throw new SyntaxError(
        `${segment.trace.trace.source ?? "trace"}, step ${
          index + 1
        }: action "${text}" matches no action template of vocabulary "${vocab.name}"`,
      );
    }
    return { kind: "step", step: { index, action: m.action, args: m.args, text } };
  });
  const args = Object.fromEntries(segment.params.map((p) => [p.name, p.value]));
  return { id, segment, items, args };
}

/** The recorded segment as the consistency replay reads it. */
export function replaySegmentOf(instance: Instance): ReplaySegment {
  const { segment } = instance;
  const states: FactView[] = segment.steps.map((i) => segment.trace.states[i]);
  states.push(segment.trace.states[segment.end]);
  return { states, actions: segment.steps.map((i) => segment.trace.steps[i].action) };
}

/** The steps of an instance in order, loops flattened. */
export function stepsOf(items: readonly Item[]): StepRef[] {
  return items.flatMap((it) => it.kind === "step" ? [it.step] : it.iterations.flat());
}
