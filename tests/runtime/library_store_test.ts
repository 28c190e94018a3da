import assert from "node:assert/strict";
import type { Skill } from "../../dsl/graph/schema.ts";
import { InputFileError } from "../../io/json_file.ts";
import { loadLibrary } from "../../runtime/store/library.ts";
import type { CommitStep } from "../../runtime/store/library_store.ts";
import { DirectoryStore } from "../../runtime/store/directory_store.ts";
import { toyVocab } from "./_toy.ts";

// take_color(c): pick a box of color c, open it if closed, take it.
const takeColor: Skill = {
  format: "skillc/skill@1",
  name: "take_color",
  vocabulary: "toy",
  params: [{ name: "c", type: "Color" }],
  doc: { summary: "Take a box of a color, opening it first if needed." },
  entry: "pick",
  nodes: [
    { id: "pick", kind: "data", var: "b", expr: "select_one(x: Box, color(x, c))" },
    { id: "closed", kind: "check", cond: "not is_open(b)" },
    { id: "open", kind: "primitive", action: "open", args: { b: "b" } },
    { id: "take", kind: "primitive", action: "take", args: { b: "b" } },
    { id: "ok", kind: "terminal", outcome: "success" },
  ],
  edges: [
    { from: "pick", to: "closed", label: "next" },
    { from: "closed", to: "open", label: "yes" },
    { from: "closed", to: "take", label: "no" },
    { from: "open", to: "take", label: "next" },
    { from: "take", to: "ok", label: "next" },
  ],
};

// A skill calling another: the store validates skills together.
const takeRed: Skill = {
  format: "skillc/skill@1",
  name: "take_red",
  vocabulary: "toy",
  params: [],
  doc: { summary: "Take a red box." },
  entry: "color",
  nodes: [
    { id: "color", kind: "data", var: "c", expr: "'red'" },
    { id: "call", kind: "primitive", action: "take_color", args: { c: "c" } },
    { id: "ok", kind: "terminal", outcome: "success" },
  ],
  edges: [
    { from: "color", to: "call", label: "next" },
    { from: "call", to: "ok", label: "next" },
  ],
};

