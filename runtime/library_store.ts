/**
 * A versioned skill library on disk. Every change (induction, a graft, its
 * solidification or removal, a narrowed precondition, an edit) is a new
 * version; versions are never modified once written, and the current one is
 * named by `index.json`, which is replaced atomically as the last step of a
 * write. Layout:
 *
 * ```
 * <dir>/index.json                 {format: "skillc/library@1", vocabulary, version: N, time,
 *                                   skills: [{name, file: "versions/N/<skill>.json",
 *                                   mermaid: "versions/N/<skill>.mmd"}], templates: [...]}:
 *                                  the current version (templates: see `task_template.ts`)
 * <dir>/versions/<N>/<skill>.json  the skill files of version N
 * <dir>/versions/<N>/<skill>.mmd   the Mermaid diagram of each skill
 * <dir>/history.jsonl              one JSON object per change:
 *                                  {version, time, kind, skill?, detail?}
 * ```
 *
 * A commit of version N (see {@linkcode LibraryStore.commit}) runs these
 * steps, each of which leaves the previous version loadable if the process
 * dies right after it:
 *
 * 1. write every file into `versions/.tmp-N-<random>/`;
 * 2. rename that directory to `versions/N/`;
 * 3. append the change lines to `history.jsonl`;
 * 4. replace `index.json` (temporary file + rename).
 *
 * Until step 4 the index names version N-1, so readers (including
 * {@linkcode loadLibrary}) see the old version. The leftovers of an
 * interrupted commit (temporary directories, version directories newer than
 * the index, history lines of versions newer than the index, a torn last
 * history line) are ignored by readers and removed by the next commit.
 *
 * The store assumes a single writer: a commit refuses to run when the index
 * on disk is no longer the version the store was opened at.
 *
 * @module
 */
import { z } from "zod";
import { skillToMermaid } from "../dsl/graph/mermaid.ts";
import type { Skill } from "../dsl/graph/schema.ts";
import type { Vocabulary } from "../dsl/vocabulary.ts";
import { InputFileError, readJsonFile, writeTextFileAtomic } from "./json_file.ts";
import {
  compileSkills,
  type LibraryIndex,
  LibraryIndexSchema,
  loadIndexedSkills,
  readLibraryIndex,
  type SkillLibrary,
} from "./library.ts";
import type { TaskTemplate } from "./task_template.ts";

/** What a change to the library did. */
export type ChangeKind = "induce" | "graft" | "solidify" | "remove" | "narrow" | "edit";
/** Every {@linkcode ChangeKind}. */
export const CHANGE_KINDS: readonly ChangeKind[] = [
  "induce",
  "graft",
  "solidify",
  "remove",
  "narrow",
  "edit",
];

/** One change recorded with a commit. */
export interface Change {
  /** What kind of change it was. */
  kind: ChangeKind;
  /** The skill changed, when the change concerns one skill. */
  skill?: string;
  /** Free text: what and why. */
  detail?: string;
}

/** One line of `history.jsonl`. */
export interface HistoryEntry extends Change {
  /** The version the change produced. */
  version: number;
  /** When the version was written (ISO 8601). */
  time: string;
}
/** Zod schema of a {@linkcode HistoryEntry}. */
export const HistoryEntrySchema: z.ZodType<HistoryEntry, HistoryEntry> = z.object({
  version: z.number().int().positive(),
  time: z.string(),
  kind: z.enum(["induce", "graft", "solidify", "remove", "narrow", "edit"]),
  skill: z.string().optional(),
  detail: z.string().optional(),
});
const ChangeSchema = z.object({
  kind: z.enum(["induce", "graft", "solidify", "remove", "narrow", "edit"]),
  skill: z.string().optional(),
  detail: z.string().optional(),
});

/**
 * The steps of a commit, reported to {@linkcode StoreOptions.onCommitStep}
 * right after each one: `skill-file` after each skill's files are written
 * into the temporary directory, `version-dir` after it is renamed into
 * place, `history` after the history lines are appended. (The last step,
 * replacing the index, completes the commit.)
 */
export type CommitStep = "skill-file" | "version-dir" | "history";

/** Options of {@linkcode LibraryStore.open} and {@linkcode LibraryStore.create}. */
export interface StoreOptions {
  /**
   * Called after each step of a commit. Throwing from it stops the commit
   * there, which is how tests simulate a process dying mid-write.
   */
  onCommitStep?: (step: CommitStep) => void | Promise<void>;
  /** The clock for history times. @default () => new Date() */
  now?: () => Date;
  /**
   * Called when a commit has written its index: what else the library keeps
   * in step with its version (the generated package) is rewritten here.
   */
  afterCommit?: (store: LibraryStore) => Promise<void>;
}

