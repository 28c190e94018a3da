import assert from "node:assert/strict";
import { learnActionModel } from "../../runtime/learn/action_model.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { KvStore } from "../../runtime/store/kv_store.ts";
import { openLibraryStore } from "../../runtime/store/open_store.ts";
import { takeOnlySkill, toyVocab } from "./_toy.ts";

const takeColor = takeOnlySkill();

/** A test with a fresh Deno KV database file, removed afterwards. */
function withKv(name: string, fn: (location: string) => Promise<void>): void {
  Deno.test(name, async () => {
    const dir = await Deno.makeTempDir({ prefix: "skillc_kv_" });
    try {
      await fn(`kv:${dir}/lib.sqlite`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

withKv("KvStore keeps versions and their history like a directory", async (location) => {
  assert.equal(await KvStore.exists(location), false);
  const store = await KvStore.create(location, toyVocab, [takeColor], {
    kind: "induce",
    detail: "3 traces",
  });
  assert.equal(store.version, 1);
  const edited = store.skills();
  edited[0].doc.summary = "Take one box of a color.";
  assert.equal(await store.commit(edited, [{ kind: "edit", skill: "take_color" }]), 2);
  store.close();

  const reopened = await openLibraryStore(location, toyVocab);
  try {
    assert.equal(reopened.version, 2);
    assert.equal(reopened.skills()[0].doc.summary, "Take one box of a color.");
    assert.ok(reopened.library().get("take_color"));
    assert.deepEqual((await reopened.history()).map((h) => [h.version, h.kind, h.detail]), [
      [1, "induce", "3 traces"],
      [2, "edit", undefined],
    ]);
  } finally {
    reopened.close();
  }
  assert.equal(await KvStore.exists(location), true);
});

withKv(
  "KvStore refuses a second create, a foreign vocabulary and an unreplayable race",
  async (location) => {
    (await KvStore.create(location, toyVocab, [takeColor], { kind: "induce" })).close();
    await assert.rejects(
      () => KvStore.create(location, toyVocab, [takeColor], { kind: "induce" }),
      /already holds a library/,
    );
    await assert.rejects(
      () => KvStore.open(location, { ...toyVocab, name: "other" }),
      /vocabulary "toy" but the environment is "other"/,
    );
    const a = await KvStore.open(location, toyVocab);
    const b = await KvStore.open(location, toyVocab);
    try {
      await a.commit(a.skills(), [{ kind: "edit" }]);
      await assert.rejects(
        () => b.commit(b.skills(), [{ kind: "edit" }]),
        /at version 2 but the store was opened at version 1, and the changes carry no replayable edits/,
      );
    } finally {
      a.close();
      b.close();
    }
    const fresh = await KvStore.create(location, toyVocab, [takeColor], { kind: "induce" }, {
      overwrite: true,
    });
    assert.equal(fresh.version, 1);
    assert.equal((await fresh.history()).length, 1);
    fresh.close();
  },
);

withKv("KvStore splits a version larger than a Deno KV value into chunks", async (location) => {
  // A summary of 200 KB: several times Deno KV's 64 KiB value limit.
  const big = { ...takeColor, doc: { summary: "é".repeat(100_000) } };
  (await KvStore.create(location, toyVocab, [big], { kind: "induce" })).close();
  const store = await KvStore.open(location, toyVocab);
  assert.equal(store.skills()[0].doc.summary, big.doc.summary);
  store.close();
});

withKv("KvStore keeps the learned action model", async (location) => {
  const store = await KvStore.create(location, toyVocab, [takeColor], { kind: "induce" });
  try {
    assert.equal(await store.loadActionModel(), undefined);
    const model = learnActionModel(toyVocab, [
      {
        facts: new FactStore([{ pred: "is_open", args: ["b1"] }], { b1: "Box" }),
        action: "take b1",
        ok: true,
      },
      { facts: new FactStore([], { b1: "Box" }), action: "take b1", ok: false },
    ]);
    await store.saveActionModel(model);
    await store.saveActionModel(model);
    const loaded = await store.loadActionModel();
    assert.deepEqual(loaded?.toJSON(), model.toJSON());
  } finally {
    store.close();
  }
});

Deno.test("a kv: library without Deno KV enabled names the flag to add", async () => {
  const script = `import { KvStore } from ${
    JSON.stringify(new URL("../../runtime/store/kv_store.ts", import.meta.url).href)
  };
await KvStore.open("kv:/nonexistent/lib.sqlite", { name: "toy", types: {}, predicates: {}, actions: {} }).catch((e) => console.log(e.message));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--no-check",
      "--no-config",
      "--import-map",
      new URL("../../deno.json", import.meta.url).pathname,
      script,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.match(new TextDecoder().decode(out.stdout), /run with --unstable-kv/);
});

withKv(
  "opening a KV library removes content a writer left before dying, once it is old",
  async (location) => {
    (await KvStore.create(location, toyVocab, [takeColor], { kind: "induce" })).close();
    const open = (Deno as unknown as { openKv(path: string): Promise<Deno.Kv> }).openKv;
    const kv = await open(location.slice(3));
    const old = `${"0".repeat(9)}-stray`;
    const young = `${Date.now().toString(36).padStart(9, "0")}-in-progress`;
    await kv.set(["skillc", "blob", old, 0], new Uint8Array([1]));
    await kv.set(["skillc", "blob", young, 0], new Uint8Array([2]));
    const store = await KvStore.open(location, toyVocab);
    try {
      assert.equal((await kv.get(["skillc", "blob", old, 0])).value, null);
      assert.ok(
        (await kv.get(["skillc", "blob", young, 0])).value,
        "a young one may be a commit in progress",
      );
      assert.equal(store.skills()[0].name, "take_color", "the library's own content stays");
    } finally {
      store.close();
      kv.close();
    }
  },
);
