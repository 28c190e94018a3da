/**
 * Loading skills from JSON files into compiled programs. A skill file holds
 * one skill (`format: "skillc/skill@1"`); a library directory holds an
 * `index.json` (`format: "skillc/library@1"`) naming its skill files.
 *
 * @module
 */
import { z } from "zod";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { mermaidToSkill } from "../../dsl/graph/mermaid.ts";
import { compileSkill, formatIssues, type Program, type SkillSignature } from "../exec/program.ts";
import {
  InputFileError,
  readJsonFile,
  readJsonFileAs,
  writeTextFileAtomic,
} from "../../io/json_file.ts";
import { ActionModel } from "../learn/action_model.ts";
import type { SkillResolver } from "../exec/interpreter.ts";
import { type TaskTemplate, TaskTemplateSchema } from "./task_template.ts";

/** One skill of a library index; paths are relative to the library directory. */
export interface LibraryIndexEntry {
  name: string;
  /** The skill's JSON file. */
  file: string;
  /** Its Mermaid diagram, when the library has one. */
  mermaid?: string;
}

/** The index of a library directory. */
export interface LibraryIndex {
  format: "skillc/library@1";
  vocabulary: string;
  version: number;
  skills: LibraryIndexEntry[];
  /** When this version was written (ISO 8601), when recorded. */
  time?: string;
  /** The task templates the planner follows (see `task_template.ts`); `[]` when loaded from an older index. */
  templates?: TaskTemplate[];
}
/** Zod schema of a {@linkcode LibraryIndex}; `version` defaults to 1, `templates` to `[]`. */
export const LibraryIndexSchema: z.ZodType<
  LibraryIndex,
  Omit<LibraryIndex, "version" | "templates"> & {
    version?: number;
    templates?: z.input<typeof TaskTemplateSchema>[];
  }
> = z.object({
  format: z.literal("skillc/library@1"),
  vocabulary: z.string(),
  version: z.number().int().nonnegative().default(1),
  skills: z.array(
    z.object({ name: z.string(), file: z.string(), mermaid: z.string().optional() }),
  ),
  time: z.string().optional(),
  templates: z.array(TaskTemplateSchema).default([]),
});

