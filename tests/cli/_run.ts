// Runs a CLI script of the project in a subprocess, as a user would.

/** The project root. */
export const root: URL = new URL("../../", import.meta.url);

/** What a command printed and how it exited. */
export interface CliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno run <permissions> <script> <args>` with colours off. */
export async function runCli(
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
