/**
 * What the viewer shows of a library directory: every version's skills
 * (`versions/<n>/*.json`), the history of changes, the task templates and
 * programs of the index, and the action model's rules. Everything is read
 * as data and validated; a bad file is an error naming it.
 *
 * @module
 */
import { type Skill, SkillSchema } from "../dsl/graph/schema.ts";
import { InputFileError, parseJsonLine, readJsonFileAs } from "../io/json_file.ts";
import { type ActionModelData, ActionModelSchema } from "../runtime/action_model_data.ts";
import { LibraryIndexSchema } from "../runtime/store/library.ts";
import { type HistoryEntry, HistoryEntrySchema } from "../runtime/store/library_store.ts";
import type { TaskTemplate } from "../runtime/store/task_template.ts";

/** One version of the library. */
export interface LibraryVersion {
  version: number;
  skills: Skill[];
  /** The changes that made it (the first version's: its induction). */
  changes: HistoryEntry[];
}

/** A library as the viewer reads it. */
export interface LibraryData {
  dir: string;
  vocabulary: string;
  /** The current version. */
  version: number;
  templates: TaskTemplate[];
  /** Every version kept, oldest first. */
  versions: LibraryVersion[];
  actionModel?: ActionModelData;
}

/**
 * Reads a library directory.
 *
 * @throws {InputFileError} Naming the file that is missing or not what was expected.
 */
export async function readLibraryData(dir: string): Promise<LibraryData> {
  if (dir.startsWith("kv:")) {
    throw new InputFileError(dir, "The viewer reads library directories, not Deno KV libraries");
  }
  const index = await readJsonFileAs(`${dir}/index.json`, LibraryIndexSchema, "library index");
  const history = await readHistory(`${dir}/history.jsonl`);
  const numbers: number[] = [];
  try {
    for (const e of Deno.readDirSync(`${dir}/versions`)) {
      if (e.isDirectory && /^\d+$/.test(e.name)) numbers.push(Number(e.name));
    }
  } catch (e) {
    throw new InputFileError(`${dir}/versions`, `Cannot read: ${(e as Error).message}`);
  }
  numbers.sort((a, b) => a - b);
  const versions: LibraryVersion[] = [];
  for (const version of numbers) {
    const folder = `${dir}/versions/${version}`;
    const files = [...Deno.readDirSync(folder)]
      .filter((e) => e.isFile && e.name.endsWith(".json"))
      .map((e) => e.name)
      .sort();
    const skills: Skill[] = [];
    for (const name of files) skills.push(await readSkill(`${folder}/${name}`));
    versions.push({ version, skills, changes: history.filter((h) => h.version === version) });
  }
  let actionModel: ActionModelData | undefined;
  const modelPath = `${dir}/action_model.json`;
  try {
    await Deno.stat(modelPath);
    actionModel = await readJsonFileAs(modelPath, ActionModelSchema, "action model");
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return {
    dir,
    vocabulary: index.vocabulary,
    version: index.version,
    templates: index.templates ?? [],
    versions,
    ...(actionModel ? { actionModel } : {}),
  };
}

function readSkill(path: string): Promise<Skill> {
  return readJsonFileAs(path, SkillSchema, "skill");
}

async function readHistory(path: string): Promise<HistoryEntry[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw new InputFileError(path, `Cannot read file: ${(e as Error).message}`);
  }
  const out: HistoryEntry[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const entry = parseJsonLine(line, HistoryEntrySchema, {
      path,
      line: i + 1,
      what: "history line",
    });
    if (entry) out.push(entry);
  }
  return out;
}

/** The ids of nodes `now` has that `before` (the same skill a version earlier) had not. */
export function addedNodes(before: Skill | undefined, now: Skill): Set<string> {
  const had = new Set(before?.nodes.map((n) => n.id) ?? []);
  return new Set(now.nodes.filter((n) => !had.has(n.id)).map((n) => n.id));
}

/** The ids of nodes `before` had that `now` has not. */
export function removedNodes(before: Skill | undefined, now: Skill): string[] {
  const has = new Set(now.nodes.map((n) => n.id));
  return (before?.nodes ?? []).filter((n) => !has.has(n.id)).map((n) => n.id);
}
