/**
 * `pddl:<domain>` environments: a benchmark domain by name (`pddl:gripper`,
 * read from the benchmark data folder) or any STRIPS domain file
 * (`pddl:path/to/domain.pddl`), with its problems from the `problems/`
 * folder beside it in file-name order, and AgentBoard's sentence
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
 * @param spec `pddl:gripper` or `pddl:<path of a domain file>`.
 * @param base Where a relative domain path starts. @default the current directory
 * @throws {RangeError} When the domain or its problems cannot be read (naming the path), or a
 * file does not parse (naming file, line and column).
 */
export async function loadPddlKit(
  spec: string,
  base: string = Deno.cwd(),
): Promise<EnvironmentKit> {
  const target = spec.slice(PDDL_PREFIX.length);
  if (target === "") throw new RangeError(`Expected ${PDDL_PREFIX}<domain name or domain file>`);
  const isFile = /\.pddl$/i.test(target) || target.includes("/");
  const domainFile = isFile
    ? (target.startsWith("/") ? target : `${base}/${target}`)
    : `${PDDL_DATA}/${target}/domain.pddl`;
  const dir = domainFile.replace(/\/[^/]*$/, "");
  const read = async (path: string) => {
    try {
      return await Deno.readTextFile(path);
    } catch (e) {
      throw new RangeError(`Cannot read "${path}" for ${spec}: ${(e as Error).message}`);
    }
  };
  const domainText = await read(domainFile);
  let files: string[];
  try {
    files = [...Deno.readDirSync(`${dir}/problems`)]
      .filter((e) => e.isFile && /\.pddl$/i.test(e.name)).map((e) => e.name).sort();
  } catch (e) {
    throw new RangeError(
      `Cannot list the problems of ${spec} in "${dir}/problems": ${(e as Error).message}`,
    );
  }
  if (files.length === 0) throw new RangeError(`No .pddl problems in "${dir}/problems"`);
  const name = isFile ? dir.split("/").pop()! : target;
  const problems = await Promise.all(files.map(async (f) => ({
    id: `${name}/${f.replace(/\.pddl$/i, "")}`,
    file: `${dir}/problems/${f}`,
    text: await read(`${dir}/problems/${f}`),
  })));
  return pddlKit(spec, domainText, domainFile, problems, await templates());
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
