// `induce --llm`: the synthesizer role through the command, against a
// loopback server, then replayed from the cache with the server stopped.
import assert from "node:assert/strict";
import { root, runCli } from "./_run.ts";
import { gardenKit } from "../../examples/garden/kit.ts";
import { builtinTraces } from "../../cli/_tasks.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { fakeOpenAI } from "../llm/_server.ts";

const GARDEN = new URL("examples/garden/kit.ts", root).pathname;

Deno.test("induce --llm accepts the proposals that reproduce more segments, and --llm-cache replays them", async () => {
  // The server proposes the skill full induction finds for the name asked for.
  const full = compileTraces(await builtinTraces(gardenKit), gardenKit);
  const server = fakeOpenAI((request) => {
    const name = /Write the skill (\w+)\(/.exec(request.messages.at(-1)!.content)?.[1];
    return JSON.stringify(full.skills.find((s) => s.name === name) ?? {});
  });
  const dir = await Deno.makeTempDir();
  try {
    const { url } = server;
    const cache = `${dir}/llm.jsonl`;
    const args = ["--env", GARDEN, "--traces", "builtin", "--linear"];
    const r = await runCli(
      "cli/induce.ts",
      [...args, "--out", `${dir}/a`, "--llm", url, "--model", "m", "--llm-cache", cache],
    );
    assert.equal(r.code, 0, r.stderr);
    const calls = server.calls;
    assert.ok(calls > 0);
    assert.match(r.stderr, /proposal accepted, reproduces \d+ of \d+ segments \(induced: \d+\)/);
    assert.match(r.stderr, new RegExp(`${calls} LLM calls \\(0 from the cache\\)`));
    // Replayed with the server stopped: the same library.
    await server.close();
    const again = await runCli(
      "cli/induce.ts",
      [...args, "--out", `${dir}/b`, "--llm-cache", cache],
    );
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, new RegExp(`${calls} LLM calls \\(${calls} from the cache\\)`));
    // The same summary, the time aside.
    const table = (out: string, lib: string) =>
      out.replaceAll(lib, "").replace(/ in [\d.]+ s/g, "");
    assert.equal(table(again.stdout, `${dir}/b`), table(r.stdout, `${dir}/a`));
    assert.match(r.stdout, /water_plant +plant: Plant +\d+ +(\d+) +\d+ +\1 /);
    // --json says what the roles did.
    const json = await runCli(
      "cli/induce.ts",
      [...args, "--out", `${dir}/c`, "--llm-cache", cache, "--json"],
    );
    assert.equal(json.code, 0, json.stderr);
    const { llm } = JSON.parse(json.stdout);
    assert.equal(llm.calls, calls);
    assert.equal(llm.cached, calls);
    const water = llm.synthesizer.find((x: { skill: string }) => x.skill === "water_plant");
    assert.equal(water.accepted, true);
    assert.equal(water.after, water.segments);
    assert.ok(water.before < water.segments);
    for (const skill of full.skills) {
      const a = await Deno.readTextFile(`${dir}/a/skills/${skill.name}.json`).catch(() => "");
      const b = await Deno.readTextFile(`${dir}/b/skills/${skill.name}.json`).catch(() => "");
      assert.equal(a, b, skill.name);
    }
  } finally {
    await server.close().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("induce names a malformed --llm and a --model without a server", async () => {
  const bad = await runCli("cli/induce.ts", [
    "--env",
    GARDEN,
    "--traces",
    "builtin",
    "--out",
    "/tmp/never",
    "--llm",
    "nope",
  ]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--llm must be an http\(s\) URL, got "nope"/);
});

Deno.test("induce --llm asks where subgoals end when the vocabulary declares no landmarks", async () => {
  const dir = await Deno.makeTempDir();
  // A plugin: the garden without its landmarks.
  const plugin = `${dir}/bare_garden.ts`;
  await Deno.writeTextFile(
    plugin,
    `import { gardenKit } from ${JSON.stringify(GARDEN)};
export default { ...gardenKit, vocabulary: { ...gardenKit.vocabulary, landmarks: undefined } };
`,
  );
  // Landmarks for the subgoal question; nothing better for a skill.
  const server = fakeOpenAI((request) =>
    /end a subgoal/.test(request.messages.at(-1)!.content)
      ? JSON.stringify({ landmarks: gardenKit.vocabulary.landmarks })
      : "{}"
  );
  try {
    const { url } = server;
    const r = await runCli("cli/induce.ts", [
      "--env",
      plugin,
      "--traces",
      "builtin",
      "--out",
      `${dir}/lib`,
      "--llm",
      url,
      "--model",
      "m",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /landmarks: holding added \(fetch_tool\); watered added \(water_plant\)/,
    );
    assert.match(r.stdout, /water_plant/);
    assert.match(r.stdout, /fertilize_plant/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
