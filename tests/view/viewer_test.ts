import assert from "node:assert/strict";
import { compileTraces, writeCompiledLibrary } from "../../compiler/compile.ts";
import { weakTraceSets } from "../../cli/_bench_honing.ts";
import { deployKit } from "../../examples/deploy/kit.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { layoutSkill, loopBodies } from "../../view/layout.ts";
import { type LibraryData, readLibraryData } from "../../view/library_data.ts";
import { buildSite } from "../../view/pages.ts";
import { parseRunLog } from "../../view/run_log.ts";
import { serveLibrary } from "../../view/site.ts";
import { agentRunLog } from "../../view/agent_run.ts";
import { skillSvg } from "../../view/svg.ts";
import { runCli } from "../cli/_run.ts";
import { Browser, chromiumPath } from "./_chromium.ts";

/**
 * A deploy library made weak (the second demonstration of each task type)
 * and honed over training tasks by `eval --hone`: its versions hold a
 * graft. Plus an agent run on it, as `run-skill --json` prints it.
 */
let made: Promise<{ dir: string; run: string; results: string }> | undefined;
function honedLibrary() {
  made ??= (async () => {
    const dir = await Deno.makeTempDir();
    const traces = await generateExpertTraces(deployKit, deployKit.demonstrationTasks!(8));
    const weak = weakTraceSets(traces, 2)[1];
    await writeCompiledLibrary(`${dir}/lib`, compileTraces(weak, deployKit), deployKit);
    const env = "examples/deploy/kit.ts";
    const honed = await runCli("cli/eval.ts", [
      ...["--env", env, "--lib", `${dir}/lib`, "--hone", "--split", "train", "--n", "20"],
      ...["--json"],
    ]);
    assert.equal(honed.code, 0, honed.stderr);
    await Deno.writeTextFile(`${dir}/results.json`, honed.stdout);
    const run = await runCli("cli/run_skill.ts", [
      ...["--env", env, "--lib", `${dir}/lib`, "--task", "3", "--json"],
    ]);
    await Deno.writeTextFile(`${dir}/run.jsonl`, run.stdout);
    return { dir: `${dir}/lib`, run: `${dir}/run.jsonl`, results: `${dir}/results.json` };
  })();
  return made;
}

/** The nodes of `skill` the run's events name (think, act, end), from the log's text alone. */
function nodesRunIn(log: string, skill: string): Set<string> {
  const out = new Set<string>();
  for (const line of log.split("\n").filter((l) => l !== "")) {
    const data = JSON.parse(line);
    const e = data.type === "run" ? data.event : undefined;
    if (e?.skill === skill && ["think", "act", "end"].includes(e.type)) out.add(e.node);
  }
  return out;
}

/** The version whose changes graft a skill, and that skill. */
function graftVersion(library: LibraryData): { version: number; skill: Skill } {
  const v = library.versions.find((x) => x.changes.some((c) => c.kind === "graft"))!;
  const name = v.changes.find((c) => c.kind === "graft")!.skill!;
  return { version: v.version, skill: v.skills.find((s) => s.name === name)! };
}

