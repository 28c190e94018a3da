/**
 * Learning task templates from demonstrations: for each task type, the
 * ordered skills its demonstrations used (the groups of their segments, in
 * order), and for each skill argument an expression over the episode's
 * initial facts that gives its value, e.g.
 * `place(target_type := select_one(x: ReceptacleType, goal_receptacle(x)))`.
 *
 * The most frequent sequence of a type is its template; the others are kept
 * as alternatives. Arguments are synthesized with
 * {@linkcode synthesizeBinding} over all demonstrations of a sequence
 * (examples: the initial facts, with value types quantifiable, see
 * `runtime/exec/value_domains.ts`; target: the segment's parameter value), and
 * only a binding that yields the demonstrated value in every example is
 * kept.
 *
 * @module
 */
import type { Trace } from "../dsl/trace.ts";
import type { FactView } from "../dsl/facts.ts";
import { isObjectType, type Vocabulary } from "../dsl/vocabulary.ts";
import type { EnvironmentKit } from "../runtime/environment.ts";
import type { TaskTemplate, TemplateArg, TemplateStep } from "../runtime/store/task_template.ts";
import { valueDomainVocabulary, withValueDomains } from "../runtime/exec/value_domains.ts";
import type { GroundedTrace } from "./ground.ts";
import { type SegmentGroups, segmentGroups } from "./induce.ts";
import { induceTaskProgram } from "./task_program.ts";
import type { SkillHead } from "./skill_action.ts";
import type { Segment } from "./segment.ts";
import { synthesizeBinding } from "./bind.ts";

/** Options of {@linkcode learnTemplates}. */
export interface LearnTemplatesOptions {
  /**
   * Names of the skills the templates may call (those of the induced
   * library); a segment of any other group ends its trace's sequence there.
   * @default every group
   */
  skills?: readonly string[];
  /** Receives one line per template and argument decision. */
  explain?: (line: string) => void;
  /** Induce a task program per type (see `task_program.ts`). @default true */
  programs?: boolean;
  /** The traces already grounded and segmented (`segmentGroups`), to do it once. */
  segmented?: Pick<SegmentGroups, "segments" | "groups" | "grounded">;
}

/** One demonstration reduced to what templates need. */
interface Demo {
  type: string;
  initial: FactView;
  segments: { skill: string; segment: Segment }[];
  grounded: GroundedTrace;
  traceIndex: number;
}

/**
 * Learns the task templates of a set of demonstrations. Traces recorded as
 * unsuccessful (`success: false`) and traces without segments are skipped.
 *
 * @param traces The demonstrations (the same ones induction used).
 * @param kit The environment's vocabulary and grounder.
 * @param options Skills to restrict to, explanation sink.
 * @returns One template per task type, in order of first appearance.
 *
 * @example Usage
 * ```ts ignore
 * const templates = learnTemplates(traces, alfworldKit);
 * for (const t of templates) console.log(t.type, t.steps.map((s) => s.skill).join(", "));
 * ```
 */
