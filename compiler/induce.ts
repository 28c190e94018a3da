/**
 * Skill induction (NSI section 5). Traces are grounded and cut into
 * subgoal segments; each group of segments with the same signature becomes
 * one skill:
 *
 * - Stage 1: a local expert per segment (its own actions, lifted and
 *   folded), checked for consistency on that segment.
 * - Stage 2: starting from one expert, repeatedly take the segment least
 *   covered by the global skill and consolidate it in (align, branch with
 *   invented predicates, lift, fold). A candidate is accepted when it
 *   reproduces more segments than the old skill (MDL, eq. 2), even if it
 *   gives up one the old skill had (reported); otherwise the old skill stays.
 *
 * The MDL score of a skill is its covered states minus lambda times its size.
 *
 * @module
 */
import type { Trace } from "../dsl/trace.ts";
import { nodeExpressions, type Skill } from "../dsl/graph/schema.ts";
import { assertVocabulary, type Vocabulary } from "../dsl/vocabulary.ts";
import type { EnvironmentKit } from "../runtime/environment.ts";
import { compileSkill, formatIssues, type Program } from "../runtime/exec/program.ts";
import { type GroundedTrace, groundTrace, shareStates } from "./ground.ts";
import { groupSegments, type Segment, type SegmentGroup, segmentTraces } from "./segment.ts";
import { type Instance, instanceOf, replaySegmentOf } from "./instances.ts";
import { foldInstance, type LoopPlan, planLoop } from "./operators/loop_fold.ts";
import { type Synthesis, synthesizeProgram } from "./synthesize.ts";
import { treeSize, treeToSkill } from "./program_tree.ts";
import { regionSize, replaySegment } from "./consistency.ts";
import { crossover } from "./operators/crossover.ts";
import { markCopies, originalOf } from "./copies.ts";

export { copyClasses } from "./copies.ts";
import { nestGroups } from "./nest.ts";
import { type ActionRelations, actionRelations } from "./action_relations.ts";
import { learnActionModelFromGrounded } from "./action_model_from_traces.ts";

/** Options of induction. */
export interface InduceOptions {
  /**
   * The largest skill consolidation builds (statements plus expression
   * nodes): a candidate past it ends the consolidation, the skill so far
   * kept. Lifting over more segments costs more with every segment merged;
   * a skill this large has stopped generalising (skills of the built-in
   * environments stay under 40). @default 400
   */
  maxSize?: number;
  /** Weight of program size in the MDL score. @default 0.05 */
  lambda?: number;
  /** Receives one line per operator application and decision. */
  explain?: (line: string) => void;
  /** Called when a group starts: its index, the number of groups, its name. */
  onGroup?: (index: number, total: number, name: string) => void;
  /** Share guarded blocks between skills (Crossover). @default true */
  crossover?: boolean;
  /**
   * Induce linear parameterized scripts instead: no loops, no branches, one
   * demonstration's lifted actions per skill (the one reproducing the most
   * segments). The baseline of skill induction without control flow.
   * @default false
   */
  linear?: boolean;
  /** Fold repeated actions into loops (LoopFold). @default true */
  loopFold?: boolean;
  /** Loops run through their whole list (see `LoopOptions.enumerate`). @default false */
  enumerate?: boolean;
  /** The traces already grounded and segmented (`segmentGroups`), to do it once. */
  segmented?: SegmentGroups;
  /**
   * The relations each action's arguments stood in whenever it was applied,
   * which lifted selections keep (see `actionRelations`).
   * @default {those of the action model learned from the traces}
   */
  actionRelations?: ActionRelations;
}

/** One induced skill with its measurements. */
export interface InducedSkill {
  skill: Skill;
  /** Segments in its dataset, and how many it reproduces from their start. */
  segments: number;
  covered: number;
  /** States of the dataset in its consistency region (eq. 2). */
  region: number;
  /** All states of the dataset (the most the region can be). */
  states: number;
  /** Program size (statements plus expression nodes). */
  size: number;
  /** MDL score: region - lambda * size. */
  score: number;
  /** Which segments are not reproduced, and why. */
  uncovered: { source: string; reason: string }[];
  /**
   * Segments left out of synthesis because a skill induced from a sample
   * of the group already reproduced them (copies of covered ones); they
   * still count in `segments` and `covered`.
   */
  skipped?: number;
}

/** The result of inducing a library. */
export interface Induction {
  skills: InducedSkill[];
  traces: number;
  segments: number;
  /** Observation texts the grounder did not understand, with their trace. */
  unknown: { source: string; step: number; text: string }[];
}

