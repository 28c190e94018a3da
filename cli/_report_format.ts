/**
 * How the evaluation commands (`demo`, `eval`, `bench`) write their
 * reports: the comparison of variants and their success per task type as
 * markdown tables, percentages, counted nouns, and prose wrapped as
 * `deno fmt` wraps it.
 *
 * @module
 */
import type { EvalReport } from "../runtime/eval/evaluate.ts";

/** `1 skill`, `2 skills`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** A percentage with one decimal. */
export function percent(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

/**
 * The comparison table of several reports, as a markdown table: one row
 * per variant.
 *
 * @example Usage
 * ```ts ignore
 * console.log(comparisonTable([expert.report, full.report]));
 * ```
 */
export function comparisonTable(reports: readonly EvalReport[]): string {
  const progress = reports.some((r) => r.progress_rate !== null);
  const planned = reports.some((r) => r.planned_action_rate > 0);
  const scored = reports.some((r) => r.score !== null);
  const rows = [[
    "variant",
    ...(scored ? ["score"] : []),
    "success",
    ...(progress ? ["progress"] : []),
    "avg steps",
    "invalid",
    ...(planned ? ["planned"] : []),
    "steps/skill",
    "skill calls",
    "LLM calls",
    "seconds",
  ]];
  for (const r of reports) {
    const successes = Object.values(r.by_type).reduce((a, t) => a + t.successes, 0);
    rows.push([
      r.variant,
      ...(scored ? [r.score === null ? "-" : r.score.toFixed(1)] : []),
      `${percent(r.success_rate)} (${successes}/${r.tasks})`,
      ...(progress ? [r.progress_rate === null ? "-" : percent(r.progress_rate)] : []),
      r.avg_steps.toFixed(1),
      percent(r.invalid_action_rate),
      ...(planned ? [percent(r.planned_action_rate)] : []),
      r.steps_per_skill === null ? "-" : r.steps_per_skill.toFixed(1),
      r.skill_calls > 0 ? (r.skill_calls / Math.max(1, r.tasks)).toFixed(1) : "-",
      String(r.llm_calls),
      r.seconds.toFixed(1),
    ]);
  }
  return markdownTable(rows, [false, ...rows[0].slice(1).map(() => true)]);
}

/** Success rate per task type (rows) and variant (columns), as a markdown table. */
export function byTypeTable(reports: readonly EvalReport[]): string {
  const types = [...new Set(reports.flatMap((r) => Object.keys(r.by_type)))];
  const rows = [["task type", "tasks", ...reports.map((r) => r.variant)]];
  for (const type of types) {
    const n = reports.find((r) => r.by_type[type])?.by_type[type].tasks ?? 0;
    rows.push([
      type,
      String(n),
      ...reports.map((r) => r.by_type[type] ? percent(r.by_type[type].success_rate) : "-"),
    ]);
  }
  return markdownTable(rows, [false, ...rows[0].slice(1).map(() => true)]);
}

/** `text` wrapped at `width` columns (greedy, as `deno fmt` wraps prose); later lines get `indent`. */
export function wrap(text: string, width = 100, indent = ""): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    const prefix = lines.length === 0 ? "" : indent;
    if (line !== "" && prefix.length + line.length + 1 + word.length > width) {
      lines.push(prefix + line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  lines.push((lines.length === 0 ? "" : indent) + line);
  return lines.join("\n");
}

/** A markdown table with padded columns; `right[i]` right-aligns column `i`. */
export function markdownTable(rows: readonly string[][], right: readonly boolean[]): string {
  const widths = rows[0].map((_, c) => Math.max(3, ...rows.map((r) => r[c].length)));
  const cell = (text: string, c: number) =>
    right[c] ? text.padStart(widths[c]) : text.padEnd(widths[c]);
  const line = (r: readonly string[]) => `| ${r.map(cell).join(" | ")} |`;
  // The style `deno fmt` writes, so generated markdown files stay formatted.
  const rule = line(widths.map((w, c) => right[c] ? `${"-".repeat(w - 1)}:` : "-".repeat(w)));
  return [line(rows[0]), rule, ...rows.slice(1).map(line)].join("\n");
}
