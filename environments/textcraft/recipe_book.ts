/**
 * The recipe database of TextCraft (the original's `CraftingTree`): recipes
 * by output item and by output family (tag), which ids are items and which
 * are tags, cycle avoidance, the tag clean-up, minimum crafting depths, and
 * the craft matching rule.
 *
 * @module
 */
import { parseRecipeJson, type RawRecipe } from "./recipe_parse.ts";
import { idToName } from "./names.ts";

/** One ingredient of a loaded recipe: an item or a tag (family) id and how many. */
export interface Ingredient {
  /** Item or tag id, e.g. `minecraft:planks`. */
  readonly id: string;
  /** Whether any member of the family may be used (false once a memberless tag became an item). */
  readonly isTag: boolean;
  /** How many the recipe needs. */
  readonly count: number;
}

/** A loaded crafting recipe. */
export interface CraftingRecipe {
  /** Output item id. */
  readonly output: string;
  /** Output count per craft. */
  readonly count: number;
  /** The family the output belongs to through this recipe's group (`minecraft:<group>`). */
  readonly outputTag?: string;
  /** Inputs in file order. */
  readonly inputs: readonly Ingredient[];
  /** The file it came from. */
  readonly file: string;
}

/** An input as a craft command lists it: an id (item or tag) and a count. */
export interface ListedInput {
  /** The id the typed name stands for. */
  id: string;
  /** Whether that id is a tag name. */
  isTag: boolean;
  /** The typed count. */
  count: number;
}

/**
 * The recipe database built from a list of recipe files, with the original
 * benchmark's loading rules (see {@linkcode RecipeBook.fromFiles}).
 *
 * @example Usage
 * ```ts ignore
 * import { loadRecipeBook } from "./recipe_book.ts";
 * const book = loadRecipeBook("/path/to/recipes");
 * console.log(book.minDepth("minecraft:stick")); // 2
 * ```
 */
export class RecipeBook {
  readonly #itemRecipes = new Map<string, CraftingRecipe[]>();
  readonly #tagRecipes = new Map<string, CraftingRecipe[]>();
  readonly #items = new Set<string>();
  readonly #tags = new Set<string>();
  readonly #itemTag = new Map<string, string>();
  readonly #depth = new Map<string, number>();
  /** Recipes left out because they close a cycle, by output (which one depends on file order). */
  readonly #cycleRecipes = new Map<string, CraftingRecipe[]>();
  #uses?: Map<string, CraftingRecipe[]>;

  private constructor() {}

  /**
   * Builds the database from recipe files in the given order (callers sort
   * by file name for determinism). Rules, as in the original: non-crafting
   * recipes are skipped; a one-input recipe whose input ends in `_block` is
   * skipped; a `group` other than the output id puts the output in the
   * family `minecraft:<group>`; a recipe is skipped when an input already
   * depends (transitively) on the output; finally a tag input none of whose
   * members has a recipe becomes a plain item.
   *
   * @param files File names with their parsed JSON.
   * @returns The database.
   * @throws {SyntaxError} When a crafting recipe file is malformed.
   */
  static fromFiles(files: readonly { name: string; json: unknown }[]): RecipeBook {
    const book = new RecipeBook();
    const deps = new Map<string, Set<string>>();
    for (const file of files) {
      const raw = parseRecipeJson(file.name, file.json);
      if (raw) book.#add(raw, deps);
    }
    book.#cleanUpTags();
    book.#computeDepths();
    return book;
  }

