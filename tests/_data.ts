// The benchmark data the tests read: `../shared/data` beside the project,
// or the folder named by SKILLC_DATA. When it is missing, the tests that
// need it are skipped with a message naming it; with SKILLC_REQUIRE_DATA=1
// (as .ci/run sets it) they fail instead.

/** The data folder, as a directory URL. */
export const DATA_DIR: URL = (() => {
  const env = Deno.env.get("SKILLC_DATA");
  if (env) return new URL(`file://${env.replace(/\/*$/, "/")}`);
  return new URL("../../shared/data/", import.meta.url);
})();

/** Whether the data folder exists. */
export const HAS_DATA: boolean = (() => {
  try {
    return Deno.statSync(DATA_DIR).isDirectory;
  } catch {
    return false;
  }
})();

if (!HAS_DATA) {
  if (Deno.env.get("SKILLC_REQUIRE_DATA") === "1") {
    throw new Error(`SKILLC_REQUIRE_DATA=1 but the benchmark data ${DATA_DIR.pathname} is missing`);
  }
  console.warn(`Skipping the tests that need the benchmark data: ${DATA_DIR.pathname} is missing`);
}

/** A path inside the data folder (`textcraft/recipes/`, `pddl/`, ...). */
export function dataPath(rel: string): string {
  return new URL(rel, DATA_DIR).pathname;
}

/** The same as `dataPath`, as a URL. */
export function dataUrl(rel: string): URL {
  return new URL(rel, DATA_DIR);
}

/** `Deno.test` for a test that reads the data: ignored, saying so, when it is missing. */
export function dataTest(name: string, fn: () => void | Promise<void>): void;
export function dataTest(
  name: string,
  options: Omit<Deno.TestDefinition, "name" | "fn">,
  fn: () => void | Promise<void>,
): void;
export function dataTest(definition: Deno.TestDefinition): void;
export function dataTest(
  nameOrDef: string | Deno.TestDefinition,
  fnOrOptions?: (() => void | Promise<void>) | Omit<Deno.TestDefinition, "name" | "fn">,
  fn?: () => void | Promise<void>,
): void {
  const def: Deno.TestDefinition = typeof nameOrDef !== "string"
    ? nameOrDef
    : typeof fnOrOptions === "function"
    ? { name: nameOrDef, fn: fnOrOptions }
    : { ...fnOrOptions, name: nameOrDef, fn: fn! };
  Deno.test(
    HAS_DATA ? def : { ...def, name: `${def.name} (needs ${DATA_DIR.pathname})`, ignore: true },
  );
}
