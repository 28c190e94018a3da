/**
 * Lays out pddlgym's domains for the generalised-planning suite: from a
 * checkout of pddlgym (`pddlgym/pddl/<d>.pddl`, its training problems in
 * `<d>/` and test problems in `<d>_test/`) into `<out>/genplan/pddlgym/<d>/`
 * with `domain.pddl`, `train/` and `test/`, which
 * `deno task bench --suite genplan --data <out>` reads. Domains the suite's
 * data already holds can be left out (`--skip-in <data>`), so what is run
 * is held out.
 *
 * Usage: deno run -A bench/genplan_layout.ts <pddlgym checkout> <out> [--skip-in <data>]
 *
 * @module
 */
import { parseArgs } from "node:util";

/** Copies one folder's `.pddl` files into another (created). */
async function copyProblems(from: string, to: string): Promise<number> {
  await Deno.mkdir(to, { recursive: true });
  let n = 0;
  for await (const e of Deno.readDir(from)) {
    if (!e.isFile || !e.name.endsWith(".pddl")) continue;
    await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
    n++;
  }
  return n;
}

/** Whether a path is a directory. */
async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: { "skip-in": { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help || positionals.length !== 2) {
    console.log(
      "Usage: deno run -A bench/genplan_layout.ts <pddlgym checkout> <out> [--skip-in <data>]\n\n" +
        "Copies each pddlgym domain with training and test problems to <out>/genplan/pddlgym/<d>/\n" +
        "(domain.pddl, train/, test/); --skip-in leaves out the domains <data>/genplan/pddlgym holds.",
    );
    Deno.exit(values.help ? 0 : 2);
  }
  const [checkout, out] = positionals;
  const pddl = `${checkout}/pddlgym/pddl`;
  if (!await isDirectory(pddl)) {
    console.error(`error: no pddlgym/pddl folder in "${checkout}"`);
    Deno.exit(2);
  }
  const names: string[] = [];
  for await (const e of Deno.readDir(pddl)) {
    if (e.isFile && e.name.endsWith(".pddl")) names.push(e.name.slice(0, -".pddl".length));
  }
  let copied = 0;
  for (const d of names.sort()) {
    if (!await isDirectory(`${pddl}/${d}`) || !await isDirectory(`${pddl}/${d}_test`)) continue;
    if (values["skip-in"] && await isDirectory(`${values["skip-in"]}/genplan/pddlgym/${d}`)) {
      continue;
    }
    const dir = `${out}/genplan/pddlgym/${d}`;
    await Deno.mkdir(dir, { recursive: true });
    await Deno.copyFile(`${pddl}/${d}.pddl`, `${dir}/domain.pddl`);
    const train = await copyProblems(`${pddl}/${d}`, `${dir}/train`);
    const test = await copyProblems(`${pddl}/${d}_test`, `${dir}/test`);
    console.log(`${d}: ${train} training and ${test} test problems`);
    copied++;
  }
  console.log(`${copied} domains in ${out}/genplan/pddlgym`);
}
