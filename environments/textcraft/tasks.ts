/**
 * TextCraft tasks: resolving a {@linkcode TaskSpec} (seed and depth, a task
 * id, or an explicit spec) into a goal and crafting commands, and listing
 * deterministic task splits.
 *
 * @module
 */
import { z } from "zod";
import type { TaskSpec } from "../../runtime/environment.ts";
import type { RecipeBook } from "./recipe_book.ts";
import { craftingCommands, recipeTree } from "./commands.ts";
import { idToName, nameToId } from "./names.ts";
import { mulberry32, randomIndex } from "./prng.ts";

/** A resolved task. */
export interface TextCraftTask {
  /** Goal item id, e.g. `minecraft:stick`. */
  goal: string;
  /** The crafting command lines of the first observation. */
  commands: string[];
  /** Stable id, e.g. `textcraft/d2/s17`. */
  taskId: string;
  /** Task type, e.g. `depth2`. */
  taskType: string;
  /** The generator seed. */
  seed: number;
  /**
   * An explicit task whose listing crafts through a recipe the database
   * left out for closing a cycle: crafting may use such recipes.
   */
  cycles?: boolean;
}

/** An explicit TextCraft task. */
export interface TextCraftSpec {
  /** Crafting command lines, or one text with one command per line; generated when omitted. */
  commands?: string[] | string;
  /** The goal item by text name (`stick`) or id (`minecraft:stick`). */
  goal: string;
}

/** Schema of an explicit task: the command lines (or their text) and the goal item. */
export const TextCraftSpecSchema: z.ZodType<TextCraftSpec> = z.object({
  commands: z.union([z.array(z.string()), z.string()]).optional(),
  goal: z.string().trim().min(1),
}).strict();

const OptionsSchema = z.object({
  depth: z.number().int().min(1).optional(),
  unlisted: z.boolean().optional(),
}).loose();

const TASK_ID = /^textcraft\/d([0-9]+)\/s(-?[0-9]+)(\/unlisted)?$/;
const COMMAND = /^craft [0-9]+ .+ using .+$/;

/**
 * Resolves a task request against a recipe database: an explicit `spec`
 * wins, then an `id` of the form `textcraft/d<depth>/s<seed>`, then `seed`
 * (default 0) with `options.depth` (chosen by the seed among the depths
 * 1-4 that have items when omitted).
 *
 * @param book The recipe database.
 * @param task The request.
 * @param maxDistractors Distractor limit for generated listings.
 * @returns The goal, commands, id and type.
 * @throws {TypeError} When the spec, id or options are malformed.
 * @throws {RangeError} When the goal is unknown or not craftable, or no item has the depth.
 */
export function resolveTask(
  book: RecipeBook,
  task: TaskSpec,
  maxDistractors: number,
): TextCraftTask {
  if (task.spec !== undefined) return resolveSpec(book, task.spec, task.seed ?? 0, maxDistractors);
  let seed = task.seed ?? 0;
  let depth: number | undefined;
  let unlisted = false;
  if (task.id !== undefined) {
    const m = TASK_ID.exec(task.id);
    if (!m) {
      throw new TypeError(
        `Invalid TextCraft task id "${task.id}": expected "textcraft/d<depth>/s<seed>" ` +
          `or "textcraft/d<depth>/s<seed>/unlisted"`,
      );
    }
    depth = Number(m[1]);
    seed = Number(m[2]);
    unlisted = m[3] !== undefined;
  } else {
    const options = OptionsSchema.safeParse(task.options ?? {});
    if (!options.success) {
      throw new TypeError(`Invalid TextCraft task options: ${z.prettifyError(options.error)}`);
    }
    depth = options.data.depth;
    unlisted = options.data.unlisted === true;
  }
  if (!Number.isSafeInteger(seed)) throw new TypeError(`Invalid TextCraft seed "${seed}"`);
  if (depth === undefined) {
    // A separate stream picks the depth, so `textcraft/d<depth>/s<seed>` reproduces the task.
    const depths = [1, 2, 3, 4].filter((d) => book.itemsAtDepth(d).length > 0);
    if (depths.length === 0) throw new RangeError("No item of depth 1-4 in the recipe set");
    depth = depths[randomIndex(mulberry32(seed ^ 0x5bd1e995), depths.length)];
  }
  const candidates = book.itemsAtDepth(depth);
  if (candidates.length === 0) {
    throw new RangeError(`No item has minimum crafting depth ${depth} in the recipe set`);
  }
  const random = mulberry32(seed);
  const goal = candidates[randomIndex(random, candidates.length)];
  const commands = craftingCommands(book, goal, random, maxDistractors);
  return {
    goal,
    commands: unlisted ? withoutAnIngredientRecipe(book, goal, commands, seed) : commands,
    taskId: `textcraft/d${depth}/s${seed}${unlisted ? "/unlisted" : ""}`,
    taskType: `depth${depth}`,
    seed,
  };
}