/** Options of {@linkcode LibraryStore.create}. */
export interface CreateOptions extends StoreOptions {
  /**
   * Write into a directory that already holds other files or a library. An
   * existing library (index, versions, history) is discarded; other files
   * are left alone. @default false
   */
  overwrite?: boolean;
  /** The task templates of version 1. @default [] */
  templates?: TaskTemplate[];
}

/** Options of {@linkcode LibraryStore.commit}. */
export interface CommitOptions {
  /** The task templates of the new version. @default the current version's templates */
  templates?: TaskTemplate[];
}

const INDEX = "index.json";
const HISTORY = "history.jsonl";
const VERSIONS = "versions";
const TMP_PREFIX = ".tmp-";

/** A temporary file older than this is a leftover of a writer that died. */
const STALE_TEMP_MS = 60_000;

/**
 * Removes the temporary index and history files a killed writer left (a
 * minute old or more: a younger one may belong to a writer still at work).
 */
async function removeStaleTempFiles(dir: string): Promise<void> {
  const now = Date.now();
  for await (const e of Deno.readDir(dir)) {
    if (
      !e.isFile || !(e.name.startsWith(`${INDEX}.tmp-`) || e.name.startsWith(`${HISTORY}.tmp-`))
    ) {
      continue;
    }
    const path = `${dir}/${e.name}`;
    const info = await Deno.stat(path).catch(() => undefined);
    const age = info?.mtime ? now - info.mtime.getTime() : 0;
    if (age >= STALE_TEMP_MS) await Deno.remove(path).catch(() => {});
  }
}

/**
 * A versioned library directory: the skills of the current version,
 * compiled, plus the history of changes.
 *
 * @example Usage
 * ```ts ignore
 * const store = await LibraryStore.create("lib", vocab, skills, { kind: "induce" });
 * const edited = store.skills().map((s) => ({ ...s, doc: { ...s.doc, pre: "ready()" } }));
 * await store.commit(edited, [{ kind: "narrow", skill: edited[0].name, detail: "closed" }]);
 * console.log(store.version); // 2
 * ```
 */
export class LibraryStore {
  /** The library directory. */
  readonly dir: string;
  /** The vocabulary the skills are written against. */
  readonly vocab: Vocabulary;
  #version: number;
  #skills: Skill[];
  #library: SkillLibrary;
  #options: StoreOptions;
  #templates: TaskTemplate[];

  private constructor(
    dir: string,
    vocab: Vocabulary,
    version: number,
    library: SkillLibrary,
    options: StoreOptions,
    templates: TaskTemplate[] = [],
  ) {
    this.dir = dir;
    this.vocab = vocab;
    this.#version = version;
    this.#library = library;
    this.#skills = library.programs().map((p) => p.skill);
    this.#options = options;
    this.#templates = templates;
  }

  /**
   * Opens the current version of a library directory.
   *
   * @throws {InputFileError} When the directory or its index is missing or
   * invalid, or a skill file does not validate.
   */
  static async open(
    dir: string,
    vocab: Vocabulary,
    options: StoreOptions = {},
  ): Promise<LibraryStore> {
    const kind = await pathKind(dir);
    if (kind === "missing") {
      throw new InputFileError(dir, "Cannot open library: the directory does not exist");
    }
    if (kind !== "dir") throw new InputFileError(dir, "Cannot open library: not a directory");
    if (await pathKind(`${dir}/${INDEX}`) === "missing") {
      throw new InputFileError(
        dir,
        `Cannot open library: no "${INDEX}" in the directory (not a skill library)`,
      );
    }
    await removeStaleTempFiles(dir);
    const index = await readLibraryIndex(dir, vocab);
    const library = await loadIndexedSkills(dir, index, vocab);
    return new LibraryStore(dir, vocab, index.version, library, options, index.templates ?? []);
  }

