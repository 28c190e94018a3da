import assert from "node:assert/strict";
import {
  type AlignInput,
  alignSequences,
  type Column,
  toBlocks,
} from "../../compiler/operators/branching.ts";

/** An element: its key plus the member and position it came from, so columns show what went where. */
interface El {
  k: string;
  at: string;
}

function seq(member: number, keys: string, exits = true): AlignInput<El> {
  return {
    member,
    elems: keys.split(" ").filter((k) => k).map((k, i) => ({ k, at: `${member}.${i}` })),
    exits,
  };
}

/** Each column as `key: member=position ...`. */
function show(columns: readonly Column<El>[]): string[] {
  return columns.map((c) =>
    `${c.key}: ${
      [...c.occ.entries()].sort((a, b) => a[0] - b[0]).map(([m, e]) => `${m}=${e.at}`).join(" ")
    }`
  );
}

const key = (e: El) => e.k;

Deno.test("alignSequences() shares a column between elements of the longest common subsequence", () => {
  const cols = alignSequences([seq(0, "a b c"), seq(1, "a c")], key);
  assert.deepEqual(show(cols), ["a: 0=0.0 1=1.0", "b: 0=0.1", "c: 0=0.2 1=1.1"]);
  // Each column holds the member's own element, not the first member's.
  assert.equal(cols[2].occ.get(1)?.at, "1.1");
});

Deno.test("alignSequences() pairs elements playing the same role among equally long alignments", () => {
  // Member 0 goes to the tap, fills, goes to the bed and waters; member 1 goes to the bed and waters.
  const roles: Record<string, string> = { "0.0": "tap", "0.2": "bed", "1.0": "bed" };
  const role = (_m: number, e: El) => roles[e.at] ?? "";
  const cols = alignSequences([seq(0, "go fill go water"), seq(1, "go water")], key, role);
  assert.deepEqual(show(cols), [
    "go: 0=0.0",
    "fill: 0=0.1",
    "go: 0=0.2 1=1.0",
    "water: 0=0.3 1=1.1",
  ]);
  // Without roles the first "go" is taken.
  const plain = alignSequences([seq(0, "go fill go water"), seq(1, "go water")], key);
  assert.equal(show(plain)[0], "go: 0=0.0 1=1.0");
});

Deno.test("alignSequences() inserts an unmatched run where it occurs, after the columns already there", () => {
  const cols = alignSequences([seq(0, "go x take", false), seq(1, "go y z take", false)], key);
  assert.deepEqual(show(cols), [
    "go: 0=0.0 1=1.0",
    "x: 0=0.1",
    "y: 1=1.1",
    "z: 1=1.2",
    "take: 0=0.2 1=1.3",
  ]);
  // A third member matching the inserted run joins its column.
  const three = alignSequences([
    seq(0, "go x take", false),
    seq(1, "go y take", false),
    seq(2, "go y take", false),
  ], key);
  assert.deepEqual(show(three), [
    "go: 0=0.0 1=1.0 2=2.0",
    "x: 0=0.1",
    "y: 1=1.1 2=2.1",
    "take: 0=0.2 1=1.2 2=2.2",
  ]);
});

Deno.test("alignSequences() places a run that ends its member's episode before the other members' tail", () => {
  const ending = alignSequences([seq(0, "a b c"), seq(1, "a d", true)], key);
  assert.deepEqual(show(ending), ["a: 0=0.0 1=1.0", "d: 1=1.1", "b: 0=0.1", "c: 0=0.2"]);
  // The same run in a member that goes on (its episode does not end) comes last.
  const going = alignSequences([seq(0, "a b c"), seq(1, "a d", false)], key);
  assert.deepEqual(show(going), ["a: 0=0.0 1=1.0", "b: 0=0.1", "c: 0=0.2", "d: 1=1.1"]);
  // Only a trailing run ends the episode: a run before a matched column stays after the existing gap.
  const inner = alignSequences([seq(0, "a b c"), seq(1, "a d c", true)], key);
  assert.deepEqual(show(inner), ["a: 0=0.0 1=1.0", "b: 0=0.1", "d: 1=1.1", "c: 0=0.2 1=1.2"]);
});

Deno.test("alignSequences() of a single member is its own sequence, and of none is empty", () => {
  assert.deepEqual(show(alignSequences([seq(4, "p q p")], key)), [
    "p: 4=4.0",
    "q: 4=4.1",
    "p: 4=4.2",
  ]);
  assert.deepEqual(alignSequences([], key), []);
});

/** Each block as `keys | members | reaching | exiting`. */
function blocksOf(inputs: AlignInput<El>[]): string[] {
  return toBlocks(alignSequences(inputs, key), inputs).map((b) =>
    [
      b.columns.map((c) => c.key).join(" "),
      b.members.join(","),
      b.reaching.join(","),
      b.exiting.join(","),
    ].join(" | ")
  );
}

Deno.test("toBlocks() groups consecutive columns with the same members and tells who reaches and exits", () => {
  assert.deepEqual(blocksOf([seq(0, "a b c"), seq(1, "a d")]), [
    "a | 0,1 | 0,1 | ",
    // Member 1 ends after d: d is skipped by member 0, which still reaches it.
    "d | 1 | 0,1 | 1",
    // Member 1 has ended: only member 0 reaches the rest.
    "b c | 0 | 0 | 0",
  ]);
});

Deno.test("toBlocks() starts a new block after a column where a member's episode ends", () => {
  assert.deepEqual(blocksOf([seq(0, "a b"), seq(1, "a b c", false)]), [
    "a b | 0,1 | 0,1 | 0",
    "c | 1 | 1 | ",
  ]);
  // Members whose sequences do not end their episode reach every block.
  assert.deepEqual(blocksOf([seq(0, "a b", false), seq(1, "a b c", false)]), [
    "a b | 0,1 | 0,1 | ",
    "c | 1 | 0,1 | ",
  ]);
});

Deno.test("toBlocks() counts a member with no elements as reaching nothing when it exits, everything when not", () => {
  assert.deepEqual(blocksOf([seq(0, "a"), seq(1, "", true)]), ["a | 0 | 0 | 0"]);
  assert.deepEqual(blocksOf([seq(0, "a"), seq(1, "", false)]), ["a | 0 | 0,1 | 0"]);
});

Deno.test("toBlocks() sorts members by id whatever the order of the inputs", () => {
  assert.deepEqual(blocksOf([seq(3, "a b"), seq(1, "a c")]), [
    "a | 1,3 | 3,1 | ",
    "c | 1 | 3,1 | 1",
    "b | 3 | 3 | 3",
  ]);
});
