/**
 * Branching: align the action sequences of several members (segments, or
 * loop iterations) to their common structure, and turn divergence into
 * guarded blocks. Alignment is progressive (each member is aligned to the
 * columns so far by longest common subsequence of keys); consecutive columns
 * taken by the same members form a block; a block needs a guard (a predicate
 * to invent) when some member that reaches it skips it.
 *
 * @module
 */

/** One sequence to align. */
export interface AlignInput<T> {
  member: number;
  elems: readonly T[];
  /** The member's episode ends after its last element (a success). */
  exits: boolean;
}

/** A column of the alignment: the element each member has there, if any. */
export interface Column<T> {
  key: string;
  occ: Map<number, T>;
}

/** A run of columns with the same members. */
export interface Block<T> {
  columns: Column<T>[];
  /** Members that execute the block. */
  members: number[];
  /** Members that reach the block (have not ended before it). */
  reaching: number[];
  /** Members whose episode ends right after the block. */
  exiting: number[];
}

/**
 * Aligns sequences into columns. Elements with equal keys in the longest
 * common subsequence share a column; the rest get columns of their own,
 * placed where they occur, a run that ends its member's episode before
 * runs that do not.
 *
 * @example Usage
 * ```ts
 * import { alignSequences } from "./branching.ts";
 * const cols = alignSequences([
 *   { member: 0, elems: ["go", "take"], exits: true },
 *   { member: 1, elems: ["go", "open", "take"], exits: true },
 * ], (e) => e);
 * console.log(cols.map((c) => c.key)); // [ "go", "open", "take" ]
 * ```
 */
export function alignSequences<T>(
  inputs: readonly AlignInput<T>[],
  key: (elem: T) => string,
  role?: (member: number, elem: T) => string,
): Column<T>[] {
  let columns: Column<T>[] = [];
  /** The role of each column: that of its first element. */
  const roles = new Map<Column<T>, string>();
  for (const input of inputs) {
    const keys = input.elems.map(key);
    const colKeys = columns.map((c) => c.key);
    const elemRoles = role ? input.elems.map((e) => role(input.member, e)) : undefined;
    const pairs = lcs(
      colKeys,
      keys,
      elemRoles ? (c, e) => roles.get(columns[c]) === elemRoles[e] : undefined,
    );
    const merged: Column<T>[] = [];
    let ci = 0;
    let ei = 0;
    const flushGap = (cEnd: number, eEnd: number) => {
      const existing = columns.slice(ci, cEnd);
      const fresh: Column<T>[] = [];
      for (let e = ei; e < eEnd; e++) {
        const col = { key: keys[e], occ: new Map([[input.member, input.elems[e]]]) };
        if (elemRoles) roles.set(col, elemRoles[e]);
        fresh.push(col);
      }
      const freshEndsEpisode = input.exits && eEnd === keys.length && fresh.length > 0;
      merged.push(...(freshEndsEpisode ? [...fresh, ...existing] : [...existing, ...fresh]));
      ci = cEnd;
      ei = eEnd;
    };
    for (const [c, e] of pairs) {
      flushGap(c, e);
      const col = columns[c];
      col.occ.set(input.member, input.elems[e]);
      merged.push(col);
      ci = c + 1;
      ei = e + 1;
    }
    flushGap(columns.length, keys.length);
    columns = merged;
  }
  return columns;
}

/**
 * Index pairs of a longest common subsequence of two key lists. Among
 * subsequences of the same length, the one with the most pairs whose roles
 * agree wins (`go to` the plant's bed aligns with `go to` the plant's bed,
 * not with `go to` the tap); earlier pairs win remaining ties.
 */
function lcs(
  a: readonly string[],
  b: readonly string[],
  sameRole?: (i: number, j: number) => boolean,
): [number, number][] {
  const n = a.length;
  const m = b.length;
  // A match scores 1, plus a fraction that never outweighs one more match.
  const bonus = 1 / (Math.min(n, m) + 1);
  const score = (i: number, j: number) => 1 + (sameRole?.(i, j) ? bonus : 0);
  const dp: number[][] = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const skip = Math.max(dp[i + 1][j], dp[i][j + 1]);
      dp[i][j] = a[i] === b[j] ? Math.max(skip, dp[i + 1][j + 1] + score(i, j)) : skip;
    }
  }
  const out: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j] && dp[i][j] === dp[i + 1][j + 1] + score(i, j)) {
      out.push([i, j]);
      i++;
      j++;
    } else if (dp[i + 1][j] >= dp[i][j + 1]) i++;
    else j++;
  }
  return out;
}

/**
 * Groups columns into blocks: a new block starts where the set of members
 * changes or after a column where some member's episode ends.
 */
export function toBlocks<T>(
  columns: readonly Column<T>[],
  inputs: readonly AlignInput<T>[],
): Block<T>[] {
  // The column after which each exiting member ends.
  const lastCol = new Map<number, number>();
  columns.forEach((col, i) => {
    for (const m of col.occ.keys()) lastCol.set(m, i);
  });
  const exitAt = new Map<number, number>();
  for (const input of inputs) {
    if (input.exits && lastCol.has(input.member)) {
      exitAt.set(input.member, lastCol.get(input.member)!);
    }
    if (input.exits && !lastCol.has(input.member)) exitAt.set(input.member, -1);
  }
  const all = inputs.map((i) => i.member);
  const blocks: Block<T>[] = [];
  let current: Block<T> | undefined;
  columns.forEach((col, i) => {
    const members = [...col.occ.keys()].sort((a, b) => a - b);
    const reaching = all.filter((m) => !exitAt.has(m) || exitAt.get(m)! >= i);
    const same = current !== undefined && current.exiting.length === 0 &&
      sameSet(current.members, members) && sameSet(current.reaching, reaching);
    if (!same) {
      current = { columns: [], members, reaching, exiting: [] };
      blocks.push(current);
    }
    current!.columns.push(col);
    current!.exiting = members.filter((m) => exitAt.get(m) === i);
  });
  return blocks;
}

function sameSet(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
