import assert from "node:assert/strict";
import { writeLibrary } from "../../compiler/write_library.ts";
import { openLibrary } from "../../compiler/open_library.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import { textcraftVocabulary } from "../../environments/textcraft/mod.ts";
import { readJsonFile } from "../../io/json_file.ts";
import { loadLibrary } from "../../runtime/store/library.ts";
import { DirectoryStore } from "../../runtime/store/directory_store.ts";

const example = await readJsonFile(
  new URL("../../examples/textcraft/craft_from_gettable.json", import.meta.url).pathname,
) as Skill;
const renamed: Skill = { ...example, name: "craft_simple" };

async function inTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "skillc_write_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function packageConfig(out: string): Promise<{ name: string; version: string }> {
  return JSON.parse(await Deno.readTextFile(`${out}/package/deno.json`));
}

Deno.test("writeLibrary() creates a library and its package, then adds versions", async () => {
  await inTempDir(async (root) => {
    const out = `${root}/lib`;
    const first = await writeLibrary(out, [example], textcraftVocabulary, { detail: "run 1" });
    assert.equal(first.version, 1);
    assert.deepEqual((await loadLibrary(out, textcraftVocabulary)).names(), [
      "craft_from_gettable",
    ]);
    assert.deepEqual(await packageConfig(out), {
      name: "@skillc/textcraft-skills",
      version: "0.1.0",
      license: "MIT",
      exports: { ".": "./mod.ts" },
    });
    assert.match(
      await Deno.readTextFile(`${out}/package/mod.ts`),
      /export const craft_from_gettable: SkillModule<\{ target: "Item" \}>/,
    );

    const second = await writeLibrary(out, [example, renamed], textcraftVocabulary, {
      detail: "run 2",
      packageName: "@me/crafting",
    });
    assert.equal(second.version, 2);
    assert.deepEqual((await loadLibrary(out, textcraftVocabulary)).names(), [
      "craft_from_gettable",
      "craft_simple",
    ]);
    const config = await packageConfig(out);
    assert.equal(config.name, "@me/crafting");
    assert.equal(config.version, "0.2.0");
    assert.match(await Deno.readTextFile(`${out}/package/mod.ts`), /export const craft_simple:/);
    const store = await DirectoryStore.open(out, textcraftVocabulary);
    assert.deepEqual(
      (await store.history()).map((h) => [h.version, h.kind, h.detail]),
      [[1, "induce", "run 1"], [2, "induce", "run 2"]],
    );
  });
});

Deno.test("writeLibrary() refuses a non-empty directory unless overwrite, then starts at version 1", async () => {
  await inTempDir(async (out) => {
    await Deno.writeTextFile(`${out}/notes.md`, "keep me");
    await assert.rejects(
      () => writeLibrary(out, [example], textcraftVocabulary),
      /not empty \(found "notes\.md"\)/,
    );
    await assert.rejects(() => Deno.stat(`${out}/package`), Deno.errors.NotFound);
    assert.equal(
      (await writeLibrary(out, [example], textcraftVocabulary, { overwrite: true }))
        .version,
      1,
    );
    assert.equal((await writeLibrary(out, [example], textcraftVocabulary)).version, 2);
    assert.equal(
      (await writeLibrary(out, [renamed], textcraftVocabulary, { overwrite: true })).version,
      1,
    );
    assert.deepEqual((await loadLibrary(out, textcraftVocabulary)).names(), ["craft_simple"]);
    assert.equal(await Deno.readTextFile(`${out}/notes.md`), "keep me");
  });
});

Deno.test("writeLibrary() writes nothing when a skill does not validate", async () => {
  await inTempDir(async (root) => {
    const out = `${root}/lib`;
    const broken: Skill = {
      ...example,
      nodes: example.nodes.map((n) => n.id === "craft" ? { ...n, action: "smelt" } : n),
    };
    await assert.rejects(
      () => writeLibrary(out, [broken], textcraftVocabulary),
      /unknown action "smelt"/,
    );
    await assert.rejects(() => Deno.stat(out), Deno.errors.NotFound);
    // Not even with overwrite over an existing library.
    await writeLibrary(out, [example], textcraftVocabulary);
    await assert.rejects(
      () => writeLibrary(out, [broken], textcraftVocabulary, { overwrite: true }),
      /unknown action "smelt"/,
    );
    assert.deepEqual((await loadLibrary(out, textcraftVocabulary)).names(), [
      "craft_from_gettable",
    ]);
    assert.equal((await DirectoryStore.open(out, textcraftVocabulary)).version, 1);
  });
});

Deno.test("a library opened with openLibrary keeps its package at the version of each commit", async () => {
  await inTempDir(async (root) => {
    const out = `${root}/lib`;
    await writeLibrary(out, [example], textcraftVocabulary, { detail: "run 1" });
    const opened = await openLibrary(out, textcraftVocabulary, { hone: true });
    assert.ok(opened.honing, "a honing session");
    // What a honing session commits after an episode: a new version of the skills.
    const version = await opened.store.commit(
      [example, renamed],
      [{ kind: "edit", skill: "craft_simple", detail: "added" }],
    );
    assert.equal(version, 2);
    assert.equal((await packageConfig(out)).version, "0.2.0");
    assert.match(await Deno.readTextFile(`${out}/package/mod.ts`), /export const craft_simple:/);
  });
});
