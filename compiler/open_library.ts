/**
 * A library opened for use (a directory, or `kv:<path or URL>`): its skills
 * compiled, its task templates, its action model, and (on request) a
 * honing session that commits what it learns as new versions of the same
 * library. A directory's package is regenerated with each version (so
 * `package/` is always the current one). Several processes may hone one
 * library: each commit is replayed on what the others committed meanwhile,
 * and the session continues from the merged skills.
 *
 * @module
 */
import type { Vocabulary } from "../dsl/vocabulary.ts";
import type { ActionModel } from "../runtime/learn/action_model.ts";
import { Honer } from "../runtime/hone/hone.ts";
import { HoningSession } from "../runtime/hone/honing_session.ts";
import type { SkillLibrary } from "../runtime/store/library.ts";
import type { LibraryStore } from "../runtime/store/library_store.ts";
import { kvLocation } from "../runtime/store/kv_store.ts";
import { openLibraryStore } from "../runtime/store/open_store.ts";
import type { TaskTemplate } from "../runtime/store/task_template.ts";
import { refreshPackage } from "./write_library.ts";

/** Options of {@linkcode openLibrary}. */
export interface OpenLibraryOptions {
  /** Also open a honing session whose changes are committed to the directory. @default false */
  hone?: boolean;
}

/** An opened library. */
export interface OpenedLibrary {
  /** The versioned store behind the library (close it when done). */
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
 * Opens the library at `dir` (a directory or `kv:<path or URL>`) for
 * `vocab`: what `deno task induce` wrote.
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
  const store = await openLibraryStore(
    dir,
    vocab,
    kvLocation(dir) === undefined ? { afterCommit: (s) => refreshPackage(dir, s) } : {},
  );
  const actionModel = await store.loadActionModel();
  const honing = options.hone
    ? new HoningSession(new Honer(store.skills(), vocab), vocab, {
      commit: async (skills, changes) => {
        await store.commit(skills, changes);
        return store.skills();
      },
      ...(actionModel ? { actionModel } : {}),
      saveModel: (m) => store.saveActionModel(m),
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
