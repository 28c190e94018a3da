/**
 * TextCraft's background knowledge: the full recipe data the environment
 * is built from. When a call fails on an item no listed recipe makes (a
 * real task may need a recipe its listing leaves out), it offers the
 * recipes that make the item as the facts a listing of them would give,
 * numbered after the recipes already known. The agent assumes them and the
 * environment's answer to the craft verifies them.
 *
 * @module
 */
import type { Atom, AtomArg } from "../../dsl/facts.ts";
import type {
  KnowledgeAnswer,
  KnowledgeQuestion,
  KnowledgeSource,
} from "../../runtime/knowledge.ts";
import { TextCraftGrounder } from "./grounder.ts";
import { nameToId } from "./names.ts";
import { type RecipeBook, recipeText } from "./recipe_book.ts";

/**
 * The recipe data as a knowledge source.
 *
 * @example Usage
 * ```ts ignore
 * const knowledge = new RecipeKnowledge(loadRecipeBook("../shared/data/textcraft/recipes"));
 * runAgent({ ...options, knowledge });
 * ```
 */
export class RecipeKnowledge implements KnowledgeSource {
  readonly #book: RecipeBook;

  /** A source answering from `book`. */
  constructor(book: RecipeBook) {
    this.#book = book;
  }

  /** The recipes of the failure's items that no known recipe makes, as facts. */
  ask(question: KnowledgeQuestion): Promise<KnowledgeAnswer | undefined> {
    const { facts } = question;
    const items = question.objects.filter((o) => facts.query("makes", [null, o]).length === 0);
    const lines = [
      ...new Set(items.flatMap((item) => {
        const id = nameToId(item);
        return [...this.#book.recipesFor(id), ...this.#book.cycleRecipes(id)].map(recipeText);
      })),
    ];
    if (lines.length === 0) return Promise.resolve(undefined);
    // Read as the environment's grounder reads a listing: families from the same data.
    const listing = new TextCraftGrounder({ book: this.#book }).initial(
      `Crafting commands:\n${lines.join("\n")}`,
      "",
    ).delta;
    // `recipe 1`, ... of the listing, after the recipes already known.
    const known = facts.objectsOfType("Recipe").length;
    const rename = (x: AtomArg): AtomArg => {
      const m = typeof x === "string" ? /^recipe (\d+)$/.exec(x) : null;
      return m ? `recipe ${known + Number(m[1])}` : x;
    };
    const add: Atom[] = listing.add
      .filter((a) => a.pred !== "goal")
      .map((a) => ({ pred: a.pred, args: a.args.map(rename) }));
    const objects = Object.fromEntries(
      Object.entries(listing.objects ?? {}).map(([id, type]) => [rename(id) as string, type]),
    );
    return Promise.resolve({ add, objects, source: "recipe data" });
  }
}
