// Runs a CLI script of the project as a user would: its main function
// in-process with its output captured (the command's code is the same; a
// subprocess per call cost most of the suite's time), or in a subprocess
// with the permissions of its task where that is what a test proves.
import { runCommand } from "../../cli/_cli.ts";

/** The project root. */
export const root: URL = new URL("../../", import.meta.url);

/** What a command printed and how it exited. */
export interface CliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** One in-process run at a time: output is captured by replacing `console`. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs `cli/<script>`'s `main` on `args` in this process, capturing what it
 * prints through `console` (stdout: `log`, `info`; stderr: `error`, `warn`).
 */
export function runCli(script: string, args: string[]): Promise<CliOutput> {
  const run = queue.then(() => runInProcess(script, args));
  queue = run.catch(() => {});
  return run;
}

async function runInProcess(script: string, args: string[]): Promise<CliOutput> {
  const mod = await import(new URL(script, root).href);
  if (typeof mod.main !== "function") throw new Error(`${script} exports no main`);
  const command = script.replace(/^.*\//, "").replace(/\.ts$/, "").replaceAll("_", "-");
  const out: string[] = [];
  const err: string[] = [];
  const text = (parts: unknown[]) =>
    parts.map((p) => typeof p === "string" ? p : Deno.inspect(p, { colors: false })).join(" ") +
    "\n";
  const saved = { log: console.log, info: console.info, error: console.error, warn: console.warn };
  console.log = (...p: unknown[]) => out.push(text(p));
  console.info = console.log;
  console.error = (...p: unknown[]) => err.push(text(p));
  console.warn = console.error;
  try {
    const code = await runCommand(command, mod.main, args);
    return { code, stdout: out.join(""), stderr: err.join("") };
  } finally {
    Object.assign(console, saved);
  }
}

/** Runs `deno run <permissions> <script> <args>` in a subprocess with colours off. */
export async function runCliProcess(
  script: string,
  args: string[],
  permissions: string[] = ["--allow-read", "--allow-write"],
): Promise<CliOutput> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-check", ...permissions, new URL(script, root).pathname, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** A `deno task serve` subprocess and the URL it printed. */
export interface ServeProcess {
  /** The `Serving "<env>" on <url>` line's URL. */
  url: string;
  /** The environment name it printed. */
  env: string;
  /** Stops it with SIGINT; resolves to its exit code. */
  stop(): Promise<number>;
}

/** Starts `cli/serve.ts <args>` (with `--port 0` among them) and waits for its URL line. */
export async function startServe(args: string[]): Promise<ServeProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-check",
      "--allow-read",
      "--allow-net=127.0.0.1",
      new URL("cli/serve.ts", root).pathname,
      ...args,
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const stop = async () => {
    child.kill("SIGINT");
    const status = await child.status;
    await lines.cancel();
    await child.stderr.cancel();
    return status.code;
  };
  let text = "";
  for (let i = 0; i < 50 && !/\n/.test(text); i++) {
    const { value, done } = await lines.read();
    if (done) break;
    text += value;
  }
  const m = /^Serving "(.+)" on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(text);
  if (!m) {
    await stop();
    throw new Error(`serve printed no URL: ${text}`);
  }
  return { env: m[1], url: m[2], stop };
}
