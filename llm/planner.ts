/**
 * The planner/router role: when no task template fits the goal, an LLM
 * chooses the agent's next step among the library's skills (by signature
 * and docstring) and the vocabulary's raw actions; each step's outcome, a
 * failed skill's diagnosis included, goes back with the next question. The
 * answer is data: an unknown skill, arguments that do not fit its
 * parameters or an action no template of the vocabulary matches are
 * rejected with the reason and asked again once.
 *
 * @module
 */
import { z } from "zod";
import { matchAction } from "../dsl/action.ts";
import { formatAtom, type Value, ValueSchema } from "../dsl/facts.ts";
import type { Vocabulary } from "../dsl/vocabulary.ts";
import { checkArgs } from "../runtime/exec/args.ts";
import type { SkillLibrary } from "../runtime/store/library.ts";
import {
  formatRouteChoice,
  type RouteChoice,
  type Router,
  type RouteView,
} from "../runtime/plan/router.ts";
import type { ChatMessage } from "./cache.ts";
import { describeVocabulary } from "./_vocabulary_text.ts";
import type { LlmClient } from "./client.ts";

/** A valid answer of the planner role: one step. */
export type PlannerAnswer =
  | { skill: string; args: Record<string, Value> }
  | { action: string }
  | { stop: string };

/** Zod schema of a {@linkcode PlannerAnswer}. */
export const PlannerAnswerSchema: z.ZodType<PlannerAnswer> = z.union([
  z.object({ skill: z.string().min(1), args: z.record(z.string(), ValueSchema).default({}) })
    .strict(),
  z.object({ action: z.string().min(1) }).strict(),
  z.object({ stop: z.string() }).strict(),
]);

/**
 * A router that asks an LLM. When no valid answer comes, the call throws
 * the client's `LlmError`, naming the role and the request.
 *
 * @example Usage
 * ```ts ignore
 * runAgent({ ...options, router: new LlmRouter(client, kit.vocabulary) });
 * ```
 */
export class LlmRouter implements Router {
  readonly #client: LlmClient;
  readonly #vocab: Vocabulary;

  /** Creates a router asking `client` in the words of `vocab`. */
  constructor(client: LlmClient, vocab: Vocabulary) {
    this.#client = client;
    this.#vocab = vocab;
  }

  /** The next step for the goal. */
  async next(view: RouteView): Promise<RouteChoice> {
    const r = await this.#client.ask({
      role: "planner",
      messages: plannerPrompt(this.#vocab, view),
      schema: PlannerAnswerSchema,
      check: (a) => checkPlannerAnswer(a, this.#vocab, view.library),
    });
    if (!r.ok) throw r.error;
    const a = r.value;
    if ("skill" in a) return { kind: "skill", skill: a.skill, args: a.args };
    if ("action" in a) return { kind: "action", action: a.action };
    return { kind: "stop", reason: a.stop };
  }
}

/** Why an answer names no skill or action the agent can take; `undefined` when it does. */
export function checkPlannerAnswer(
  answer: PlannerAnswer,
  vocab: Vocabulary,
  library: SkillLibrary,
): string | undefined {
  if ("skill" in answer) {
    const program = library.get(answer.skill);
    if (!program) {
      return `"${answer.skill}" is no skill of the library (skills: ${
        library.programs().map((p) => p.skill.name).join(", ")
      })`;
    }
    const errors = checkArgs(program.skill.params, answer.args, vocab);
    return errors.length > 0 ? `${answer.skill}: ${errors.join("; ")}` : undefined;
  }
  if ("action" in answer && !matchAction(vocab, answer.action)) {
    return `"${answer.action}" matches no action of the vocabulary (${
      Object.values(vocab.actions).map((a) => `"${a.template}"`).join(", ")
    })`;
  }
  return undefined;
}

/** The request: skills and actions, then the goal, the facts and the steps so far. */
export function plannerPrompt(vocab: Vocabulary, view: RouteView): ChatMessage[] {
  const lines = [
    `You plan for an agent in the "${vocab.name}" environment when none of its task programs ` +
    "fits the goal. Each step is one skill call or one raw action.",
    "Skills:",
  ];
  for (const p of view.library.programs()) {
    const { name, params, doc } = p.skill;
    lines.push(
      `  ${name}(${params.map((q) => `${q.name}: ${q.type}`).join(", ")}): ${doc.summary}` +
        (doc.pre ? ` Applies when: ${doc.pre}.` : "") +
        (doc.post ? ` Achieves: ${doc.post}.` : ""),
    );
  }
  lines.push(...describeVocabulary(vocab, { actions: true }));
  lines.push(
    "Answer with JSON only, one of:",
    '{"skill": "<name>", "args": {"<parameter>": <value>}}',
    '{"action": "<the action\'s text>"}',
    '{"stop": "<why: the goal is reached, or cannot be>"}',
  );
  const user = [
    `Goal: ${view.goal}`,
    `Why no task program applies: ${view.why}`,
    "Facts:",
    ...view.facts.atoms().map(formatAtom),
    "Steps so far:",
    ...(view.history.length === 0
      ? ["  (none)"]
      : view.history.map((s, i) => `  ${i + 1}. ${formatRouteChoice(s.choice)} -> ${s.outcome}`)),
    "",
    "What next?",
  ];
  return [
    { role: "system", content: lines.join("\n") },
    { role: "user", content: user.join("\n") },
  ];
}