/**
 * Induces a skill library from traces of one environment.
 *
 * @example Usage
 * ```ts ignore
 * const result = induceSkills(traces, textcraftKit, { explain: console.log });
 * for (const s of result.skills) console.log(s.skill.name, s.covered, "/", s.segments);
 * ```
 */
export function induceSkills(
  traces: readonly Trace[],
  kit: EnvironmentKit,
  options: InduceOptions = {},
): Induction {
  const explain = options.explain ?? (() => {});
  const { segments, groups, vocab: callVocab, unknown, grounded } = options.segmented ??
    segmentGroups(traces, kit);
  explain(
    `segmented ${traces.length} traces into ${segments.length} segments, ${groups.length} groups`,
  );
  const relations = options.actionRelations ?? actionRelations(
    learnActionModelFromGrounded(grounded, kit),
    kit.vocabulary,
  );
  options = { ...options, actionRelations: relations };
  const skills: InducedSkill[] = [];
  groups.forEach((group, i) => {
    options.onGroup?.(i, groups.length, group.name);
    skills.push(
      options.linear
        ? induceLinear(group, callVocab, options)
        : induceSampled(group, callVocab, options),
    );
  });
  if ((options.crossover ?? true) && !options.linear) {
    const shared = crossover(skills.map((s) => s.skill), groups, callVocab, explain);
    shared.forEach((skill, i) => {
      if (skill !== skills[i].skill) {
        skills[i] = measure(skill, groups[i], callVocab, options.lambda ?? 0.05);
      }
    });
  }
  return { skills, traces: traces.length, segments: segments.length, unknown };
}

/** The datasets of induction: segments grouped by signature. */
export interface SegmentGroups {
  /** All segments, nested (a segment that uses an earlier one of its skill calls it). */
  segments: Segment[];
  /** One group per skill, in the order `induceSkills` returns the skills. */
  groups: SegmentGroup[];
  /** The vocabulary with one action per skill, for the calls of nested segments. */
  vocab: Vocabulary;
  /** Observation texts the grounder did not understand, with their trace. */
  unknown: Induction["unknown"];
  /** The grounded traces, in input order; equal states are one object (`shareStates`). */
  grounded: GroundedTrace[];
}

/**
 * Grounds, segments and groups traces as induction does: the group of a
 * skill is the dataset any candidate for it (induced or proposed) is
 * measured on.
 */
export function segmentGroups(
  traces: readonly Trace[],
  kit: Pick<EnvironmentKit, "vocabulary" | "grounder">,
): SegmentGroups {
  const vocab = kit.vocabulary;
  assertVocabulary(vocab);
  const unknown: Induction["unknown"] = [];
  const grounded = shareStates(traces.map((t, i) => {
    const g = groundTrace(t, kit.grounder());
    for (const u of g.unknown) unknown.push({ source: t.source ?? `trace ${i + 1}`, ...u });
    return g;
  }));
  const flat = segmentTraces(grounded, vocab);
  const nested = nestGroups(flat, groupSegments(flat, vocab), vocab);
  return { ...nested, unknown, grounded };
}

/** Segments of a group synthesis starts from; the rest are checked against the result. */
const SAMPLE_SEGMENTS = 32;

/**
 * Induces the skill of a large group from a sample, so induction time
 * stops growing with segments already understood: a skill is induced from
 * {@linkcode SAMPLE_SEGMENTS} segments spread over the group, every other
 * segment is replayed against it, and only those it does not reproduce
 * join the sample for a second induction. The result is measured on the
 * whole group; `skipped` counts the segments synthesis never saw.
 */
export function induceSampled(
  group: SegmentGroup,
  vocab: Vocabulary,
  options: InduceOptions = {},
): InducedSkill {
  const n = group.segments.length;
  markCopies(group.segments);
  if (n <= SAMPLE_SEGMENTS * 1.5) return induceBest(group, vocab, options);
  const chosen = new Set(
    Array.from({ length: SAMPLE_SEGMENTS }, (_, i) => Math.floor(i * n / SAMPLE_SEGMENTS)),
  );
  const sample = group.segments.filter((_, i) => chosen.has(i));
  const rest = group.segments.filter((_, i) => !chosen.has(i));
  const lambda = options.lambda ?? 0.05;
  let induced = induceBest(partOf(group, sample), vocab, options);
  const compiled = compileSkill(induced.skill, vocab);
  const missed = rest.filter((s, i) => {
    if (!compiled.ok) return true;
    const inst = instanceOf(s, i, vocab);
    return !replayed(compiled.value, inst).ok;
  });
  let used = sample.length;
  if (missed.length > 0) {
    // The segments the sample's skill misses, spread over the group.
    const every = Math.ceil(missed.length / SAMPLE_SEGMENTS);
    const extra = missed.filter((_, i) => i % every === 0);
    induced = induceBest(partOf(group, [...sample, ...extra]), vocab, options);
    used += extra.length;
  }
  const whole = measure(induced.skill, group, vocab, lambda);
  options.explain?.(
    `[${group.name}] induced from ${used} of ${n} segments; ${
      n - used
    } skipped (the skill reproduces ${whole.covered} of ${n})`,
  );
  return { ...whole, skipped: n - used };
}