export function learnTemplates(
  traces: readonly Trace[],
  kit: Pick<EnvironmentKit, "vocabulary" | "grounder">,
  options: LearnTemplatesOptions = {},
): TaskTemplate[] {
  const vocab = kit.vocabulary;
  const explain = options.explain ?? (() => {});
  const allowed = options.skills ? new Set(options.skills) : undefined;
  const { segments, groups, grounded } = options.segmented ?? segmentGroups(traces, kit);
  const skillOf = new Map<Segment, string>();
  const heads: SkillHead[] = [];
  for (const group of groups) {
    heads.push({ name: group.name, params: group.params });
    for (const s of group.segments) skillOf.set(s, group.name);
  }
  const demos: Demo[] = [];
  grounded.forEach((g, i) => {
    if (g.trace.success === false) return;
    const own: Demo["segments"] = [];
    for (const segment of segments.filter((s) => s.traceIndex === i)) {
      const skill = skillOf.get(segment)!;
      if (allowed && !allowed.has(skill)) break;
      own.push({ skill, segment });
    }
    if (own.length === 0) return;
    const type = g.trace.task.type ?? goalPattern(g.states[0], vocab);
    demos.push({ type, initial: g.states[0], segments: own, grounded: g, traceIndex: i });
  });

  const byType = new Map<string, Demo[]>();
  for (const d of demos) {
    const list = byType.get(d.type);
    if (list) list.push(d);
    else byType.set(d.type, [d]);
  }
  const templates: TaskTemplate[] = [];
  for (const [type, list] of byType) {
    const bySequence = new Map<string, Demo[]>();
    for (const d of list) {
      const key = d.segments.map((s) => s.skill).join(" ");
      const same = bySequence.get(key);
      if (same) same.push(d);
      else bySequence.set(key, [d]);
    }
    // Most frequent first; ties keep the order of first appearance (Map order, stable sort).
    const sequences = [...bySequence.values()].sort((a, b) => b.length - a.length);
    const learned = sequences.map((group) => ({
      steps: learnSequence(group, vocab, (line) => explain(`[${type}] ${line}`)),
      support: group.length,
    }));
    explain(
      `[${type}] ${list.length} demonstrations, template ${
        learned[0].steps.map((s) => s.skill).join(", ")
      } (${learned[0].support} of ${list.length})`,
    );
    const program = options.programs === false ? undefined : induceTaskProgram(
      type,
      list.map((d) => ({ grounded: d.grounded, traceIndex: d.traceIndex, calls: d.segments })),
      vocab,
      heads.filter((h) => !allowed || allowed.has(h.name)),
      { explain: (line) => explain(`[${type}] ${line}`) },
    );
    // The program replaces the sequences when it reproduces at least as many
    // demonstrations as the most frequent sequence stands for.
    const useProgram = program !== undefined && program.covered >= learned[0].support;
    templates.push({
      type,
      traces: list.length,
      steps: learned[0].steps,
      support: learned[0].support,
      alternatives: learned.slice(1),
      ...(useProgram ? { program: program.skill } : {}),
    });
  }
  return templates;
}

/** The steps of one sequence, with argument expressions learned over its demonstrations. */
function learnSequence(
  group: Demo[],
  vocab: Vocabulary,
  explain: (line: string) => void,
): TemplateStep[] {
  const wide = valueDomainVocabulary(vocab);
  const views = group.map((d) => withValueDomains(vocab, d.initial).facts);
  return group[0].segments.map(({ skill, segment }, k) => {
    const args: TemplateArg[] = segment.params.map((param) => {
      const examples = group.map((d, i) => ({
        facts: views[i],
        scope: {},
        target: d.segments[k].segment.params.find((p) => p.name === param.name)?.value ??
          param.value,
      }));
      const [best] = synthesizeBinding({ vocab: wide, varTypes: {} }, examples, {
        type: param.type,
      }).filter((b) => b.determined);
      if (!best) {
        explain(`${skill} step ${k + 1}: no expression gives "${param.name}" in every example`);
        return { name: param.name, type: param.type };
      }
      explain(`${skill} step ${k + 1}: ${param.name} := ${best.text}`);
      return {
        name: param.name,
        type: param.type,
        ...(best.steps.length > 0
          ? { steps: best.steps.map((s) => ({ var: s.var, expr: s.text })) }
          : {}),
        expr: best.text,
      };
    });
    return { skill, args };
  });
}

/**
 * The goal pattern of an initial state, for traces without a task type: the
 * sorted names of the predicates holding in it whose arguments are all
 * values (no objects), as `goal:<p1>+<p2>`; `task` when there are none.
 */
export function goalPattern(initial: FactView, vocab: Vocabulary): string {
  const names: string[] = [];
  for (const [pred, decl] of Object.entries(vocab.predicates)) {
    if (decl.params.some((t) => isObjectType(vocab, t))) continue;
    if (initial.query(pred, []).length > 0) names.push(pred);
  }
  return names.length > 0 ? `goal:${names.sort().join("+")}` : "task";
}
