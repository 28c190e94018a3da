/**
 * Reading and writing traces: JSONL (one trace per line), JSON arrays of
 * traces, and an environment's own transcript formats through its kit.
 * Every trace is validated; a malformed file gives one error listing its
 * problems by file, line and field.
 *
 * @module
 */
import { type Trace, TraceSchema } from "../dsl/trace.ts";
import type { EnvironmentKit } from "../runtime/environment.ts";
import { InputFileError, lineColumn, parseJsonText, writeTextFileAtomic } from "../io/json_file.ts";
import { describeIssue, fieldPath, shown, valueAt } from "./_issues.ts";

/** How many problems one error message lists. */
const MAX_PROBLEMS = 10;
/** Extensions {@linkcode readTraces} reads from a directory. */
const TRACE_EXTENSIONS = [".jsonl", ".json", ".txt"];

/** One problem of a trace file. */
export interface TraceProblem {
  /** 1-based line in the file, when known. */
  line?: number;
  /** 1-based column, for JSON syntax errors. */
  column?: number;
  /** Which trace, when there is no line (e.g. `trace 2 ("demo.json#put_1")`). */
  trace?: string;
  /** The field path, e.g. `steps[2].action`. */
  field?: string;
  /** What is wrong, e.g. `expected a non-empty string`. */
  message: string;
}

/**
 * A trace file with problems. The message lists up to ten of them, one a
 * line, e.g. `traces.jsonl:3: field "steps[2].action": expected a non-empty
 * string`; `problems` holds those listed and `more` counts the rest.
 */
export class TraceFileError extends InputFileError {
  /** The problems listed in the message. */
  problems: TraceProblem[];
  /** How many further problems were found but not listed. */
  more: number;
  /** Creates the error from at least one problem. */
  constructor(path: string, problems: TraceProblem[], more = 0) {
    super(path, problems[0]?.message ?? "Invalid traces", problems[0]?.line, problems[0]?.column);
    this.name = "TraceFileError";
    this.problems = problems;
    this.more = more;
    const lines = problems.map((p) => formatProblem(path, p));
    if (more > 0) lines.push(`(and ${more} more problem${more === 1 ? "" : "s"})`);
    this.message = lines.join("\n");
  }
}

function formatProblem(path: string, p: TraceProblem): string {
  const where = p.line === undefined
    ? `${path}: ${p.trace ?? "trace"}`
    : `${path}:${p.line}${p.column === undefined ? "" : `:${p.column}`}`;
  return `${where}: ${p.field === undefined ? "" : `field "${p.field}": `}${p.message}`;
}

/** Collects problems; throws them as one {@linkcode TraceFileError}. */
class Problems {
  readonly list: TraceProblem[] = [];
  count = 0;
  add(problem: TraceProblem): void {
    this.count++;
    if (this.list.length < MAX_PROBLEMS) this.list.push(problem);
  }
  throwIfAny(path: string): void {
    if (this.count > 0) throw new TraceFileError(path, this.list, this.count - this.list.length);
  }
}

/** Validates one raw trace; records its problems at `at` and returns the trace when valid. */
function validate(
  raw: unknown,
  at: Pick<TraceProblem, "line" | "trace">,
  problems: Problems,
  env: string | undefined,
): Trace | undefined {
  const parsed = TraceSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldPath(issue.path);
      const value = valueAt(raw, issue.path);
      const message = field === "" && (value === null || typeof value !== "object" ||
          Array.isArray(value))
        ? `expected a trace (a JSON object), got ${shown(value)}`
        : describeIssue(issue, value);
      problems.add({ ...at, ...(field === "" ? {} : { field }), message });
    }
    return undefined;
  }
  if (env !== undefined && parsed.data.env !== env) {
    problems.add({
      ...at,
      field: "env",
      message: `expected "${env}" (the environment being read for), got "${parsed.data.env}"`,
    });
    return undefined;
  }
  return parsed.data;
}

