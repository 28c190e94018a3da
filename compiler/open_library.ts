/**
 * A library directory opened for use: its skills compiled, its task
 * templates, its action model, and (on request) a honing session that
 * commits what it learns as new versions of the same directory, each with
 * its package regenerated (so `package/` is always the current version).
 *
 * @module
 */
import type { Vocabulary } from "../dsl/vocabulary.ts";
import type { ActionModel } from "../runtime/action_model.ts";
import { Honer } from "../runtime/hone.ts";
import { HoningSession } from "../runtime/honing_session.ts";
import { loadActionModel, saveActionModel, type SkillLibrary } from "../runtime/library.ts";
import { LibraryStore } from "../runtime/library_store.ts";
import type { TaskTemplate } from "../runtime/task_template.ts";
import { refreshPackage } from "./write_library.ts";

/** Options of {@linkcode openLibrary}. */
export interface OpenLibraryOptions {
  /** Also open a honing session whose changes are committed to the directory. @default false */
  hone?: boolean;
}

/** An opened library. */
export interface OpenedLibrary {
  /** The versioned store behind the directory. */
  store: LibraryStore;
  /** The skills, compiled (the honing session's when honing). */
  library: SkillLibrary;
  /** The task templates (with task programs). */
  templates: TaskTemplate[];
  /** The action model stored beside the index, if any. */
  actionModel?: ActionModel;
  /** With `hone`: the session; pass its hooks to the agent or runner. */
  honing?: HoningSession;
}

/**
 * Opens the library at `dir` for `vocab`: what `deno task induce` wrote.
 *
 * @throws {InputFileError} When the directory holds no valid library for the vocabulary.
 *
 * @example Usage
 * ```ts ignore
 * import { openLibrary } from "./open_library.ts";
 * const { library, templates, actionModel } = await openLibrary("out/garden", kit.vocabulary);
 * ```
 */
export async function openLibrary(
  dir: string,
  vocab: Vocabulary,
  options: OpenLibraryOptions = {},
): Promise<OpenedLibrary> {
  const store = await LibraryStore.open(dir, vocab, {
    afterCommit: (s) => refreshPackage(dir, s, vocab),
  });
  const actionModel = await loadActionModel(dir, vocab);
  const honing = options.hone
    ? new HoningSession(new Honer(store.skills(), vocab), vocab, {
      commit: (skills, changes) => store.commit(skills, changes),
      ...(actionModel ? { actionModel } : {}),
      saveModel: (m) => saveActionModel(dir, m),
    })
    : undefined;
  return {
    store,
    library: honing ? honing.library() : store.library(),
    templates: store.templates(),
    ...(actionModel ? { actionModel } : {}),
    ...(honing ? { honing } : {}),
  };
}
