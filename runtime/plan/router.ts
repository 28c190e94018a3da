/**
 * The router: what the agent asks when no task template fits the goal (and
 * the goal's pending landmarks did not finish it). Step by step it chooses
 * a skill call or a raw action; each step's outcome (success, the skill's
 * diagnosis, the environment's rejection or observation) goes back with the
 * next question. The language model's planner role implements it
 * (`llm/planner.ts`); without one, the agent stops where the templates end.
 *
 * @module
 */
import type { Value } from "../../dsl/facts.ts";
import type { FactStore } from "../fact_store.ts";
import type { SkillLibrary } from "../store/library.ts";

/** One step the router chooses. */
export type RouteChoice =
  | { kind: "skill"; skill: string; args: Record<string, Value> }
  | { kind: "action"; action: string }
  | { kind: "stop"; reason: string };

/** A step taken and what came of it, in words. */
export interface RouteStep {
  choice: RouteChoice;
  /** `success`, `failure: <diagnosis>`, `rejected: <why>` or `observation: <text>`. */
  outcome: string;
}

/** What the router sees. */
export interface RouteView {
  /** The goal sentence. */
  goal: string;
  /** Why the templates do not apply. */
  why: string;
  /** The belief state. */
  facts: FactStore;
  /** The skills it may call. */
  library: SkillLibrary;
  /** The steps so far, oldest first. */
  history: readonly RouteStep[];
}

/** Chooses the agent's next step when no template fits. */
export interface Router {
  /** The next step (`stop` to give up or to declare the goal reached). */
  next(view: RouteView): Promise<RouteChoice>;
}

/**
 * A step in words, for histories and traces.
 *
 * @example Usage
 * ```ts
 * import { formatRouteChoice } from "./router.ts";
 * console.log(formatRouteChoice({ kind: "skill", skill: "craft", args: { item: "stick" } }));
 * // craft({"item":"stick"})
 * ```
 */
export function formatRouteChoice(choice: RouteChoice): string {
  switch (choice.kind) {
    case "skill":
      return `${choice.skill}(${JSON.stringify(choice.args)})`;
    case "action":
      return `action "${choice.action}"`;
    case "stop":
      return `stop: ${choice.reason}`;
  }
}
