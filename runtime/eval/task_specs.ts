/**
 * Explicit task lists: a JSONL file with one environment-specific task
 * spec per line (what `TaskSpec.spec` carries: whatever the environment
 * accepts as an explicit task). Each line is validated by the environment's check
 * and, optionally, by resetting a fresh environment to it; every error
 * names the file and line.
 *
 * @module
 */
import type { Environment, TaskSpec } from "../environment.ts";
import { InputFileError, parseJsonText } from "../../io/json_file.ts";

/** Checks one spec: `undefined` when valid, else what is wrong, in words. */
export type TaskSpecCheck = (value: unknown) => string | undefined;

/** Tasks read from a file, with where each one is. */
export interface TaskFile {
  /** The file. */
  path: string;
  /** The tasks, each `{ spec }`, in file order. */
  tasks: TaskSpec[];
  /** The 1-based line of each task. */
  lines: number[];
  /** `<file>:<line>` of each task. */
  labels: string[];
}

/** The most problems listed in one error. */
const MAX_LISTED = 10;

/**
 * Parses JSONL task specs. Blank lines are skipped; every other line must
 * be a JSON object that `check` accepts.
 *
 * @param text The file's text.
 * @param path The file's name, for labels and errors.
 * @param check The environment's spec check.
 * @returns The tasks (`{ spec }`) and their labels.
 * @throws {InputFileError} Naming the file and line of each problem (up to ten), or when
 * the file holds no task.
 *
 * @example Usage
 * ```ts
 * import { parseTaskSpecs } from "./task_specs.ts";
 * const check = (v: unknown) => typeof (v as { goal?: unknown }).goal === "string" ? undefined : 'Missing "goal"';
 * const { labels } = parseTaskSpecs('{"goal": "stick"}\n', "tasks.jsonl", check);
 * console.log(labels); // ["tasks.jsonl:1"]
 * ```
 */
export function parseTaskSpecs(text: string, path: string, check: TaskSpecCheck): TaskFile {
  const tasks: TaskSpec[] = [];
  const lines: number[] = [];
  const problems: { line: number; column?: number; message: string }[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = parseJsonText(raw, path);
    } catch (e) {
      const column = e instanceof InputFileError ? e.column : undefined;
      const message = e instanceof Error ? e.message.replace(/^.*?: (Invalid JSON)/, "$1") : "";
      problems.push({ line, ...(column !== undefined ? { column } : {}), message });
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      problems.push({ line, message: `A task must be a JSON object, got ${kindOf(value)}` });
      return;
    }
    const error = check(value);
    if (error !== undefined) {
      problems.push({ line, message: `Invalid task: ${error}` });
      return;
    }
    tasks.push({ spec: value });
    lines.push(line);
  });
  if (problems.length > 0) throw problemsError(path, problems);
  if (tasks.length === 0) throw new InputFileError(path, "No task in the file");
  return { path, tasks, lines, labels: lines.map((l) => `${path}:${l}`) };
}

/** One error listing up to ten problems, each as `<file>:<line>:<column>: <message>`. */
function problemsError(
  path: string,
  problems: readonly { line: number; column?: number; message: string }[],
): InputFileError {
  const [first, ...rest] = problems;
  const more = rest.slice(0, MAX_LISTED - 1).map((p) =>
    `\n${path}:${p.line}:${p.column ?? 1}: ${p.message}`
  );
  const hidden = rest.length > MAX_LISTED - 1
    ? `\n(and ${rest.length - (MAX_LISTED - 1)} more)`
    : "";
  return new InputFileError(
    path,
    `${first.message}${more.join("")}${hidden}`,
    first.line,
    first.column ?? 1,
  );
}

/** Reads a JSONL task file (see {@linkcode parseTaskSpecs}). */
export async function readTaskSpecs(path: string, check: TaskSpecCheck): Promise<TaskFile> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    const reason = e instanceof Deno.errors.NotFound ? "no such file" : (e as Error).message;
    throw new InputFileError(path, `Cannot read the task file: ${reason}`);
  }
  return parseTaskSpecs(text, path, check);
}

/**
 * Resets a fresh environment to each task and reports the ones it
 * rejects (an unknown goal item, a room that cannot be built), so a bad
 * task file fails before the evaluation starts.
 *
 * @param createEnv Creates an environment (closed after each reset).
 * @param file The tasks and labels.
 * @throws {InputFileError} Naming the file and line of each rejected task (up to ten).
 */
export async function checkTaskResets(
  createEnv: () => Environment,
  file: TaskFile,
): Promise<void> {
  const problems: { line: number; message: string }[] = [];
  for (const [i, task] of file.tasks.entries()) {
    const env = createEnv();
    try {
      await env.reset(task);
    } catch (e) {
      problems.push({
        line: file.lines[i],
        message: `The environment rejects the task: ${e instanceof Error ? e.message : String(e)}`,
      });
    } finally {
      await env.close?.();
    }
  }
  if (problems.length > 0) throw problemsError(file.path, problems);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
