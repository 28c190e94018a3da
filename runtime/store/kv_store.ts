/**
 * A versioned skill library in Deno KV (a {@linkcode LibraryStore}): a
 * local SQLite file (`kv:<path>`) or a shared remote database
 * (`kv:https://...`, with `DENO_KV_ACCESS_TOKEN` set), so that processes on
 * several machines can hone one library. Deno KV is unstable in Deno 2:
 * run with `--unstable-kv` (the project's `deno.json` sets it).
 *
 * Keys (values larger than Deno KV's 64 KiB limit are split into chunks):
 *
 * ```
 * ["skillc", "head"]                  {format, vocabulary, version, time, blob}: the current version
 * ["skillc", "version", N]            {blob, time}: every version, never modified
 * ["skillc", "blob", id, i]           chunk i of a version's {skills, templates} as JSON bytes
 * ["skillc", "history", N, i]         the i-th change recorded with version N
 * ["skillc", "model"]                 {blob}: the learned action model
 * ```
 *
 * A commit writes the new version's chunks under a fresh id (its time
 * first), then sets the head, the version and its history entries in one
 * atomic operation that checks the head is unchanged. When another writer
 * won the race, the chunks are deleted, the newer version read, the changes
 * replayed on it (see {@linkcode LibraryStore.commit}) and the commit tried
 * again. Chunks no version refers to, left by a writer that died before its
 * commit, are removed when the library is opened ten minutes later.
 *
 * @module
 */
