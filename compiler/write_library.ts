/**
 * The output stage of induction: a versioned library (a directory, see
 * `runtime/store/directory_store.ts`, or a Deno KV database, see
 * `runtime/store/kv_store.ts`) plus, for a directory, a generated Deno/JSR
 * package of the same skills in its `package/` folder.
 *
 * @module
 */
import type { Skill } from "../dsl/graph/schema.ts";
import type { Vocabulary } from "../dsl/vocabulary.ts";
import type { LibraryStore } from "../runtime/store/library_store.ts";
import { kvLocation } from "../runtime/store/kv_store.ts";
import {
  createLibraryStore,
  libraryStoreExists,
  openLibraryStore,
} from "../runtime/store/open_store.ts";
import type { TaskTemplate } from "../runtime/store/task_template.ts";
import type { ActionModel } from "../runtime/learn/action_model.ts";
import { generatePackage } from "./package.ts";

/** Options of {@linkcode writeLibrary}. */
export interface WriteLibraryOptions {
  /** The JSR name of the generated package. @default "@skillc/<vocabulary>-skills" */
  packageName?: string;
  /** Recorded in the history entry of the new version. */
  detail?: string;
  /**
   * Start a new library (version 1) even if `out` holds one or other files;
   * only library files are replaced. Without it, an existing library gets a
   * new version and a non-empty directory that is not a library is refused.
   * @default false
   */
  overwrite?: boolean;
  /**
   * The task templates to store in the index (see `templates.ts`). Without
   * it a new library has none and a new version keeps the previous ones.
   */
  templates?: TaskTemplate[];
}

/**
 * Writes induced skills to `out` (a directory, or `kv:<path or URL>`): a
 * new library, or a new version (change kind `"induce"`) of the library
 * already there, and for a directory the package at `out/package/`
 * (version `0.<library version>.0`; see {@linkcode generatePackageOf} for
 * a Deno KV library).
 *
 * @returns The library version written.
 * @throws {InputFileError} When a skill does not validate against `vocab`.
 * @throws {Error} When `out` is a non-empty directory that is not a library and `overwrite` is not set.
 *
 * @example Usage
 * ```ts ignore
 * const { version } = await writeLibrary("out/lib", skills, vocab, { detail: "12 traces" });
 * ```
 */
export async function writeLibrary(
  out: string,
  skills: Skill[],
  vocab: Vocabulary,
  options: WriteLibraryOptions & { actionModel?: ActionModel } = {},
): Promise<{ version: number }> {
  const change = { kind: "induce" as const, detail: options.detail };
  let store: LibraryStore;
  if (!options.overwrite && await libraryStoreExists(out)) {
    store = await openLibraryStore(out, vocab);
    await store.commit(
      skills,
      [change],
      options.templates ? { templates: options.templates } : {},
    );
  } else {
    store = await createLibraryStore(out, vocab, skills, change, {
      overwrite: options.overwrite,
      ...(options.templates ? { templates: options.templates } : {}),
    });
  }
  try {
    if (options.actionModel) await store.saveActionModel(options.actionModel);
    if (kvLocation(out) === undefined) await refreshPackage(out, store, options.packageName);
    return { version: store.version };
  } finally {
    store.close();
  }
}

/**
 * Rewrites the library's package (`<dir>/package/`) from the store's
 * current skills, as version `0.<library version>.0`: pass it as the
 * store's `afterCommit` so that the package never lags behind a commit.
 */
export async function refreshPackage(
  dir: string,
  store: Pick<LibraryStore, "skills" | "version" | "vocab">,
  packageName?: string,
): Promise<void> {
  await generatePackageOf(store, `${dir}/package`, packageName);
}

/**
 * Writes the Deno/JSR package of a library's current skills to `out`, as
 * version `0.<library version>.0`: how a Deno KV library, which has no
 * folder of its own, gets its package on demand.
 *
 * @example Usage
 * ```ts ignore
 * const store = await openLibraryStore("kv:skills.sqlite", vocab);
 * await generatePackageOf(store, "out/package");
 * ```
 */
export async function generatePackageOf(
  store: Pick<LibraryStore, "skills" | "version" | "vocab">,
  out: string,
  packageName?: string,
): Promise<void> {
  const vocab = store.vocab;
  await generatePackage(out, store.skills(), {
    name: packageName ?? defaultPackageName(vocab.name),
    version: `0.${store.version}.0`,
    vocabulary: vocab.name,
    description: `Skills induced by skillc for the "${vocab.name}" environment.`,
  });
}

/** `@skillc/<vocabulary>-skills`, with the vocabulary name made a valid JSR name. */
function defaultPackageName(vocabulary: string): string {
  const slug = vocabulary.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return `@skillc/${slug || "library"}-skills`;
}
