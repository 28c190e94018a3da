// No import circle anywhere: the module graph of the library and of every
// command, as `deno info --json` reports it (type-only imports included),
// has no cycle among the project's own files.
import assert from "node:assert/strict";

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier?: string }; type?: { specifier?: string } }[];
}

function graphOf(entry: string): Map<string, string[]> {
  const out = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: new URL("..", import.meta.url).pathname,
  }).outputSync();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: InfoModule[] };
  const edges = new Map<string, string[]>();
  for (const m of info.modules) {
    if (!m.specifier.startsWith("file://")) continue;
    edges.set(
      m.specifier,
      (m.dependencies ?? [])
        .flatMap((d) => [d.code?.specifier, d.type?.specifier])
        .filter((s): s is string => s?.startsWith("file://") ?? false),
    );
  }
  return edges;
}

/** The first cycle found, as the files along it; `undefined` when there is none. */
function findCycle(edges: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (n: string): string[] | undefined => {
    state.set(n, "open");
    stack.push(n);
    for (const d of edges.get(n) ?? []) {
      if (state.get(d) === "open") return [...stack.slice(stack.indexOf(d)), d];
      if (!state.has(d)) {
        const found = visit(d);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(n, "done");
    return undefined;
  };
  for (const n of edges.keys()) {
    if (state.has(n)) continue;
    const found = visit(n);
    if (found) return found;
  }
  return undefined;
}

Deno.test("the library and the commands import no module that imports them back", () => {
  for (const entry of ["mod.ts", "cli/bench.ts", "cli/eval.ts", "cli/induce.ts", "cli/view.ts"]) {
    const cycle = findCycle(graphOf(entry));
    assert.equal(
      cycle?.map((s) =>
        s.replace(/^.*?\/(?=(cli|dsl|runtime|compiler|environments|llm|io|view)\/)/, "")
      ).join(" -> "),
      undefined,
      `${entry}: an import cycle`,
    );
  }
});

Deno.test("the cycle finder finds a cycle", () => {
  const edges = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]]]);
  assert.deepEqual(findCycle(edges), ["a", "b", "c", "a"]);
});