function parseLines(text: string, path: string, env: string | undefined): Trace[] {
  const problems = new Problems();
  const traces: Trace[] = [];
  text.split("\n").forEach((rawLine, i) => {
    const line = rawLine.replace(/\r$/, "");
    if (line.trim() === "") return;
    let raw: unknown;
    try {
      raw = parseJsonText(line, path);
    } catch (e) {
      if (!(e instanceof InputFileError)) throw e;
      const message = e.message.slice(e.message.indexOf(": ", path.length) + 2);
      problems.add({ line: i + 1, column: e.column ?? 1, message });
      return;
    }
    const trace = validate(raw, { line: i + 1 }, problems, env);
    if (trace) traces.push(trace);
  });
  problems.throwIfAny(path);
  return traces;
}

/**
 * Parses JSONL text: one trace per non-blank line, each validated with
 * `TraceSchema` (`format` and `task` may be omitted).
 *
 * @param text The file text.
 * @param path The file name used in error messages.
 * @returns The traces in file order.
 * @throws {TraceFileError} Listing up to ten problems: bad JSON by line and
 * column, invalid fields by line and field path.
 *
 * @example Usage
 * ```ts
 * import { parseTracesJsonl } from "./trace_io.ts";
 * const line = '{"env":"demo","goal":"g","initial":"...","steps":[]}';
 * console.log(parseTracesJsonl(line, "t.jsonl")[0].format); // skillc/trace@1
 * try {
 *   parseTracesJsonl('{"env":"demo","goal":"g","initial":"i","steps":[{"action":"","observation":"o"}]}', "t.jsonl");
 * } catch (e) {
 *   console.log((e as Error).message); // t.jsonl:1: field "steps[0].action": expected a non-empty string
 * }
 * ```
 */
export function parseTracesJsonl(text: string, path: string): Trace[] {
  return parseLines(stripBom(text), path, undefined);
}

/**
 * Formats traces as JSONL: one compact JSON object per line, each line
 * ending in a newline.
 *
 * @example Usage
 * ```ts
 * import { formatTracesJsonl, parseTracesJsonl } from "./trace_io.ts";
 * const text = formatTracesJsonl([{ format: "skillc/trace@1", env: "demo", task: {}, goal: "g", initial: "i", steps: [] }]);
 * console.log(parseTracesJsonl(text, "t.jsonl").length); // 1
 * ```
 */
export function formatTracesJsonl(traces: readonly Trace[]): string {
  return traces.map((t) => JSON.stringify(t) + "\n").join("");
}

/**
 * Writes traces as JSONL atomically (a temporary file renamed into place).
 *
 * @example Usage
 * ```ts ignore
 * await writeTracesJsonl("traces.jsonl", traces);
 * ```
 */
export async function writeTracesJsonl(path: string, traces: readonly Trace[]): Promise<void> {
  await writeTextFileAtomic(path, formatTracesJsonl(traces));
}

/**
 * Reads traces from a file or directory:
 *
 * - `.jsonl`: one trace per line;
 * - `.json`: a JSON array of traces, or (when `kit.importTranscripts`
 *   exists) a transcript collection in the environment's format;
 * - `.txt`: one transcript, imported by the kit;
 * - a directory: every `.jsonl`, `.json` and `.txt` file directly inside,
 *   in name order, concatenated.
 *
 * With a kit, every trace's `env` must be the kit's name.
 *
 * @param path A file or directory.
 * @param kit The environment the traces are for.
 * @returns The traces.
 * @throws {InputFileError} When a file cannot be read, has an unknown
 * extension, or is a transcript with no importer; a {@linkcode TraceFileError}
 * for invalid traces.
 *
 * @example Usage
 * ```ts ignore
 * import { readTraces } from "./trace_io.ts";
 * const traces = await readTraces("traces/", kit); // kit: the environment's EnvironmentKit
 * ```
 */
export async function readTraces(path: string, kit?: EnvironmentKit): Promise<Trace[]> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (e) {
    throw new InputFileError(path, `Cannot read traces: ${e instanceof Error ? e.message : e}`);
  }
  if (!info.isDirectory) return readTraceFile(path, kit);
  const names: string[] = [];
  for await (const entry of Deno.readDir(path)) {
    if (!entry.isDirectory && TRACE_EXTENSIONS.includes(extension(entry.name))) {
      names.push(entry.name);
    }
  }
  if (names.length === 0) {
    throw new InputFileError(
      path,
      `No trace files in directory: expected ${TRACE_EXTENSIONS.map((e) => `"${e}"`).join(", ")}`,
    );
  }
  names.sort();
  const out: Trace[] = [];
  for (const name of names) {
    for (const t of await readTraceFile(joinPath(path, name), kit)) out.push(t);
  }
  return out;
}