/** A test in a fresh temporary directory, removed afterwards. */
function inTempDir(name: string, fn: (dir: string) => Promise<void>): void {
  Deno.test(name, async () => {
    const dir = await Deno.makeTempDir({ prefix: "skillc_store_" });
    try {
      await fn(dir);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

function withSummary(skill: Skill, summary: string): Skill {
  return { ...skill, doc: { ...skill.doc, summary } };
}

async function listDir(path: string): Promise<string[]> {
  const names = [];
  for await (const e of Deno.readDir(path)) names.push(e.name);
  return names.sort();
}

inTempDir(
  "DirectoryStore.create() writes version 1 with skill files, diagrams, index and history",
  async (dir) => {
    const store = await DirectoryStore.create(dir, toyVocab, [takeColor, takeRed], {
      kind: "induce",
      detail: "from 3 traces",
    });
    assert.equal(store.version, 1);
    assert.deepEqual(await listDir(dir), [".lock", "history.jsonl", "index.json", "versions"]);
    assert.deepEqual(await listDir(`${dir}/versions`), ["1"]);
    assert.deepEqual(await listDir(`${dir}/versions/1`), [
      "take_color.json",
      "take_color.mmd",
      "take_red.json",
      "take_red.mmd",
    ]);
    const index = JSON.parse(await Deno.readTextFile(`${dir}/index.json`));
    assert.equal(index.format, "skillc/library@1");
    assert.equal(index.vocabulary, "toy");
    assert.equal(index.version, 1);
    assert.deepEqual(index.skills.map((s: { file: string }) => s.file), [
      "versions/1/take_color.json",
      "versions/1/take_red.json",
    ]);
    const saved = JSON.parse(await Deno.readTextFile(`${dir}/versions/1/take_color.json`));
    assert.deepEqual(saved, takeColor);
    const mermaid = await Deno.readTextFile(`${dir}/versions/1/take_color.mmd`);
    assert.match(mermaid, /^flowchart /m);
    assert.match(mermaid, /not is_open\(b\)/);

    const loaded = await loadLibrary(dir, toyVocab);
    assert.deepEqual(loaded.names(), ["take_color", "take_red"]);
    assert.deepEqual(store.library().names(), ["take_color", "take_red"]);
    const history = await store.history();
    assert.equal(history.length, 1);
    assert.equal(history[0].version, 1);
    assert.equal(history[0].kind, "induce");
    assert.equal(history[0].detail, "from 3 traces");
    assert.ok(!Number.isNaN(Date.parse(history[0].time)));
  },
);

inTempDir(
  "commit() writes a new version, leaves the old one untouched and appends the history",
  async (dir) => {
    const store = await DirectoryStore.create(dir, toyVocab, [takeColor], { kind: "induce" });
    const before = await Deno.readTextFile(`${dir}/versions/1/take_color.json`);
    const edited = store.skills().map((s) => withSummary(s, "Take a box of the color."));
    const version = await store.commit([...edited, takeRed], [
      { kind: "edit", skill: "take_color", detail: "reworded" },
      { kind: "graft", skill: "take_red" },
    ]);
    assert.equal(version, 2);
    assert.equal(store.version, 2);
    assert.equal(await Deno.readTextFile(`${dir}/versions/1/take_color.json`), before);
    assert.deepEqual(await listDir(`${dir}/versions`), ["1", "2"]);

    const reopened = await DirectoryStore.open(dir, toyVocab);
    assert.equal(reopened.version, 2);
    assert.deepEqual(reopened.skills().map((s) => s.name), ["take_color", "take_red"]);
    assert.equal(reopened.skills()[0].doc.summary, "Take a box of the color.");
    const history = await reopened.history();
    assert.deepEqual(history.map((h) => [h.version, h.kind, h.skill]), [
      [1, "induce", undefined],
      [2, "edit", "take_color"],
      [2, "graft", "take_red"],
    ]);
  },
);

inTempDir("skills() returns copies: changing them does not change the store", async (dir) => {
  const store = await DirectoryStore.create(dir, toyVocab, [takeColor], { kind: "induce" });
  store.skills()[0].doc.summary = "changed";
  assert.equal(store.skills()[0].doc.summary, takeColor.doc.summary);
});

inTempDir(
  "DirectoryStore.open() names a missing directory and a directory without an index",
  async (dir) => {
    await assert.rejects(
      () => DirectoryStore.open(`${dir}/nope`, toyVocab),
      (e: unknown) => e instanceof InputFileError && /does not exist/.test(e.message),
    );
    await assert.rejects(
      () => DirectoryStore.open(dir, toyVocab),
      (e: unknown) => e instanceof InputFileError && /no "index\.json"/.test(e.message),
    );
    await DirectoryStore.create(dir, toyVocab, [takeColor], { kind: "induce" });
    const other = { ...toyVocab, name: "other" };
    await assert.rejects(() => DirectoryStore.open(dir, other), /vocabulary "toy".*"other"/);
  },
);

inTempDir(
  "DirectoryStore.create() refuses a non-empty directory or a library unless overwrite",
  async (dir) => {
    await Deno.writeTextFile(`${dir}/notes.txt`, "mine");
    await assert.rejects(
      () => DirectoryStore.create(dir, toyVocab, [takeColor], { kind: "induce" }),
      /not empty \(found "notes\.txt"\)/,
    );
    assert.deepEqual(await listDir(dir), ["notes.txt"]);
    const store = await DirectoryStore.create(dir, toyVocab, [takeColor], { kind: "induce" }, {
      overwrite: true,
    });
    assert.equal(store.version, 1);
    assert.equal(await Deno.readTextFile(`${dir}/notes.txt`), "mine");
    await store.commit([takeColor, takeRed], [{ kind: "edit" }]);

    await assert.rejects(
      () => DirectoryStore.create(dir, toyVocab, [takeColor], { kind: "induce" }),
      /already holds a library/,
    );
    const fresh = await DirectoryStore.create(dir, toyVocab, [takeRed, takeColor], {
      kind: "induce",
    }, { overwrite: true });
    assert.equal(fresh.version, 1);
    assert.deepEqual(await listDir(`${dir}/versions`), ["1"]);
    assert.equal((await fresh.history()).length, 1);
    assert.deepEqual((await loadLibrary(dir, toyVocab)).names(), ["take_red", "take_color"]);
  },
);

inTempDir("commit() validates every skill before writing anything", async (dir) => {
  const store = await DirectoryStore.create(dir, toyVocab, [takeColor], { kind: "induce" });
  const broken: Skill = {
    ...takeColor,
    nodes: takeColor.nodes.map((n) => n.id === "closed" ? { ...n, cond: "not is_shut(b)" } : n),
  };
  await assert.rejects(
    () => store.commit([broken], [{ kind: "edit" }]),
    (e: unknown) => e instanceof InputFileError && /is_shut/.test(e.message),
  );
  await assert.rejects(() => store.commit([takeColor, takeColor], [{ kind: "edit" }]), /Duplicate/);
  await assert.rejects(() => store.commit([takeRed], [{ kind: "edit" }]), /take_color/);
  await assert.rejects(() => store.commit([takeColor], []), /without a change/);
  await assert.rejects(
    () => store.commit([{ ...takeColor, vocabulary: "other" }], [{ kind: "edit" }]),
    /vocabulary "other"/,
  );
  assert.equal(store.version, 1);
  assert.deepEqual(await listDir(`${dir}/versions`), ["1"]);
  assert.equal((await store.history()).length, 1);
});

for (const failAt of ["skill-file", "version-dir", "history"] as CommitStep[]) {
  inTempDir(
    `an interrupted commit (after ${failAt}) leaves the previous version loadable`,
    async (dir) => {
      await DirectoryStore.create(dir, toyVocab, [takeColor, takeRed], { kind: "induce" });
      const crashing = await DirectoryStore.open(dir, toyVocab, {
        onCommitStep: (step) => {
          if (step === failAt) throw new Error(`simulated crash after ${step}`);
        },
      });
      const edited = crashing.skills().map((s) => withSummary(s, "edited"));
      await assert.rejects(
        () => crashing.commit(edited, [{ kind: "narrow", skill: "take_color" }]),
        /simulated crash/,
      );
      assert.ok((await listDir(`${dir}/versions`)).length > 1, "the crash left files behind");

      // Readers still see version 1.
      const loaded = await loadLibrary(dir, toyVocab);
      assert.deepEqual(loaded.names(), ["take_color", "take_red"]);
      assert.equal(loaded.get("take_color")!.skill.doc.summary, takeColor.doc.summary);
      const store = await DirectoryStore.open(dir, toyVocab);
      assert.equal(store.version, 1);
      assert.deepEqual((await store.history()).map((h) => h.version), [1]);

      // A later commit cleans up and succeeds.
      const version = await store.commit(edited, [{ kind: "narrow", skill: "take_color" }]);
      assert.equal(version, 2);
      assert.deepEqual(await listDir(`${dir}/versions`), ["1", "2"]);
      const after = await loadLibrary(dir, toyVocab);
      assert.equal(after.get("take_color")!.skill.doc.summary, "edited");
      const lines = (await Deno.readTextFile(`${dir}/history.jsonl`)).trimEnd().split("\n");
      assert.deepEqual(lines.map((l) => JSON.parse(l).version), [1, 2]);
    },
  );
}

inTempDir(
  "history() ignores a torn last line and the next commit repairs the file",
  async (dir) => {
    const store = await DirectoryStore.create(dir, toyVocab, [takeColor], { kind: "induce" });
    await Deno.writeTextFile(`${dir}/history.jsonl`, '{"version": 2, "ti', { append: true });
    assert.deepEqual((await store.history()).map((h) => h.kind), ["induce"]);
    await store.commit([takeColor], [{ kind: "solidify", skill: "take_color" }]);
    assert.deepEqual((await store.history()).map((h) => [h.version, h.kind]), [
      [1, "induce"],
      [2, "solidify"],
    ]);
  },
);

inTempDir("history() names the line of a corrupt entry", async (dir) => {
  const store = await DirectoryStore.create(dir, toyVocab, [takeColor], { kind: "induce" });
  const text = await Deno.readTextFile(`${dir}/history.jsonl`);
  await Deno.writeTextFile(
    `${dir}/history.jsonl`,
    `${text}{"version": 1, "time": "2024-01-01T00:00:00Z", "kind": "fly"}\n`,
  );
  await assert.rejects(
    () => store.history(),
    (e: unknown) => e instanceof InputFileError && e.line === 2 && /kind/.test(e.message),
  );
});

inTempDir(
  "commit() refuses when another writer changed the library since it was opened",
  async (dir) => {
    await DirectoryStore.create(dir, toyVocab, [takeColor], { kind: "induce" });
    const a = await DirectoryStore.open(dir, toyVocab);
    const b = await DirectoryStore.open(dir, toyVocab);
    await a.commit([takeColor, takeRed], [{ kind: "graft" }]);
    await assert.rejects(
      () => b.commit([takeColor], [{ kind: "remove" }]),
      /it is at version 2 but the store was opened at version 1, and the changes carry no replayable edits/,
    );
    assert.deepEqual((await loadLibrary(dir, toyVocab)).names(), ["take_color", "take_red"]);
  },
);

inTempDir("an interrupted create leaves no library, and a later create succeeds", async (dir) => {
  await assert.rejects(
    () =>
      DirectoryStore.create(dir, toyVocab, [takeColor], { kind: "induce" }, {
        onCommitStep: (step) => {
          if (step === "history") throw new Error("simulated crash");
        },
      }),
    /simulated crash/,
  );
  assert.equal(await DirectoryStore.exists(dir), false);
  await assert.rejects(() => DirectoryStore.open(dir, toyVocab), /no "index\.json"/);
  const store = await DirectoryStore.create(dir, toyVocab, [takeRed, takeColor], {
    kind: "induce",
  });
  assert.equal(store.version, 1);
  assert.deepEqual(await listDir(`${dir}/versions`), ["1"]);
  assert.deepEqual((await store.history()).map((h) => h.version), [1]);
});

inTempDir(
  "an index naming a file outside the library is refused, naming the entry",
  async (dir) => {
    await DirectoryStore.create(dir, toyVocab, [takeColor], { kind: "induce" });
    const secret = await Deno.makeTempFile({ prefix: "skillc_secret_" });
    await Deno.writeTextFile(secret, "SECRET");
    try {
      const index = JSON.parse(await Deno.readTextFile(`${dir}/index.json`));
      const depth = dir.split("/").length;
      for (
        const file of [`${"../".repeat(depth)}${secret.slice(1)}`, secret, "versions/../../x.json"]
      ) {
        await Deno.writeTextFile(
          `${dir}/index.json`,
          JSON.stringify({ ...index, skills: [{ ...index.skills[0], file }] }),
        );
        await assert.rejects(loadLibrary(dir, toyVocab), (e) => {
          assert.ok(e instanceof InputFileError);
          assert.match(
            e.message,
            /at "skills\.0\.file": skill "take_color" names .* which is not a relative path inside the library directory/,
          );
          assert.ok(!e.message.includes("SECRET"));
          return true;
        });
      }
      // A link inside the directory that leads out of it is refused too.
      await Deno.symlink(secret, `${dir}/link.json`);
      await Deno.writeTextFile(
        `${dir}/index.json`,
        JSON.stringify({ ...index, skills: [{ ...index.skills[0], file: "link.json" }] }),
      );
      await assert.rejects(
        loadLibrary(dir, toyVocab),
        /Skill "take_color": its file "link.json" resolves outside the library directory/,
      );
    } finally {
      await Deno.remove(secret);
    }
  },
);

inTempDir("opening a library removes temporary files a killed writer left", async (dir) => {
  await DirectoryStore.create(dir, toyVocab, [takeColor], { kind: "induce" });
  const old = `${dir}/index.json.tmp-dead0001`;
  const young = `${dir}/index.json.tmp-live0002`;
  await Deno.writeTextFile(old, "{");
  await Deno.writeTextFile(young, "{");
  const hourAgo = new Date(Date.now() - 3_600_000);
  await Deno.utime(old, hourAgo, hourAgo);
  await DirectoryStore.open(dir, toyVocab);
  const names = await listDir(dir);
  assert.ok(!names.includes("index.json.tmp-dead0001"));
  // A young one may be another writer's, still at work.
  assert.ok(names.includes("index.json.tmp-live0002"));
});
