/**
 * `deno task package`: writes the Deno/JSR package of a library's current
 * version. A library directory keeps its package up to date in `package/`
 * by itself; a Deno KV library has no folder, so its package is made here,
 * on demand.
 *
 * @module
 */
import { generatePackageOf } from "../compiler/write_library.ts";
import { openLibraryStore } from "../runtime/store/open_store.ts";
import { parseFlags, runMain, UsageError } from "./_cli.ts";
import { envHelp, kitFromFlag } from "./_tasks.ts";

const HELP =
  `Usage: deno task package --env <env> --lib <dir|kv:path> --out <dir> [--name <@scope/name>]

Writes the Deno/JSR package of the library's current version to --out: one
module per skill, a mod.ts that exports them, and a deno.json whose version is
0.<library version>.0. Publish it with "deno publish" from --out.

Options:
${envHelp(22)}
  --lib <dir|kv:path> the library: a directory, or kv:<file> / kv:<URL> for
                      a Deno KV library
  --out <dir>         where to write the package (created; files of the same
                      names are replaced)
  --name <name>       the package's JSR name (default @skillc/<vocabulary>-skills)
  -h, --help          show this help

Exit codes: 0 written, 2 bad usage or no valid library at --lib.

Example:
  deno task package --env textcraft --lib kv:out/textcraft.sqlite --out out/textcraft-package`;

/** The `package` command on its arguments; resolves to its exit code (see `runCommand`). */
export async function main(args: string[]): Promise<number> {
  const flags = parseFlags(args, {
    env: { type: "string" },
    lib: { type: "string" },
    out: { type: "string" },
    name: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (flags.help) {
    console.log(HELP);
    return 0;
  }
  if (!flags.lib) throw new UsageError("Missing --lib <dir|kv:path>");
  if (!flags.out) throw new UsageError("Missing --out <dir>");
  if (flags.name !== undefined && !/^@[a-z0-9-]+\/[a-z0-9-]+$/.test(flags.name)) {
    throw new UsageError(`--name must be a JSR name like @scope/name, got "${flags.name}"`);
  }
  const kit = await kitFromFlag(flags.env);
  const store = await openLibraryStore(flags.lib, kit.vocabulary);
  try {
    await generatePackageOf(store, flags.out, flags.name);
    console.log(
      `Wrote the package of ${store.location} version ${store.version} (${store.skills().length} skills) to ${flags.out}`,
    );
  } finally {
    store.close();
  }
  return 0;
}

if (import.meta.main) await runMain("package", main);
