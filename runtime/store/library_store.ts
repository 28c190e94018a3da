/**
 * A versioned skill library: the interface every store implements (a
 * directory, see `directory_store.ts`; Deno KV, see `kv_store.ts`) and what
 * they share: the change records of the history and how a commit that lost
 * a race is replayed on the newer version instead of being dropped.
 *
 * Every change (induction, a graft, its solidification or removal, a
 * narrowed precondition, an edit) makes a new version; versions are never
 * modified once written. Several processes may commit to one library: a
 * commit made against an older version than the store now holds is rebased
 * when every change carries a replayable edit (what honing records, see
 * `skill_edit.ts`), and refused otherwise.
 *
 * @module
 */
import { z } from "zod";
import type { Skill } from "../../dsl/graph/schema.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import type { ActionModel } from "../learn/action_model.ts";
import { InputFileError } from "../../io/json_file.ts";
import { compileSkills, type SkillLibrary } from "./library.ts";
import { replayEdits, type SkillEdit, SkillEditSchema } from "./skill_edit.ts";
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
  /**
   * The change as a replayable edit: with it, a commit that finds a newer
   * version in the store is applied to that version instead of refused.
   */
  edit?: SkillEdit;
}

/** One entry of the history. */
export interface HistoryEntry extends Change {
  /** The version the change produced. */
  version: number;
  /** When the version was written (ISO 8601). */
  time: string;
}

const ChangeSchema = z.object({
  kind: z.enum(["induce", "graft", "solidify", "remove", "narrow", "edit"]),
  skill: z.string().optional(),
  detail: z.string().optional(),
  edit: SkillEditSchema.optional(),
});
/** Zod schema of a {@linkcode HistoryEntry}. */
export const HistoryEntrySchema: z.ZodType<HistoryEntry, HistoryEntry> = ChangeSchema.extend({
  version: z.number().int().positive(),
  time: z.string(),
});

/**
 * The steps of a commit, reported to {@linkcode StoreOptions.onCommitStep}
 * right after each one: `skill-file` after each skill's files are written
 * aside, `version-dir` once the version's files are complete, `history`
 * after the history entries are written. (The last step, moving the
 * current version, completes the commit.)
 */
export type CommitStep = "skill-file" | "version-dir" | "history";

/** Options of opening or creating a store. */
export interface StoreOptions {
  /**
   * Called after each step of a commit. Throwing from it stops the commit
   * there, which is how tests simulate a process dying mid-write.
   */
  onCommitStep?: (step: CommitStep) => void | Promise<void>;
  /** The clock for history times. @default () => new Date() */
  now?: () => Date;
  /**
   * Called when a commit has written its version: what else the library
   * keeps in step with its version (the generated package) is rewritten here.
   */
  afterCommit?: (store: LibraryStore) => Promise<void>;
}

/** Options of creating a store. */
export interface CreateOptions extends StoreOptions {
  /**
   * Replace a library that is already there. A directory store leaves
   * files that are not its own alone. @default false
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

/**
 * A versioned library: the skills of the current version, compiled, the
 * task templates, the learned action model and the history of changes.
 *
 * @example Usage
 * ```ts ignore
 * const store = await openLibraryStore("kv:lib.sqlite", vocab);
 * const edited = store.skills().map((s) => ({ ...s, doc: { ...s.doc, pre: "ready()" } }));
 * await store.commit(edited, [{ kind: "edit", skill: edited[0].name, detail: "closed" }]);
 * console.log(store.version);
 * ```
 */
export interface LibraryStore {
  /** Where the library is: a directory, or `kv:<path or URL>`. */
  readonly location: string;
  /** The vocabulary the skills are written against. */
  readonly vocab: Vocabulary;
  /** The current version number (0 before the first commit of a create). */
  readonly version: number;
  /** The skills of the current version, as copies the caller may change and commit. */
  skills(): Skill[];
  /** The task templates of the current version, as copies. */
  templates(): TaskTemplate[];
  /** The compiled skills of the current version. */
  library(): SkillLibrary;
  /**
   * Writes `skills` as the next version and records `changes` in the
   * history. The skills are validated (together, so they may call one
   * another) before anything is written. When another writer committed
   * since this store last read the library, the changes are replayed on
   * that newer version when they all carry edits (the store then holds the
   * merged skills; read them back with `skills()`), and refused otherwise.
   *
   * @returns The new version number.
   * @throws {InputFileError} When a skill does not validate.
   * @throws {StoreConflictError} When the library changed and the changes cannot be replayed.
   */
  commit(skills: Skill[], changes: Change[], options?: CommitOptions): Promise<number>;
  /** The recorded changes up to the current version, oldest first. */
  history(): Promise<HistoryEntry[]>;
  /** The learned action model kept with the library, if any. */
  loadActionModel(): Promise<ActionModel | undefined>;
  /** Replaces the learned action model kept with the library. */
  saveActionModel(model: ActionModel): Promise<void>;
  /** Releases what the store holds open (a database handle); a no-op for a directory. */
  close(): void;
}

/**
 * What every store keeps of its current version: the number, the compiled
 * skills and the task templates, handed out as copies. A store sets them
 * after each load and commit with {@linkcode VersionedStore.setCurrent}.
 */
export abstract class VersionedStore implements LibraryStore {
  /** Where the library is. */
  abstract readonly location: string;
  /** The vocabulary the skills are written against. */
  readonly vocab: Vocabulary;
  #version = 0;
  #skills: Skill[] = [];
  #library: SkillLibrary;
  #templates: TaskTemplate[] = [];

