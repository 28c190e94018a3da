/**
 * The subgoal-proposer role: for a vocabulary that declares no landmarks,
 * an LLM says which fact changes end a subgoal (the boundaries that cut
 * traces into segments, one skill per kind). Its symbolic counterpart
 * derives landmarks from the traces (`compiler/segment.ts`). The answer is
 * data: landmark declarations checked against the vocabulary (a known
 * predicate, a condition that type-checks over the landmark's arguments
 * `a0, a1, ...`) and against the traces (some step must end a subgoal);
 * otherwise the reason goes back once.
 *
 * @module
 */
import { z } from "zod";
import type { Trace } from "../dsl/trace.ts";
import { checkExpr } from "../dsl/expr/check.ts";
import { formatExprError } from "../dsl/expr/errors.ts";
import { parseExpr } from "../dsl/expr/parse.ts";
import { type LandmarkDecl, LandmarkDeclSchema, own, type Vocabulary } from "../dsl/vocabulary.ts";
import { formatAtom } from "../dsl/facts.ts";
import type { EnvironmentKit } from "../runtime/environment.ts";
import { type GroundedTrace, groundTrace } from "../compiler/ground.ts";
import { segmentTraces } from "../compiler/segment.ts";
import type { ChatMessage } from "./cache.ts";
import { describeVocabulary } from "./_vocabulary_text.ts";
import type { LlmClient } from "./client.ts";

/** What the model answers. */
const Proposal = z.object({ landmarks: z.array(LandmarkDeclSchema).min(1) });

/** What became of the request. */
export interface LandmarkProposal {
  /** The accepted declarations. */
  landmarks?: LandmarkDecl[];
  /** Each rejected answer's reason, in order. */
  rejected: string[];
  /** Why none was accepted, when the client gave up. */
  error?: string;
}

/**
 * Asks the model for the landmarks of `kit`'s vocabulary, shown the
 * traces' steps and fact changes.
 *
 * @example Usage
 * ```ts ignore
 * const r = await proposeLandmarks(client, traces, kit);
 * if (r.landmarks) kit = { ...kit, vocabulary: { ...kit.vocabulary, landmarks: r.landmarks } };
 * ```
 */
export async function proposeLandmarks(
  client: LlmClient,
  traces: readonly Trace[],
  kit: EnvironmentKit,
  options: { maxTraces?: number; maxSteps?: number } = {},
): Promise<LandmarkProposal> {
  const vocab = kit.vocabulary;
  const grounded = traces.map((t) => groundTrace(t, kit.grounder()));
  const r = await client.ask({
    role: "subgoals",
    messages: subgoalPrompt(vocab, grounded, options.maxTraces ?? 3, options.maxSteps ?? 30),
    schema: Proposal,
    check: (p) => checkLandmarks(p.landmarks, vocab, grounded),
  });
  return r.ok
    ? { landmarks: r.value.landmarks, rejected: r.rejected }
    : { rejected: r.rejected, error: r.error.message };
}

/** Why declarations do not fit the vocabulary or cut no trace; `undefined` when they do. */
export function checkLandmarks(
  landmarks: readonly LandmarkDecl[],
  vocab: Vocabulary,
  grounded: readonly GroundedTrace[],
): string | undefined {
  for (const [i, l] of landmarks.entries()) {
    const decl = own(vocab.predicates, l.pred);
    if (!decl) {
      return `landmark ${i + 1}: "${l.pred}" is no predicate of the vocabulary (${
        Object.keys(vocab.predicates).join(", ")
      })`;
    }
    if (l.when !== undefined) {
      const parsed = parseExpr(l.when);
      if (!parsed.ok) return `landmark ${i + 1}: "${l.when}": ${formatExprError(parsed.error)}`;
      const vars = Object.fromEntries(decl.params.map((t, k) => [`a${k}`, t]));
      const checked = checkExpr(parsed.value, { vocab, vars }, l.when);
      if (!checked.ok || checked.value !== "Bool") {
        const why = checked.ok
          ? `it is ${checked.value}, not Bool`
          : checked.error.map((e) => formatExprError(e)).join("; ");
        return `landmark ${i + 1}: the condition "${l.when}" over ${
          Object.keys(vars).join(", ") || "no arguments"
        } does not type-check: ${why}`;
      }
    }
  }
  const cut = segmentTraces(grounded, { ...vocab, landmarks: [...landmarks] })
    .filter((s) => s.landmark !== undefined).length;
  if (cut === 0) return "no step of the traces makes any of these changes: they cut nothing";
  return undefined;
}

/** The request: the vocabulary, then each trace's steps with the facts they changed. */
export function subgoalPrompt(
  vocab: Vocabulary,
  grounded: readonly GroundedTrace[],
  maxTraces: number,
  maxSteps: number,
): ChatMessage[] {
  const lines = describeVocabulary(vocab, { predicates: true, actions: true });
  for (const [t, g] of grounded.slice(0, maxTraces).entries()) {
    lines.push("", `Trace ${t + 1} (goal: ${g.trace.goal}):`);
    for (const [k, s] of g.steps.slice(0, maxSteps).entries()) {
      const changes = [
        ...s.delta.add.map((a) => `+${formatAtom(a)}`),
        ...s.delta.remove.map((a) => `-${formatAtom(a)}`),
      ];
      lines.push(`  ${k + 1}. ${s.action}${changes.length ? `  ${changes.join(" ")}` : ""}`);
    }
  }
  return [
    {
      role: "system",
      content:
        "You cut agent traces into subgoals for skillc. A landmark is a fact change that ends a " +
        'subgoal: {"pred": <predicate>, "on": "add" | "remove", "when"?: <condition over a0, ' +
        'a1, ... (the atom\'s arguments)>, "skill"?: <name of the skill that achieves it>}. ' +
        'Answer with JSON only: {"landmarks": [...]}.',
    },
    {
      role: "user",
      content: `${lines.join("\n")}\n\nWhich fact changes end a subgoal in these traces?`,
    },
  ];
}