async function readTraceFile(path: string, kit: EnvironmentKit | undefined): Promise<Trace[]> {
  const ext = extension(path);
  if (!TRACE_EXTENSIONS.includes(ext)) {
    throw new InputFileError(
      path,
      `Unknown trace file type "${ext || basename(path)}": expected ${
        TRACE_EXTENSIONS.map((e) => `"${e}"`).join(", ")
      } or a directory`,
    );
  }
  let text: string;
  try {
    text = stripBom(await Deno.readTextFile(path));
  } catch (e) {
    throw new InputFileError(path, `Cannot read file: ${e instanceof Error ? e.message : e}`);
  }
  if (ext === ".jsonl") return parseLines(text, path, kit?.name);
  if (ext === ".txt") return importWithKit(text, path, kit, "a text transcript");
  const value = parseJsonText(text, path);
  if (Array.isArray(value)) return parseArray(value, text, path, kit?.name);
  if (value !== null && typeof value === "object") {
    return importWithKit(text, path, kit, "a JSON object (a transcript collection)");
  }
  throw new InputFileError(
    path,
    `Expected a JSON array of traces or an object of transcripts, got ${shown(value)}`,
  );
}

function parseArray(values: unknown[], text: string, path: string, env?: string): Trace[] {
  const lines = arrayElementOffsets(text).map((offset) => lineColumn(text, offset).line);
  const problems = new Problems();
  const traces: Trace[] = [];
  values.forEach((raw, i) => {
    const at = lines[i] !== undefined ? { line: lines[i] } : { trace: `trace ${i + 1}` };
    const trace = validate(raw, at, problems, env);
    if (trace) traces.push(trace);
  });
  problems.throwIfAny(path);
  return traces;
}

function importWithKit(
  text: string,
  path: string,
  kit: EnvironmentKit | undefined,
  what: string,
): Trace[] {
  if (!kit?.importTranscripts) {
    throw new InputFileError(
      path,
      kit
        ? `The "${kit.name}" environment cannot import transcripts, and this file is ${what}`
        : `This file is ${what}: reading transcripts needs an environment (e.g. --env)`,
    );
  }
  let traces: Trace[];
  try {
    traces = kit.importTranscripts(text, path);
  } catch (e) {
    if (e instanceof InputFileError) throw e;
    // Importers name the transcript and line; the file name is added here.
    const error = new InputFileError(path, e instanceof Error ? e.message : String(e));
    error.cause = e;
    throw error;
  }
  // Importers are code of their own: their output is checked like any input.
  const problems = new Problems();
  const out: Trace[] = [];
  traces.forEach((raw, i) => {
    const label = `trace ${i + 1}${raw.source ? ` (${JSON.stringify(raw.source)})` : ""}`;
    const trace = validate(raw, { trace: label }, problems, kit.name);
    if (trace) out.push(trace);
  });
  problems.throwIfAny(path);
  return out;
}

/**
 * Start offsets of the elements of the top-level JSON array in `text`
 * (already known to parse), so problems can name the line of each trace.
 */
function arrayElementOffsets(text: string): number[] {
  const out: number[] = [];
  let depth = 0;
  let inString = false;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === " " || c === "\n" || c === "\r" || c === "\t") continue;
    if (depth === 1 && expectValue && c !== "]") {
      out.push(i);
      expectValue = false;
    }
    if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      depth++;
      if (depth === 1) expectValue = true;
    } else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === 1) expectValue = true;
  }
  return out;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function basename(path: string): string {
  return path.replace(/[\\/]+$/, "").split(/[\\/]/).at(-1) ?? path;
}

function extension(path: string): string {
  const name = basename(path);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).toLowerCase() : "";
}

function joinPath(dir: string, name: string): string {
  return /[\\/]$/.test(dir) ? dir + name : `${dir}/${name}`;
}
