/**
 * The suites `deno task test` runs: each imports the test files of some
 * folders, so the library's modules load once per suite rather than once
 * per test file (loading cost more than a third of the suite's time), and
 * `--parallel` still runs the suites side by side. Any test file runs on
 * its own too: `deno test -A tests/runtime/agent_test.ts`.
 *
 * @module
 */

/**
 * Imports the `*_test.ts` files directly in `folder` (relative to `tests/`),
 * in name order: all of them, or with `shard` (`[k, n]`, k from 1) every
 * n-th from the k-th, so a long folder runs as n suites side by side.
 */
export async function importTests(folder: string, shard: [number, number] = [1, 1]): Promise<void> {
  const dir = new URL(`../${folder}/`, import.meta.url);
  const names = [...Deno.readDirSync(dir)]
    .filter((e) => e.isFile && e.name.endsWith("_test.ts"))
    .map((e) => e.name)
    .sort()
    .filter((_, i) => i % shard[1] === shard[0] - 1);
  for (const name of names) await import(new URL(name, dir).href);
}
