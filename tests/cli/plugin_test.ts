// An environment of the user's own, through the plugin flag: the commands of
// docs/new-environment.md on examples/garden, which is written against mod.ts only.
import assert from "node:assert/strict";
import { type CliOutput, root, runCli, startServe } from "./_run.ts";

const PLUGIN = new URL("examples/garden/kit.ts", root).pathname;

/** `deno task induce --env <garden plugin> --traces builtin --out <dir>`, which must succeed. */
async function induceGarden(dir: string): Promise<CliOutput> {
  const r = await runCli("cli/induce.ts", ["--env", PLUGIN, "--traces", "builtin", "--out", dir]);
  assert.equal(r.code, 0, r.stderr);
  return r;
}

Deno.test("induce, eval and run-skill take a plugin module as --env", async () => {
  const out = await Deno.makeTempDir();
  try {
    const induce = await induceGarden(`${out}/lib`);
    assert.match(induce.stdout, /Induced \d+ skills from 8 traces/);
    assert.match(induce.stdout, /water_plant/);

    const evaluation = await runCli("cli/eval.ts", [
      "--env",
      PLUGIN,
      "--lib",
      `${out}/lib`,
      "--n",
      "10",
      "--json",
    ]);
    assert.equal(evaluation.code, 0, evaluation.stderr);
    const report = JSON.parse(evaluation.stdout);
    assert.equal(report.env, "garden");
    assert.equal(report.tasks, 10);
    assert.ok(report.success_rate >= 0.9, `success ${report.success_rate}`);

    const list = await runCli("cli/run_skill.ts", ["--env", PLUGIN, "--list-tasks", "--n", "2"]);
    assert.equal(list.code, 0, list.stderr);
    const lines = list.stdout.trim().split("\n");
    assert.equal(lines.length, 2);
    const handle = lines[0].split("\t")[0];
    assert.match(handle, /^garden\//);

    const run = await runCli("cli/run_skill.ts", [
      "--env",
      PLUGIN,
      "--lib",
      `${out}/lib`,
      "--task",
      handle,
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /\[water_plant\] start/);
    assert.match(run.stdout, /Stop: The environment reports success/);

    // A skill's diagram, edited by hand (edges in another order, a note added), runs.
    const diagram = `${out}/lib/versions/1/fetch_tool.mmd`;
    const lines2 = (await Deno.readTextFile(diagram)).split("\n");
    const edges = lines2.filter((l) => /-->/.test(l) && !/-\.-/.test(l));
    const edited = [
      ...lines2.filter((l) => !edges.includes(l)),
      "    %% edited by hand",
      ...edges.reverse(),
    ].join("\n");
    await Deno.writeTextFile(`${out}/edited.mmd`, edited);
    const one = await runCli("cli/run_skill.ts", [
      "--env",
      PLUGIN,
      "--skill",
      `${out}/edited.mmd`,
      "--task",
      handle,
    ]);
    assert.equal(one.code, 0, one.stdout + one.stderr);
    assert.match(one.stdout, /\[fetch_tool\] act {4}take: take can \d+/);
    await Deno.writeTextFile(`${out}/broken.mmd`, edited.replace("-->", "--> nowhere -->"));
    const broken = await runCli("cli/run_skill.ts", [
      "--env",
      PLUGIN,
      "--skill",
      `${out}/broken.mmd`,
    ]);
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /broken\.mmd:\d+:1: Invalid skill diagram/);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("eval against a served plugin gives the same results as in-process", async () => {
  const out = await Deno.makeTempDir();
  // The server as a user starts it: deno task serve --env <plugin>.
  const server = await startServe(["--env", PLUGIN, "--port", "0"]);
  try {
    assert.equal(server.env, "garden");
    await induceGarden(`${out}/lib`);
    const evalOn = (env: string) =>
      runCli(
        "cli/eval.ts",
        ["--env", env, "--lib", `${out}/lib`, "--n", "6", "--json"],
      );
    const local = await evalOn(PLUGIN);
    const remote = await evalOn(`agentgym:${PLUGIN}@${server.url}`);
    assert.equal(local.code, 0, local.stderr);
    assert.equal(remote.code, 0, remote.stderr);
    const a = JSON.parse(local.stdout);
    const b = JSON.parse(remote.stdout);
    assert.equal(b.env, `agentgym:${PLUGIN}@${server.url}`);
    for (
      const key of ["tasks", "success_rate", "avg_steps", "invalid_action_rate", "skill_calls"]
    ) {
      assert.deepEqual(b[key], a[key], key);
    }
  } finally {
    assert.equal(await server.stop(), 0);
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("a module that is no environment kit is refused with what is missing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/not_a_kit.ts`, `export default { name: "x" };\n`);
    const r = await runCli("cli/eval.ts", ["--env", `${dir}/not_a_kit.ts`, "--variant", "expert"]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /is not an environment kit: missing vocabulary, create\(\), grounder\(\)/,
    );
    const missing = await runCli("cli/eval.ts", [
      "--env",
      `${dir}/nothing.ts`,
      "--variant",
      "expert",
    ]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Cannot load the environment module/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