  /**
   * Creates a library at version 1 holding `skills`. The directory may be
   * missing or empty (or hold only the leftovers of an interrupted create);
   * anything else is refused unless `overwrite` is set.
   *
   * @throws {Error} When the directory is not empty and `overwrite` is not set.
   * @throws {InputFileError} When a skill does not validate.
   */
  static async create(
    dir: string,
    vocab: Vocabulary,
    skills: Skill[],
    change: { kind: ChangeKind; detail?: string },
    options: CreateOptions = {},
  ): Promise<LibraryStore> {
    const kind = await pathKind(dir);
    if (kind === "file") throw new Error(`Cannot create library "${dir}": it is a file`);
    const hasIndex = kind === "dir" && await pathKind(`${dir}/${INDEX}`) !== "missing";
    const foreign = [];
    if (kind === "dir") {
      for await (const e of Deno.readDir(dir)) if (!isArtefact(e.name)) foreign.push(e.name);
    }
    if (!options.overwrite && hasIndex) {
      throw new Error(
        `Cannot create library "${dir}": it already holds a library; open it to commit a new version, or pass overwrite`,
      );
    }
    if (!options.overwrite && foreign.length > 0) {
      throw new Error(
        `Cannot create library "${dir}": the directory is not empty (found "${
          foreign.sort()[0]
        }"); pass overwrite to write into it`,
      );
    }
    const store = new LibraryStore(dir, vocab, 0, compileSkills([], vocab), options);
    // Validate before touching the directory, so bad skills never cost an existing library.
    store.#compile(skills);
    await Deno.mkdir(dir, { recursive: true });
    // Only library artefacts are removed, never other files of the directory.
    await Deno.remove(`${dir}/${INDEX}`).catch(ignoreNotFound);
    await Deno.remove(`${dir}/${HISTORY}`).catch(ignoreNotFound);
    await Deno.remove(`${dir}/${VERSIONS}`, { recursive: true }).catch(ignoreNotFound);
    await store.commit(skills, [change], { templates: options.templates ?? [] });
    return store;
  }

  /** Whether `dir` holds a library index. */
  static async exists(dir: string): Promise<boolean> {
    return await pathKind(`${dir}/${INDEX}`) === "file";
  }

  /** The current version number (0 before the first commit of a create). */
  get version(): number {
    return this.#version;
  }

