/**
 * Hierarchy: a segment that uses what an earlier segment of the same skill
 * produced calls that skill instead of repeating its actions (DESIGN
 * section 5, "Hierarchy"). Crafting a table from planks that were crafted
 * first is one `craft_item(table)` segment whose first step is the call
 * `craft_item(planks)`; induced over such segments, the skill calls itself
 * on the smaller subgoal behind a guard that tells a craftable ingredient
 * from one to fetch.
 *
 * A segment S nests the segments of its own skill that end right before it
 * (each after the other) when S's landmark step consumes their landmark's
 * object (a fact about it is removed: the planks were used up). A nested
 * segment becomes one call step of S's trace, from the state where it
 * started to the state where it ended; segments that nest others nest as a
 * whole, so depth 3 calls depth 2 which calls depth 1.
 *
 * @module
 */
import { renderAction } from "../dsl/action.ts";
import type { Vocabulary } from "../dsl/vocabulary.ts";
import type { FactStore } from "../runtime/fact_store.ts";
import type { GroundedStep, GroundedTrace } from "./ground.ts";
import type { Segment, SegmentGroup } from "./segment.ts";
import { markCalls, skillAction } from "./skill_action.ts";

/**
 * Nests the segments of each trace (see the module doc). `skillOf` names
 * the skill (group) of a segment. Segments that
 * nest nothing are returned as they are; the others get a trace of their
 * own whose call steps render as the skill's action (`skillAction`).
 *
 * @returns The top-level segments, in trace order.
 */
export function nestSegments(
  segments: readonly Segment[],
  skillOf: (s: Segment) => string,
): Segment[] {
  const out: Segment[] = [];
  /** Per trace: the top-level segments so far. */
  const byTrace = new Map<number, Segment[]>();
  for (const segment of segments) {
    const done = byTrace.get(segment.traceIndex) ?? [];
    byTrace.set(segment.traceIndex, done);
    const consumed = consumedBy(segment);
    const nested: Segment[] = [];
    // The contiguous run of own-skill segments right before, each consumed.
    for (let k = done.length - 1; k >= 0; k--) {
      const prior = done[k];
      const next = nested[0] ?? segment;
      if (endOf(prior) !== startOf(next)) break;
      if (skillOf(prior) !== skillOf(segment) || !prior.landmark) break;
      if (!consumes(consumed, prior)) break;
      nested.unshift(prior);
    }
    if (nested.length === 0) {
      done.push(segment);
      out.push(segment);
      continue;
    }
    const merged = withCalls(segment, nested, skillOf);
    done.splice(done.length - nested.length, nested.length, merged);
    out.splice(out.length - nested.length, nested.length, merged);
  }
  return out;
}

/** `pred/object` for each fact the segment's landmark step removes, per object argument. */
function consumedBy(segment: Segment): Set<string> {
  const out = new Set<string>();
  if (!segment.landmark) return out;
  const step = segment.trace.steps[segment.end - 1];
  for (const atom of step.delta.remove) {
    for (const a of atom.args) if (typeof a === "string") out.add(`${atom.pred}/${a}`);
  }
  return out;
}

/**
 * Whether the landmark step removes a fact of the prior segment's landmark
 * predicate about one of its parameter objects: it used up what the prior
 * segment made (the planks), not merely touched an object both involve.
 */
function consumes(consumed: ReadonlySet<string>, prior: Segment): boolean {
  const { atom } = prior.landmark!;
  return prior.params.some((p) =>
    p.classPred === undefined && typeof p.value === "string" &&
    consumed.has(`${atom.pred}/${p.value}`)
  );
}

/** Where a segment starts and ends in the real trace (nested ones keep their span). */
const spans = new WeakMap<Segment, { start: number; end: number }>();
function startOf(s: Segment): number {
  return spans.get(s)?.start ?? s.start;
}
function endOf(s: Segment): number {
  return spans.get(s)?.end ?? s.end;
}

/** The segment with each nested segment replaced by a call step. */
function withCalls(
  segment: Segment,
  nested: readonly Segment[],
  skillOf: (s: Segment) => string,
): Segment {
  const states: FactStore[] = [];
  const steps: GroundedStep[] = [];
  for (const n of nested) {
    const decl = skillAction({ name: skillOf(n), params: n.params });
    states.push(n.trace.states[n.start]);
    steps.push({
      action: renderAction(decl, Object.fromEntries(n.params.map((p) => [p.name, p.value]))),
      observation: "",
      delta: { add: [], remove: [] },
    });
  }
  for (const i of segment.steps) {
    states.push(segment.trace.states[i]);
    steps.push(segment.trace.steps[i]);
  }
  states.push(segment.trace.states[segment.end]);
  const trace: GroundedTrace = {
    trace: {
      ...segment.trace.trace,
      source: `${segment.trace.trace.source ?? `trace ${segment.traceIndex + 1}`} (nested)`,
    },
    states,
    steps,
    unknown: [],
  };
  const merged: Segment = {
    ...segment,
    trace,
    start: 0,
    end: steps.length,
    steps: steps.map((_, k) => k),
  };
  spans.set(merged, { start: startOf(nested[0]), end: endOf(segment) });
  return merged;
}

/**
 * Groups with their segments nested (see {@linkcode nestSegments}): each
 * group keeps its name, parameters and postcondition, and its segments
 * become the top-level ones of its signature. Also returns the vocabulary
 * in which every group's skill is an action (`skillAction`), so a nested
 * call reads as a step of the calling segment.
 */
export function nestGroups(
  segments: readonly Segment[],
  groups: readonly SegmentGroup[],
  vocab: Vocabulary,
): { segments: Segment[]; groups: SegmentGroup[]; vocab: Vocabulary } {
  const nameOf = new Map<string, string>(groups.map((g) => [g.signature, g.name]));
  const top = nestSegments(segments, (s) => nameOf.get(s.signature) ?? s.signature);
  const nestedGroups = groups.map((g) => ({
    ...g,
    segments: top.filter((s) => s.signature === g.signature),
  }));
  const calls = Object.fromEntries(groups.map((g) => [g.name, skillAction(g)]));
  return {
    segments: top,
    groups: nestedGroups,
    vocab: top.some((s) => spans.has(s))
      ? markCalls({ ...vocab, actions: { ...vocab.actions, ...calls } }, Object.keys(calls))
      : vocab,
  };
}
