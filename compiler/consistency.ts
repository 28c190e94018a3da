/**
 * Empirical programmatic consistency (NSI eq. 1-2): replay a compiled skill
 * on a recorded segment. At every action the skill generates, it must equal
 * the expert's next action; think steps advance nothing. Where the skill has
 * a free choice (several `select_one` candidates, the next element of a loop,
 * a condition still to be invented), the replay takes the choice that
 * matches the expert (the existential over theta), backtracking when a
 * choice leads to a mismatch. The consistency region is the set of start
 * positions from which the skill reproduces the expert to a success end.
 *
 * @module
 */
import type { FactView, Value } from "../dsl/facts.ts";
import type { Program } from "../runtime/exec/program.ts";
import { type Budgets, initialState, resume, type RunState, step } from "../runtime/exec/step.ts";

/** A recorded segment as the replay sees it. */
export interface ReplaySegment {
  /** `states[k]` is the state before `actions[k]`; `states[actions.length]` the final one. */
  states: readonly FactView[];
  actions: readonly string[];
}

/** Options of a replay. */
export interface ReplayOptions {
  /** Re-runs allowed while backtracking over choices. @default 400 */
  maxReplays?: number;
  budgets?: Partial<Budgets>;
  /** Checks whose outcome the replay chooses (conditions still to be invented). */
  openChecks?: ReadonlySet<string>;
}

/** The outcome of replaying a segment. */
export interface ReplayResult {
  /** The skill reproduced every action and ended in success right after the last. */
  ok: boolean;
  /** Most expert actions reproduced by any attempt. */
  matched: number;
  /** Why the best attempt failed. */
  reason?: string;
  /** Runs made (1 when the first choices were right). */
  replays: number;
  /** For each open check: the decisions taken in the successful run, with state and scope. */
  decisions: OpenDecision[];
}

/** A decision the replay took at an open check. */
export interface OpenDecision {
  check: string;
  value: boolean;
  /** Index of the expert action due next (the state is `states[position]`). */
  position: number;
  scope: Record<string, Value>;
}

interface ChoicePoint {
  /** How many candidates there are. */
  count: number;
  /** Position currently taken in the candidate order (those the next action names first). */
  at: number;
}

/**
 * Replays `program` with `args` on a segment, searching over free choices.
 *
 * @example Usage
 * ```ts ignore
 * const r = replaySegment(program, { item_type: "apple" }, { states, actions });
 * if (!r.ok) console.log(`reproduced ${r.matched} of ${actions.length}: ${r.reason}`);
 * ```
 */
export function replaySegment(
  program: Program,
  args: Record<string, Value>,
  segment: ReplaySegment,
  options: ReplayOptions = {},
): ReplayResult {
  const maxReplays = options.maxReplays ?? 400;
  const n = segment.actions.length;
  const budgets = { maxSteps: 200 + 40 * n, maxVisits: 20 + 4 * n, ...options.budgets };
  let script: ChoicePoint[] = [];
  let best = { matched: -1, reason: "" };
  for (let replays = 1; replays <= maxReplays; replays++) {
    const attempt = runOnce(program, args, segment, script, budgets, options.openChecks);
    if (attempt.ok) {
      return { ok: true, matched: n, replays, decisions: attempt.decisions };
    }
    if (attempt.matched > best.matched) best = { matched: attempt.matched, reason: attempt.reason };
    // Backtrack: advance the deepest choice point that has alternatives left.
    script = attempt.choices;
    while (
      script.length > 0 &&
      script[script.length - 1].at >= script[script.length - 1].count - 1
    ) {
      script.pop();
    }
    if (script.length === 0) {
      return { ok: false, matched: best.matched, reason: best.reason, replays, decisions: [] };
    }
    const last = script[script.length - 1];
    script = [...script.slice(0, -1), { count: last.count, at: last.at + 1 }];
  }
  return {
    ok: false,
    matched: best.matched,
    reason: `${best.reason} (gave up after ${maxReplays} replays)`,
    replays: maxReplays,
    decisions: [],
  };
}

