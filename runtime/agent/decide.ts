/**
 * What the agent does after a failed skill call: a pure choice among its
 * repairs, in order, from what the failure shows and what was already
 * tried. The driver (`achieve.ts`) carries the repair out; when it does not
 * lead to a retry, the next one is chosen, until one does or none is left.
 *
 * 1. `tolerate`: the retry asked again for an object a subgoal provided,
 *    although the facts about it changed: run again tolerating that
 *    action's rejection.
 * 2. `inner`: a call the skill made failed: achieve it on its own first.
 * 3. `regress`: achieve subgoals that produce what the failure named.
 * 4. `redo`: a later step used up what an earlier one provided: run again.
 * 5. `avoid`: a rejected object was one of several candidates: choose
 *    differently.
 * 6. `retract` the facts assumed from background knowledge (the retry
 *    refuted them), or `ask` it once.
 * 7. `hook`: reflective planning.
 * 8. `fallback`: primitive actions the action model predicts make the
 *    postcondition true.
 * 9. `give-up`.
 *
 * Repairs that retry need retries left; `inner` and `regress` also need
 * depth left.
 *
 * @module
 */
import type { SkillCall } from "../plan/planner.ts";

/** A repair, in the order they are tried. */
export type Repair =
  | { kind: "tolerate"; node: string; object: string }
  | { kind: "inner"; call: SkillCall }
  | { kind: "regress" }
  | { kind: "redo" }
  | { kind: "avoid"; objects: string[] }
  | { kind: "retract" }
  | { kind: "ask" }
  | { kind: "hook" }
  | { kind: "fallback" }
  | { kind: "give-up" };

/** Where the call stands. */
export interface AttemptState {
  /** Regression depth of the call. */
  level: number;
  maxDepth: number;
  /** Retries made so far. */
  retries: number;
  maxRetries: number;
  /** Repairs already tried since the call last ran (they did not lead to a retry). */
  tried: ReadonlySet<Repair["kind"]>;
  /** Background knowledge: none, not asked yet, asked, or facts assumed from it. */
  knowledge: "none" | "available" | "asked" | "assumed";
  /** A reflective-planning hook is there. */
  hook: boolean;
  /** The primitive fallback can search (an action model that predicts, a postcondition). */
  fallback: boolean;
}

/** What the failed run shows, each read only when its repair is considered. */
export interface FailureView {
  /** The object a subgoal provided that the run asked for again, and the node to tolerate. */
  askedAgain(): { node: string; object: string } | undefined;
  /** The failed inner call to achieve first (in the library, not on the stack, not failed). */
  innerCall(): SkillCall | undefined;
  /** The run's first step would redo one whose effect a later step undid. */
  redoable(): boolean;
  /** Rejected objects that a `select_one` chose among several and that are not avoided yet. */
  otherChoices(): string[];
}

/**
 * The next repair of a failed call.
 *
 * @example Usage
 * ```ts
 * import { decide } from "./decide.ts";
 * const none = { askedAgain: () => undefined, innerCall: () => undefined, redoable: () => false, otherChoices: () => [] };
 * const state = { level: 0, maxDepth: 6, retries: 0, maxRetries: 8, tried: new Set<never>(), knowledge: "none" as const, hook: false, fallback: false };
 * console.log(decide(state, none)); // { kind: "regress" }
 * ```
 */
export function decide(state: AttemptState, failure: FailureView): Repair {
  const retry = state.retries < state.maxRetries;
  const deeper = retry && state.level < state.maxDepth;
  const fresh = (kind: Repair["kind"]) => !state.tried.has(kind);
  if (retry && fresh("tolerate")) {
    const again = failure.askedAgain();
    if (again) return { kind: "tolerate", ...again };
  }
  if (deeper && fresh("inner")) {
    const call = failure.innerCall();
    if (call) return { kind: "inner", call };
  }
  if (deeper && fresh("regress")) return { kind: "regress" };
  if (retry && fresh("redo") && failure.redoable()) return { kind: "redo" };
  if (retry && fresh("avoid")) {
    const objects = failure.otherChoices();
    if (objects.length > 0) return { kind: "avoid", objects };
  }
  if (state.knowledge === "assumed" && fresh("retract")) return { kind: "retract" };
  if (state.knowledge === "available" && retry && fresh("ask")) return { kind: "ask" };
  if (state.hook && fresh("hook")) return { kind: "hook" };
  if (state.fallback && fresh("fallback")) return { kind: "fallback" };
  return { kind: "give-up" };
}