/**
 * The listing without the recipes of one crafted ingredient of the goal's
 * tree, as in some real tasks (an ingot only a nugget recipe, absent from
 * the listing, makes): the environment still accepts those crafts, but
 * nothing listed says how. Chosen by its own stream of the seed, so the
 * rest of the task is the listed task's.
 */
function withoutAnIngredientRecipe(
  book: RecipeBook,
  goal: string,
  commands: readonly string[],
  seed: number,
): string[] {
  const output = (line: string) => nameToId(/^craft \d+ (.+?) using /.exec(line)?.[1] ?? "");
  const made = new Set(commands.map(output));
  const ingredients = [
    ...new Set(recipeTree(book, goal).flatMap((r) => r.inputs.map((i) => i.id))),
  ].filter((id) => id !== goal && made.has(id)).sort();
  if (ingredients.length === 0) return [...commands];
  const dropped = ingredients[randomIndex(mulberry32(seed ^ 0x2545f491), ingredients.length)];
  return commands.filter((line) => output(line) !== dropped);
}

function resolveSpec(
  book: RecipeBook,
  raw: unknown,
  seed: number,
  maxDistractors: number,
): TextCraftTask {
  const parsed = TextCraftSpecSchema.safeParse(raw);
  if (!parsed.success) {
    throw new TypeError(`Invalid TextCraft task spec: ${z.prettifyError(parsed.error)}`);
  }
  const spec = parsed.data;
  const goal = spec.goal.startsWith("minecraft:") ? spec.goal : nameToId(spec.goal);
  if (!book.isItem(goal) && !book.isTag(goal)) {
    throw new RangeError(`Unknown goal item "${spec.goal}": no recipe mentions "${goal}"`);
  }
  const commands = spec.commands === undefined ? undefined : commandLines(spec.commands);
  // Which of two recipes in a cycle the database keeps depends on file order;
  // a listing that crafts the goal through the other one is still playable.
  const cycles = book.itemRecipes(goal).length === 0 && book.cycleRecipes(goal).length > 0 &&
    commands?.some((c) => nameToId(/^craft \d+ (.+?) using /.exec(c)?.[1] ?? "") === goal) === true;
  if (book.itemRecipes(goal).length === 0 && !cycles) {
    throw new RangeError(
      `Goal item "${spec.goal}" cannot be crafted: it has no crafting recipe${
        book.cycleRecipes(goal).length > 0
          ? " (its recipe closes a cycle: list the command that crafts it to play it)"
          : ""
      }`,
    );
  }
  const depth = cycles
    ? 1 + Math.max(
      ...book.cycleRecipes(goal)[0].inputs.map((i) =>
        Number.isFinite(book.minDepth(i.id)) ? book.minDepth(i.id) : 0
      ),
    )
    : book.minDepth(goal);
  return {
    goal,
    commands: commands ?? craftingCommands(book, goal, mulberry32(seed), maxDistractors),
    taskId: `textcraft/spec/${goal.replace(/^minecraft:/, "")}`,
    taskType: `depth${depth}`,
    seed,
    ...(cycles ? { cycles } : {}),
  };
}

function commandLines(commands: string | string[]): string[] {
  const lines = (typeof commands === "string" ? commands.split("\n") : commands)
    .map((l) => l.trim())
    .filter((l) => l !== "" && l !== "Crafting commands:" && !l.startsWith("Goal:"));
  lines.forEach((line, i) => {
    if (!COMMAND.test(line)) {
      throw new TypeError(
        `Invalid TextCraft task spec: command ${
          i + 1
        } "${line}" is not "craft <n> <item> using <inputs>"`,
      );
    }
  });
  if (lines.length === 0) throw new TypeError("Invalid TextCraft task spec: no crafting commands");
  return lines;
}

/** Options of {@linkcode textcraftTasks}. */
export interface TextCraftTasksOptions {
  /** Depths to include. @default [1, 2, 3, 4] */
  depths?: readonly number[];
  /** Tasks per depth. @default 10 */
  count?: number;
  /** First seed; task `i` of each depth uses seed `seed + i`. @default 0 */
  seed?: number;
}

/**
 * A deterministic split of TextCraft tasks: `count` tasks per depth, each a
 * {@linkcode TaskSpec} with an id, seed and depth option.
 *
 * @example Usage
 * ```ts
 * import { textcraftTasks } from "./tasks.ts";
 * console.log(textcraftTasks({ depths: [2], count: 2, seed: 5 }).map((t) => t.id));
 * // ["textcraft/d2/s5", "textcraft/d2/s6"]
 * ```
 */
export function textcraftTasks(options: TextCraftTasksOptions = {}): TaskSpec[] {
  const { depths = [1, 2, 3, 4], count = 10, seed = 0 } = options;
  const out: TaskSpec[] = [];
  for (const depth of depths) {
    for (let i = 0; i < count; i++) {
      const s = seed + i;
      out.push({ id: `textcraft/d${depth}/s${s}`, seed: s, options: { depth } });
    }
  }
  return out;
}

/** The goal sentence of a task: `craft <goal name>`. */
export function goalSentence(goal: string): string {
  return `craft ${idToName(goal)}`;
}