  #add(raw: RawRecipe, deps: Map<string, Set<string>>): void {
    for (const input of raw.inputs) (input.isTag ? this.#tags : this.#items).add(input.id);
    this.#items.add(raw.output);
    if (raw.inputs.length === 1 && raw.inputs[0].id.endsWith("_block")) return;
    let outputTag: string | undefined;
    if (raw.group !== undefined) {
      outputTag = "minecraft:" + raw.group;
      if (outputTag !== raw.output) {
        this.#tags.add(outputTag);
        this.#itemTag.set(raw.output, outputTag);
      }
    }
    const recipe: CraftingRecipe = {
      output: raw.output,
      count: raw.count,
      outputTag,
      inputs: raw.inputs.map((i) => ({ ...i })),
      file: raw.file,
    };
    const outDeps = deps.get(raw.output) ?? new Set<string>();
    deps.set(raw.output, outDeps);
    if (raw.inputs.some((i) => deps.get(i.id)?.has(raw.output))) {
      push(this.#cycleRecipes, raw.output, recipe);
      return;
    }
    push(this.#itemRecipes, raw.output, recipe);
    for (const input of raw.inputs) {
      outDeps.add(input.id);
      for (const d of deps.get(input.id) ?? []) outDeps.add(d);
    }
    if (outputTag !== undefined) push(this.#tagRecipes, outputTag, recipe);
  }

  #cleanUpTags(): void {
    const converted = new Set<string>();
    for (const recipes of this.#itemRecipes.values()) {
      for (const recipe of recipes) {
        (recipe.inputs as Ingredient[]).forEach((input, i, inputs) => {
          if (!input.isTag) return;
          const craftableMember = this.membersOf(input.id).some((m) => this.#itemRecipes.has(m));
          if (craftableMember) return;
          inputs[i] = { ...input, isTag: false };
          converted.add(input.id);
        });
      }
    }
    for (const id of converted) {
      this.#items.add(id);
      this.#tags.delete(id);
    }
  }

  #computeDepths(): void {
    // Least fixpoint of depth = min over recipes of max over inputs of depth + 1;
    // it equals the original's recursion on acyclic data and also ends on cycles.
    const names = [...new Set([...this.#itemRecipes.keys(), ...this.#tagRecipes.keys()])];
    for (const n of names) this.#depth.set(n, Infinity);
    let changed = true;
    while (changed) {
      changed = false;
      for (const name of names) {
        const d = Math.min(
          ...this.recipesFor(name).map((r) =>
            Math.max(...r.inputs.map((i) => this.minDepth(i.id) + 1))
          ),
        );
        if (d < this.#depth.get(name)!) {
          this.#depth.set(name, d);
          changed = true;
        }
      }
    }
  }

  /**
   * Recipes making `id` that were left out because they close a cycle
   * (honey block from honey bottles, honey bottles from a honey block:
   * which one is kept depends on the order the files are read in).
   */
  cycleRecipes(id: string): readonly CraftingRecipe[] {
    return this.#cycleRecipes.get(id) ?? [];
  }

  /** Recipes making the item `id` (empty when none). */
  itemRecipes(id: string): readonly CraftingRecipe[] {
    return this.#itemRecipes.get(id) ?? [];
  }

  /** Recipes making some member of the family `tag` (empty when none). */
  tagRecipes(tag: string): readonly CraftingRecipe[] {
    return this.#tagRecipes.get(tag) ?? [];
  }

  /** The item's recipes, else the family's recipes, else none (the original's tree rule). */
  recipesFor(id: string): readonly CraftingRecipe[] {
    return this.#itemRecipes.get(id) ?? this.#tagRecipes.get(id) ?? [];
  }

  /** Whether `id` has recipes as an item or as a family. */
  isCraftable(id: string): boolean {
    return this.#itemRecipes.has(id) || this.#tagRecipes.has(id);
  }

  /** Whether `id` is a family name (a tag with a craftable member). */
  isTag(id: string): boolean {
    return this.#tags.has(id);
  }

  /** Whether `id` is a known item id. */
  isItem(id: string): boolean {
    return this.#items.has(id);
  }

  /** Whether `get` can fetch `id`: a known item that is neither craftable nor a tag. */
  isFetchable(id: string): boolean {
    return this.#items.has(id) && !this.#tags.has(id) && !this.isCraftable(id);
  }

  /** The family an item belongs to, if any. */
  tagOf(id: string): string | undefined {
    return this.#itemTag.get(id);
  }

  /** Members of a family, in loading order. */
  membersOf(tag: string): string[] {
    const out: string[] = [];
    for (const [item, t] of this.#itemTag) if (t === tag) out.push(item);
    return out;
  }

  /** Ids of all items that have recipes, in loading order. */
  craftableItems(): string[] {
    return [...this.#itemRecipes.keys()];
  }

  /**
   * Minimum crafting depth: 0 when not craftable, else min over recipes of
   * max input depth + 1 (`Infinity` for items only makable through a cycle).
   */
  minDepth(id: string): number {
    return this.#depth.get(id) ?? 0;
  }

  /** Item ids with recipes whose minimum depth is `depth`, sorted by id. */
  itemsAtDepth(depth: number): string[] {
    return this.craftableItems().filter((id) => this.minDepth(id) === depth).sort();
  }

  /** Recipes that list `id` (item or tag) as an input, in loading order. */
  usesOf(id: string): readonly CraftingRecipe[] {
    if (!this.#uses) {
      this.#uses = new Map();
      for (const recipes of this.#itemRecipes.values()) {
        for (const r of recipes) for (const i of r.inputs) push(this.#uses, i.id, r);
      }
    }
    return this.#uses.get(id) ?? [];
  }

  /**
   * The recipe of `output` whose inputs the listed inputs match exactly:
   * each recipe input matched by item id, or for a tag input by an item of
   * that family (or the family name itself); equal counts; nothing extra.
   *
   * @param output The output item id (a tag id never matches).
   * @param listed The inputs as typed.
   * @param options `cycles`: also the recipes left out for closing a cycle
   *   (an explicit task whose listing crafts through one).
   * @returns The first matching recipe, or `undefined`.
   */
  match(
    output: string,
    listed: readonly ListedInput[],
    options: { cycles?: boolean } = {},
  ): CraftingRecipe | undefined {
    const recipes = options.cycles
      ? [...this.itemRecipes(output), ...this.cycleRecipes(output)]
      : this.itemRecipes(output);
    for (const recipe of recipes) {
      const rest = [...listed];
      const ok = recipe.inputs.every((input) => {
        const k = rest.findIndex((l) =>
          input.isTag
            ? (l.isTag && l.id === input.id) || (!l.isTag && this.#itemTag.get(l.id) === input.id)
            : !l.isTag && l.id === input.id
        );
        if (k < 0 || rest[k].count !== input.count) return false;
        rest.splice(k, 1);
        return true;
      });
      if (ok && rest.length === 0) return recipe;
    }
    return undefined;
  }
}

/**
 * A recipe as a crafting command line: `craft 4 stick using 2 planks`
 * (tag inputs by their family name).
 *
 * @example Usage
 * ```ts
 * import { recipeText } from "./recipe_book.ts";
 * console.log(recipeText({
 *   output: "minecraft:stick", count: 4, file: "stick.json",
 *   inputs: [{ id: "minecraft:planks", isTag: true, count: 2 }],
 * })); // craft 4 stick using 2 planks
 * ```
 */
export function recipeText(recipe: CraftingRecipe): string {
  const inputs = recipe.inputs.map((i) => `${i.count} ${idToName(i.id)}`).join(", ");
  return `craft ${recipe.count} ${idToName(recipe.output)} using ${inputs}`;
}

const cache = new Map<string, RecipeBook>();

/**
 * Loads every `.json` file of a directory, sorted by file name, into a
 * {@linkcode RecipeBook}. Results are cached per resolved directory path.
 *
 * @param dir A directory path or `file:` URL.
 * @returns The database.
 * @throws {Error} When the directory cannot be read or holds no recipe files.
 * @throws {SyntaxError} When a file is not valid JSON or a crafting recipe is malformed.
 */
export function loadRecipeBook(dir: string | URL): RecipeBook {
  if (dir instanceof URL && dir.protocol !== "file:") {
    throw new Error(`Cannot read recipes from "${dir.href}": only local directories are supported`);
  }
  const path = dir instanceof URL ? decodeURIComponent(dir.pathname) : dir;
  const cached = cache.get(path);
  if (cached) return cached;
  let names: string[];
  try {
    names = [...Deno.readDirSync(path)]
      .filter((e) => e.isFile && e.name.endsWith(".json"))
      .map((e) => e.name)
      .sort();
  } catch (e) {
    throw new Error(`Cannot read recipe directory "${path}": ${(e as Error).message}`);
  }
  if (names.length === 0) throw new Error(`Recipe directory "${path}" holds no .json files`);
  const files = names.map((name) => {
    const text = Deno.readTextFileSync(`${path}/${name}`);
    try {
      return { name, json: JSON.parse(text) as unknown };
    } catch (e) {
      throw new SyntaxError(`Cannot parse recipe file "${path}/${name}": ${(e as Error).message}`);
    }
  });
  const book = RecipeBook.fromFiles(files);
  cache.set(path, book);
  return book;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
