/**
 * The TextCraft action semantics, with the original benchmark's exact
 * replies: `get`, `craft ... using ...` and `inventory`, each recognised by
 * a regex anchored at the start of the action (Python's `re.match`).
 *
 * @module
 */
import type { ListedInput, RecipeBook } from "./recipe_book.ts";
import { idToName, nameToId, pyRepr } from "./names.ts";

/** The result of one action. */
export interface ActionOutcome {
  /** The reply text. */
  observation: string;
  /** 1 when the goal was crafted, else 0. */
  reward: number;
  /** Whether the goal was crafted by this action. */
  done: boolean;
}

// `[^\n]` is Python's `.`: a regex match stops at a newline but needs not reach the end.
const CRAFT = /^craft ([^\n]*) using ([^\n]*)/;
const GET = /^get ([0-9]+) ([^\n]*)/;
const INVENTORY = /^inventory/;
const COUNTED = /^([0-9]+) ([^\n]*)/;

class ActionFailed extends Error {}

/**
 * Applies one action to an inventory (mutated in place; item id -> count,
 * insertion-ordered like the original's dict) and returns the reply.
 *
 * @param book The recipe database.
 * @param inventory The inventory, changed by `get` and successful `craft`.
 * @param goal The goal item id (crafting it gives reward 1 and done).
 * @param action The action text.
 * @param options `cycles`: crafting may use recipes the database left out
 *   for closing a cycle (an explicit task whose listing crafts through one).
 * @returns The reply, reward and done flag.
 *
 * @example Usage
 * ```ts ignore
 * const inventory = new Map<string, number>();
 * applyAction(book, inventory, "minecraft:stick", "get 1 oak logs").observation; // "Got 1 oak logs"
 * ```
 */
export function applyAction(
  book: RecipeBook,
  inventory: Map<string, number>,
  goal: string | undefined,
  action: string,
  options: { cycles?: boolean } = {},
): ActionOutcome {
  try {
    let m = CRAFT.exec(action);
    if (m) return craft(book, inventory, goal, m[1], m[2], options);
    m = GET.exec(action);
    if (m) return get(book, inventory, Number(m[1]), m[2]);
    if (INVENTORY.test(action)) return ok(inventoryText(inventory));
    throw new ActionFailed(`Could not execute ${action}`);
  } catch (e) {
    if (e instanceof ActionFailed) return ok(e.message);
    throw e;
  }
}

/**
 * The reply to `inventory`: `Inventory: [oak planks] (2) [stick] (4) ` (note
 * the trailing space) or `Inventory: You are not carrying anything.`.
 */
export function inventoryText(inventory: ReadonlyMap<string, number>): string {
  if (inventory.size === 0) return "Inventory: You are not carrying anything.";
  let text = "Inventory: ";
  for (const [id, n] of inventory) text += `[${idToName(id)}] (${n}) `;
  return text;
}

function ok(observation: string, reward = 0): ActionOutcome {
  return { observation, reward, done: reward > 0 };
}

function get(
  book: RecipeBook,
  inventory: Map<string, number>,
  n: number,
  name: string,
): ActionOutcome {
  const id = nameToId(name);
  // Craftable items, families and unknown names cannot be fetched.
  if (book.isCraftable(id) || book.isTag(id) || !book.isItem(id)) {
    throw new ActionFailed(`Could not find ${name}`);
  }
  inventory.set(id, (inventory.get(id) ?? 0) + n);
  return ok(`Got ${n} ${name}`);
}

function craft(
  book: RecipeBook,
  inventory: Map<string, number>,
  goal: string | undefined,
  outputText: string,
  inputsText: string,
  options: { cycles?: boolean },
): ActionOutcome {
  const om = COUNTED.exec(outputText);
  const outName = om ? om[2] : outputText;
  const outCount = om ? Number(om[1]) : 1;
  const output = listed(book, outName, outCount);
  const inputs = inputsText.split(",").map((part) => {
    const text = part.trim();
    const m = COUNTED.exec(text);
    if (!m) throw new ActionFailed(`Wrong item format: ${text}`);
    return listed(book, m[2], Number(m[1]));
  });
  // A family name is never in the inventory, so it always counts as lacking.
  const enough = inputs.every((i) => !i.isTag && (inventory.get(i.id) ?? -1) >= i.count);
  if (!enough) {
    throw new ActionFailed(
      `Could not find enough items to craft ${output.isTag ? "None" : output.id}`,
    );
  }
  const recipe = output.isTag ? undefined : book.match(output.id, inputs, options);
  if (!recipe) throw new ActionFailed(`Could not find a valid recipe for ${itemTagRepr(output)}`);
  for (const input of inputs) {
    const left = (inventory.get(input.id) ?? 0) - input.count;
    if (left > 0) inventory.set(input.id, left);
    else inventory.delete(input.id);
  }
  inventory.set(recipe.output, (inventory.get(recipe.output) ?? 0) + recipe.count);
  return ok(`Crafted ${recipe.count} ${recipe.output}`, recipe.output === goal ? 1 : 0);
}

function listed(book: RecipeBook, name: string, count: number): ListedInput {
  const id = nameToId(name);
  return { id, isTag: book.isTag(id), count };
}

/** The original's Python repr of the typed output, `ItemTagWithCount(...)`. */
function itemTagRepr(output: ListedInput): string {
  const tag = output.isTag ? pyRepr(output.id) : "None";
  const item = output.isTag ? "None" : pyRepr(output.id);
  return `ItemTagWithCount(item_tag=ItemTag(tag=${tag}, item_id=${item}), count=${output.count})`;
}
