/**
 * The suites `deno task test` runs: each imports the test files of some
 * folders, so the library's modules load (and its code is compiled) once
 * per suite rather than once per test file, which cost more than a third
 * of the suite's time. Two suites of about equal length keep both cores of
 * the CI machine busy with `--parallel`. Any test file runs on
 * its own too: `deno test -A tests/runtime/agent_test.ts`.
 *
 * @module
 */

/** Imports every `*_test.ts` directly in `folder` (relative to `tests/`), in name order. */
export async function importTests(folder: string): Promise<void> {
  const dir = new URL(`../${folder}/`, import.meta.url);
  const names = [...Deno.readDirSync(dir)]
    .filter((e) => e.isFile && e.name.endsWith("_test.ts"))
    .map((e) => e.name)
    .sort();
  for (const name of names) await import(new URL(name, dir).href);
}
