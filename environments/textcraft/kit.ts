/**
 * The TextCraft environment kit: what the tools need to create simulators,
 * grounders and experts for TextCraft.
 *
 * @module
 */
import { z } from "zod";
import type { EnvironmentKit, TaskListRequest, TaskSpec } from "../../runtime/environment.ts";
import type { Trace } from "../../dsl/trace.ts";
import { BUILTIN_RECIPES, TextCraft, type TextCraftOptions } from "./simulator.ts";
import { RecipeKnowledge } from "./knowledge.ts";
import { loadRecipeBook } from "./recipe_book.ts";
import { TextCraftGrounder } from "./grounder.ts";
import { TextCraftExpert } from "./expert.ts";
import { textcraftVocabulary } from "./vocabulary.ts";
import { TextCraftSpecSchema, textcraftTasks } from "./tasks.ts";
import { rejectSelectors } from "../../runtime/eval/task_lists.ts";
import { importTextCraftTranscripts } from "./transcript.ts";

const TasksOptionsSchema = z.object({
  depths: z.array(z.number().int().min(1)).optional(),
  count: z.number().int().min(0).optional(),
  seed: z.number().int().optional(),
}).strict();

/** The published task set's share of each depth (AgentBoard's TextCraft tasks). */
const REAL_DEPTHS: readonly [number, number][] = [[2, 0.37], [3, 0.56], [4, 0.06]];

/**
 * `n` tasks in the real depth mix, interleaved (each next task takes the
 * depth furthest behind its share), every 20th listing without the recipe
 * of a crafted ingredient; seeds run per depth from `seed`.
 */
function realMix(n: number, seed: number): TaskSpec[] {
  const total = REAL_DEPTHS.reduce((a, [, w]) => a + w, 0);
  const made = new Map<number, number>();
  const out: TaskSpec[] = [];
  for (let i = 0; i < n; i++) {
    let depth = REAL_DEPTHS[0][0];
    let behind = -Infinity;
    for (const [d, w] of REAL_DEPTHS) {
      const gap = (i + 1) * w / total - (made.get(d) ?? 0);
      if (gap > behind) [depth, behind] = [d, gap];
    }
    const s = seed + (made.get(depth) ?? 0);
    made.set(depth, (made.get(depth) ?? 0) + 1);
    const unlisted = i % 20 === 19;
    out.push({
      id: `textcraft/d${depth}/s${s}${unlisted ? "/unlisted" : ""}`,
      seed: s,
      options: unlisted ? { depth, unlisted } : { depth },
    });
  }
  return out;
}

/** The `recipes` option: a directory path or URL, or none (the built-in set). */
function recipesOption(options: Record<string, unknown>): string | URL | undefined {
  const { recipes } = options;
  if (recipes !== undefined && typeof recipes !== "string" && !(recipes instanceof URL)) {
    throw new TypeError(
      `TextCraft option "recipes" must be a directory path, got ${typeof recipes}`,
    );
  }
  return recipes;
}

/**
 * The TextCraft kit. `create` accepts {@linkcode TextCraftOptions}
 * (`recipes`: a recipe directory, `maxDistractors`); `tasks` accepts
 * `{ depths, count, seed }` (see `textcraftTasks`); `importTranscripts`
 * reads the ADaPT / AgentGym transcript text (see `importTextCraftTranscripts`);
 * `knowledge` answers from the full recipe set (see `RecipeKnowledge`).
 *
 * @example Usage
 * ```ts ignore
 * import { textcraftKit } from "./kit.ts";
 * const env = textcraftKit.create({ recipes: "/data/textcraft/recipes" });
 * ```
 */
