import assert from "node:assert/strict";
import { runCli, runCliProcess } from "./_run.ts";

/** The rows of the first markdown table after `heading`: variant -> cells. */
function tableRows(text: string, heading: RegExp): Map<string, string[]> {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => heading.test(l));
  if (start < 0) throw new Error(`No line matches ${heading}`);
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith("|")) {
      if (rows.size > 0) break;
      continue;
    }
    const cells = line.split("|").slice(1, -1).map((c) => c.trim());
    if (!cells[0].startsWith("-")) rows.set(cells[0], cells.slice(1));
  }
  return rows;
}

Deno.test("demo induces from built-in demonstrations and compares the variants on unseen tasks", async () => {
  // In a subprocess with the permissions of `deno task demo`, as the README runs it.
  const r = await runCliProcess("cli/demo.ts", ["--n", "9"], ["--allow-read", "--allow-write"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /== 1\. Demonstrations ==\nThe expert solved 20 demonstration tasks/);
  assert.match(r.stdout, /== 2\. Induction ==/);
  assert.match(r.stdout, /skill craft_item\(item: Item\): 1 loop/);
  assert.match(
    r.stdout,
    /task program depth1: item := select_one\(x: Item, goal\(x, 1\)\); craft_item\(item = item\)/,
  );
  const rows = tableRows(
    r.stdout,
    /^== 3\. Evaluation on 9 unseen tasks, depths 2, 3 and 4 in turn, on the built-in recipe set ==$/,
  );
  assert.deepEqual([...rows.keys()], ["variant", "expert", "linear", "full", "knowledge", "hone"]);
  // The planned share is a column only when look-ahead or the fallback chose an action.
  const header = rows.get("variant")!;
  assert.deepEqual(header.filter((c) => c !== "planned"), [
    "success",
    "avg steps",
    "invalid",
    "steps/skill",
    "skill calls",
    "LLM calls",
    "seconds",
  ]);
  const cell = (v: string, column: string) => rows.get(v)![header.indexOf(column)];
  const success = (v: string) => Number(/^([\d.]+)%/.exec(cell(v, "success"))![1]);
  assert.equal(cell("expert", "success"), "100.0% (9/9)");
  assert.equal(cell("expert", "steps/skill"), "-", "the expert calls no skills");
  assert.ok(success("full") > success("linear"), r.stdout);
  for (const v of ["expert", "linear", "full", "knowledge", "hone"]) {
    assert.equal(cell(v, "LLM calls"), "0");
  }
  const types = tableRows(r.stdout, /^Success per task type:$/);
  assert.deepEqual([...types.keys()], ["task type", "depth2", "depth3", "depth4"]);
  // The progress bars go to stderr, one final line per variant when not a terminal.
  assert.match(r.stderr, /full \[#+\] 9\/9/);
});

Deno.test("demo rejects a bad environment or option with exit 2", async () => {
  const bad = await runCli("cli/demo.ts", ["--env", "moon"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Unknown environment "moon"; known: "textcraft", "alfworld"/);
  const seed = await runCli("cli/demo.ts", ["--env", "alfworld", "--seed", "3"]);
  assert.equal(seed.code, 2);
  assert.match(seed.stderr, /ALFWorld takes no task selector "seed"/);
  const help = await runCli("cli/demo.ts", ["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: deno task demo \[--env <env>\]/);
});
