/**
 * A versioned skill library in a directory (a {@linkcode LibraryStore}).
 * Layout:
 *
 * ```
 * <dir>/index.json                 {format: "skillc/library@1", vocabulary, version: N, time,
 *                                   skills: [{name, file: "versions/N/<skill>.json",
 *                                   mermaid: "versions/N/<skill>.mmd"}], templates: [...]}:
 *                                  the current version (templates: see `task_template.ts`)
 * <dir>/versions/<N>/<skill>.json  the skill files of version N
 * <dir>/versions/<N>/<skill>.mmd   the Mermaid diagram of each skill
 * <dir>/history.jsonl              one JSON object per change:
 *                                  {version, time, kind, skill?, detail?, edit?}
 * <dir>/action_model.json          the learned action model, if any
 * <dir>/.lock                      locked by the process committing
 * ```
 *
 * A commit of version N (see {@linkcode DirectoryStore.commit}) runs these
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
 * Writers take an exclusive lock on `.lock` for the whole commit (the
 * operating system releases it if the process dies), so several processes
 * may commit to one directory: one that finds a newer version than it
 * opened rebases its changes on it (see {@linkcode LibraryStore.commit}).
 *
 * @module
 */
import { skillToMermaid } from "../../dsl/graph/mermaid.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import type { ActionModel } from "../learn/action_model.ts";
import {
  InputFileError,
  parseJsonLine,
  readJsonFile,
  writeTextFileAtomic,
} from "../../io/json_file.ts";
import {
  type LibraryIndex,
  LibraryIndexSchema,
  loadActionModel,
  loadIndexedSkills,
  readLibraryIndex,
  saveActionModel,
} from "./library.ts";
import {
  type Change,
  type ChangeKind,
  type CommitOptions,
  type CommitStep,
  compileStoreSkills,
  type CreateOptions,
  type HistoryEntry,
  HistoryEntrySchema,
  parseChanges,
  rebaseChanges,
  replayable,
  StoreConflictError,
  type StoreOptions,
  VersionedStore,
} from "./library_store.ts";
import type { TaskTemplate } from "./task_template.ts";