export const textcraftKit: EnvironmentKit = {
  name: "textcraft",
  vocabulary: textcraftVocabulary,
  create(options: Record<string, unknown> = {}): TextCraft {
    const { maxDistractors } = options;
    const recipes = recipesOption(options);
    if (maxDistractors !== undefined && typeof maxDistractors !== "number") {
      throw new TypeError(`TextCraft option "maxDistractors" must be a number`);
    }
    const opts: TextCraftOptions = { recipes, maxDistractors };
    return new TextCraft(opts);
  },
  grounder(options: Record<string, unknown> = {}): TextCraftGrounder {
    // The recipe data decides which listed names are families.
    return new TextCraftGrounder({
      book: loadRecipeBook(recipesOption(options) ?? BUILTIN_RECIPES),
    });
  },
  expert(): TextCraftExpert {
    return new TextCraftExpert();
  },
  knowledge(options: Record<string, unknown> = {}): RecipeKnowledge {
    return new RecipeKnowledge(loadRecipeBook(recipesOption(options) ?? BUILTIN_RECIPES));
  },
  importTranscripts(text: string, source: string): Trace[] {
    return importTextCraftTranscripts(text, source);
  },
  tasks(options: Record<string, unknown> = {}): TaskSpec[] {
    const parsed = TasksOptionsSchema.safeParse(options);
    if (!parsed.success) {
      throw new TypeError(`Invalid TextCraft task list options: ${z.prettifyError(parsed.error)}`);
    }
    return textcraftTasks(parsed.data);
  },
  /**
   * `n` tasks (default 200), seeds from `seed` (default 1). `mix: "even"`
   * (the default) takes the depths in turn (train: depth 1, unseen: 2, 3
   * and 4; or `depths`); `mix: "real"` gives the unseen split the published
   * task set's mix, 37% depth 2, 56% depth 3 and 6% depth 4, with one task
   * in 20 (5%) listing without the recipe of a crafted ingredient
   * (`textcraft/d<depth>/s<seed>/unlisted`).
   */
  taskList(request: TaskListRequest): TaskSpec[] {
    const { split, n = 200, seed = 1, depths, mix = "even", ...rest } = request;
    rejectSelectors("TextCraft", rest, "depths, seed, mix");
    if (mix !== "even" && mix !== "real") {
      throw new RangeError(`TextCraft mix must be "even" or "real", got ${JSON.stringify(mix)}`);
    }
    if (
      depths !== undefined &&
      (!Array.isArray(depths) || depths.length === 0 ||
        depths.some((d) => !Number.isInteger(d) || d < 1))
    ) {
      throw new RangeError(
        `TextCraft depths must be positive integers, got ${JSON.stringify(depths)}`,
      );
    }
    if (mix === "real") {
      if (split === "train") {
        throw new RangeError('TextCraft mix "real" is the unseen split\'s: not with split "train"');
      }
      if (depths !== undefined) {
        throw new RangeError('TextCraft mix "real" chooses the depths itself: drop depths');
      }
      return realMix(n, seed);
    }
    const chosen = (depths as number[] | undefined) ?? (split === "train" ? [1] : [2, 3, 4]);
    const count = Math.ceil(n / chosen.length);
    const perDepth = chosen.map((d) => textcraftTasks({ depths: [d], count, seed }));
    const out: TaskSpec[] = [];
    for (let i = 0; out.length < n && i < count; i++) {
      for (const list of perDepth) if (out.length < n && list[i]) out.push(list[i]);
    }
    return out;
  },
  /** Explicit tasks: `{"commands": [...], "goal": "<item>"}`. */
  checkTaskSpec(value: unknown): string | undefined {
    const r = TextCraftSpecSchema.safeParse(value);
    if (r.success) return undefined;
    const issue = r.error.issues[0];
    const at = issue.path.length > 0 ? ` at "${issue.path.join(".")}"` : "";
    return `${issue.message}${at} (expected {"commands": [...], "goal": "<item>"})`;
  },
  /**
   * Depth-1 tasks, seeds from 1 (default 20: on the built-in recipe set 10
   * are too few, none crafts from several kinds of ingredient and the
   * skill induced from them misses its loop over a recipe's ingredients).
   */
  demonstrationTasks(count = 20): TaskSpec[] {
    return textcraftTasks({ depths: [1], count, seed: 1 });
  },
  options: {
    recipes: { type: "string", doc: "a recipe directory (default: the built-in recipe set)" },
    maxDistractors: { type: "number", doc: "most distractor commands listed per task" },
  },
  defaults: { maxActions: 100 },
  benchmark: {
    dataOptions: { recipes: "textcraft/recipes" },
    demonstrations: 50,
    tasks: 200,
    taskSelectors: { mix: "real" },
    demo: {
      demonstrations: 20,
      tasks: 60,
      taskText: "unseen tasks, depths 2, 3 and 4 in turn, on the built-in recipe set",
    },
    demonstrationText: "depth-1 tasks (seeds from 1), full recipe set",
    taskText: "tasks in the published set's mix (37% depth 2, 56% depth 3, 6% depth 4; " +
      "one in 20 listing without the recipe of a crafted ingredient), full recipe set",
  },
};
