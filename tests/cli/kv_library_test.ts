import assert from "node:assert/strict";
import { runCli } from "./_run.ts";

/** `induce --env textcraft --traces builtin --out <lib>`, plus `extra`. */
const induceInto = (lib: string, extra: string[] = []) =>
  runCli(
    "cli/induce.ts",
    ["--env", "textcraft", "--traces", "builtin", "--out", lib, ...extra],
  );

Deno.test("a Deno KV library: induce writes it, eval --hone runs on it, package makes its JSR package", async () => {
  const dir = await Deno.makeTempDir({ prefix: "skillc_kv_cli_" });
  try {
    const lib = `kv:${dir}/textcraft.sqlite`;
    const made = await induceInto(lib, ["--json"]);
    assert.equal(made.code, 0, made.stderr);
    assert.equal(JSON.parse(made.stdout).skills[0].name, "craft_item");

    const evaluated = await runCli("cli/eval.ts", [
      "--env",
      "textcraft",
      "--lib",
      lib,
      "--n",
      "4",
      "--depths",
      "2",
      "--hone",
    ]);
    assert.equal(evaluated.code, 0, evaluated.stderr);
    assert.match(evaluated.stdout, /success/i);
    assert.match(
      evaluated.stdout,
      new RegExp(`library kv:${dir}/textcraft\\.sqlite is at version \\d+`),
    );

    const out = `${dir}/package`;
    const packaged = await runCli("cli/package.ts", [
      "--env",
      "textcraft",
      "--lib",
      lib,
      "--out",
      out,
      "--name",
      "@me/crafting",
    ]);
    assert.equal(packaged.code, 0, packaged.stderr);
    assert.match(packaged.stdout, /Wrote the package of kv:.* version \d+ \(1 skills\)/);
    const config = JSON.parse(await Deno.readTextFile(`${out}/deno.json`));
    assert.equal(config.name, "@me/crafting");
    assert.match(config.version, /^0\.\d+\.0$/);
    await Deno.stat(`${out}/mod.ts`);

    // A second induction adds a version instead of replacing the library.
    const again = await induceInto(lib);
    assert.equal(again.code, 0, again.stderr);
    const { KvStore } = await import("../../runtime/store/kv_store.ts");
    const { textcraftKit } = await import("../../environments/textcraft/mod.ts");
    const store = await KvStore.open(lib, textcraftKit.vocabulary);
    try {
      const history = await store.history();
      assert.equal(history.at(-1)?.kind, "induce");
      assert.equal(history.at(-1)?.version, store.version);
      assert.ok(await store.loadActionModel(), "the action model is kept in the database");
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("package names a missing library and bad flags with exit 2", async () => {
  const cases: [string[], RegExp][] = [
    [["--env", "textcraft", "--out", "x"], /Missing --lib/],
    [["--env", "textcraft", "--lib", "x"], /Missing --out/],
    [["--env", "textcraft", "--lib", "x", "--out", "y", "--name", "Bad Name"], /--name must be/],
    [["--env", "textcraft", "--lib", "/no/such/lib", "--out", "y"], /directory does not exist/],
  ];
  for (const [args, message] of cases) {
    const r = await runCli("cli/package.ts", args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  const help = await runCli("cli/package.ts", ["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: deno task package/);
});
