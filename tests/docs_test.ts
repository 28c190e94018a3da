/**
 * Docs that are tested: every command block of `README.md` and `docs/*.md`
 * marked as runnable is run, and the output shown beside it must still be
 * what the commands print, so the docs cannot drift from the code.
 *
 * The convention (also in `docs/contributing.md`):
 *
 * - `<!-- runnable -->` on its own line marks the ```sh block after it. The
 *   block holds only `deno task ...` commands (comments and `\` line
 *   continuations allowed); they run with `sh -e` from the project root on
 *   built-in data. `<!-- runnable: needs data -->` marks a block that reads
 *   the benchmark data (`../shared/data`, or the folder `SKILLC_DATA` names):
 *   it is skipped, saying so, when the data is missing.
 * - The ```text block right after it (blank lines between allowed) is the
 *   output: what the commands print on stdout (progress bars go to stderr).
 *   Without one, the commands must only succeed.
 * - `out/` in the commands is a fresh temporary folder, one per page and
 *   shared by its blocks in order (a page's `induce` feeds its `eval`), and
 *   is shown as `out/` in the output.
 * - What varies from run to run is not compared: a number followed by ` s`
 *   (a timing: `(0.2 s)`) and the cells of a table column headed `seconds`;
 *   table cells are compared trimmed, so a column's width may change.
 * - `…` on a line of its own stands for any number of lines (none
 *   included), to shorten a long output; `…` inside a line for any text on
 *   that line.
 *
 * @module
 */
import assert from "node:assert/strict";
import { DATA_DIR, HAS_DATA } from "./_data.ts";
import {
  compareOutput,
  normalise,
  runBlock,
  type RunnableBlock,
  runnableBlocks,
  taskCommands,
} from "./_docs.ts";

const root = new URL("../", import.meta.url);

/** The pages: the README, then every page of `docs/`, by name. */
function pages(): string[] {
  const docs = [...Deno.readDirSync(new URL("docs/", root))]
    .filter((e) => e.isFile && e.name.endsWith(".md"))
    .map((e) => `docs/${e.name}`)
    .sort();
  return ["README.md", ...docs];
}

const read = (page: string) => Deno.readTextFileSync(new URL(page, root));

/** The first command of a block, for the step's name. */
const title = (b: RunnableBlock) => `${b.file}:${b.line} ${taskCommands(b)[0] ?? ""}`.slice(0, 100);

