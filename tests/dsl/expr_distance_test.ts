// `distance(u, v: T, edge, a, b)`: shortest path lengths over the steps an
// edge condition admits in the current facts.
import assert from "node:assert/strict";
import { parseExpr } from "../../dsl/expr/parse.ts";
import { printExpr } from "../../dsl/expr/print.ts";
import { checkExpr } from "../../dsl/expr/check.ts";
import { evalExpr } from "../../dsl/expr/eval.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";

const vocab: Vocabulary = {
  name: "grid",
  types: { Cell: { kind: "object" }, Robot: { kind: "object" } },
  predicates: {
    adj: { params: ["Cell", "Cell"] },
    wall: { params: ["Cell"] },
    at: { params: ["Robot", "Cell"] },
  },
  functions: {},
  actions: {},
};

/** A 4x4 grid, 4-connected, with walls at c11, c12 and c21 (cNM: row N, column M). */
function grid(): FactStore {
  const cells: Record<string, string> = { r: "Robot" };
  const atoms = [];
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) {
      cells[`c${i}${j}`] = "Cell";
      for (const [di, dj] of [[0, 1], [1, 0], [0, -1], [-1, 0]]) {
        const [a, b] = [i + di, j + dj];
        if (a >= 0 && a < 4 && b >= 0 && b < 4) {
          atoms.push({ pred: "adj", args: [`c${i}${j}`, `c${a}${b}`] });
        }
      }
    }
  }
  for (const w of ["c11", "c12", "c21"]) atoms.push({ pred: "wall", args: [w] });
  atoms.push({ pred: "at", args: ["r", "c00"] });
  return new FactStore(atoms, cells);
}

const STEP = "adj(u, v) and not wall(v)";

function dist(from: string, to: string, facts = grid()): unknown {
  const text = `distance(u, v: Cell, ${STEP}, '${from}', '${to}')`;
  const e = parseExpr(text);
  assert.ok(e.ok);
  const r = evalExpr(e.value, { vocab, facts, scope: {} });
  assert.ok(r.ok, r.ok ? "" : r.error.message);
  return r.value;
}

Deno.test("distance counts the steps of a shortest path the edge condition admits", () => {
  assert.equal(dist("c00", "c00"), 0);
  assert.equal(dist("c00", "c01"), 1);
  // Around the walls: c00 c01 c02 c03 c13 c23 c22 = 6 steps.
  assert.equal(dist("c00", "c22"), 6);
  assert.equal(dist("c00", "c33"), 6);
});

Deno.test("distance to a node no path reaches is the number of nodes, more than any path", () => {
  // A wall is never entered.
  assert.equal(dist("c00", "c11"), 16);
  const facts = grid();
  // Walling in the start leaves nothing reachable.
  facts.add({ pred: "wall", args: ["c01"] });
  facts.add({ pred: "wall", args: ["c10"] });
  assert.equal(dist("c00", "c33", facts), 16);
});

Deno.test("distance reads its ends and edge from the scope, and compares as a number", () => {
  const e = parseExpr(
    `exists(c: Cell, adj(here, c) and distance(u, v: Cell, ${STEP}, c, goal) < distance(u, v: Cell, ${STEP}, here, goal))`,
  );
  assert.ok(e.ok);
  const facts = grid();
  const closer = evalExpr(e.value, { vocab, facts, scope: { here: "c00", goal: "c33" } });
  assert.deepEqual(closer, { ok: true, value: true });
  const sel = parseExpr(
    `select_all(c: Cell, adj(here, c) and not wall(c) and distance(u, v: Cell, ${STEP}, c, goal) < distance(u, v: Cell, ${STEP}, here, goal))`,
  );
  assert.ok(sel.ok);
  // From c20 (4 steps from c22, along the bottom row) only c30 leads closer (3); c10 is 5
  // away, and the wall c21 is no step.
  const r = evalExpr(sel.value, { vocab, facts, scope: { here: "c20", goal: "c22" } });
  assert.deepEqual(r, { ok: true, value: ["c30"] });
});

Deno.test("distance round-trips through the printer and is type-checked", () => {
  const text = `distance(u, v: Cell, ${STEP}, a, b)`;
  const e = parseExpr(text);
  assert.ok(e.ok);
  assert.equal(printExpr(e.value), text);
  const ok = checkExpr(e.value, { vocab, vars: { a: "Cell", b: "Cell" } }, text);
  assert.deepEqual(ok, { ok: true, value: "Num" });
  const bad = parseExpr(`distance(u, v: Cell, at(u, v), a, r)`);
  assert.ok(bad.ok);
  const checked = checkExpr(bad.value, { vocab, vars: { a: "Cell", r: "Robot" } }, "");
  assert.ok(!checked.ok);
  const messages = checked.error.map((x) => x.message).join("; ");
  assert.match(messages, /Argument 1 of "at" must be Robot/);
  assert.match(messages, /The end of "distance" must be Cell but is Robot/);
});

Deno.test("distances over the same graph share one search per target, whichever node asks", () => {
  // One search back from c33 takes 18 steps of the budget (each cell
  // the edge condition is tried on); comparing two starts asks for it twice.
  const source =
    `distance(u, v: Cell, ${STEP}, 'c01', 'c33') < distance(u, v: Cell, ${STEP}, 'c00', 'c33')`;
  const e = parseExpr(source);
  assert.ok(e.ok);
  const r = evalExpr(e.value, { vocab, facts: grid(), scope: {}, budget: 18 });
  assert.deepEqual(r, { ok: true, value: true });
  // Another edge is another graph: its search is its own.
  const other = parseExpr(
    `distance(u, v: Cell, adj(u, v), 'c01', 'c33') < distance(u, v: Cell, ${STEP}, 'c00', 'c33')`,
  );
  assert.ok(other.ok);
  assert.equal(evalExpr(other.value, { vocab, facts: grid(), scope: {}, budget: 18 }).ok, false);
});

Deno.test("distances kept across evaluations follow the facts their edge reads", () => {
  const facts = grid();
  assert.equal(dist("c00", "c22", facts), 6);
  // A wall removed: the same question gets the shorter way at once.
  facts.remove({ pred: "wall", args: ["c12"] });
  assert.equal(dist("c00", "c22", facts), 4);
  // A copy holds the same walls; a change to another predicate keeps the answer.
  const copy = facts.clone();
  copy.apply({ add: [{ pred: "at", args: ["r", "c33"] }], remove: [] });
  assert.equal(dist("c00", "c22", copy), 4);
  // Walling the copy changes its distances, not the original's.
  copy.add({ pred: "wall", args: ["c12"] });
  assert.equal(dist("c00", "c22", copy), 6);
  assert.equal(dist("c00", "c22", facts), 4);
  // A new cell declared: unreachable distances count it.
  facts.declare("c44", "Cell");
  assert.equal(dist("c00", "c44", facts), 17);
  assert.equal(dist("c00", "c44", copy), 16);
});

Deno.test("FactStore.version changes with a predicate's atoms and is kept by clone", () => {
  const facts = grid();
  const wall = facts.version("wall");
  const objects = facts.version();
  assert.equal(facts.clone().version("wall"), wall);
  facts.add({ pred: "wall", args: ["c11"] }); // already there: no change
  assert.equal(facts.version("wall"), wall);
  facts.add({ pred: "wall", args: ["c33"] });
  assert.notEqual(facts.version("wall"), wall);
  assert.equal(facts.version(), objects);
  facts.declare("c44", "Cell");
  assert.notEqual(facts.version(), objects);
  assert.equal(new FactStore().version("wall"), 0);
});