/** Some segments of a group, knowing how many the group has (for the skill's summary). */
interface PartOfGroup extends SegmentGroup {
  of: number;
}

function partOf(group: SegmentGroup, segments: Segment[]): PartOfGroup {
  return { ...group, segments, of: group.segments.length };
}

function segmentSource(s: SegmentGroup["segments"][number]): string {
  return `${s.trace.trace.source ?? "trace"} steps ${s.start + 1}-${s.end}`;
}

/**
 * Induces the skill of a group with LoopFold and, when that skill does not
 * reproduce every segment, without it: a loop is a hypothesis the
 * consistency check may refute (runs of "go to" that are no enumeration).
 * The skill reproducing more segments wins, then the higher MDL score.
 */
export function induceBest(
  group: SegmentGroup,
  vocab: Vocabulary,
  options: InduceOptions = {},
): InducedSkill {
  const first = induceGroup(group, vocab, options);
  if (first.covered === first.segments || options.loopFold === false) return first;
  const flat = induceGroup(group, vocab, { ...options, loopFold: false });
  const better = flat.covered > first.covered ||
    (flat.covered === first.covered && flat.score > first.score);
  options.explain?.(
    `[${group.name}] without LoopFold: covers ${flat.covered} of ${flat.segments} (with: ${first.covered}); ${
      better ? "kept" : "discarded"
    }`,
  );
  return better ? flat : first;
}

