/**
 * Runnable documentation: the blocks of the README and of `docs/*.md` that
 * are marked as runnable, how their shown output is compared with what the
 * commands print, and how they are run. `tests/docs_test.ts` uses it; the
 * convention is described there and in `docs/contributing.md`.
 *
 * @module
 */

/** A `sh` block marked runnable, with the output shown after it (if any). */
export interface RunnableBlock {
  /** The page, relative to the project root (`README.md`, `docs/commands.md`). */
  file: string;
  /** The 1-based line of the block's opening fence. */
  line: number;
  /** The block's text: one or more `deno task` commands. */
  command: string;
  /** The text of the ```text block that follows it; `undefined`: only success is checked. */
  expected?: string;
  /** The 1-based line of the expected block's opening fence. */
  expectedLine?: number;
  /** Marked `<!-- runnable: needs data -->`: reads `../shared/data`, skipped without it. */
  needsData: boolean;
}

/** The marker: an HTML comment on its own line before a ```sh block. */
const MARKER = /^<!-- runnable(: needs data)? -->$/;

/** The wildcard: a line of its own matches any lines, inside a line any text. */
export const WILDCARD = "…";

/** Finds the runnable blocks of a markdown page, in order. */
export function runnableBlocks(markdown: string, file: string): RunnableBlock[] {
  const lines = markdown.split("\n");
  const blocks: RunnableBlock[] = [];
  /** The fenced block opening at `start` (after blank lines): its language, text and end. */
  const fenceAt = (start: number) => {
    let i = start;
    while (i < lines.length && lines[i].trim() === "") i++;
    const open = /^```(\w*)\s*$/.exec(lines[i] ?? "");
    if (!open) return undefined;
    const end = lines.findIndex((l, k) => k > i && /^```\s*$/.test(l));
    if (end < 0) throw new SyntaxError(`${file}:${i + 1}: the block is not closed`);
    return { lang: open[1], line: i + 1, text: lines.slice(i + 1, end).join("\n"), end };
  };
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i].trim());
    if (!marker) continue;
    const code = fenceAt(i + 1);
    if (!code || code.lang !== "sh") {
      throw new SyntaxError(
        `${file}:${i + 1}: "<!-- runnable -->" must come before a \`\`\`sh block`,
      );
    }
    const output = fenceAt(code.end + 1);
    const shown = output?.lang === "text" ? output : undefined;
    blocks.push({
      file,
      line: code.line,
      command: code.text,
      expected: shown?.text,
      expectedLine: shown?.line,
      needsData: marker[1] !== undefined,
    });
    i = (shown ?? code).end;
  }
  return blocks;
}

/**
 * The commands of a block, continuation lines joined and comments left out;
 * throws a `SyntaxError` naming the line when one is not a `deno task`.
 */
export function taskCommands(block: RunnableBlock): string[] {
  const commands = block.command.replace(/\s*\\\n\s*/g, " ").split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  for (const c of commands) {
    if (!/^deno task [\w:-]+/.test(c)) {
      throw new SyntaxError(
        `${block.file}:${block.line}: a runnable block runs only "deno task ..." commands, not "${c}"`,
      );
    }
  }
  return commands;
}

/** Colour codes, should a command print any despite NO_COLOR. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

const NUMBER = /^-?\d[\d,]*(\.\d+)?$/;

/**
 * The lines of an output as they are compared: trailing spaces and blank
 * lines dropped; a number followed by ` s` (a timing) is `#`; in a markdown
 * table, cells are trimmed, separator cells are `---` (colons kept) and the
 * cells of a `seconds` column are `#`.
 */
export function normalise(text: string): string[] {
  const out: string[] = [];
  let secondsColumns: number[] = [];
  let inTable = false;
  for (const raw of text.replace(ANSI, "").split("\n")) {
    let line = raw.trimEnd().replace(/\d[\d,]*(\.\d+)?(?= s\b)/g, "#");
    if (line.startsWith("|")) {
      const cells = line.replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
      if (!inTable) {
        secondsColumns = cells.flatMap((c, k) => c === "seconds" ? [k] : []);
      } else {
        for (const k of secondsColumns) if (NUMBER.test(cells[k] ?? "")) cells[k] = "#";
      }
      line = "| " + cells.map((c) => c.replace(/^(:?)-+(:?)$/, "$1---$2")).join(" | ") + " |";
      inTable = true;
    } else {
      inTable = false;
    }
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

/** Whether a shown line (wildcards allowed) matches a printed one, both normalised. */
function lineMatches(shown: string, printed: string): boolean {
  if (!shown.includes(WILDCARD)) return shown === printed;
  const pattern = shown.split(WILDCARD).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${pattern}$`).test(printed);
}

/**
 * Compares the output shown in the docs with what the command printed.
 *
 * @returns `undefined` when it matches, else a message with both texts and
 *   the first line (of the shown text) that does not match.
 */
export function compareOutput(shown: string, printed: string): string | undefined {
  const want = normalise(shown);
  const got = normalise(printed);
  // fits[i][j]: want[i..] matches got[j..].
  const fits = Array.from({ length: want.length + 1 }, () => new Array<boolean>(got.length + 1));
  for (let i = want.length; i >= 0; i--) {
    for (let j = got.length; j >= 0; j--) {
      if (i === want.length) fits[i][j] = j === got.length;
      else if (want[i] === WILDCARD) {
        fits[i][j] = fits[i + 1][j] || (j < got.length && fits[i][j + 1]);
      } else fits[i][j] = j < got.length && lineMatches(want[i], got[j]) && fits[i + 1][j + 1];
    }
  }
  if (fits[0][0]) return undefined;
  // The first shown line no way of matching gets past.
  let reach = new Set([0]);
  let i = 0;
  for (; i < want.length; i++) {
    const next = new Set<number>();
    for (const j of reach) {
      if (want[i] === WILDCARD) { for (let k = j; k <= got.length; k++) next.add(k); }
      else if (j < got.length && lineMatches(want[i], got[j])) next.add(j + 1);
    }
    if (next.size === 0) break;
    reach = next;
  }
  const where = i < want.length
    ? `shown line ${i + 1} ${JSON.stringify(want[i])} matches no printed line there`
    : "the printed output goes on after the shown one ends";
  return `${where}\n--- shown\n${shown}\n--- printed\n${printed}`;
}

/** What a block printed and how it exited. */
export interface BlockOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Where a block runs: the project root, its `out/` folder, the data folder. */
export interface BlockPlaces {
  /** The project root (the commands' working directory). */
  root: string;
  /** The folder `out/` stands for. */
  out: string;
  /** The folder `../shared/data/` stands for (with a trailing slash). */
  data: string;
}

/**
 * Runs a block's commands with `sh -e` from the project root, `out/` in
 * them pointing into `places.out` (shown as `out/` again in the output)
 * and `../shared/data/` into `places.data`.
 */
export async function runBlock(block: RunnableBlock, places: BlockPlaces): Promise<BlockOutput> {
  taskCommands(block);
  const script = block.command
    .replace(/(^|[\s'"=:])out\//gm, `$1${places.out}/`)
    .replaceAll("../shared/data/", places.data);
  const deno = Deno.execPath().replace(/\/[^/]*$/, "");
  const out = await new Deno.Command("sh", {
    args: ["-ec", script],
    cwd: places.root,
    env: { NO_COLOR: "1", PATH: `${deno}:${Deno.env.get("PATH") ?? ""}` },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b).replaceAll(places.out, "out");
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}
