import assert from "node:assert/strict";
import { type CliOutput, runCli } from "./_run.ts";
import { CRATES, cratesProblem } from "../compiler/_crates.ts";

const induce = (args: string[]): Promise<CliOutput> => runCli("cli/induce.ts", args);

Deno.test("induce --help explains the command and exits 0", async () => {
  const r = await induce(["--help"]);
  assert.equal(r.code, 0);
  assert.match(
    r.stdout,
    /Usage: deno task induce --env <env> --traces <file\|dir\|builtin> --out <dir>/,
  );
});

Deno.test("induce rejects missing or bad flags with exit 2", async () => {
  const cases: [string[], RegExp][] = [
    [["--traces", "builtin", "--out", "x"], /Missing --env/],
    [["--env", "textcraft", "--out", "x"], /Missing --traces/],
    [["--env", "textcraft", "--traces", "builtin"], /Missing --out/],
    [["--env", "moon", "--traces", "builtin", "--out", "x"], /Unknown environment "moon"/],
    [
      ["--env", "textcraft", "--traces", "builtin", "--out", "x", "--lambda=-1"],
      /--lambda must be/,
    ],
    [
      ["--env", "textcraft", "--traces", "/no/such/traces.jsonl", "--out", "x"],
      /\/no\/such\/traces.jsonl/,
    ],
    [
      ["--env", "textcraft", "--traces", "builtin", "--out", "x", "--explore=-1"],
      /--explore must be a whole number >= 0, got "-1"/,
    ],
    [
      ["--env", "textcraft", "--traces", "deno.json", "--out", "x", "--explore", "3"],
      /--explore needs --traces builtin/,
    ],
    [
      ["--env", "textcraft", "--traces", "builtin", "--out", "deno.json"],
      /--out must be a directory, but "deno.json" is a file/,
    ],
  ];
  for (const [args, pattern] of cases) {
    const r = await induce(args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
  }
});

Deno.test("induce names the file, line and field of a malformed trace", async () => {
  const dir = await Deno.makeTempDir();
  const good = { env: "textcraft", goal: "craft stick", initial: "Goal: craft stick.", steps: [] };
  const bad = { ...good, steps: [{ action: 3, observation: "x" }] };
  await Deno.writeTextFile(`${dir}/t.jsonl`, `${JSON.stringify(good)}\n${JSON.stringify(bad)}\n`);
  const r = await induce([
    "--env",
    "textcraft",
    "--traces",
    `${dir}/t.jsonl`,
    "--out",
    `${dir}/lib`,
  ]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /t\.jsonl:2: field "steps\[0\]\.action": expected/);
  await assert.rejects(() => Deno.stat(`${dir}/lib`));
});

Deno.test("induce --json prints the summary object and writes the library", async () => {
  const dir = await Deno.makeTempDir();
  const r = await induce([
    "--env",
    "textcraft",
    "--traces",
    "builtin",
    "--out",
    `${dir}/lib`,
    "--json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const summary = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(summary).sort(), ["seconds", "skills", "templates", "traces"]);
  assert.equal(summary.traces, 20);
  assert.equal(summary.templates, 1);
  const [skill] = summary.skills;
  assert.equal(skill.name, "craft_item");
  assert.deepEqual(skill.params, [{ name: "item", type: "Item" }]);
  assert.equal(skill.covered, skill.segments);
  for (const key of ["name", "params", "nodes", "segments", "covered"]) {
    assert.ok(key in skill, key);
  }
  const index = JSON.parse(await Deno.readTextFile(`${dir}/lib/index.json`));
  assert.equal(index.vocabulary, "textcraft");
  assert.equal(index.skills[0].name, "craft_item");
  // The depth-1 demonstrations give one template: craft the goal item.
  assert.equal(index.templates.length, 1);
  assert.equal(index.templates[0].type, "depth1");
  assert.deepEqual(index.templates[0].steps.map((s: { skill: string }) => s.skill), ["craft_item"]);
  // ... as a task program stored with the template.
  assert.deepEqual(
    index.templates[0].program.nodes.filter((n: { kind: string }) => n.kind === "primitive")
      .map((n: { action: string }) => n.action),
    ["craft_item"],
  );
  await Deno.stat(`${dir}/lib/package/mod.ts`);
  const { loadActionModel } = await import("../../runtime/store/library.ts");
  const { textcraftKit } = await import("../../environments/textcraft/mod.ts");
  const model = await loadActionModel(`${dir}/lib`, textcraftKit.vocabulary);
  assert.ok(model, "induce writes the learned action model beside the index");
  assert.ok(model.actions().includes("get"));
});

Deno.test("induce --explain prints operator applications with their verdicts", async () => {
  const dir = await Deno.makeTempDir();
  const r = await induce([
    "--env",
    "textcraft",
    "--traces",
    "builtin",
    "--out",
    `${dir}/lib`,
    "--explain",
    "--count",
    "20",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /\[craft_item\] local expert of .*: \d+ size, consistent/);
  assert.match(r.stdout, /\[craft_item\] start from .*: covers \d+ of 20/);
  assert.match(r.stdout, /craft_item {2}item: Item/);
});

Deno.test("run-skill --hone runs the agent on a library and reports what honing did", async () => {
  const dir = await Deno.makeTempDir();
  const made = await induce([
    "--env",
    "textcraft",
    "--traces",
    "builtin",
    "--out",
    `${dir}/lib`,
    "--count",
    "20",
  ]);
  assert.equal(made.code, 0, made.stderr);
  const { stdout } = await runCli("cli/run_skill.ts", [
    "--lib",
    `${dir}/lib`,
    "--env",
    "textcraft",
    "--task",
    "3",
    "--depth",
    "2",
    "--hone",
  ]);
  assert.match(stdout, /^Result: (success|failure)/m);
  assert.match(stdout, /^Honing: /m);
  const history = (await Deno.readTextFile(`${dir}/lib/history.jsonl`)).trim().split("\n");
  const index = JSON.parse(await Deno.readTextFile(`${dir}/lib/index.json`));
  assert.equal(index.version, history.length);
});

Deno.test("induce --explore tries the actions no demonstration used and the library's model knows them", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/problems`);
  await Deno.writeTextFile(`${dir}/crates.pddl`, CRATES);
  // Every crate starts on the floor: no demonstration lifts or drops one.
  await Deno.writeTextFile(
    `${dir}/problems/p1.pddl`,
    cratesProblem("p1", [["a", "b", "e"], ["c"], ["d"]], [["c", "d"]]),
  );
  await Deno.writeTextFile(
    `${dir}/problems/p2.pddl`,
    cratesProblem("p2", [["a"], ["b"], ["c"]], [["a", "b", "c"]]),
  );
  const args = [
    "--env",
    `pddl:${dir}/crates.pddl`,
    "--traces",
    "builtin",
    "--count",
    "2",
    "--env-options",
    '{"rules": "learned"}',
  ];
  const plain = await induce([...args, "--out", `${dir}/plain`]);
  assert.equal(plain.code, 0, plain.stderr);
  assert.doesNotMatch(plain.stderr, /explor/i);
  const r = await induce([...args, "--explore", "4", "--out", `${dir}/lib`]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /explored what no demonstration did: lift accepted [1-4] of \d+ tries/);
  assert.match(r.stderr, /drop accepted [1-4] of \d+ tries/);
  const model = (path: string) =>
    JSON.parse(Deno.readTextFileSync(`${path}/action_model.json`)).actions;
  assert.equal(model(`${dir}/plain`).lift?.successes ?? 0, 0);
  assert.ok(model(`${dir}/lib`).lift.successes > 0);
});
