/**
 * The synthesizer role: an LLM proposes a skill graph for a group of
 * segments (NSI: the model proposes, the checker decides). The proposal is
 * JSON in the skill format, parsed by the skill schema, validated against
 * the vocabulary and replayed on every segment of the group
 * (`measure`, the consistency check induction uses). It replaces the
 * induced skill only when it reproduces more segments, or as many with a
 * better MDL score; otherwise the reason goes back to the model once. An
 * accepted proposal is measured, compiled and written exactly like an
 * induced skill.
 *
 * @module
 */
import type { Trace } from "../dsl/trace.ts";
import { type Skill, SkillSchema } from "../dsl/graph/schema.ts";
import { renderAction } from "../dsl/action.ts";
import type { Vocabulary } from "../dsl/vocabulary.ts";
import type { EnvironmentKit } from "../runtime/environment.ts";
import { compileSkill, formatIssues } from "../runtime/exec/program.ts";
import { compileSkills } from "../runtime/store/library.ts";
import type { CompiledLibrary } from "../compiler/compile.ts";
import { type InducedSkill, measure, segmentGroups } from "../compiler/induce.ts";
import type { SegmentGroup } from "../compiler/segment.ts";
import type { ChatMessage } from "./cache.ts";
import { describeVocabulary } from "./_vocabulary_text.ts";
import type { LlmClient } from "./client.ts";

/** What became of one group's proposal. */
export interface SynthesisOutcome {
  /** The skill (group) asked about. */
  skill: string;
  /** The induced skill's coverage, and the proposal's when one was accepted. */
  before: { covered: number; segments: number };
  accepted?: InducedSkill;
  /** Each rejected answer's reason, in order. */
  rejected: string[];
  /** Why no proposal was accepted, when the client gave up (after retries, budget). */
  error?: string;
}

/** Options of {@linkcode synthesizeWithLlm}. */
export interface SynthesizeOptions {
  /** Which groups to ask about: those the induced skill does not fully reproduce, or all. @default "uncovered" */
  groups?: "uncovered" | "all";
  /** Weight of program size in the MDL score (as induction's). @default 0.05 */
  lambda?: number;
  /** Most segments shown per group in the prompt. @default 6 */
  maxSegments?: number;
  /** Called after each group. */
  onOutcome?: (outcome: SynthesisOutcome) => void;
}

/**
 * Asks the model for a better skill for each group (see the module doc)
 * and returns the library with the accepted proposals in place.
 *
 * @example Usage
 * ```ts ignore
 * const client = new LlmClient(llmConfigFrom(flags, Deno.env.toObject()));
 * const { compiled: better, outcomes } = await synthesizeWithLlm(traces, kit, compiled, client);
 * ```
 */
export async function synthesizeWithLlm(
  traces: readonly Trace[],
  kit: EnvironmentKit,
  compiled: CompiledLibrary,
  client: LlmClient,
  options: SynthesizeOptions = {},
): Promise<{ compiled: CompiledLibrary; outcomes: SynthesisOutcome[] }> {
  const { groups, vocab } = segmentGroups(traces, kit);
  const induced = [...compiled.induction.skills];
  const outcomes: SynthesisOutcome[] = [];
  for (const [i, group] of groups.entries()) {
    const current = induced[i];
    if (!current || current.skill.name !== group.name) continue;
    if ((options.groups ?? "uncovered") === "uncovered" && current.covered === current.segments) {
      continue;
    }
    const outcome = await proposeSkill(client, group, vocab, current, options);
    if (outcome.accepted) induced[i] = outcome.accepted;
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  }
  if (!outcomes.some((o) => o.accepted)) return { compiled, outcomes };
  const skills = induced.map((s) => s.skill);
  return {
    compiled: {
      ...compiled,
      skills,
      induction: { ...compiled.induction, skills: induced },
      library: compileSkills(
        skills.map((s) => ({ data: s, source: `skill "${s.name}"` })),
        kit.vocabulary,
      ),
    },
    outcomes,
  };
}

/**
 * Asks for one group's skill: the proposal is accepted when it validates,
 * keeps the skill's name and parameters, and reproduces more of the
 * group's segments than `current` (or as many with a better score).
 */