/** Induces the skill of one group of segments. */
export function induceGroup(
  group: SegmentGroup,
  vocab: Vocabulary,
  options: InduceOptions = {},
): InducedSkill {
  const explain = (line: string) => options.explain?.(`[${group.name}] ${line}`);
  const lambda = options.lambda ?? 0.05;
  const maxSize = options.maxSize ?? 400;
  const paramTypes = Object.fromEntries(group.params.map((p) => [p.name, p.type]));
  markCopies(group.segments);
  let instances = group.segments.map((s, i) => instanceOf(s, i, vocab));
  const copies = group.segments.filter((s) => originalOf(s) !== s).length;
  if (copies > 0) {
    explain(`${copies} of ${group.segments.length} segments copy others: each replayed once`);
  }
  const loopOptions = { enumerate: options.enumerate ?? false };
  const plan = options.loopFold === false
    ? undefined
    : planLoop(instances, vocab, paramTypes, loopOptions);
  if (plan) {
    instances = instances.map((inst) => foldInstance(inst, plan, vocab, loopOptions));
    const folded = instances.filter((i) => i.items.some((it) => it.kind === "loop")).length;
    explain(
      `LoopFold: "${plan.head}" over ${plan.over}, folded in ${folded} of ${instances.length} segments`,
    );
  }
  const label = (inst: Instance) =>
    `${inst.segment.trace.trace.source ?? `trace ${inst.segment.traceIndex + 1}`} steps ${
      inst.segment.start + 1
    }-${inst.segment.end}`;

  // Stage 1: local experts, in segment order until one reproduces its
  // segment: consolidation starts from that one alone, so lifting the rest
  // would cost a synthesis per segment for nothing.
  let start: { inst: Instance; built: Built } | undefined;
  for (const inst of instances) {
    const built = build(group, [inst], plan, paramTypes, vocab, options);
    const ok = built.program ? replayed(built.program, inst).ok : false;
    explain(
      `local expert of ${label(inst)}: ${built.size} size, ${
        ok ? "consistent" : `inconsistent (${built.error ?? "replay failed"})`
      }`,
    );
    start ??= { inst, built };
    if (ok) {
      start = { inst, built };
      break;
    }
  }
  if (!start) throw new Error(`[${group.name}] a group without segments`);

  // Stage 2: consolidate, hardest segment first.
  let members: Instance[] = [start.inst];
  let current = start.built;
  let covered = coverage(current.program, instances);
  explain(`start from ${label(start.inst)}: covers ${covered.size} of ${instances.length}`);
  const tried = new Set<number>([start.inst.id]);
  while (true) {
    const candidates = instances.filter((i) => !tried.has(i.id) && !covered.has(i.id));
    if (candidates.length === 0) break;
    const hardest = candidates
      .map((inst) => ({
        inst,
        region: regionOf(current.program, inst) / Math.max(1, inst.segment.steps.length),
      }))
      .sort((a, b) => a.region - b.region || a.inst.id - b.inst.id)[0].inst;
    tried.add(hardest.id);
    // The candidate is lifted over every segment the skill covers, not only
    // the ones merged so far: guards invented from all of them generalise.
    const base = [
      ...members,
      ...instances.filter((i) => covered.has(i.id) && !members.includes(i)),
    ];
    const candidate = build(group, [...base, hardest], plan, paramTypes, vocab, options);
    if (candidate.size > maxSize) {
      explain(
        `consolidate ${
          label(hardest)
        }: size ${candidate.size} exceeds ${maxSize}; consolidation ends`,
      );
      break;
    }
    const candCovered = coverage(candidate.program, instances);
    // MDL (eq. 2): more segments reproduced wins, even at the price of one
    // the old skill had; the price is reported. A new weak guard must pay
    // for itself with more than the one segment it was made for.
    const gain = candCovered.size - covered.size;
    const weakGain = candidate.weak.length > current.weak.length && gain < 2;
    if (gain > 0 && !weakGain) {
      const lost = instances.filter((i) => covered.has(i.id) && !candCovered.has(i.id));
      // A segment given up no longer shapes the guards of later candidates.
      members = [...base, hardest].filter((i) => candCovered.has(i.id));
      current = candidate;
      covered = candCovered;
      explain(
        `consolidate ${
          label(hardest)
        }: accepted, covers ${covered.size} of ${instances.length} (size ${candidate.size})${
          lost.length > 0 ? `; gave up ${lost.map(label).join(", ")}` : ""
        }`,
      );
    } else {
      explain(
        `consolidate ${
          label(hardest)
        }: rejected, candidate covers ${candCovered.size} (old ${covered.size})${
          candidate.error ? `: ${candidate.error}` : ""
        }${weakGain ? `; its guard ${candidate.weak.at(-1)?.cond} singles out one segment` : ""}`,
      );
    }
  }
  // Segments reproduced only through a free choice (an under-determined
  // select_one the replay resolved the expert's way) never shaped the
  // bindings: lift once more over every segment covered, and keep that
  // program when it covers as much (its bindings hold for all of them).
  const joined = instances.filter((i) => covered.has(i.id) && !members.includes(i));
  if (joined.length > 0) {
    const all = [...members, ...joined];
    const candidate = build(group, all, plan, paramTypes, vocab, options);
    const candCovered = coverage(candidate.program, instances);
    if (candCovered.size >= covered.size) {
      members = all;
      current = candidate;
      covered = candCovered;
      explain(`lift over all ${all.length} covered segments: covers ${covered.size}`);
    }
  }
  // Seen over every segment covered, a guard may single out one of them on weak
  // evidence: that segment is given up when the others stay covered without it.
  if (current.weak.length > 0) {
    const odd = new Set(current.weak.map((w) => w.instance));
    const rest = members.filter((i) => !odd.has(i.id));
    const candidate = build(group, rest, plan, paramTypes, vocab, options);
    const candCovered = coverage(candidate.program, instances);
    const kept = [...covered].filter((id) => !odd.has(id)).every((id) => candCovered.has(id));
    if (kept && candidate.weak.length < current.weak.length) {
      explain(
        `give up ${[...odd].map((id) => label(instances[id])).join(", ")}: only ${
          current.weak.map((w) => w.cond).join(", ")
        } told ${odd.size === 1 ? "it" : "them"} apart; covers ${candCovered.size}`,
      );
      members = rest;
      current = candidate;
      covered = candCovered;
    }
  }
  for (const line of current.notes) explain(line);
  return measure(current.skill, group, vocab, lambda);
}

/**
 * The linear script of a group: each segment's own lifted actions (no loop,
 * no branch), keeping the one that reproduces the most segments.
 */
