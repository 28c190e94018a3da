/**
 * `deno task replay`: replays recorded transcripts of a real benchmark in
 * the project's simulator and reports every observation that differs, plus
 * observations the grounder does not understand.
 *
 * @module
 */
import type { Trace } from "../dsl/trace.ts";
import type { EnvironmentKit } from "../runtime/environment.ts";
import { parseFlags, runMain, UsageError } from "./_cli.ts";
import { envHelp, kitFromFlag } from "./_tasks.ts";

const HELP =
  `Usage: deno task replay --env <env> --transcripts <file> [--transcripts <file> ...] [--json]

Rebuilds the room of each transcript from its first observation and what it
reveals, replays its actions in the simulator and compares every observation
exactly. Transcript files are in the environment's transcript format (e.g.
ALFWorld: a JSON object of name -> transcript such as
react_demos_2per_type.json, or one transcript as text). Environments whose
kit can replay (ALFWorld) are supported.

Options:
${envHelp(24)}
  --transcripts <file>  transcript file; repeat for several
  --json                print {"transcripts", "steps", "mismatches", "errors"} as JSON
  -h, --help            show this help

Exit codes: 0 nothing differs and every observation was understood, 1 some
observation differs or was not understood, 2 bad usage or unreadable input.

Example:
  deno task replay --env alfworld --transcripts ../shared/data/alfworld/react_demos_2per_type.json`;

async function readTraces(kit: EnvironmentKit, path: string): Promise<Trace[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    throw new UsageError(`Cannot read "${path}": ${e instanceof Error ? e.message : e}`);
  }
  try {
    return kit.importTranscripts!(text, path.split("/").pop() ?? path);
  } catch (e) {
    throw new UsageError(
      `Cannot read transcripts from "${path}": ${e instanceof Error ? e.message : e}`,
    );
  }
}

function indent(text: string): string {
  return text.replace(/\n/g, "\n            ");
}

/** The `replay` command on its arguments; resolves to its exit code (see `runCommand`). */
export async function main(args: string[]): Promise<number> {
  const flags = parseFlags(args, {
    env: { type: "string" },
    transcripts: { type: "string", multiple: true },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  const kit = await kitFromFlag(flags.env);
  if (!kit.replay || !kit.importTranscripts) {
    throw new UsageError(`Environment "${kit.name}" cannot replay transcripts`);
  }
  const files = flags.transcripts ?? [];
  if (files.length === 0) throw new UsageError("Missing --transcripts <file>");
  const traces: Trace[] = [];
  for (const file of files) traces.push(...await readTraces(kit, file));
  const report = await kit.replay(traces);
  const failed = report.mismatches.length > 0 || report.errors.length > 0;
  if (flags.json) {
    console.log(JSON.stringify({
      transcripts: report.transcripts,
      steps: report.steps,
      mismatches: report.mismatches.length,
      errors: report.errors,
    }));
    return failed ? 1 : 0;
  }
  for (const m of report.mismatches) {
    const where = m.step === 0 ? "first observation" : `step ${m.step} ("${m.action}")`;
    console.log(`${m.transcript} ${where}:`);
    console.log(`  expected: ${indent(m.expected)}`);
    console.log(`  actual:   ${indent(m.actual)}`);
  }
  for (const e of report.errors) console.log(`error: ${e}`);
  console.log(
    `Replayed ${report.transcripts} transcripts, ${report.steps} steps: ` +
      `${report.mismatches.length} mismatches, ${report.errors.length} grounding errors.`,
  );
  return failed ? 1 : 0;
}

if (import.meta.main) await runMain("replay", main);