export async function proposeSkill(
  client: LlmClient,
  group: SegmentGroup,
  vocab: Vocabulary,
  current: InducedSkill,
  options: Pick<SynthesizeOptions, "lambda" | "maxSegments"> = {},
): Promise<SynthesisOutcome> {
  const lambda = options.lambda ?? 0.05;
  let accepted: InducedSkill | undefined;
  const check = (skill: Skill): string | undefined => {
    if (skill.name !== group.name) return `the skill must be named "${group.name}"`;
    const want = group.params.map((p) => `${p.name}: ${p.type}`).join(", ");
    const got = skill.params.map((p) => `${p.name}: ${p.type}`).join(", ");
    if (got !== want) return `its parameters must be (${want}), not (${got})`;
    const valid = compileSkill(skill, vocab);
    if (!valid.ok) return `it does not validate: ${formatIssues(valid.error.slice(0, 3), "skill")}`;
    const m = measure(skill, group, vocab, lambda);
    const better = m.covered > current.covered ||
      (m.covered === current.covered && m.score > current.score);
    if (!better) {
      const first = m.uncovered[0];
      return `it reproduces ${m.covered} of ${m.segments} segments, no more than the current skill (${current.covered})${
        first ? `; ${first.source}: ${first.reason}` : ""
      }`;
    }
    accepted = m;
    return undefined;
  };
  const r = await client.ask({
    role: "synthesizer",
    messages: synthesizerPrompt(group, vocab, current, options.maxSegments ?? 6),
    schema: SkillSchema,
    check,
  });
  return {
    skill: group.name,
    before: { covered: current.covered, segments: current.segments },
    ...(r.ok && accepted ? { accepted } : {}),
    rejected: r.rejected,
    ...(r.ok ? {} : { error: r.error.message }),
  };
}

/** The request: the vocabulary, the skill format by the current skill, the segments to reproduce. */
export function synthesizerPrompt(
  group: SegmentGroup,
  vocab: Vocabulary,
  current: InducedSkill,
  maxSegments: number,
): ChatMessage[] {
  const lines: string[] = [];
  lines.push(...describeVocabulary(vocab));
  lines.push("");
  lines.push(
    `The current skill reproduces ${current.covered} of ${current.segments} segments:`,
    JSON.stringify(current.skill),
  );
  for (const u of current.uncovered.slice(0, 3)) {
    lines.push(`  not reproduced: ${u.source}: ${u.reason}`);
  }
  lines.push("");
  lines.push("Segments (each from its start state, the actions the skill must send in order):");
  for (const segment of group.segments.slice(0, maxSegments)) {
    const params = segment.params.map((p) => `${p.name} = ${JSON.stringify(p.value)}`).join(", ");
    const actions = segment.steps.map((k) => segment.trace.steps[k].action);
    lines.push(`- (${params}): ${actions.join("; ")}`);
    const objects = new Set(segment.params.map((p) => p.value));
    const facts = segment.trace.states[segment.start].atoms()
      .filter((a) => a.args.some((x) => objects.has(x)))
      .slice(0, 20)
      .map((a) => `${a.pred}(${a.args.map((x) => JSON.stringify(x)).join(", ")})`);
    if (facts.length > 0) lines.push(`  facts at the start: ${facts.join(", ")}`);
  }
  const signature = `${group.name}(${group.params.map((p) => `${p.name}: ${p.type}`).join(", ")})`;
  return [
    {
      role: "system",
      content:
        "You write skills for skillc: typed workflow graphs in its JSON format (data, check, loop, " +
        "primitive and terminal nodes joined by labelled edges; expressions in its logic). Answer " +
        "with one JSON object, the skill, and nothing else.",
    },
    {
      role: "user",
      content:
        `${lines.join("\n")}\n\nWrite the skill ${signature}${
          group.post ? ` whose postcondition is ${group.post}` : ""
        }, so that run from each segment's start state it sends exactly that segment's actions. ` +
        `Example of an action: ${exampleAction(vocab)}.`,
    },
  ];
}

function exampleAction(vocab: Vocabulary): string {
  const [name, decl] = Object.entries(vocab.actions)[0] ?? [];
  if (!decl) return "none";
  return `"${name}" with args ${
    JSON.stringify(Object.fromEntries(decl.params.map((p) => [p.name, p.name])))
  } renders as "${
    renderAction(decl, Object.fromEntries(decl.params.map((p) => [p.name, `<${p.name}>`])))
  }"`;
}
