/**
 * `pddl:<domain>` environments: a benchmark domain by name (`pddl:gripper`,
 * read from the benchmark data folder) or any STRIPS domain file
 * (`pddl:path/to/domain.pddl`), with its problems from the `problems/`
 * folder beside it in file-name order, or from a folder or one problem
 * file named after a `+` (`pddl:domain.pddl+p1.pddl`: the problems beside it are
 * read for the objects' typing, as for the folder), and AgentBoard's sentence
 * templates when the data folder has them (else facts are written
 * `name arg1 arg2.`).
 *
 * @module
 */
import type { EnvironmentKit } from "../../runtime/environment.ts";
import { pddlKit } from "./kit.ts";
import { parseTemplates, type Templates } from "./text.ts";

/** The prefix of PDDL environment names. */
export const PDDL_PREFIX = "pddl:";

/** The benchmark data folder (`../shared/data/pddl` next to the project). */
export const PDDL_DATA: string = decodeURIComponent(
  new URL("../../../shared/data/pddl", import.meta.url).pathname,
);

/**
 * The kit `pddl:<domain>` names.
 *
 * @param spec `pddl:gripper`, `pddl:<path of a domain file>`, or either
 * followed by `+<problems folder or problem file>`.
 * @param base Where a relative domain path starts. @default the current directory
 * @throws {RangeError} When the domain or its problems cannot be read (naming the path), or a
 * file does not parse (naming file, line and column).
 */
export async function loadPddlKit(
  spec: string,
  base: string = Deno.cwd(),
): Promise<EnvironmentKit> {
  const [target, problemsAt] = spec.slice(PDDL_PREFIX.length).split("+", 2);
  if (target === "") {
    throw new RangeError(
      `Expected ${PDDL_PREFIX}<domain name or domain file>[+<problems folder or problem file>]`,
    );
  }
  const resolve = (path: string) => path.startsWith("/") ? path : `${base}/${path}`;
  const isFile = /\.pddl$/i.test(target) || target.includes("/");
  const domainFile = isFile ? resolve(target) : `${PDDL_DATA}/${target}/domain.pddl`;
  const dir = domainFile.replace(/\/[^/]*$/, "");
  const problemsDir = problemsAt === undefined ? `${dir}/problems` : resolve(problemsAt);
  const read = async (path: string) => {
    try {
      return await Deno.readTextFile(path);
    } catch (e) {
      throw new RangeError(`Cannot read "${path}" for ${spec}: ${(e as Error).message}`);
    }
  };
  const domainText = await read(domainFile);
  let paths: string[];
  try {
    paths = Deno.statSync(problemsDir).isFile ? [problemsDir] : pddlFilesIn(problemsDir);
  } catch (e) {
    throw new RangeError(
      `Cannot list the problems of ${spec} in "${problemsDir}": ${(e as Error).message}`,
    );
  }
  if (paths.length === 0) throw new RangeError(`No .pddl problems in "${problemsDir}"`);
  const name = isFile ? dir.split("/").pop()! : target;
  const problems = await Promise.all(paths.map(async (path) => ({
    id: `${name}/${path.split("/").pop()!.replace(/\.pddl$/i, "")}`,
    file: path,
    text: await read(path),
  })));
  // One problem file: the other problems beside it say how the domain's
  // objects are typed, as they do for the folder (see `pddlKit`).
  const siblings = paths.length === 1 && problemsAt !== undefined
    ? await siblingProblems(paths[0], domainFile)
    : [];
  return pddlKit(spec, domainText, domainFile, problems, await templates(), siblings);
}

/** The other `.pddl` files in `file`'s folder but the domain's, read (none when it cannot be listed). */
async function siblingProblems(
  file: string,
  domainFile: string,
): Promise<{ id: string; file: string; text: string }[]> {
  let names: string[];
  try {
    names = pddlFilesIn(file.replace(/\/[^/]*$/, "")).filter((p) => p !== file && p !== domainFile);
  } catch {
    return [];
  }
  const read = await Promise.all(names.map(async (path) => {
    try {
      return [{ id: path, file: path, text: await Deno.readTextFile(path) }];
    } catch {
      return [];
    }
  }));
  return read.flat();
}

/** The paths of the `.pddl` files in `folder`, sorted. @throws When it cannot be listed. */
function pddlFilesIn(folder: string): string[] {
  return [...Deno.readDirSync(folder)].filter((e) => e.isFile && /\.pddl$/i.test(e.name))
    .map((e) => `${folder}/${e.name}`).sort();
}

async function templates(): Promise<Templates> {
  const path = `${PDDL_DATA}/agentboard_text.json`;
  try {
    return parseTemplates(JSON.parse(await Deno.readTextFile(path)), path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return {};
    throw e;
  }
}
