// An environment of the user's own, through the plugin flag: the commands of
// docs/new-environment.md on examples/garden, which is written against mod.ts only.
import assert from "node:assert/strict";
import { root, runCli } from "./_run.ts";

const PLUGIN = new URL("examples/garden/kit.ts", root).pathname;

Deno.test("induce, eval and run-skill take a plugin module as --env", async () => {
  const out = await Deno.makeTempDir();
  try {
    const induce = await runCli("cli/induce.ts", [
      "--env",
      PLUGIN,
      "--traces",
      "builtin",
      "--out",
      `${out}/lib`,
    ]);
    assert.equal(induce.code, 0, induce.stderr);
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
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-net=127.0.0.1",
      new URL("cli/serve.ts", root).pathname,
      "--env",
      PLUGIN,
      "--port",
      "0",
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    let text = "";
    for (let i = 0; i < 50 && !/\n/.test(text); i++) {
      const { value, done } = await lines.read();
      if (done) break;
      text += value;
    }
    const m = /^Serving "garden" on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(text);
    assert.ok(m, text);
    const induce = await runCli("cli/induce.ts", [
      "--env",
      PLUGIN,
      "--traces",
      "builtin",
      "--out",
      `${out}/lib`,
    ]);
    assert.equal(induce.code, 0, induce.stderr);
    const evalOn = (env: string) =>
      runCli(
        "cli/eval.ts",
        ["--env", env, "--lib", `${out}/lib`, "--n", "6", "--json"],
        ["--allow-read", "--allow-write", "--allow-net=127.0.0.1"],
      );
    const local = await evalOn(PLUGIN);
    const remote = await evalOn(`agentgym:${PLUGIN}@${m[1]}`);
    assert.equal(local.code, 0, local.stderr);
    assert.equal(remote.code, 0, remote.stderr);
    const a = JSON.parse(local.stdout);
    const b = JSON.parse(remote.stdout);
    assert.equal(b.env, `agentgym:${PLUGIN}@${m[1]}`);
    for (
      const key of ["tasks", "success_rate", "avg_steps", "invalid_action_rate", "skill_calls"]
    ) {
      assert.deepEqual(b[key], a[key], key);
    }
  } finally {
    child.kill("SIGINT");
    await child.status;
    await lines.cancel();
    await child.stderr.cancel();
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