Deno.test("layoutSkill places every node and edge; a loop's body is framed", () => {
  const skill: Skill = {
    format: "skillc/skill@1",
    name: "water_all",
    vocabulary: "garden",
    params: [],
    doc: { summary: "Water every plant.", post: "true" },
    entry: "each",
    nodes: [
      { id: "each", kind: "loop", var: "p", over: "select_all(x: Plant, dry(x))" },
      { id: "dry", kind: "check", cond: "dry(p)" },
      { id: "water", kind: "primitive", action: "water", args: { plant: "p" } },
      { id: "done", kind: "terminal", outcome: "success" },
    ],
    edges: [
      { from: "each", to: "dry", label: "body" },
      { from: "dry", to: "water", label: "yes" },
      { from: "dry", to: "each", label: "no" },
      { from: "water", to: "each", label: "next" },
      { from: "each", to: "done", label: "done" },
    ],
  };
  assert.deepEqual([...loopBodies(skill).get("each")!].sort(), ["dry", "water"]);
  const layout = layoutSkill(skill);
  assert.equal(layout.nodes.length, 4);
  assert.equal(layout.edges.length, 5);
  assert.equal(layout.frames.length, 1);
  const frame = layout.frames[0];
  for (const id of ["dry", "water"]) {
    const n = layout.nodes.find((x) => x.node.id === id)!;
    assert.ok(n.x > frame.x && n.x < frame.x + frame.width, `${id} inside the frame`);
  }
  const svg = skillSvg(layout, {
    visits: new Map([["water", 2]]),
    taken: new Map([["dry->water", 2]]),
  });
  assert.equal(svg.match(/<g class="node /g)?.length, 4);
  assert.match(
    svg,
    /class="node kind-primitive visited" data-node="water" data-kind="primitive" data-visits="2"/,
  );
  assert.match(svg, /data-edge="dry-&gt;water" data-taken="2"/);
});

Deno.test("parseRunLog reads run-skill --json output and names a line that is not JSON", () => {
  const log = [
    JSON.stringify({ type: "task", goal: "fill the can", taskId: "t" }),
    JSON.stringify({
      type: "run",
      level: 0,
      event: { type: "start", skill: "fill", depth: 0, args: {} },
    }),
    JSON.stringify({
      type: "run",
      level: 0,
      event: { type: "think", skill: "fill", depth: 0, node: "can", text: "c := 'can 1'" },
    }),
    JSON.stringify({
      type: "run",
      level: 0,
      event: { type: "act", skill: "fill", depth: 0, node: "tap", action: "fill can 1" },
    }),
    JSON.stringify({
      type: "run",
      level: 0,
      event: {
        type: "end",
        skill: "fill",
        depth: 0,
        node: "tap",
        outcome: "failure",
        diagnosis: { node: "tap", message: "The tap is off" },
        steps: 2,
        actions: 1,
      },
    }),
    JSON.stringify({ result: { success: false, stop: "fill could not be achieved" } }),
  ].join("\n");
  const run = parseRunLog(log, "run.jsonl");
  assert.equal(run.goal, "fill the can");
  const fill = run.skills.get("fill")!;
  assert.deepEqual([...fill.visits], [["can", 1], ["tap", 1]]);
  assert.deepEqual([...fill.taken], [["can->tap", 1]]);
  assert.deepEqual(fill.failed, { node: "tap", message: "The tap is off" });
  assert.deepEqual(run.result, { success: false, stop: "fill could not be achieved" });
  assert.throws(
    () => parseRunLog("{}\nnot json\n", "bad.jsonl"),
    /bad\.jsonl:2:1: Not a JSON line/,
  );
});

Deno.test("view names what is wrong: a missing library, a bad skill file, bad flags", async () => {
  const missing = await runCli("cli/view.ts", ["--lib", "/nonexistent/lib", "--out", "/tmp/x"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /\/nonexistent\/lib\/index\.json: Cannot read file/);
  const { dir } = await honedLibrary();
  const broken = await Deno.makeTempDir();
  await Deno.mkdir(`${broken}/versions/1`, { recursive: true });
  await Deno.copyFile(`${dir}/index.json`, `${broken}/index.json`);
  await Deno.writeTextFile(`${broken}/versions/1/x.json`, JSON.stringify({ name: "x" }));
  const bad = await runCli("cli/view.ts", ["--lib", broken, "--out", `${broken}/site`]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /versions\/1\/x\.json: Invalid skill at/);
  const both = await runCli("cli/view.ts", ["--lib", dir, "--out", "/tmp/x", "--port", "1"]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /not both/);
  const help = await runCli("cli/view.ts", ["--help"]);
  assert.match(help.stdout, /^Usage: deno task view --lib <dir>/);
});

Deno.test("view --out writes the same pages as a static site", async () => {
  const { dir, run, results } = await honedLibrary();
  const out = await Deno.makeTempDir();
  const r = await runCli("cli/view.ts", [
    "--lib",
    dir,
    "--run",
    run,
    "--results",
    results,
    "--out",
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const library = await readLibraryData(dir);
  const pages = buildSite({
    library,
    runs: [parseRunLog(await Deno.readTextFile(run), run)],
    results: [{ source: results, data: JSON.parse(await Deno.readTextFile(results)) }],
  });
  for (const [path, html] of pages) {
    assert.equal(await Deno.readTextFile(`${out}/${path}`), html, path);
  }
  assert.ok(pages.has("index.html") && pages.has("run/1.html") && pages.has("results/1.html"));
  for (const v of library.versions) assert.ok(pages.has(`version/${v.version}.html`));
});

const chromium = chromiumPath();
const required = Deno.env.get("SKILLC_REQUIRE_CHROMIUM") === "1";
if (!chromium && required) throw new Error("SKILLC_REQUIRE_CHROMIUM=1 but no chromium on the PATH");

Deno.test({
  name:
    `the viewer in headless Chromium: every node drawn, a run's nodes marked, a graft in its version's diff${
      chromium ? "" : " (needs chromium on the PATH)"
    }`,
  ignore: !chromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { dir, run, results } = await honedLibrary();
    const library = await readLibraryData(dir);
    const log = await Deno.readTextFile(run);
    const shots = Deno.env.get("SKILLC_SCREENSHOTS") ?? await Deno.makeTempDir();
    await Deno.mkdir(shots, { recursive: true });
    // Served with a form that runs the agent on the deploy library.
    const server = serveLibrary({
      library,
      runs: [parseRunLog(log, "run.jsonl")],
      results: [{ source: "eval --hone", data: JSON.parse(await Deno.readTextFile(results)) }],
    }, { port: 0, runTask: (task) => agentRunLog(deployKit, dir, task, {}) });
    const base = `http://127.0.0.1:${server.addr.port}/`;
    const browser = await Browser.launch(chromium!);
    try {
      const page = await browser.page();
      const current = library.versions.at(-1)!;
      // Every skill page draws every node of its skill.
      for (const skill of current.skills) {
        await page.goto(`${base}skill/${skill.name}.html`);
        const drawn = await page.evaluate<string[]>(
          `[...document.querySelectorAll("svg.skill-graph g.node")].map((g) => g.dataset.node)`,
        );
        assert.deepEqual(drawn.sort(), skill.nodes.map((n) => n.id).sort(), skill.name);
        const edges = await page.evaluate<number>(`document.querySelectorAll("g.edge").length`);
        assert.equal(edges, skill.edges.length);
      }
      const graftSkill = current.skills.find((s) => s.grafts?.length)!;
      await page.goto(`${base}skill/${graftSkill.name}.html`);
      await page.screenshot(`${shots}/skill.png`);
      // The run: the nodes its events name are the visited ones.
      await page.goto(`${base}run/1.html`);
      for (const skill of current.skills) {
        const visited = await page.evaluate<string[]>(
          `[...document.querySelectorAll('[data-run-skill="${skill.name}"] g.node.visited')].map((g) => g.dataset.node)`,
        );
        assert.deepEqual(visited.sort(), [...nodesRunIn(log, skill.name)].sort(), skill.name);
      }
      assert.ok(nodesRunIn(log, graftSkill.name).size > 0);
      // Step by step: the third step marks its node as current.
      const stepped = await page.evaluate<string>(
        `document.getElementById("next").click(); document.getElementById("next").click(); document.getElementById("next").click(); document.querySelector("g.node.current")?.dataset.node ?? ""`,
      );
      const third = await page.evaluate<string>(
        `document.querySelectorAll(".steps li")[2].dataset.node`,
      );
      assert.equal(stepped, third);
      await page.screenshot(`${shots}/run.png`);
      // The task program's nodes: its bindings and the calls it made.
      const program = log.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l))
        .find((d) => d.type === "plan").program as string;
      const programVisited = await page.evaluate<string[]>(
        `[...document.querySelectorAll('[data-run-skill="${program}"] g.node.visited')].map((g) => g.dataset.node)`,
      );
      const named = new Set<string>();
      for (const line of log.split("\n").filter((l) => l !== "")) {
        const d = JSON.parse(line);
        if ((d.type === "decide" || d.type === "call") && d.node && (d.level ?? 0) === 0) {
          named.add(d.node);
        }
      }
      assert.ok(named.size >= 2);
      assert.deepEqual(programVisited.sort(), [...named].sort());
      // A run started from the page: the same task, drawn the same way.
      await page.goto(`${base}index.html`);
      await page.navigateBy(
        `document.querySelector("input[name=task]").value = "3"; document.querySelector("form").submit()`,
      );
      assert.match(await page.evaluate<string>(`location.pathname`), /^\/run\/2\.html$/);
      for (const skill of current.skills) {
        const visited = await page.evaluate<string[]>(
          `[...document.querySelectorAll('[data-run-skill="${skill.name}"] g.node.visited')].map((g) => g.dataset.node)`,
        );
        assert.deepEqual(visited.sort(), [...nodesRunIn(log, skill.name)].sort(), skill.name);
      }
      // The version that grafted: its diff marks the graft's nodes as added.
      const { version, skill } = graftVersion(library);
      await page.goto(`${base}version/${version}.html`);
      const added = await page.evaluate<string[]>(
        `[...document.querySelectorAll("g.node.added")].map((g) => g.dataset.node)`,
      );
      const graftNodes = skill.grafts!.flatMap((g) => g.nodes);
      assert.ok(graftNodes.length > 0);
      assert.deepEqual(added.sort(), [...graftNodes].sort());
      assert.match(
        await page.evaluate<string>(`document.body.innerText`),
        /graft g\w+ made \(tentative\)/,
      );
      await page.screenshot(`${shots}/version.png`);
      // The version that solidified it says so.
      const solid = library.versions.find((v) => v.changes.some((c) => c.kind === "solidify"));
      if (solid) {
        await page.goto(`${base}version/${solid.version}.html`);
        assert.match(
          await page.evaluate<string>(`document.body.innerText`),
          /graft g\w+ tentative -> permanent/,
        );
      }
      // Results as bars: one per task type and variant.
      await page.goto(`${base}results/1.html`);
      const report = JSON.parse(await Deno.readTextFile(results));
      const bars = await page.evaluate<number>(`document.querySelectorAll("rect.bar").length`);
      assert.equal(bars, Object.keys(report.by_type).length);
      await page.screenshot(`${shots}/results.png`);
      for (const name of ["skill", "run", "version", "results"]) {
        const png = await Deno.readFile(`${shots}/${name}.png`);
        assert.deepEqual([...png.slice(1, 4)], [80, 78, 71], `${name}.png is a PNG`);
      }
      await page.close();
    } finally {
      await browser.close();
      await server.shutdown();
    }
  },
});
