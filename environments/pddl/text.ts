/**
 * AgentBoard's text interface to a PDDL world: facts and goal conditions
 * as sentences from per-predicate templates (`{} is on {}.`; a predicate
 * without one is written `name arg1 arg2.`), observations as the sorted
 * sentences of the true facts, the goal line, the invalid-action message
 * and the `check valid actions` reply.
 *
 * @module
 */
import type { Fact } from "./world.ts";

/** Sentence templates by predicate or action name (`{}` = the arguments in order). */
export type Templates = Readonly<Record<string, string>>;

/** The reply to an action that does not apply. */
export const INVALID_ACTION =
  "The action is not valid and therefore takes no effect. Please remember to satisfy the " +
  "restriction of actions. You can also check valid actions.";

/** The action that lists the valid actions. */
export const CHECK_VALID_ACTIONS = "check valid actions";

/**
 * The template of a predicate or action with `arity` arguments: one with
 * as many `{}` (the templates are shared by the benchmark's domains, and
 * another domain may use the same name with other arguments).
 */
export function templateFor(
  templates: Templates,
  name: string,
  arity: number,
): string | undefined {
  const t = templates[name];
  return t !== undefined && t.split("{}").length - 1 === arity ? t : undefined;
}

/** The sentence of a ground atom (`on b1 b2` -> `b1 is on b2.`). */
export function factSentence(fact: Fact, templates: Templates): string {
  const [pred, ...args] = fact.split(" ");
  const template = templateFor(templates, pred, args.length);
  if (template === undefined) return `${[pred, ...args].join(" ")}.`;
  let k = 0;
  const text = template.trim().replace(/\{\}/g, () => args[k++] ?? "");
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The observation of a state: its facts' sentences, sorted, space-separated. */
export function stateText(state: Iterable<Fact>, templates: Templates): string {
  return [...state].map((f) => factSentence(f, templates)).sort().join(" ");
}

/** The start of the goal line. */
export const GOAL_LINE = "The goal is to satisfy the following conditions: ";

/**
 * The start of the line that names the problem's objects no fact or goal
 * condition of the first observation mentions (a clean pan holds no fact
 * until something is put in it, but is there to be used).
 */
export const OBJECTS_LINE = "Other objects: ";

/** The objects line: `Other objects: pan-0, soap-0.` */
export function objectsText(objects: readonly string[]): string {
  return `${OBJECTS_LINE}${objects.join(", ")}.`;
}

/** How the goal line states a condition the goal asks to be false: `it is not the case that <sentence>`. */
export const NEGATED_CONDITION = "it is not the case that ";

/**
 * The goal line: `The goal is to satisfy the following conditions: <sentence>, <sentence>`,
 * a fact the goal asks to be false (in `forbidden`) written
 * `it is not the case that <sentence>`.
 */
export function goalText(
  goal: readonly Fact[],
  templates: Templates,
  forbidden: readonly Fact[] = [],
): string {
  const sentences = [
    ...goal.map((f) => factSentence(f, templates)),
    ...forbidden.map((f) => `${NEGATED_CONDITION}${factSentence(f, templates)}`),
  ];
  return `${GOAL_LINE}${sentences.join(", ")}`;
}

/** The reply to `check valid actions`. */
export function validActionsText(actions: readonly string[]): string {
  return `valid actions are: ${actions.join(", ")}.`;
}

/**
 * Reads AgentBoard's `agentboard_text.json` (`predicate_and_action_text`).
 *
 * @throws {TypeError} Naming the file when the templates are not a map of strings.
 */
export function parseTemplates(json: unknown, file: string): Templates {
  const map = (json as { predicate_and_action_text?: unknown })?.predicate_and_action_text;
  if (typeof map !== "object" || map === null || Array.isArray(map)) {
    throw new TypeError(`${file}: expected {"predicate_and_action_text": {<name>: "<template>"}}`);
  }
  for (const [k, v] of Object.entries(map)) {
    if (typeof v !== "string") throw new TypeError(`${file}: template of "${k}" is not a string`);
  }
  return map as Templates;
}
