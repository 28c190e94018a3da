/**
 * Reading and writing JSON data files safely: parse errors name the file,
 * line and column; writes go to a temporary file renamed into place, so a
 * crash never leaves a half-written file.
 *
 * @module
 */
import type { z } from "zod";
import { jsonErrorOffset } from "./_json_position.ts";

/** An input file that cannot be read or parsed. */
export class InputFileError extends Error {
  /** The file. */
  path: string;
  /** 1-based line, when known. */
  line?: number;
  /** 1-based column, when known. */
  column?: number;
  /** Creates the error. */
  constructor(path: string, message: string, line?: number, column?: number) {
    super(`${path}${line !== undefined ? `:${line}:${column ?? 1}` : ""}: ${message}`);
    this.name = "InputFileError";
    this.path = path;
    this.line = line;
    this.column = column;
  }
}

/**
 * Parses JSON text, turning a syntax error into an {@linkcode InputFileError}
 * with the line and column of the problem.
 *
 * @example Usage
 * ```ts
 * import { parseJsonText } from "./json_file.ts";
 * try { parseJsonText('{\n  "a": ,\n}', "x.json"); } catch (e) { console.log((e as Error).message.startsWith("x.json:2:")); } // true
 * ```
 */
export function parseJsonText(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const message = (e instanceof Error ? e.message : String(e)).split("\n")[0];
    const offset = jsonErrorOffset(text);
    if (offset >= 0) {
      const { line, column } = lineColumn(text, offset);
      const found = offset < text.length ? JSON.stringify(text[offset]) : "end of input";
      throw new InputFileError(path, `Invalid JSON: unexpected ${found}`, line, column);
    }
    throw new InputFileError(path, `Invalid JSON: ${message}`);
  }
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

/**
 * Reads and parses a JSON file; unreadable files and bad JSON throw an
 * {@linkcode InputFileError} naming the file.
 */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    throw new InputFileError(path, `Cannot read file: ${e instanceof Error ? e.message : e}`);
  }
  return parseJsonText(text, path);
}

/**
 * Reads a JSON file and validates it with `schema`: an invalid value is an
 * {@linkcode InputFileError} naming the file, `what` it should be and the
 * field at fault.
 *
 * @example Usage
 * ```ts ignore
 * const skill = await readJsonFileAs("versions/1/craft.json", SkillSchema, "skill");
 * // throws "versions/1/craft.json: Invalid skill at "nodes.0.kind": ..."
 * ```
 */
export async function readJsonFileAs<T>(
  path: string,
  schema: z.ZodType<T>,
  what: string,
): Promise<T> {
  const parsed = schema.safeParse(await readJsonFile(path));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const at = issue.path.length > 0 ? ` at "${issue.path.join(".")}"` : "";
  throw new InputFileError(path, `Invalid ${what}${at}: ${issue.message}`);
}

/**
 * Writes a text file atomically: a temporary file in the same directory,
 * then a rename over the target.
 *
 * @example Usage
 * ```ts ignore
 * await writeTextFileAtomic("library/index.json", JSON.stringify(index, null, 2));
 * ```
 */
export async function writeTextFileAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await Deno.writeTextFile(tmp, text);
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}

/**
 * One line of a JSON Lines file, validated with `schema`: its value, or
 * `undefined` when the line is not JSON (the caller decides: a torn last
 * line may be dropped). A value the schema rejects is an
 * {@linkcode InputFileError} naming the file, the line and the field.
 *
 * @param what The kind of line, for the message (`history line`).
 *
 * @example Usage
 * ```ts ignore
 * const entry = parseJsonLine(line, EntrySchema, { path, line: i + 1, what: "history line" });
 * ```
 */
export function parseJsonLine<T>(
  text: string,
  schema: z.ZodType<T>,
  where: { path: string; line: number; what: string },
): T | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InputFileError(
    where.path,
    `Invalid ${where.what} at "${issue.path.join(".")}": ${issue.message}`,
    where.line,
  );
}