export function induceLinear(
  group: SegmentGroup,
  vocab: Vocabulary,
  options: InduceOptions = {},
): InducedSkill {
  const paramTypes = Object.fromEntries(group.params.map((p) => [p.name, p.type]));
  markCopies(group.segments);
  const instances = group.segments.map((s, i) => instanceOf(s, i, vocab));
  let best: { built: Built; covered: number } | undefined;
  for (const inst of instances) {
    const built = build(group, [inst], undefined, paramTypes, vocab, options);
    const covered = coverage(built.program, instances).size;
    if (
      !best || covered > best.covered || (covered === best.covered && built.size < best.built.size)
    ) best = { built, covered };
  }
  options.explain?.(
    `[${group.name}] linear script covering ${best!.covered} of ${instances.length}`,
  );
  return measure(best!.built.skill, group, vocab, options.lambda ?? 0.05);
}

interface Built {
  skill: Skill;
  program?: Program;
  size: number;
  notes: string[];
  /** Guards of single situations among many (see `Synthesis.weak`). */
  weak: Synthesis["weak"];
  error?: string;
}

function build(
  group: SegmentGroup,
  instances: Instance[],
  plan: LoopPlan | undefined,
  paramTypes: Record<string, string>,
  vocab: Vocabulary,
  options: InduceOptions,
): Built {
  const { body, notes, weak } = synthesizeProgram(
    instances,
    plan,
    paramTypes,
    vocab,
    options.actionRelations,
  );
  const size = treeSize(body);
  const input = treeToSkill({
    name: group.name,
    vocabulary: vocab.name,
    params: group.params,
    doc: {
      summary: `${
        group.post ? `Achieve ${group.post}` : `Solve a ${group.name} task`
      }; induced from ${instances.length} of ${
        (group as PartOfGroup).of ?? group.segments.length
      } segments.`,
      ...(group.post !== undefined ? { post: group.post } : {}),
    },
    body,
  });
  const compiled = compileSkill(input, vocab);
  if (!compiled.ok) {
    return {
      skill: { format: "skillc/skill@1", ...input } as Skill,
      size,
      notes,
      weak,
      error: formatIssues(compiled.error, group.name),
    };
  }
  return { skill: compiled.value.skill, program: compiled.value, size, notes, weak };
}

function coverage(program: Program | undefined, instances: readonly Instance[]): Set<number> {
  const out = new Set<number>();
  if (!program) return out;
  for (const inst of instances) if (replayed(program, inst).ok) out.add(inst.id);
  return out;
}

function regionOf(program: Program | undefined, inst: Instance): number {
  return program ? replayed(program, inst).region : 0;
}

/** A program's replay of a segment and its consistency region. */
interface Replayed {
  ok: boolean;
  reason?: string;
  readonly region: number;
}

const replays = new WeakMap<Program, Map<Segment, Replayed>>();

/**
 * How `program` replays an instance's segment, computed once per program
 * and class of copies (the region only when asked for).
 */
function replayed(program: Program, inst: Instance): Replayed {
  let byProgram = replays.get(program);
  if (!byProgram) replays.set(program, byProgram = new Map());
  const key = originalOf(inst.segment);
  let r = byProgram.get(key);
  if (!r) {
    const segment = replaySegmentOf(inst);
    const { ok, reason } = replaySegment(program, inst.args, segment);
    let region: number | undefined;
    r = {
      ok,
      ...(reason !== undefined ? { reason } : {}),
      get region() {
        return region ??= regionSize(program, inst.args, segment);
      },
    };
    byProgram.set(key, r);
  }
  return r;
}

/** Measures a skill on its group: coverage, region, size and MDL score. */
export function measure(
  skill: Skill,
  group: SegmentGroup,
  vocab: Vocabulary,
  lambda: number,
): InducedSkill {
  const compiled = compileSkill(skill, vocab);
  markCopies(group.segments);
  const instances = group.segments.map((s, i) => instanceOf(s, i, vocab));
  const uncovered: InducedSkill["uncovered"] = [];
  let covered = 0;
  let region = 0;
  let states = 0;
  for (const inst of instances) {
    states += inst.segment.steps.length;
    if (!compiled.ok) continue;
    const r = replayed(compiled.value, inst);
    if (r.ok) covered++;
    else {
      uncovered.push({
        source: segmentSource(inst.segment),
        reason: r.reason ?? "inconsistent",
      });
    }
    region += r.region;
  }
  const size = skillSize(skill);
  return {
    skill,
    segments: instances.length,
    covered,
    region,
    states,
    size,
    score: region - lambda * size,
    uncovered,
  };
}

/** Size of a skill graph: nodes plus expression nodes. */
export function skillSize(skill: Skill): number {
  let size = skill.nodes.length;
  for (const n of skill.nodes) {
    for (const t of nodeExpressions(n)) size += exprNodes(t);
  }
  return size;
}

import { exprSize as exprNodes } from "./program_tree.ts";