  /** The skills of the current version, as copies the caller may change and commit. */
  skills(): Skill[] {
    return structuredClone(this.#skills);
  }

  /** The task templates of the current version, as copies. */
  templates(): TaskTemplate[] {
    return structuredClone(this.#templates);
  }

  /** The compiled skills of the current version. */
  library(): SkillLibrary {
    return this.#library;
  }

  /**
   * Writes `skills` as the next version and records `changes` in the
   * history. The skills are validated (together, so they may call one
   * another) before anything is written.
   *
   * The task templates are kept unless `options.templates` replaces them.
   *
   * @returns The new version number.
   * @throws {InputFileError} When a skill does not validate.
   * @throws {Error} When the library changed on disk since it was opened,
   * or `changes` is empty.
   */
  async commit(skills: Skill[], changes: Change[], options: CommitOptions = {}): Promise<number> {
    if (changes.length === 0) {
      throw new Error("Cannot commit without a change to record in the history");
    }
    const recorded = changes.map((c, i) => {
      const parsed = ChangeSchema.safeParse(c);
      if (!parsed.success) {
        throw new TypeError(
          `Invalid change ${i + 1}: ${parsed.error.issues[0].message} at "${
            parsed.error.issues[0].path.join(".")
          }"`,
        );
      }
      return parsed.data;
    });
    const library = this.#compile(skills);
    const templates = structuredClone(options.templates ?? this.#templates);
    await this.#checkUnchanged();
    const version = this.#version + 1;
    await this.#cleanStale();
    const time = (this.#options.now ?? (() => new Date()))().toISOString();
    const programs = library.programs();
    const signatures = Object.fromEntries(
      programs.map((p) => [p.skill.name, { params: p.skill.params }]),
    );

    const versions = `${this.dir}/${VERSIONS}`;
    const tmp = `${versions}/${TMP_PREFIX}${version}-${crypto.randomUUID().slice(0, 8)}`;
    await Deno.mkdir(tmp, { recursive: true });
    for (const { skill } of programs) {
      await Deno.writeTextFile(`${tmp}/${skill.name}.json`, `${JSON.stringify(skill, null, 2)}\n`);
      const mermaid = skillToMermaid(skill, { vocab: this.vocab, skills: signatures });
      await Deno.writeTextFile(
        `${tmp}/${skill.name}.mmd`,
        mermaid.endsWith("\n") ? mermaid : `${mermaid}\n`,
      );
      await this.#step("skill-file");
    }
    await Deno.rename(tmp, `${versions}/${version}`);
    await this.#step("version-dir");

    const lines = recorded.map((c) => JSON.stringify({ version, time, ...c }) + "\n").join("");
    await Deno.writeTextFile(`${this.dir}/${HISTORY}`, lines, { append: true });
    await this.#step("history");

    const index: LibraryIndex = {
      format: "skillc/library@1",
      vocabulary: this.vocab.name,
      version,
      time,
      skills: programs.map(({ skill }) => ({
        name: skill.name,
        file: `${VERSIONS}/${version}/${skill.name}.json`,
        mermaid: `${VERSIONS}/${version}/${skill.name}.mmd`,
      })),
      templates,
    };
    await writeTextFileAtomic(`${this.dir}/${INDEX}`, `${JSON.stringify(index, null, 2)}\n`);
    this.#version = version;
    this.#library = library;
    this.#skills = programs.map((p) => p.skill);
    this.#templates = templates;
    await this.#options.afterCommit?.(this);
    return version;
  }

  /**
   * The recorded changes up to the current version, oldest first. Lines of
   * an interrupted commit (a version newer than the index, a torn last
   * line) are left out.
   *
   * @throws {InputFileError} When a complete line is not a valid entry.
   */
  async history(): Promise<HistoryEntry[]> {
    const path = `${this.dir}/${HISTORY}`;
    const { entries } = await readHistory(path, this.#version);
    return entries;
  }

  #compile(skills: Skill[]): SkillLibrary {
    const seen = new Map<string, string>();
    for (const s of skills) {
      if (s.vocabulary !== this.vocab.name) {
        throw new InputFileError(
          `skill "${s.name}"`,
          `Skill is for vocabulary "${s.vocabulary}" but the library is "${this.vocab.name}"`,
        );
      }
      // Skill names become file names, which may be case-insensitive.
      const key = String(s.name).toLowerCase();
      const other = seen.get(key);
      if (other !== undefined) {
        throw new InputFileError(
          `skill "${s.name}"`,
          other === s.name
            ? `Duplicate skill name "${s.name}"`
            : `Skill names "${other}" and "${s.name}" differ only in case`,
        );
      }
      seen.set(key, s.name);
    }
    return compileSkills(skills.map((s) => ({ data: s, source: `skill "${s.name}"` })), this.vocab);
  }

  async #checkUnchanged(): Promise<void> {
    const path = `${this.dir}/${INDEX}`;
    let onDisk = 0;
    if (await pathKind(path) !== "missing") {
      const parsed = LibraryIndexSchema.safeParse(await readJsonFile(path));
      onDisk = parsed.success ? parsed.data.version : -1;
    }
    if (onDisk !== this.#version) {
      throw new Error(
        `Cannot commit to library "${this.dir}": its index is at version ${onDisk} but the store was opened at version ${this.#version}; reopen it`,
      );
    }
  }

  /** Removes what an interrupted commit left behind. */
  async #cleanStale(): Promise<void> {
    const versions = `${this.dir}/${VERSIONS}`;
    if (await pathKind(versions) === "dir") {
      for await (const e of Deno.readDir(versions)) {
        const n = /^\d+$/.test(e.name) ? Number(e.name) : undefined;
        const stale = e.name.startsWith(TMP_PREFIX) || (n !== undefined && n > this.#version);
        if (stale) await Deno.remove(`${versions}/${e.name}`, { recursive: true });
      }
    }
    const path = `${this.dir}/${HISTORY}`;
    const { entries, clean } = await readHistory(path, this.#version);
    if (!clean) {
      await writeTextFileAtomic(path, entries.map((e) => JSON.stringify(e) + "\n").join(""));
    }
  }

  async #step(step: CommitStep): Promise<void> {
    await this.#options.onCommitStep?.(step);
  }
}

/**
 * Reads the history up to `upTo`; `clean` is false when the file holds
 * lines to drop (newer versions, a torn last line).
 */
async function readHistory(
  path: string,
  upTo: number,
): Promise<{ entries: HistoryEntry[]; clean: boolean }> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { entries: [], clean: true };
    throw new InputFileError(path, `Cannot read file: ${e instanceof Error ? e.message : e}`);
  }
  const lines = text.split("\n");
  const entries: HistoryEntry[] = [];
  let clean = true;
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const last = i === lines.length - 1; // no newline after it: possibly torn by a crash
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      if (last) {
        clean = false;
        continue;
      }
      throw new InputFileError(path, "Invalid history line: not JSON", i + 1);
    }
    const parsed = HistoryEntrySchema.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InputFileError(
        path,
        `Invalid history line at "${issue.path.join(".")}": ${issue.message}`,
        i + 1,
      );
    }
    if (parsed.data.version > upTo || last) clean = false;
    if (parsed.data.version <= upTo) entries.push(parsed.data);
  }
  return { entries, clean };
}

/** Names a library writes in its directory (left over by an interrupted create). */
function isArtefact(name: string): boolean {
  return name === VERSIONS || name === HISTORY || name.startsWith(`${INDEX}.tmp-`) ||
    name.startsWith(`${HISTORY}.tmp-`);
}

async function pathKind(path: string): Promise<"missing" | "dir" | "file"> {
  try {
    return (await Deno.stat(path)).isDirectory ? "dir" : "file";
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return "missing";
    throw e;
  }
}

function ignoreNotFound(e: unknown): void {
  if (!(e instanceof Deno.errors.NotFound)) throw e;
}
