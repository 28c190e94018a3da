/**
 * `deno task serve`: serves one of the project's environments with the
 * AgentGym env-server protocol until interrupted.
 *
 * @module
 */
import { serveEnvironment } from "../environments/remote/server.ts";
import { intFlag, parseFlags, runMain, UsageError } from "./_cli.ts";
import { envHelp, kitFromFlag, parseEnvOptions } from "./_tasks.ts";

const HELP = `Usage: deno task serve --env <env> --port <port> [options]

Serves an environment over HTTP with the AgentGym env-server protocol:
POST /create, POST /reset {id, data_idx}, POST /step {id, action},
GET /observation?id=, POST /close {id}. Agents connect with
--env agentgym:<env>@http://<hostname>:<port> (the same <env>, a name or a
plugin module, on both sides). Stops on Ctrl-C.

Options:
${envHelp(25)}
  --port <port>          TCP port, 0 for any free port
  --hostname <host>      interface to listen on (default 127.0.0.1)
  --env-options <json>   options for each environment instance as a JSON object,
                         e.g. '{"recipes": "../shared/data/textcraft/recipes"}'
  -h, --help             show this help

Exit codes: 0 stopped by Ctrl-C, 1 the server failed, 2 bad usage.

Example:
  deno task serve --env textcraft --port 36001`;

/** The `serve` command on its arguments; resolves to its exit code (see `runCommand`). */
export async function main(args: string[]): Promise<number> {
  const flags = parseFlags(args, {
    env: { type: "string" },
    port: { type: "string" },
    hostname: { type: "string" },
    "env-options": { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  if (flags.port === undefined) throw new UsageError("Missing --port <port>");
  const port = intFlag("port", flags.port, 0);
  if (port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535, got "${port}"`);
  const hostname = flags.hostname ?? "127.0.0.1";
  if (hostname.trim() === "") throw new UsageError("--hostname must not be empty");
  const kit = await kitFromFlag(flags.env);
  const envOptions = parseEnvOptions(flags["env-options"], kit);
  try {
    // Fail now, not on the first request, when the options are wrong.
    await kit.create(envOptions).close?.();
  } catch (e) {
    throw new UsageError(`--env-options: ${(e as Error).message}`);
  }

  const stop = new AbortController();
  const onSignal = () => stop.abort();
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  try {
    let server;
    try {
      server = serveEnvironment(kit, { port, hostname, signal: stop.signal, envOptions });
    } catch (e) {
      const reason = e instanceof Deno.errors.AddrInUse ? "the address is in use" : String(e);
      throw new UsageError(`Cannot listen on ${hostname}:${port}: ${reason}`);
    }
    const host = server.addr.hostname.includes(":")
      ? `[${server.addr.hostname}]`
      : server.addr.hostname;
    console.log(`Serving "${kit.name}" on http://${host}:${server.addr.port}`);
    await server.finished;
    console.log("Stopped.");
    return 0;
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
  }
}

if (import.meta.main) await runMain("serve", main);
