/**
 * Library stores by location: `kv:<path or URL>` is a Deno KV database
 * ({@linkcode KvStore}), anything else a directory ({@linkcode DirectoryStore}).
 *
 * @module
 */
import type { Skill } from "../../dsl/graph/schema.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { DirectoryStore } from "./directory_store.ts";
import { kvLocation, KvStore } from "./kv_store.ts";
import type { ChangeKind, CreateOptions, LibraryStore, StoreOptions } from "./library_store.ts";

/**
 * Opens the library at `location`.
 *
 * @throws {InputFileError} When there is no valid library for `vocab` there.
 *
 * @example Usage
 * ```ts ignore
 * const store = await openLibraryStore("kv:skills.sqlite", kit.vocabulary);
 * ```
 */
export function openLibraryStore(
  location: string,
  vocab: Vocabulary,
  options: StoreOptions = {},
): Promise<LibraryStore> {
  return kvLocation(location) !== undefined
    ? KvStore.open(location, vocab, options)
    : DirectoryStore.open(location, vocab, options);
}

/**
 * Creates a library at version 1 at `location` (see
 * {@linkcode DirectoryStore.create} and {@linkcode KvStore.create}).
 */
export function createLibraryStore(
  location: string,
  vocab: Vocabulary,
  skills: Skill[],
  change: { kind: ChangeKind; detail?: string },
  options: CreateOptions = {},
): Promise<LibraryStore> {
  return kvLocation(location) !== undefined
    ? KvStore.create(location, vocab, skills, change, options)
    : DirectoryStore.create(location, vocab, skills, change, options);
}

/** Whether `location` holds a library. */
export function libraryStoreExists(location: string): Promise<boolean> {
  return kvLocation(location) !== undefined
    ? KvStore.exists(location)
    : DirectoryStore.exists(location);
}
