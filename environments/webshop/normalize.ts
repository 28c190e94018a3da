/**
 * Colour normalisation for WebShop's option reward, as the reference's
 * `engine/normalize.py` does it: an option value is reduced to the first
 * base colour of a fixed list that occurs in it as a substring, so `"jet
 * black"` and `"black"` both read as `black`.
 *
 * The test is a plain substring test in list order, exactly as in the
 * reference, quirks included: `"dark blue"` reads as `blue` (`blue` comes
 * before `dark`), `"rose gold"` as `gold`, and words that merely contain a
 * colour are caught too (`"standard"` reads as `tan`, `"washed"` as
 * `ash`). The reward depends on these quirks, so they are kept.
 *
 * The reference's `normalize_color_size` (a mapping table for the whole
 * catalog, used by none of the reward code) is not reproduced.
 *
 * @module
 */

/**
 * The base colours, in the order the reference tests them (alphabetical;
 * the first that occurs wins).
 */
export const COLOR_SET: readonly string[] = [
  "alabaster",
  "apricot",
  "aqua",
  "ash",
  "asphalt",
  "azure",
  "banana",
  "beige",
  "black",
  "blue",
  "blush",
  "bordeaux",
  "bronze",
  "brown",
  "burgundy",
  "camel",
  "camo",
  "caramel",
  "champagne",
  "charcoal",
  "cheetah",
  "chestnut",
  "chocolate",
  "christmas",
  "coffee",
  "cognac",
  "copper",
  "coral",
  "cranberry",
  "cream",
  "crystal",
  "dark",
  "denim",
  "eggplant",
  "elephant",
  "espresso",
  "fuchsia",
  "gold",
  "granite",
  "grape",
  "graphite",
  "grass",
  "gray",
  "green",
  "grey",
  "heather",
  "indigo",
  "ivory",
  "ivy",
  "khaki",
  "lavender",
  "lemon",
  "leopard",
  "light",
  "lilac",
  "lime",
  "magenta",
  "maroon",
  "mauve",
  "merlot",
  "midnight",
  "mint",
  "mocha",
  "multicolor",
  "mushroom",
  "mustard",
  "natural",
  "navy",
  "nude",
  "olive",
  "orange",
  "peach",
  "pewter",
  "pink",
  "plum",
  "purple",
  "rainbow",
  "red",
  "rose",
  "royal",
  "rust",
  "sand",
  "sapphire",
  "seashell",
  "silver",
  "skull",
  "slate",
  "steel",
  "stone",
  "stonewash",
  "sunflower",
  "tan",
  "taupe",
  "teal",
  "tiger",
  "turquoise",
  "violet",
  "walnut",
  "wheat",
  "white",
  "wine",
  "yellow",
];

/**
 * The first base colour of {@linkcode COLOR_SET} that occurs in `text`
 * (case-sensitive substring test, as the reference), or `text` itself when
 * none does.
 *
 * @param text An option value (WebShop's option values are lower case).
 * @returns The base colour, or `text` unchanged.
 *
 * @example Usage
 * ```ts
 * import { normalizeColor } from "./normalize.ts";
 * console.log(normalizeColor("jet black"), normalizeColor("x-large")); // black x-large
 * ```
 */
export function normalizeColor(text: string): string {
  for (const color of COLOR_SET) {
    if (text.includes(color)) return color;
  }
  return text;
}

/**
 * The reference's `normalize_color` applied to a `(name, value)` pair, as
 * `get_reward` does to the goal's options (it passes `goal_options.items()`):
 * on a tuple, Python's `in` tests element equality, so the pair becomes a
 * base colour only when the name or the value *is* one; otherwise it stays
 * the pair.
 *
 * @param name The option name.
 * @param value The option value.
 * @returns The base colour, or `undefined` when the pair stays a pair.
 *
 * @example Usage
 * ```ts
 * import { normalizeColorPair } from "./normalize.ts";
 * console.log(normalizeColorPair("color", "black"), normalizeColorPair("color", "jet black")); // black undefined
 * ```
 */
export function normalizeColorPair(name: string, value: string): string | undefined {
  for (const color of COLOR_SET) {
    if (name === color || value === color) return color;
  }
  return undefined;
}
