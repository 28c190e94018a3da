/**
 * Shared command-line plumbing: usage errors exit with code 2 and a clear
 * message; help texts print to stdout.
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { InputFileError } from "../io/json_file.ts";

/** A problem with how a command was called, or with its input files. */
export class UsageError extends Error {
  /** Creates the error. */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Parses flags strictly; unknown flags and missing values become {@linkcode UsageError}s. */
export function parseFlags<T extends NonNullable<ParseArgsConfig["options"]>>(
  args: string[],
  options: T,
): ReturnType<typeof parseArgs<{ options: T; allowPositionals: false; strict: true }>>["values"] {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true }).values;
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

/** Parses an integer flag value or throws a {@linkcode UsageError} naming the flag. */
export function intFlag(
  name: string,
  value: string | undefined,
  fallback: number,
  max: number = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value.trim())) {
    throw new UsageError(`--${name} must be an integer, got "${value}"`);
  }
  const n = Number(value);
  if (!Number.isSafeInteger(n) || Math.abs(n) > max) {
    throw new UsageError(`--${name} must be at most ${max}, got "${value}"`);
  }
  return n;
}

/** The most tasks, episodes or demonstrations a flag may ask for. */
export const MAX_COUNT = 100_000;

/**
 * Runs a command's main function on `args` and resolves to its exit code:
 * a {@linkcode UsageError} or an input error prints `<command>: <message>`
 * to stderr and gives 2; other errors give 1.
 */
export async function runCommand(
  command: string,
  main: (args: string[]) => Promise<number>,
  args: string[],
): Promise<number> {
  try {
    return await main(args);
  } catch (e) {
    const known = e instanceof UsageError || e instanceof InputFileError;
    console.error(`${command}: ${e instanceof Error ? e.message : String(e)}`);
    if (known) console.error(`Try "deno task ${command} --help".`);
    return known ? 2 : 1;
  }
}

/** Runs a command's main function on the process's arguments and sets its exit code. */
export async function runMain(
  command: string,
  main: (args: string[]) => Promise<number>,
): Promise<void> {
  Deno.exitCode = await runCommand(command, main, Deno.args);
}