import { z } from "zod";
import type { Skill } from "../../dsl/graph/schema.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { ActionModel } from "../learn/action_model.ts";
import { InputFileError } from "../../io/json_file.ts";
import { compileSkills } from "./library.ts";
import {
  type Change,
  type ChangeKind,
  type CommitOptions,
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
import { type TaskTemplate, TaskTemplateSchema } from "./task_template.ts";

type Key = (string | number)[];
interface KvEntry<T> {
  value: T | null;
  versionstamp: string | null;
}
interface KvAtomic {
  check(...checks: { key: Key; versionstamp: string | null }[]): KvAtomic;
  set(key: Key, value: unknown): KvAtomic;
  commit(): Promise<{ ok: boolean }>;
}
/** The part of `Deno.Kv` the store uses (declared here: its types are unstable). */
interface Kv {
  get<T>(key: Key): Promise<KvEntry<T>>;
  set(key: Key, value: unknown): Promise<unknown>;
  delete(key: Key): Promise<void>;
  list<T>(selector: { prefix: Key }): AsyncIterable<{ key: Key; value: T }>;
  atomic(): KvAtomic;
  close(): void;
}

const ROOT = "skillc";
const HEAD: Key = [ROOT, "head"];
const MODEL: Key = [ROOT, "model"];
/** Bytes per chunk, under Deno KV's 64 KiB value limit. */
const CHUNK = 60_000;
/** Content no version refers to is removed on open once it is this old. */
export const ORPHAN_AGE_MS = 10 * 60_000;
/** Commits lost to other writers in a row before giving up. */
const MAX_RACES = 100;

const HeadSchema = z.object({
  format: z.literal("skillc/kv-library@1"),
  vocabulary: z.string(),
  version: z.number().int().positive(),
  time: z.string(),
  blob: z.string(),
});
type Head = z.infer<typeof HeadSchema>;
const ContentSchema = z.object({
  skills: z.array(z.unknown()),
  templates: z.array(TaskTemplateSchema),
});

/** How long a writer waits, in all, for a local database another process has locked. */
const BUSY_WAIT_MS = 30_000;

/**
 * Runs a database operation, again after a short random pause while a
 * local database is locked by another process (SQLite lets one process
 * write at a time and Deno KV reports the others' attempts as errors).
 */
async function whenFree<T>(op: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (let pause = 2;; pause = Math.min(pause * 2, 100)) {
    try {
      return await op();
    } catch (e) {
      const busy = e instanceof Error && /database is locked|database is busy/i.test(e.message);
      if (!busy || Date.now() - started > BUSY_WAIT_MS) throw e;
      await new Promise((r) => setTimeout(r, pause * (0.5 + Math.random())));
    }
  }
}

/** The text after `kv:` in a library location, or `undefined` for a directory. */
export function kvLocation(location: string): string | undefined {
  return location.startsWith("kv:") ? location.slice(3) : undefined;
}

/** Opens the Deno KV database of a `kv:` location, explaining what is missing. */
async function openKv(location: string): Promise<Kv> {
  const path = kvLocation(location);
  if (!path) {
    throw new InputFileError(location, "A Deno KV library is written kv:<path> or kv:<URL>");
  }
  const open = (Deno as unknown as { openKv?: (path?: string) => Promise<Kv> }).openKv;
  if (typeof open !== "function") {
    throw new InputFileError(
      location,
      'Deno KV is not enabled: run with --unstable-kv (or set "unstable": ["kv"] in deno.json)',
    );
  }
  try {
    return await open(path);
  } catch (e) {
    throw new InputFileError(
      location,
      `Cannot open the Deno KV database: ${e instanceof Error ? e.message : e}`,
    );
  }
}

/**
 * A library in a Deno KV database.
 *
 * @example Usage
 * ```ts ignore
 * const store = await KvStore.create("kv:lib.sqlite", vocab, skills, { kind: "induce" });
 * console.log(store.version); // 1
 * store.close();
 * ```
 */
export class KvStore extends VersionedStore {
  /** `kv:` and the database's path or URL. */
  readonly location: string;
  #kv: Kv;
  #options: StoreOptions;

  private constructor(location: string, vocab: Vocabulary, kv: Kv, options: StoreOptions) {
    super(vocab);
    this.location = location;
    this.#kv = kv;
    this.#options = options;
  }

  /**
   * Opens the current version of the library in a Deno KV database.
   *
   * @throws {InputFileError} When the database cannot be opened, holds no
   * library, or one for another vocabulary, or invalid content.
   */
  static async open(
    location: string,
    vocab: Vocabulary,
    options: StoreOptions = {},
  ): Promise<KvStore> {
    const store = new KvStore(location, vocab, await openKv(location), options);
    try {
      const head = await store.#head();
      if (!head.value) {
        throw new InputFileError(location, "Cannot open library: the database holds no library");
      }
      await store.#load(head.value);
      await store.#removeOrphans();
      return store;
    } catch (e) {
      store.close();
      throw e;
    }
  }

  /**
   * Creates a library at version 1 holding `skills`; a library already in
   * the database is refused unless `overwrite` is set (it is then deleted).
   *
   * @throws {Error} When the database holds a library and `overwrite` is not set.
   * @throws {InputFileError} When a skill does not validate.
   */
  static async create(
    location: string,
    vocab: Vocabulary,
    skills: Skill[],
    change: { kind: ChangeKind; detail?: string },
    options: CreateOptions = {},
  ): Promise<KvStore> {
    compileStoreSkills(skills, vocab);
    const recorded = parseChanges([change]);
    const store = new KvStore(location, vocab, await openKv(location), options);
    try {
      if (options.overwrite) {
        for await (const e of store.#kv.list({ prefix: [ROOT] })) {
          await whenFree(() => store.#kv.delete(e.key));
        }
      }
      const head = await store.#head();
      if (head.value) {
        throw new Error(
          `Cannot create library "${location}": it already holds a library; open it to commit a new version, or pass overwrite`,
        );
      }
      const written = await store.#write(skills, recorded, options.templates ?? [], null);
      if (written === undefined) {
        throw new Error(`Cannot create library "${location}": another process created one first`);
      }
      return store;
    } catch (e) {
      store.close();
      throw e;
    }
  }

  /** Whether the database of `location` holds a library. */
  static async exists(location: string): Promise<boolean> {
    const kv = await openKv(location);
    try {
      return (await kv.get(HEAD)).value !== null;
    } finally {
      kv.close();
    }
  }

  /**
   * Writes `skills` as the next version (see {@linkcode LibraryStore.commit}).
   *
   * @returns The new version number.
   * @throws {InputFileError} When a skill does not validate.
   * @throws {StoreConflictError} When another writer committed first and
   * the changes carry no edits to replay.
   */
  async commit(skills: Skill[], changes: Change[], options: CommitOptions = {}): Promise<number> {
    const recorded = parseChanges(changes);
    compileStoreSkills(skills, this.vocab);
    let target = { skills, changes: recorded };
    for (let race = 0; race < MAX_RACES; race++) {
      const head = await this.#head();
      const current = head.value?.version ?? 0;
      if (current !== this.version) {
        if (!head.value || options.templates || !replayable(recorded)) {
          throw new StoreConflictError(this.location, current, this.version);
        }
        await this.#load(head.value);
        target = rebaseChanges(this.currentSkills(), current, recorded, this.vocab)!;
      }
      const templates = options.templates ?? this.currentTemplates();
      const version = await this.#write(
        target.skills,
        target.changes,
        templates,
        head.versionstamp,
      );
      if (version !== undefined) return version;
    }
    throw new Error(
      `Cannot commit to library "${this.location}": other writers won ${MAX_RACES} races in a row`,
    );
  }

  /** The recorded changes up to the current version, oldest first. */
  async history(): Promise<HistoryEntry[]> {
    const out: HistoryEntry[] = [];
    for await (const e of this.#kv.list<unknown>({ prefix: [ROOT, "history"] })) {
      const parsed = HistoryEntrySchema.safeParse(e.value);
      if (!parsed.success) {
        throw new InputFileError(
          this.location,
          `Invalid history entry ${JSON.stringify(e.key.slice(2))}: ${
            parsed.error.issues[0].message
          } at "${parsed.error.issues[0].path.join(".")}"`,
        );
      }
      if (parsed.data.version <= this.version) out.push(parsed.data);
    }
    return out;
  }

  /** The action model kept in the database, if any. */
  async loadActionModel(): Promise<ActionModel | undefined> {
    const entry = await this.#kv.get<{ blob?: unknown }>(MODEL);
    if (!entry.value) return undefined;
    try {
      const blob = z.string().parse(entry.value.blob);
      return ActionModel.fromJSON(await this.#readBlob(blob), this.vocab);
    } catch (e) {
      throw new InputFileError(
        this.location,
        `Invalid action model: ${e instanceof Error ? e.message : e}`,
      );
    }
  }

  /** Replaces the action model kept in the database. */
  async saveActionModel(model: ActionModel): Promise<void> {
    const old = await this.#kv.get<{ blob?: string }>(MODEL);
    const blob = await this.#writeBlob(JSON.stringify(model.toJSON()));
    await whenFree(() => this.#kv.set(MODEL, { blob }));
    if (typeof old.value?.blob === "string") await this.#deleteBlob(old.value.blob);
  }

  /** Closes the database. */
  close(): void {
    this.#kv.close();
  }

  async #head(): Promise<{ value: Head | null; versionstamp: string | null }> {
    const entry = await whenFree(() => this.#kv.get<unknown>(HEAD));
    if (entry.value === null) return { value: null, versionstamp: entry.versionstamp };
    const parsed = HeadSchema.safeParse(entry.value);
    if (!parsed.success) {
      throw new InputFileError(
        this.location,
        `Invalid library head at "${parsed.error.issues[0].path.join(".")}": ${
          parsed.error.issues[0].message
        }`,
      );
    }
    if (parsed.data.vocabulary !== this.vocab.name) {
      throw new InputFileError(
        this.location,
        `Library is for vocabulary "${parsed.data.vocabulary}" but the environment is "${this.vocab.name}"`,
      );
    }
    return { value: parsed.data, versionstamp: entry.versionstamp };
  }

  /** Reads the version `head` names into the store. */
  async #load(head: Head): Promise<void> {
    let data: unknown;
    try {
      data = JSON.parse(await this.#readBlob(head.blob));
    } catch (e) {
      throw new InputFileError(
        this.location,
        `Version ${head.version} is unreadable: ${e instanceof Error ? e.message : e}`,
      );
    }
    const parsed = ContentSchema.safeParse(data);
    if (!parsed.success) {
      throw new InputFileError(
        this.location,
        `Invalid version ${head.version} at "${parsed.error.issues[0].path.join(".")}": ${
          parsed.error.issues[0].message
        }`,
      );
    }
    const library = compileSkills(
      parsed.data.skills.map((s, i) => ({
        data: s,
        source: `${this.location} version ${head.version} skill ${i + 1}`,
      })),
      this.vocab,
    );
    this.setCurrent(head.version, library, parsed.data.templates);
  }

  /**
   * Writes the next version if the head still has `versionstamp`;
   * `undefined` when another writer moved it first.
   */
  async #write(
    skills: Skill[],
    changes: Change[],
    templates: TaskTemplate[],
    versionstamp: string | null,
  ): Promise<number | undefined> {
    const library = compileStoreSkills(skills, this.vocab);
    const programs = library.programs().map((p) => p.skill);
    const version = this.version + 1;
    const time = (this.#options.now ?? (() => new Date()))().toISOString();
    const blob = await this.#writeBlob(JSON.stringify({ skills: programs, templates }));
    await this.#options.onCommitStep?.("version-dir");
    const head: Head = {
      format: "skillc/kv-library@1",
      vocabulary: this.vocab.name,
      version,
      time,
      blob,
    };
    const op = this.#kv.atomic()
      .check({ key: HEAD, versionstamp })
      .set(HEAD, head)
      .set([ROOT, "version", version], { blob, time });
    changes.forEach((c, i) => op.set([ROOT, "history", version, i], { version, time, ...c }));
    if (!(await whenFree(() => op.commit())).ok) {
      await this.#deleteBlob(blob);
      return undefined;
    }
    this.setCurrent(version, library, structuredClone(templates));
    await this.#options.afterCommit?.(this);
    return version;
  }

  async #writeBlob(text: string): Promise<string> {
    // The time first: an orphan (a writer died before its commit) is known by its age.
    const id = `${Date.now().toString(36).padStart(9, "0")}-${crypto.randomUUID()}`;
    const bytes = new TextEncoder().encode(text);
    for (let i = 0, n = 0; i === 0 || n < bytes.length; i++, n += CHUNK) {
      const chunk = bytes.slice(n, n + CHUNK);
      await whenFree(() => this.#kv.set([ROOT, "blob", id, i], chunk));
    }
    return id;
  }

  async #readBlob(id: string): Promise<string> {
    const parts: Uint8Array[] = [];
    for await (const e of this.#kv.list<unknown>({ prefix: [ROOT, "blob", id] })) {
      if (!(e.value instanceof Uint8Array)) throw new Error(`chunk ${e.key[3]} is not bytes`);
      parts.push(e.value);
    }
    if (parts.length === 0) throw new Error(`its content "${id}" is missing`);
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    return new TextDecoder("utf-8", { fatal: true }).decode(all);
  }

  /**
   * Deletes content no version or model refers to that is older than
   * {@linkcode ORPHAN_AGE_MS}: what a writer left that died between
   * writing it and its commit. A younger one may be a commit in progress.
   */
  async #removeOrphans(): Promise<void> {
    const used = new Set<string>();
    for await (const e of this.#kv.list<{ blob?: unknown }>({ prefix: [ROOT, "version"] })) {
      if (typeof e.value?.blob === "string") used.add(e.value.blob);
    }
    const model = await this.#kv.get<{ blob?: unknown }>(MODEL);
    if (typeof model.value?.blob === "string") used.add(model.value.blob);
    const orphans = new Set<string>();
    const now = Date.now();
    for await (const e of this.#kv.list({ prefix: [ROOT, "blob"] })) {
      const id = String(e.key[2]);
      const born = parseInt(id.split("-")[0], 36);
      if (!used.has(id) && Number.isFinite(born) && now - born > ORPHAN_AGE_MS) orphans.add(id);
    }
    for (const id of orphans) await this.#deleteBlob(id);
  }

  async #deleteBlob(id: string): Promise<void> {
    for await (const e of this.#kv.list({ prefix: [ROOT, "blob", id] })) {
      await whenFree(() => this.#kv.delete(e.key));
    }
  }
}
