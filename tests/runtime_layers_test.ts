// The runtime reads top-down: its folders form a stack, and a file imports
// only from its own folder or from folders below it. The files at the root of
// runtime/ (the fact store, the environment interfaces, the knowledge source,
// the action-model data) are the base and import no folder; runtime/mod.ts,
// which re-exports every layer, is exempt. Imports are read with
// `deno info --json` (type-only imports included). docs/architecture.md shows
// the stack.
import assert from "node:assert/strict";

/** The folders of runtime/, bottom to top. */
const LAYERS = ["learn", "exec", "store", "plan", "agent", "hone", "eval"] as const;

const ROOT = new URL("..", import.meta.url);

/** One import of a runtime/ file, by paths relative to the repository. */
interface RuntimeImport {
  file: string;
  line: number;
  specifier: string;
  target: string;
}

interface InfoDependency {
  specifier: string;
  code?: { specifier?: string; span?: { start: { line: number } } };
  type?: { specifier?: string; span?: { start: { line: number } } };
}

interface InfoModule {
  specifier: string;
  dependencies?: InfoDependency[];
}

/** Every `.ts` file under runtime/, relative to the repository. */
function runtimeFiles(dir = "runtime"): string[] {
  return [...Deno.readDirSync(new URL(`${dir}/`, ROOT))].flatMap((e) =>
    e.isDirectory
      ? runtimeFiles(`${dir}/${e.name}`)
      : e.isFile && e.name.endsWith(".ts")
      ? [`${dir}/${e.name}`]
      : []
  );
}

function modulesOf(entry: string): InfoModule[] {
  const out = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT.pathname,
  }).outputSync();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return (JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: InfoModule[] }).modules;
}

/** The imports between runtime/ files, from the graphs of runtime/mod.ts and of any file it misses. */
function runtimeImports(): RuntimeImport[] {
  const prefix = new URL("runtime/", ROOT).href;
  const relative = (s: string) => s.slice(ROOT.href.length);
  const seen = new Map<string, InfoModule>();
  const add = (entry: string) => {
    for (const m of modulesOf(entry)) if (m.specifier.startsWith(prefix)) seen.set(m.specifier, m);
  };
  add("runtime/mod.ts");
  for (const file of runtimeFiles()) {
    if (!seen.has(new URL(file, ROOT).href)) add(file);
  }
  return [...seen.values()].flatMap((m) =>
    (m.dependencies ?? []).flatMap((d) =>
      [d.code, d.type].flatMap((r) =>
        r?.specifier?.startsWith(prefix)
          ? [{
            file: relative(m.specifier),
            line: (r.span?.start.line ?? -1) + 1,
            specifier: d.specifier,
            target: relative(r.specifier),
          }]
          : []
      )
    )
  );
}

/**
 * The layer of a runtime/ file: 0 for the root files, 1 + the folder's
 * index in `layers` for a folder, `undefined` for runtime/mod.ts (exempt);
 * throws for a folder not in `layers`.
 */
function layerOf(file: string, layers: readonly string[]): number | undefined {
  const parts = file.split("/");
  if (parts.length === 2) return parts[1] === "mod.ts" ? undefined : 0;
  const index = layers.indexOf(parts[1]);
  if (index < 0) {
    throw new Error(`runtime/${parts[1]}/ is in no layer: add it to LAYERS (${file})`);
  }
  return index + 1;
}

/** The imports that go up the stack, each as a sentence naming the file and the import. */
function upwardImports(imports: readonly RuntimeImport[], layers: readonly string[]): string[] {
  const name = (layer: number) => layer === 0 ? "the root files" : `${layers[layer - 1]}/`;
  return imports.flatMap((i) => {
    const from = layerOf(i.file, layers);
    const to = layerOf(i.target, layers);
    if (from === undefined || to === undefined || to <= from) return [];
    return [
      `${i.file}:${i.line} imports "${i.specifier}": ${name(to)} is above ${name(from)}`,
    ];
  });
}

Deno.test("no runtime/ folder imports from a folder above it", () => {
  const imports = runtimeImports();
  assert.ok(imports.length > 100, `only ${imports.length} runtime imports read`);
  assert.deepEqual(upwardImports(imports, LAYERS), []);
});

Deno.test("the layer check names an upward import and its file", () => {
  const imports: RuntimeImport[] = [
    {
      file: "runtime/exec/a.ts",
      line: 3,
      specifier: "../store/b.ts",
      target: "runtime/store/b.ts",
    },
    { file: "runtime/store/b.ts", line: 4, specifier: "../exec/c.ts", target: "runtime/exec/c.ts" },
    { file: "runtime/env.ts", line: 5, specifier: "./learn/d.ts", target: "runtime/learn/d.ts" },
    { file: "runtime/mod.ts", line: 6, specifier: "./eval/e.ts", target: "runtime/eval/e.ts" },
  ];
  assert.deepEqual(upwardImports(imports, LAYERS), [
    'runtime/exec/a.ts:3 imports "../store/b.ts": store/ is above exec/',
    'runtime/env.ts:5 imports "./learn/d.ts": learn/ is above the root files',
  ]);
  assert.throws(
    () => upwardImports([{ ...imports[0], target: "runtime/new/x.ts" }], LAYERS),
    /runtime\/new\/ is in no layer/,
  );
});