const INDEX = "index.json";
const HISTORY = "history.jsonl";
const VERSIONS = "versions";
const TMP_PREFIX = ".tmp-";
const LOCK = ".lock";

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
 * const store = await DirectoryStore.create("lib", vocab, skills, { kind: "induce" });
 * const edited = store.skills().map((s) => ({ ...s, doc: { ...s.doc, pre: "ready()" } }));
 * await store.commit(edited, [{ kind: "edit", skill: edited[0].name, detail: "closed" }]);
 * console.log(store.version); // 2
 * ```
 */
export class DirectoryStore extends VersionedStore {
  /** The library directory. */
  readonly dir: string;
  #options: StoreOptions;

  private constructor(dir: string, vocab: Vocabulary, options: StoreOptions) {
    super(vocab);
    this.dir = dir;
    this.#options = options;
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
  ): Promise<DirectoryStore> {
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
    const store = new DirectoryStore(dir, vocab, options);
    store.setCurrent(
      index.version,
      await loadIndexedSkills(dir, index, vocab),
      index.templates ?? [],
    );
    return store;
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
  ): Promise<DirectoryStore> {
    const kind = await pathKind(dir);
    if (kind === "file") throw new Error(`Cannot create library "${dir}": it is a file`);
    const store = new DirectoryStore(dir, vocab, options);
    // Validate before touching the directory, so bad skills never cost an existing library.
    compileStoreSkills(skills, vocab);
    const recorded = parseChanges([change]);
    // Checked before taking the lock (which leaves a lock file) and again under it.
    if (kind === "dir") await refuseOccupied(dir, options.overwrite);
    await Deno.mkdir(dir, { recursive: true });
    await withLock(dir, async () => {
      await refuseOccupied(dir, options.overwrite);
      // Only library artefacts are removed, never other files of the directory.
      await Deno.remove(`${dir}/${INDEX}`).catch(ignoreNotFound);
      await Deno.remove(`${dir}/${HISTORY}`).catch(ignoreNotFound);
      await Deno.remove(`${dir}/${VERSIONS}`, { recursive: true }).catch(ignoreNotFound);
      await store.#write(skills, recorded, options.templates ?? []);
    });
    return store;
  }

  /** Whether `dir` holds a library index. */
  static async exists(dir: string): Promise<boolean> {
    return await pathKind(`${dir}/${INDEX}`) === "file";
  }

  /** The library directory (the same as {@linkcode DirectoryStore.dir}). */
  get location(): string {
    return this.dir;
  }

  /**
   * Writes `skills` as the next version and records `changes` in the
   * history (see {@linkcode LibraryStore.commit}), holding the directory's
   * lock throughout.
   *
   * @returns The new version number.
   * @throws {InputFileError} When a skill does not validate.
   * @throws {StoreConflictError} When the library changed on disk since it
   * was read and the changes carry no edits to replay.
   * @throws {Error} When `changes` is empty.
   */
  async commit(skills: Skill[], changes: Change[], options: CommitOptions = {}): Promise<number> {
    const recorded = parseChanges(changes);
    compileStoreSkills(skills, this.vocab);
    return await withLock(this.dir, async () => {
      const onDisk = await this.#diskVersion();
      if (onDisk === this.version) {
        return await this.#write(skills, recorded, options.templates ?? this.currentTemplates());
      }
      if (onDisk < 0 || options.templates || !replayable(recorded)) {
        throw new StoreConflictError(this.dir, onDisk, this.version);
      }
      await this.#reload();
      const rebased = rebaseChanges(this.currentSkills(), onDisk, recorded, this.vocab)!;
      return await this.#write(rebased.skills, rebased.changes, this.currentTemplates());
    });
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
    const { entries } = await readHistory(path, this.version);
    return entries;
  }

  /** The action model in `action_model.json`, if there is one. */
  loadActionModel(): Promise<ActionModel | undefined> {
    return loadActionModel(this.dir, this.vocab);
  }

  /** Replaces `action_model.json` (atomically). */
  saveActionModel(model: ActionModel): Promise<void> {
    return saveActionModel(this.dir, model);
  }

  /** Nothing to release: files are closed after each operation. */
  close(): void {}

  /** Writes the next version; the caller holds the lock and has checked the version. */
  async #write(skills: Skill[], changes: Change[], templates: TaskTemplate[]): Promise<number> {
    const library = compileStoreSkills(skills, this.vocab);
    templates = structuredClone(templates);
    const version = this.version + 1;
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

    const lines = changes.map((c) => JSON.stringify({ version, time, ...c }) + "\n").join("");
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
    this.setCurrent(version, library, templates);
    await this.#options.afterCommit?.(this);
    return version;
  }

  /** The version the index on disk names: 0 without an index, -1 when it is unreadable. */
  async #diskVersion(): Promise<number> {
    const path = `${this.dir}/${INDEX}`;
    if (await pathKind(path) === "missing") return 0;
    const parsed = LibraryIndexSchema.safeParse(await readJsonFile(path));
    return parsed.success ? parsed.data.version : -1;
  }

  /** Reads the current version from disk into the store. */
  async #reload(): Promise<void> {
    const index = await readLibraryIndex(this.dir, this.vocab);
    const library = await loadIndexedSkills(this.dir, index, this.vocab);
    this.setCurrent(index.version, library, index.templates ?? []);
  }

  /** Removes what an interrupted commit left behind (the caller holds the lock). */
  async #cleanStale(): Promise<void> {
    const versions = `${this.dir}/${VERSIONS}`;
    if (await pathKind(versions) === "dir") {
      for await (const e of Deno.readDir(versions)) {
        const n = /^\d+$/.test(e.name) ? Number(e.name) : undefined;
        const stale = e.name.startsWith(TMP_PREFIX) || (n !== undefined && n > this.version);
        if (stale) await Deno.remove(`${versions}/${e.name}`, { recursive: true });
      }
    }
    const path = `${this.dir}/${HISTORY}`;
    const { entries, clean } = await readHistory(path, this.version);
    if (!clean) {
      await writeTextFileAtomic(path, entries.map((e) => JSON.stringify(e) + "\n").join(""));
    }
  }

  async #step(step: CommitStep): Promise<void> {
    await this.#options.onCommitStep?.(step);
  }
}

/** Refuses to create a library where one is, or in a directory of other files, unless `overwrite`. */
async function refuseOccupied(dir: string, overwrite: boolean | undefined): Promise<void> {
  if (overwrite) return;
  if (await pathKind(`${dir}/${INDEX}`) !== "missing") {
    throw new Error(
      `Cannot create library "${dir}": it already holds a library; open it to commit a new version, or pass overwrite`,
    );
  }
  const foreign = [];
  for await (const e of Deno.readDir(dir)) if (!isArtefact(e.name)) foreign.push(e.name);
  if (foreign.length > 0) {
    throw new Error(
      `Cannot create library "${dir}": the directory is not empty (found "${
        foreign.sort()[0]
      }"); pass overwrite to write into it`,
    );
  }
}

/**
 * Runs `fn` holding the exclusive lock of a library directory. The lock is
 * an advisory lock on `<dir>/.lock`, which the operating system releases
 * when the process ends, so a writer that dies never blocks the others.
 */
async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const file = await Deno.open(`${dir}/${LOCK}`, { create: true, write: true });
  try {
    await file.lock(true);
    return await fn();
  } finally {
    file.close();
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
    const entry = parseJsonLine(line, HistoryEntrySchema, {
      path,
      line: i + 1,
      what: "history line",
    });
    if (entry === undefined) {
      if (last) {
        clean = false;
        continue;
      }
      throw new InputFileError(path, "Invalid history line: not JSON", i + 1);
    }
    if (entry.version > upTo || last) clean = false;
    if (entry.version <= upTo) entries.push(entry);
  }
  return { entries, clean };
}

/** Names a library writes in its directory (left over by an interrupted create). */
function isArtefact(name: string): boolean {
  return name === VERSIONS || name === HISTORY || name === LOCK ||
    name.startsWith(`${INDEX}.tmp-`) ||
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
