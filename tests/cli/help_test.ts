import assert from "node:assert/strict";
import { runCliProcess } from "./_run.ts";

const COMMANDS = [
  "demo",
  "induce",
  "eval",
  "run_skill",
  "bench",
  "replay",
  "serve",
  "package",
] as const;

Deno.test("every command's --help documents its exit codes, and --help exits 0", async () => {
  const runs = await Promise.all(
    COMMANDS.map((c) => runCliProcess(`cli/${c}.ts`, ["--help"], ["--allow-read", "--allow-env"])),
  );
  for (const [i, r] of runs.entries()) {
    assert.equal(r.code, 0, `${COMMANDS[i]}: ${r.stderr}`);
    assert.match(r.stdout, /^Usage: deno task /, COMMANDS[i]);
    assert.match(r.stdout.replace(/\s+/g, " "), /Exit codes: 0 .*, 2 bad usage/, COMMANDS[i]);
  }
});
