/**
 * `deno task view`: the skill library in the browser, served on this
 * machine or written as a static site.
 *
 * @module
 */
import { parseRunLog, type RunLog } from "../view/run_log.ts";
import { readLibraryData } from "../view/library_data.ts";
import { buildSite } from "../view/pages.ts";
import { serveLibrary, writePages } from "../view/site.ts";
import { InputFileError, parseJsonText } from "../io/json_file.ts";
import { intFlag, parseFlags, runMain, UsageError } from "./_cli.ts";
import { kitFromFlag, parseEnvOptions } from "./_tasks.ts";
import type { TaskSpec } from "../runtime/environment.ts";
import { agentRunLog } from "../view/agent_run.ts";

const HELP =
  `Usage: deno task view --lib <dir> [--run <file>]... [--results <file>]... [--port <p> | --out <dir>]

Shows a skill library in the browser: its skills as graphs in the paper's
visual language (bindings, checks, loops framing their bodies, actions,
ends; grafts dashed), its task programs, its versions (each a diff of the
graphs it changed: nodes added and removed, narrowed preconditions), the
action model's rules; runs drawn on the graphs (visited nodes and taken
edges with counts, the failure and its diagnosis, a step-by-step walk);
evaluation and benchmark results as a table and bars per task type. The
page needs nothing from the internet.

Options:
  --lib <dir>         a library directory written by deno task induce
  --run <file>        the output of run-skill --json (the agent or one skill),
                      drawn on the library's graphs; may be repeated
  --results <file>    eval --json output or a bench results.json; may be
                      repeated
  --port <p>          serve on 127.0.0.1:<p> (default 8017; 0 picks a free one)
  --env <env>         serving: the library's environment (as for eval); the page
                      then runs the agent on a task you name (an id or a seed)
                      and draws the run
  --env-options <json>  options of that environment, e.g. a recipe directory
  --out <dir>         write the pages as a static site instead of serving
  -h, --help          show this help

Exit codes: 0 written (or served until interrupted), 2 bad usage or input.

Example:
  deno task run-skill --env textcraft --lib out/tc --task 3 --depth 2 --json > run.jsonl
  deno task view --lib out/tc --run run.jsonl`;

/** The `view` command on its arguments; resolves to its exit code (see `runCommand`). */
export async function main(args: string[]): Promise<number> {
  const flags = parseFlags(args, {
    lib: { type: "string" },
    run: { type: "string", multiple: true },
    results: { type: "string", multiple: true },
    port: { type: "string" },
    out: { type: "string" },
    env: { type: "string" },
    "env-options": { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  if (!flags.lib) throw new UsageError("Missing --lib <dir>");
  if (flags.out !== undefined && flags.port !== undefined) {
    throw new UsageError("Give --port (serve) or --out (write a static site), not both");
  }
  const library = await readLibraryData(flags.lib);
  const runs: RunLog[] = [];
  for (const file of flags.run ?? []) runs.push(parseRunLog(await readText(file), file));
  const results: { source: string; data: unknown }[] = [];
  for (const file of flags.results ?? []) {
    results.push({ source: file, data: parseJsonText(await readText(file), file) });
  }
  if (flags.env !== undefined && flags.out !== undefined) {
    throw new UsageError("--env runs tasks from the served page: drop --out");
  }
  const kit = flags.env !== undefined ? await kitFromFlag(flags.env) : undefined;
  const envOptions = parseEnvOptions(flags["env-options"], kit);
  if (flags.out !== undefined) {
    const pages = buildSite({ library, runs, results });
    await writePages(pages, flags.out);
    console.log(`Wrote ${pages.size} pages to ${flags.out} (open ${flags.out}/index.html)`);
    return 0;
  }
  const port = intFlag("port", flags.port, 8017, 65535);
  if (port < 0) throw new UsageError(`--port must be 0-65535, got "${flags.port}"`);
  const server = serveLibrary({ library, runs, results }, {
    port,
    ...(kit ? { runTask: (task: TaskSpec) => agentRunLog(kit, flags.lib!, task, envOptions) } : {}),
  });
  console.log(
    `Serving the library at http://127.0.0.1:${server.addr.port}/ (Ctrl-C stops)`,
  );
  await server.finished;
  return 0;
}

async function readText(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    throw new InputFileError(path, `Cannot read file: ${(e as Error).message}`);
  }
}

if (import.meta.main) await runMain("view", main);
