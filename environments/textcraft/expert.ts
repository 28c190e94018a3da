/**
 * The TextCraft expert: plans a valid action sequence from the simulator's
 * full state (recipe database and goal) and records the episode as a trace.
 *
 * @module
 */
import type { Environment, Expert, TaskSpec } from "../../runtime/environment.ts";
import type { Trace } from "../../dsl/trace.ts";
import { playExpert } from "../../runtime/eval/expert_traces.ts";
import type { CraftingRecipe, Ingredient, RecipeBook } from "./recipe_book.ts";
import { idToName } from "./names.ts";
import { TextCraft } from "./simulator.ts";

/**
 * How many derivation steps an id needs when only typeable, obtainable
 * routes count: 0 for fetchable items, else 1 + the largest input rank of
 * its best recipe; `Infinity` when it cannot be obtained. A recipe chosen by
 * rank only has inputs of smaller rank, so plans never loop.
 */
function obtainRanks(book: RecipeBook): Map<string, number> {
  const rank = new Map<string, number>();
  const items = book.craftableItems();
  const of = (id: string) => rank.get(id) ?? (book.isFetchable(id) ? 0 : Infinity);
  let changed = true;
  while (changed) {
    changed = false;
    for (const id of items) {
      let best = rank.get(id) ?? Infinity;
      for (const recipe of book.itemRecipes(id)) {
        const r = 1 + Math.max(...recipe.inputs.map((i) => inputRank(book, i, of)));
        if (r < best) best = r;
      }
      if (best < (rank.get(id) ?? Infinity)) {
        rank.set(id, best);
        changed = true;
      }
    }
  }
  return rank;
}

function inputRank(book: RecipeBook, input: Ingredient, of: (id: string) => number): number {
  if (input.isTag) return Math.min(Infinity, ...book.membersOf(input.id).map(of));
  // An item id that is also a family name would be read as the family: untypeable.
  return book.isTag(input.id) ? Infinity : of(input.id);
}

const ranksCache = new WeakMap<RecipeBook, Map<string, number>>();

/**
 * Plans the actions that craft one `goal` from the given inventory: for N
 * of X, fetch what is missing of a basic item, else pick X's lowest-rank
 * recipe, obtain ceil(missing / output count) times its inputs (a family
 * resolved to its lowest-rank member), then craft; items already held
 * (leftovers) are used first and inputs gathered for a pending craft are
 * reserved so later sub-plans do not consume them.
 *
 * @param book The recipe database.
 * @param goal The goal item id.
 * @param inventory What is already held (item id -> count). @default empty
 * @returns The actions.
 * @throws {RangeError} When the goal cannot be obtained.
 *
 * @example Usage
 * ```ts ignore
 * planTextCraft(book, "minecraft:stick"); // ["get 1 oak logs", "craft 4 oak planks using 1 oak logs", ...]
 * ```
 */
export function planTextCraft(
  book: RecipeBook,
  goal: string,
  inventory: ReadonlyMap<string, number> = new Map(),
): string[] {
  let ranks = ranksCache.get(book);
  if (!ranks) ranksCache.set(book, ranks = obtainRanks(book));
  const rankOf = (id: string) => ranks.get(id) ?? (book.isFetchable(id) ? 0 : Infinity);
  const inv = new Map(inventory);
  const reserved = new Map<string, number>();
  const actions: string[] = [];
  const add = (map: Map<string, number>, id: string, n: number) => {
    const v = (map.get(id) ?? 0) + n;
    if (v === 0) map.delete(id);
    else map.set(id, v);
  };
  const concrete = (input: Ingredient): string => {
    if (!input.isTag) return input.id;
    // Lowest rank, first in loading order: the same member every time.
    let best = "";
    for (const m of book.membersOf(input.id)) {
      if (best === "" || rankOf(m) < rankOf(best)) best = m;
    }
    return best;
  };
  const obtain = (id: string, n: number): void => {
    const available = (inv.get(id) ?? 0) - (reserved.get(id) ?? 0);
    if (available >= n) return;
    const missing = n - available;
    if (rankOf(id) === 0) {
      actions.push(`get ${missing} ${idToName(id)}`);
      add(inv, id, missing);
      return;
    }
    const recipe = bestRecipe(book, id, rankOf);
    if (!recipe) throw new RangeError(`Cannot plan how to obtain "${id}": no usable recipe`);
    const crafts = Math.ceil(missing / recipe.count);
    const inputs = recipe.inputs.map((i) => ({ id: concrete(i), count: i.count }));
    for (const input of inputs) {
      obtain(input.id, input.count * crafts);
      add(reserved, input.id, input.count * crafts);
    }
    for (const input of inputs) add(reserved, input.id, -input.count * crafts);
    const using = inputs.map((i) => `${i.count} ${idToName(i.id)}`).join(", ");
    for (let k = 0; k < crafts; k++) {
      actions.push(`craft ${recipe.count} ${idToName(id)} using ${using}`);
      for (const input of inputs) add(inv, input.id, -input.count);
      add(inv, id, recipe.count);
    }
  };
  if (!Number.isFinite(rankOf(goal))) {
    throw new RangeError(`Cannot plan how to obtain "${goal}": no usable recipe`);
  }
  obtain(goal, (inv.get(goal) ?? 0) + 1);
  return actions;
}

function bestRecipe(
  book: RecipeBook,
  id: string,
  rankOf: (id: string) => number,
): CraftingRecipe | undefined {
  const target = rankOf(id);
  return book.itemRecipes(id).find((r) =>
    1 + Math.max(...r.inputs.map((i) => inputRank(book, i, rankOf))) === target
  );
}

/**
 * The TextCraft expert. It needs the {@linkcode TextCraft} simulator (it
 * reads the recipe database and goal), resets it to the task, plans with
 * {@linkcode planTextCraft} and plays the plan.
 *
 * @example Usage
 * ```ts ignore
 * const trace = await new TextCraftExpert().solve(new TextCraft(), { seed: 1, options: { depth: 3 } });
 * console.log(trace.success); // true
 * ```
 */
export class TextCraftExpert implements Expert {
  /**
   * Solves the task and returns the recorded trace.
   *
   * @throws {TypeError} When `env` is not a TextCraft simulator.
   * @throws {Error} When an action of the plan is refused (a planner bug).
   */
  async solve(env: Environment, task: TaskSpec): Promise<Trace> {
    if (!(env instanceof TextCraft)) {
      throw new TypeError(`The TextCraft expert needs a TextCraft simulator, got "${env.name}"`);
    }
    const reset = await env.reset(task);
    const state = env.task!;
    return await playExpert(env, reset, planTextCraft(env.book, state.goal, env.inventory()), {
      seed: state.seed,
      refused: (observation) => /^(Could not|Wrong)/.test(observation),
    });
  }
}