  /** Starts at version 0: no skills, no templates. */
  protected constructor(vocab: Vocabulary) {
    this.vocab = vocab;
    this.#library = compileSkills([], vocab);
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

  /** Makes `version` the current one. */
  protected setCurrent(version: number, library: SkillLibrary, templates: TaskTemplate[]): void {
    this.#version = version;
    this.#library = library;
    this.#skills = library.programs().map((p) => p.skill);
    this.#templates = templates;
  }

  /** The current skills themselves (not copies), for rebasing a commit on them. */
  protected currentSkills(): readonly Skill[] {
    return this.#skills;
  }

  /** The current templates themselves (not copies). */
  protected currentTemplates(): TaskTemplate[] {
    return this.#templates;
  }

  /** See {@linkcode LibraryStore.commit}. */
  abstract commit(skills: Skill[], changes: Change[], options?: CommitOptions): Promise<number>;
  /** See {@linkcode LibraryStore.history}. */
  abstract history(): Promise<HistoryEntry[]>;
  /** See {@linkcode LibraryStore.loadActionModel}. */
  abstract loadActionModel(): Promise<ActionModel | undefined>;
  /** See {@linkcode LibraryStore.saveActionModel}. */
  abstract saveActionModel(model: ActionModel): Promise<void>;
  /** See {@linkcode LibraryStore.close}. */
  abstract close(): void;
}

/** A commit that lost a race with another writer and cannot be replayed. */
export class StoreConflictError extends Error {
  /** Creates the error for a library at `location`. */
  constructor(location: string, onDisk: number, opened: number) {
    super(
      `Cannot commit to library "${location}": it is at version ${onDisk} but the store was opened at version ${opened}, and the changes carry no replayable edits; reopen it`,
    );
    this.name = "StoreConflictError";
  }
}

/**
 * Validates a commit's changes, naming the first bad field.
 *
 * @throws {Error} When there is none.
 * @throws {TypeError} When one is malformed.
 */
export function parseChanges(changes: readonly Change[]): Change[] {
  if (changes.length === 0) {
    throw new Error("Cannot commit without a change to record in the history");
  }
  return changes.map((c, i) => {
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
}

/**
 * Compiles the skills of a commit for a library of `vocab`: each written
 * for it, names unique even ignoring case (they may become file names).
 *
 * @throws {InputFileError} Naming the skill at fault.
 */
export function compileStoreSkills(skills: readonly Skill[], vocab: Vocabulary): SkillLibrary {
  const seen = new Map<string, string>();
  for (const s of skills) {
    if (s.vocabulary !== vocab.name) {
      throw new InputFileError(
        `skill "${s.name}"`,
        `Skill is for vocabulary "${s.vocabulary}" but the library is "${vocab.name}"`,
      );
    }
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
  return compileSkills(skills.map((s) => ({ data: s, source: `skill "${s.name}"` })), vocab);
}

/** Whether every change carries an edit, so that the commit can be replayed on a newer version. */
export function replayable(changes: readonly Change[]): boolean {
  return changes.every((c) => c.edit !== undefined);
}

/**
 * Rebases a commit onto a newer version: replays the changes' edits on
 * `current` (the newer version's skills). A change whose edit applied
 * differently says so in its detail. `undefined` when some change has no
 * edit (it cannot be replayed).
 */
export function rebaseChanges(
  current: readonly Skill[],
  version: number,
  changes: readonly Change[],
  vocab: Vocabulary,
): { skills: Skill[]; changes: Change[] } | undefined {
  if (!replayable(changes)) return undefined;
  const { skills, notes } = replayEdits(current, changes.map((c) => c.edit!), vocab);
  return {
    skills,
    changes: changes.map((c, i) => {
      const note = notes.get(i);
      if (note === undefined) return c;
      const said = `replayed on version ${version}: ${note}`;
      return { ...c, detail: c.detail ? `${c.detail} [${said}]` : said };
    }),
  };
}
