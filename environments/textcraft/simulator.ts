/**
 * The TextCraft simulator: a deterministic re-implementation of the
 * TextCraft benchmark (ADaPT / AgentGym) over any directory of Minecraft
 * recipe JSON files.
 *
 * @module
 */
import type { Environment, ResetResult, StepResult, TaskSpec } from "../../runtime/environment.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { loadRecipeBook, type RecipeBook } from "./recipe_book.ts";
import { applyAction } from "./actions.ts";
import { firstObservation, MAX_DISTRACTORS } from "./commands.ts";
import { goalSentence, resolveTask, type TextCraftTask } from "./tasks.ts";
import { textcraftVocabulary } from "./vocabulary.ts";

/** The recipe set shipped with the project (a small set with tasks of depth 1-4). */
export const BUILTIN_RECIPES: URL = new URL("./recipes/", import.meta.url);

/** Options of {@linkcode TextCraft}. */
export interface TextCraftOptions {
  /** Recipe directory (path or `file:` URL). @default the built-in set */
  recipes?: string | URL;
  /** An already loaded recipe database (wins over `recipes`). */
  book?: RecipeBook;
  /** Most distractor recipes in a listing. @default 10 */
  maxDistractors?: number;
}

/**
 * The TextCraft environment. Its full state (recipe database, goal,
 * inventory) is readable, which is what the expert plans with.
 *
 * @example Usage
 * ```ts ignore
 * import { TextCraft } from "./simulator.ts";
 * const env = new TextCraft();
 * const { observation } = await env.reset({ seed: 3, options: { depth: 2 } });
 * const { observation: reply } = await env.step("inventory");
 * console.log(reply); // Inventory: You are not carrying anything.
 * ```
 */
export class TextCraft implements Environment {
  /** Environment name. */
  readonly name = "textcraft";
  /** The TextCraft vocabulary. */
  readonly vocabulary: Vocabulary = textcraftVocabulary;
  /** The recipe database (the original's crafting tree). */
  readonly book: RecipeBook;
  readonly #maxDistractors: number;
  readonly #inventory = new Map<string, number>();
  #task?: TextCraftTask;

  /**
   * Loads the recipes (cached per directory).
   *
   * @param options Recipe source and listing options.
   * @throws {Error} When the recipe directory cannot be read.
   */
  constructor(options: TextCraftOptions = {}) {
    this.book = options.book ?? loadRecipeBook(options.recipes ?? BUILTIN_RECIPES);
    this.#maxDistractors = options.maxDistractors ?? MAX_DISTRACTORS;
  }

  /** The current task, once reset. */
  get task(): Readonly<TextCraftTask> | undefined {
    return this.#task;
  }

  /** The goal item id of the current task, once reset. */
  get goal(): string | undefined {
    return this.#task?.goal;
  }

  /** A copy of the inventory: item id -> count, in insertion order. */
  inventory(): Map<string, number> {
    return new Map(this.#inventory);
  }

  /**
   * Starts a task by seed (`options.depth` 1-4), by id (`textcraft/d2/s17`)
   * or by explicit `spec` (`{ commands, goal }`); the inventory is emptied.
   *
   * @throws {TypeError} When the request is malformed.
   * @throws {RangeError} When the goal is unknown or no item has the depth.
   */
  reset(task: TaskSpec): Promise<ResetResult> {
    try {
      this.#task = resolveTask(this.book, task, this.#maxDistractors);
    } catch (e) {
      return Promise.reject(e);
    }
    this.#inventory.clear();
    return Promise.resolve({
      observation: firstObservation(this.#task.commands, this.#task.goal),
      goal: goalSentence(this.#task.goal),
      taskId: this.#task.taskId,
      taskType: this.#task.taskType,
    });
  }

  /**
   * Sends one action and returns the benchmark's reply; crafting the goal
   * gives reward 1 and ends the episode.
   *
   * @throws {Error} When called before `reset`.
   */
  step(action: string): Promise<StepResult> {
    if (!this.#task) return Promise.reject(new Error("Cannot step TextCraft before reset()"));
    return Promise.resolve(
      applyAction(this.book, this.#inventory, this.#task.goal, action, {
        cycles: this.#task.cycles === true,
      }),
    );
  }
}