for (const page of pages()) {
  const blocks = runnableBlocks(read(page), page);
  if (blocks.length === 0) continue;
  Deno.test(`${page}: each runnable block still prints the output shown beside it`, async (t) => {
    const out = await Deno.makeTempDir({ prefix: "skillc-docs-" });
    try {
      for (const block of blocks) {
        await t.step({
          name: title(block) + (block.needsData && !HAS_DATA ? " (needs the data)" : ""),
          ignore: block.needsData && !HAS_DATA,
          fn: async () => {
            const places = { root: root.pathname, out, data: DATA_DIR.pathname };
            const r = await runBlock(block, places);
            assert.equal(r.code, 0, `${block.file}:${block.line} failed:\n${r.stderr}`);
            if (block.expected === undefined) return;
            const drift = compareOutput(block.expected, r.stdout);
            assert.equal(
              drift,
              undefined,
              `${block.file}:${block.expectedLine}: the output shown no longer matches: ${drift}`,
            );
          },
        });
      }
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  });
}

Deno.test("compareOutput() accepts the same output and fails a drifted one, naming the line", () => {
  const shown =
    "== 3. Evaluation ==\n| variant | success |\n| --- | ---: |\n| full | 96.7% (58/60) |";
  assert.equal(compareOutput(shown, shown + "\n\n"), undefined);
  const drifted = shown.replace("96.7% (58/60)", "95.0% (57/60)");
  const message = compareOutput(shown, drifted);
  assert.ok(message);
  assert.match(message, /^shown line 4 "\| full \| 96\.7% \(58\/60\) \|" matches no printed line/);
  assert.match(message, /--- printed\n[^]*95\.0% \(57\/60\)/);
  // A line more, or a line less, is drift too.
  assert.ok(compareOutput(shown, shown + "\nTotal 1.3 s."));
  assert.ok(compareOutput(shown + "\nTotal 1.3 s.", shown));
});

Deno.test("compareOutput() ignores timings, seconds columns and table padding, nothing else", () => {
  const shown = [
    "1 skill (0.2 s); Total 1.3 s.",
    "| variant |  success | seconds |",
    "| ------- | -------: | ------: |",
    "| full    | 96.7%    |     0.1 |",
  ].join("\n");
  const printed = [
    "1 skill (12.5 s); Total 0.9 s.",
    "| variant | success | seconds |",
    "| --- | ---: | ---: |",
    "| full | 96.7% | 10.4 |",
  ].join("\n");
  assert.equal(compareOutput(shown, printed), undefined);
  assert.deepEqual(normalise(printed), [
    "1 skill (# s); Total # s.",
    "| variant | success | seconds |",
    "| --- | ---: | ---: |",
    "| full | 96.7% | # |",
  ]);
  // The same number in another column, or not followed by " s", is compared.
  assert.ok(compareOutput(shown, printed.replace("96.7%", "96.8%")));
  assert.ok(compareOutput("in 0.2 steps", "in 0.3 steps"));
});

Deno.test("compareOutput() lets … stand for any lines, or for any text in a line", () => {
  const printed = "Task t\nline 1\nline 2\nline 3\nResult: success in 4 actions";
  assert.equal(compareOutput("Task t\n…\nResult: success in 4 actions", printed), undefined);
  assert.equal(compareOutput("…\nline 2\n…", printed), undefined);
  assert.equal(compareOutput("Task t\nline 1\n…\nline 2\nline 3\n…", printed), undefined);
  assert.equal(compareOutput("Task t\n…\nResult: success in … actions", printed), undefined);
  const drift = compareOutput("Task t\n…\nResult: failure", printed);
  assert.ok(drift);
  assert.match(drift, /^shown line 3 "Result: failure" matches no printed line there/);
});

Deno.test("runnableBlocks() finds marked sh blocks, their shown output and the data mark", () => {
  const page = [
    "<!-- runnable -->", // 1
    "", // 2
    "```sh", // 3
    "deno task demo   # the demo", // 4
    "```", // 5
    "", // 6
    "```text", // 7
    "== 1. Demonstrations ==", // 8
    "```", // 9
    "",
    "```sh",
    "deno task test",
    "```",
    "<!-- runnable: needs data -->",
    "```sh",
    "deno task replay --env alfworld \\",
    "  --transcripts ../shared/data/alfworld/react_demos_2per_type.json",
    "```",
    "Prose, then an unrelated block:",
    "```text",
    "not an output",
    "```",
  ].join("\n");
  const blocks = runnableBlocks(page, "page.md");
  assert.equal(blocks.length, 2, "the unmarked block is not run");
  assert.deepEqual(blocks[0], {
    file: "page.md",
    line: 3,
    command: "deno task demo   # the demo",
    expected: "== 1. Demonstrations ==",
    expectedLine: 7,
    needsData: false,
  });
  assert.equal(blocks[1].needsData, true);
  assert.equal(blocks[1].expected, undefined, "a text block after prose is not its output");
  assert.deepEqual(taskCommands(blocks[1]), [
    "deno task replay --env alfworld --transcripts ../shared/data/alfworld/react_demos_2per_type.json",
  ]);
  assert.throws(
    () => taskCommands({ ...blocks[0], command: "rm -rf out" }),
    /page\.md:3: a runnable block runs only "deno task \.\.\." commands, not "rm -rf out"/,
  );
  assert.throws(
    () => runnableBlocks("<!-- runnable -->\n```ts\nx\n```", "p.md"),
    /p\.md:1: "<!-- runnable -->" must come before a ```sh block/,
  );
});

Deno.test("a runnable block whose shown output drifted from what the command prints fails", async () => {
  const out = await Deno.makeTempDir({ prefix: "skillc-docs-" });
  try {
    const page = [
      "<!-- runnable -->",
      "```sh",
      "deno task replay --help",
      "```",
      "```text",
      "Usage: deno task replay --env <env> --transcript <file>",
      "…",
      "```",
    ].join("\n");
    const [block] = runnableBlocks(page, "drift.md");
    const places = { root: root.pathname, out, data: DATA_DIR.pathname };
    const r = await runBlock(block, places);
    assert.equal(r.code, 0, r.stderr);
    const drift = compareOutput(block.expected!, r.stdout);
    assert.ok(drift, "the shown usage line lacks the s of --transcripts");
    assert.match(drift, /^shown line 1 "Usage: deno task replay --env <env> --transcript <file>"/);
    const fixed = block.expected!.replace("--transcript <file>", "--transcripts <file> …");
    assert.equal(compareOutput(fixed, r.stdout), undefined);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("the README links every page of docs/, and every relative link of the docs resolves", () => {
  const readme = read("README.md");
  for (const page of pages().slice(1)) {
    assert.ok(readme.includes(`](${page}`), `README.md does not link ${page}`);
  }
  const slug = (heading: string) =>
    heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
  const anchorsOf = (file: URL) =>
    new Set(
      Deno.readTextFileSync(file).replace(/^```[^]*?^```/gm, "").split("\n")
        .filter((l) => /^#{1,6} /.test(l)).map((l) => slug(l.replace(/^#+ /, ""))),
    );
  for (const page of pages()) {
    const base = new URL(page, root);
    const text = read(page).replace(/^```[^]*?^```/gm, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split("#");
      const file = path === "" ? base : new URL(path, base);
      let exists = true;
      try {
        Deno.statSync(file);
      } catch {
        exists = false;
      }
      assert.ok(exists, `${page}: the link ${target} points to no file`);
      if (anchor !== undefined && file.pathname.endsWith(".md")) {
        assert.ok(anchorsOf(file).has(anchor), `${page}: the link ${target} names no heading`);
      }
    }
  }
});