function runOnce(
  program: Program,
  args: Record<string, Value>,
  segment: ReplaySegment,
  script: ChoicePoint[],
  budgets: Budgets,
  openChecks: ReadonlySet<string> | undefined,
): {
  ok: boolean;
  matched: number;
  reason: string;
  choices: ChoicePoint[];
  decisions: OpenDecision[];
} {
  const choices: ChoicePoint[] = [];
  const decisions: OpenDecision[] = [];
  let m = 0;
  let state: RunState = initialState(program, args);
  // Take the scripted choice, or the first candidate in an order where
  // those named in the expert's next action come first, and record the
  // choice point. Replay is deterministic, so a scripted position finds the
  // same order again; the first position needs no order, only the first
  // named candidate (`first`, when given, finds it without a scan).
  const pick = (
    count: number,
    named: (i: number) => boolean,
    first?: () => number | undefined,
  ): number => {
    const at = script[choices.length]?.at ?? 0;
    choices.push({ count, at });
    if (at === 0) {
      if (first) return first() ?? 0;
      for (let i = 0; i < count; i++) if (named(i)) return i;
      return 0;
    }
    return preferNamed(count, named)[at];
  };
  const next = () => segment.actions[m] ?? "";
  const ctx = {
    get facts() {
      return segment.states[Math.min(m, segment.states.length - 1)];
    },
    budgets,
    choose: (candidates: Value[]) =>
      candidates.length > 1
        ? candidates[pick(candidates.length, (i) => mentions(next(), candidates[i]))]
        : candidates[0],
    chooseNext: (_loop: string, items: readonly Value[], from: number) =>
      from +
      pick(
        items.length - from,
        (i) => mentions(next(), items[from + i]),
        () => {
          const i = firstMentioned(next(), items, from);
          return i === undefined ? undefined : i - from;
        },
      ),
    decide: openChecks
      ? (check: string) => {
        if (!openChecks.has(check)) return undefined;
        const value = pick(2, () => false) === 0;
        decisions.push({ check, value, position: m, scope: { ...state.scope } });
        return value;
      }
      : undefined,
  };
  const fail = (reason: string) => ({ ok: false, matched: m, reason, choices, decisions });
  while (true) {
    const out = step(program, state, ctx);
    if (out.kind === "think") {
      state = out.state;
      continue;
    }
    if (out.kind === "end") {
      if (out.outcome === "failure") {
        return fail(`ended at failure node "${out.node}": ${out.diagnosis?.message ?? ""}`);
      }
      if (m < segment.actions.length) {
        return fail(`succeeded at "${out.node}" before expert action "${next()}"`);
      }
      return { ok: true, matched: m, reason: "", choices, decisions };
    }
    if (out.kind === "call") {
      return fail(`calls skill "${out.skill}", which replay does not follow`);
    }
    if (m >= segment.actions.length) {
      return fail(`generated "${out.action}" after the expert's last action`);
    }
    if (out.action !== segment.actions[m]) {
      return fail(`generated "${out.action}" where the expert did "${segment.actions[m]}"`);
    }
    m++;
    const r = resume(program, out.state, { ok: true });
    if (r.kind === "end") return fail(r.diagnosis?.message ?? "ended after an action");
    state = r.state;
  }
}

function preferNamed(count: number, named: (i: number) => boolean): number[] {
  const all = Array.from({ length: count }, (_, i) => i);
  return [...all.filter(named), ...all.filter((i) => !named(i))];
}

/** Each loop list's positions by value text, built once per list. */
const positionsOf = new WeakMap<readonly Value[], Map<string, number[]>>();

/**
 * The first position from `from` on of an element that `action` mentions
 * (see {@linkcode mentions}), found by looking up the action's word
 * sequences in an index of the list rather than testing every element.
 */
function firstMentioned(action: string, items: readonly Value[], from: number): number | undefined {
  let index = positionsOf.get(items);
  if (!index) {
    index = new Map();
    items.forEach((v, i) => {
      if (typeof v !== "string" && typeof v !== "number") return;
      const list = index!.get(String(v));
      if (list) list.push(i);
      else index!.set(String(v), [i]);
    });
    positionsOf.set(items, index);
  }
  // Word sequences: from a start of a word to an end of a word.
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i <= action.length; i++) {
    const here = i < action.length && !/[\s,]/.test(action[i]);
    const before = i > 0 && !/[\s,]/.test(action[i - 1]);
    if (here && !before) starts.push(i);
    if (!here && before) ends.push(i);
  }
  let best: number | undefined;
  for (const s of starts) {
    for (const e of ends) {
      if (e <= s) continue;
      const list = index.get(action.slice(s, e));
      if (!list) continue;
      // The first position at or after `from` (lists are ascending).
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (list[mid] < from) lo = mid + 1;
        else hi = mid;
      }
      if (lo < list.length && (best === undefined || list[lo] < best)) best = list[lo];
    }
  }
  return best;
}

/** Whether an action text names a value as a whole word sequence. */
function mentions(action: string, value: Value): boolean {
  if (typeof value !== "string" && typeof value !== "number") return false;
  const text = String(value);
  if (text.length === 0) return false;
  // Every occurrence: the first may sit inside a longer name ("b2" in "take b2x from b2").
  for (let i = action.indexOf(text); i >= 0; i = action.indexOf(text, i + 1)) {
    const before = i === 0 ? " " : action[i - 1];
    const after = action[i + text.length] ?? " ";
    if (/[\s,]/.test(before) && /[\s,]/.test(after)) return true;
  }
  return false;
}

/**
 * The consistency region of a segment: the start offsets `k` from which the
 * skill reproduces `actions[k..]` to success (NSI eq. 2).
 */
export function consistencyRegion(
  program: Program,
  args: Record<string, Value>,
  segment: ReplaySegment,
  options: ReplayOptions = {},
): number[] {
  const region: number[] = [];
  for (let k = 0; k < segment.actions.length; k++) {
    const suffix = { states: segment.states.slice(k), actions: segment.actions.slice(k) };
    if (replaySegment(program, args, suffix, options).ok) region.push(k);
  }
  return region;
}

/** Start offsets checked when estimating the region of a long segment. */
export const REGION_STARTS = 64;

/**
 * The size of a segment's consistency region: exact up to `maxStarts`
 * actions; for a longer segment, estimated from that many evenly spaced
 * starts (the first among them) scaled to its length. The exact region
 * replays the skill from every start, which costs the square of the
 * segment's length; a segment of thousands of repeated steps would
 * dominate induction for a score that the estimate gives as well.
 */
export function regionSize(
  program: Program,
  args: Record<string, Value>,
  segment: ReplaySegment,
  options: ReplayOptions & { maxStarts?: number } = {},
): number {
  const n = segment.actions.length;
  const starts = options.maxStarts ?? REGION_STARTS;
  if (n <= starts) return consistencyRegion(program, args, segment, options).length;
  let hits = 0;
  for (let j = 0; j < starts; j++) {
    const k = Math.floor((j * n) / starts);
    const suffix = { states: segment.states.slice(k), actions: segment.actions.slice(k) };
    if (replaySegment(program, args, suffix, options).ok) hits++;
  }
  return Math.round((hits * n) / starts);
}