/** A set of compiled skills that can call one another. */
export class SkillLibrary implements SkillResolver {
  #programs = new Map<string, Program>();
  /** Creates a library of compiled programs. */
  constructor(programs: Program[] = []) {
    for (const p of programs) this.#programs.set(p.skill.name, p);
  }
  /** The program of a skill. */
  get(name: string): Program | undefined {
    return this.#programs.get(name);
  }
  /** Skill names in insertion order. */
  names(): string[] {
    return [...this.#programs.keys()];
  }
  /** All programs. */
  programs(): Program[] {
    return [...this.#programs.values()];
  }
  /** Number of skills. */
  get size(): number {
    return this.#programs.size;
  }
}

/**
 * Compiles several skills that may call one another. Throws an
 * {@linkcode InputFileError} listing every issue, each naming its source.
 */
export function compileSkills(
  inputs: { data: unknown; source: string }[],
  vocab: Vocabulary,
): SkillLibrary {
  const signatures: Record<string, SkillSignature> = {};
  for (const { data } of inputs) {
    const parsed = z.object({
      name: z.string(),
      params: z.array(z.object({ name: z.string(), type: z.string() })),
    }).safeParse(data);
    if (parsed.success) signatures[parsed.data.name] = { params: parsed.data.params };
  }
  const programs: Program[] = [];
  const problems: string[] = [];
  for (const { data, source } of inputs) {
    const r = compileSkill(data, vocab, signatures);
    if (r.ok) programs.push(r.value);
    else problems.push(formatIssues(r.error, source));
  }
  if (problems.length > 0) {
    throw new InputFileError(
      inputs.length === 1 ? inputs[0].source : "library",
      `Invalid skill:\n${problems.join("\n")}`,
    );
  }
  return new SkillLibrary(programs);
}

/**
 * Loads and compiles one skill file: a JSON skill, or a Mermaid diagram
 * (`.mmd`, as the library writes it beside each skill, edited or not).
 *
 * @throws {InputFileError} Naming the file (and the diagram's line) when it
 * cannot be read or is not a valid skill.
 */
export async function loadSkillFile(path: string, vocab: Vocabulary): Promise<Program> {
  if (!/\.mmd$/i.test(path)) {
    const data = await readJsonFile(path);
    return compileSkills([{ data, source: path }], vocab).programs()[0];
  }
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    throw new InputFileError(path, `Cannot read the diagram: ${(e as Error).message}`);
  }
  const parsed = mermaidToSkill(text, { vocabulary: vocab.name, vocab });
  if (!parsed.ok) {
    const first = parsed.error[0];
    throw new InputFileError(
      path,
      `Invalid skill diagram:\n${parsed.error.map((i) => `  ${i.message}`).join("\n")}`,
      first?.line,
    );
  }
  return compileSkills([{ data: parsed.value, source: path }], vocab).programs()[0];
}

/**
 * Reads and validates the `index.json` of a library directory: its format,
 * and that it is written for the vocabulary `vocab`.
 *
 * @throws {InputFileError} When the index is missing, malformed or for another vocabulary.
 */
export async function readLibraryIndex(dir: string, vocab: Vocabulary): Promise<LibraryIndex> {
  const indexPath = `${dir}/index.json`;
  const index = await readJsonFileAs(indexPath, LibraryIndexSchema, "library index");
  if (index.vocabulary !== vocab.name) {
    throw new InputFileError(
      indexPath,
      `Library is for vocabulary "${index.vocabulary}" but the environment is "${vocab.name}"`,
    );
  }
  index.skills.forEach((s, i) => {
    for (const field of ["file", "mermaid"] as const) {
      const file = s[field];
      if (file !== undefined && !insideLibrary(file)) {
        throw new InputFileError(
          indexPath,
          `Invalid library index at "skills.${i}.${field}": skill "${s.name}" names ${
            JSON.stringify(file)
          }, which is not a relative path inside the library directory`,
        );
      }
    }
  });
  return index;
}

/**
 * Whether a file name from an index stays inside the library directory: a
 * relative path of plain segments (no `..`, no absolute or drive path, no
 * backslash or control character).
 */
function insideLibrary(file: string): boolean {
  if (file === "" || file.startsWith("/") || /[\\:]/.test(file)) return false;
  if ([...file].some((c) => c.charCodeAt(0) < 0x20)) return false;
  return file.split("/").every((seg) => seg !== "" && seg !== "." && seg !== "..");
}

/** Loads the skill files named by a library index (read with {@linkcode readLibraryIndex}). */
export async function loadIndexedSkills(
  dir: string,
  index: LibraryIndex,
  vocab: Vocabulary,
): Promise<SkillLibrary> {
  const inputs = [];
  const root = await Deno.realPath(dir).catch(() => undefined);
  for (const s of index.skills) {
    const path = `${dir}/${s.file}`;
    // A symbolic link may still lead out of the directory.
    const real = await Deno.realPath(path).catch(() => undefined);
    if (root !== undefined && real !== undefined && !real.startsWith(`${root}/`)) {
      throw new InputFileError(
        `${dir}/index.json`,
        `Skill "${s.name}": its file "${s.file}" resolves outside the library directory`,
      );
    }
    inputs.push({ data: await readJsonFile(path), source: path });
  }
  return compileSkills(inputs, vocab);
}

/**
 * Loads the task templates of a library directory (`[]` for a library
 * written before templates existed).
 *
 * @throws {InputFileError} When the index is missing, malformed or for another vocabulary.
 */
export async function loadTemplates(dir: string, vocab: Vocabulary): Promise<TaskTemplate[]> {
  return (await readLibraryIndex(dir, vocab)).templates ?? [];
}

/** Loads a library directory through its `index.json`. */
export async function loadLibrary(dir: string, vocab: Vocabulary): Promise<SkillLibrary> {
  return loadIndexedSkills(dir, await readLibraryIndex(dir, vocab), vocab);
}

/** The file beside a library's index that holds its learned action model. */
export const ACTION_MODEL_FILE = "action_model.json";

/**
 * Loads the learned action model of a library directory, if it has one
 * (`undefined` otherwise). A malformed file is an error naming it.
 */
export async function loadActionModel(
  dir: string,
  vocab: Vocabulary,
): Promise<ActionModel | undefined> {
  const path = `${dir}/${ACTION_MODEL_FILE}`;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw new InputFileError(path, `Cannot read file: ${e instanceof Error ? e.message : e}`);
  }
  try {
    return ActionModel.fromJSON(text, vocab);
  } catch (e) {
    throw new InputFileError(path, `Invalid action model: ${e instanceof Error ? e.message : e}`);
  }
}

/** Writes a library's learned action model atomically. */
export async function saveActionModel(dir: string, model: ActionModel): Promise<void> {
  await writeTextFileAtomic(`${dir}/${ACTION_MODEL_FILE}`, JSON.stringify(model.toJSON()) + "\n");
}
