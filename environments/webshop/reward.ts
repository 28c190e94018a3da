/**
 * WebShop's reward for a purchase, computed component by component as the
 * reference's `get_reward` (`engine/goal.py`) does:
 *
 * - **type** (`r_type`, a multiplier): 1 when the product's query equals
 *   the goal's, or two levels of the category path agree, or more than a
 *   fifth of the goal title's nouns are in the product title; 0.5
 *   otherwise; 0.1 when under a tenth of the nouns match; 0 when none do.
 * - **attributes**: a goal attribute counts when some product attribute
 *   is a fuzzy match (`token_set_ratio > 85`) or the attribute occurs in
 *   the title, the bullets or the description.
 * - **options**: a goal option counts when some chosen option value is a
 *   fuzzy match after colour normalisation ({@linkcode normalizeColor}).
 * - **price**: 1 when the price is at most the goal's `price_upper`.
 *
 * reward = (attribute matches + option matches + price) / (attributes +
 * options + 1) x type.
 *
 * Deviations from the reference:
 * - The type reward's nouns come from spaCy's `en_core_web_lg` tagger
 *   there (tokens tagged NOUN or PROPN). No tagger here:
 *   {@linkcode titleNouns} keeps the words of the title that are not
 *   closed-class words (articles, pronouns, prepositions, conjunctions,
 *   auxiliaries, a few adverbs), numbers or single letters. spaCy tags
 *   most words of a title-cased product name NOUN or PROPN, so this is
 *   close, but it also keeps the adjectives and verbs spaCy leaves out.
 *   Buying the goal's own product is unaffected (the query matches).
 * - The fuzzy ratio is thefuzz 0.19's `token_set_ratio` over
 *   python-Levenshtein's ratio (the versions the reference installs),
 *   re-implemented: same text processing (characters 128-255 dropped,
 *   non-word characters to spaces, lower case), same token-set
 *   comparisons, same rounding. Python's `\w` is approximated by
 *   `[\p{L}\p{N}_]`.
 * - The reference hands the goal options to the colour normalisation and
 *   the fuzzy match as `(name, value)` tuples; thefuzz then compares the
 *   tuple's Python text, so the option *name* takes part in the match
 *   (`("size", "x-large")` reads as `size x large`, which a chosen
 *   `large` matches). That is kept, via Python's `repr`.
 *
 * @module
 */
import type { Goal, Product } from "./catalog.ts";
import { normalizeColor, normalizeColorPair } from "./normalize.ts";

/** What the reward reads of a goal. */
export type RewardGoal = Pick<
  Goal,
  "query" | "product_category" | "name" | "attributes" | "goal_options" | "price_upper"
>;

/** What the reward reads of the purchased product. */
export type RewardProduct = Pick<
  Product,
  "query" | "product_category" | "name" | "attributes" | "description" | "bullets"
>;

/** The type reward and what it was decided from. */
export interface TypeReward {
  /** 1, 0.5, 0.1 or 0. */
  type: number;
  /** The product's query equals the goal's. */
  queryMatch: boolean;
  /** At least two levels of the category paths agree. */
  categoryMatch: boolean;
  /** Share of the goal title's nouns found in the product title (0.2 when it has none). */
  titleScore: number;
}

/** The reward's parts. */
export interface RewardComponents extends TypeReward {
  /** Share of the goal's attributes matched (1 when it has none). */
  attribute: number;
  /** Share of the goal's options matched (1 when it has none). */
  option: number;
  /** 1 when the price is within the goal's limit, else 0. */
  price: number;
  /** Goal attributes matched. */
  attributeMatches: number;
  /** Goal options matched. */
  optionMatches: number;
  /** The weight of each part in the sum (they add up to 1). */
  weights: { attribute: number; option: number; price: number };
}

/** A purchase's reward. */
export interface WebShopReward {
  /** The reward, in [0, 1]. */
  reward: number;
  /** Its parts. */
  components: RewardComponents;
}

/** The reference's threshold: a fuzzy match needs a score above this. */
export const FUZZY_THRESHOLD = 85;

/**
 * The reward for buying `product` with `chosenOptions` at `price` towards
 * `goal`.
 *
 * @param goal The goal.
 * @param product The purchased product.
 * @param chosenOptions Option name -> chosen value (the values are what counts).
 * @param price The price paid.
 * @returns The reward and its components.
 * @throws {RangeError} When the goal's `price_upper` is not a positive number.
 *
 * @example Usage
 * ```ts
 * import { webshopReward } from "./reward.ts";
 * const product = {
 *   query: "tea", product_category: "Food › Tea", name: "Green Tea Bags",
 *   attributes: ["caffeine free"], description: "", bullets: [],
 * };
 * const goal = { ...product, attributes: ["caffeine free"], goal_options: { size: "20 count" }, price_upper: 10 };
 * console.log(webshopReward(goal, product, { size: "20 count" }, 5).reward); // 1
 * ```
 */
export function webshopReward(
  goal: RewardGoal,
  product: RewardProduct,
  chosenOptions: Readonly<Record<string, string>>,
  price: number,
): WebShopReward {
  if (!(goal.price_upper > 0)) {
    throw new RangeError(`Expected the goal's price_upper to be positive, got ${goal.price_upper}`);
  }
  const type = typeReward(product, goal);
  const attributeCount = attributeMatches(product, goal.attributes);
  const optionCount = optionMatches(Object.values(chosenOptions), goal.goal_options);
  const priceOk = price <= goal.price_upper ? 1 : 0;
  const nAttributes = goal.attributes.length;
  const nOptions = Object.keys(goal.goal_options).length;
  const total = nAttributes + nOptions + 1;
  return {
    reward: (attributeCount + optionCount + priceOk) / total * type.type,
    components: {
      ...type,
      attribute: nAttributes > 0 ? attributeCount / nAttributes : 1,
      option: nOptions > 0 ? optionCount / nOptions : 1,
      price: priceOk,
      attributeMatches: attributeCount,
      optionMatches: optionCount,
      weights: { attribute: nAttributes / total, option: nOptions / total, price: 1 / total },
    },
  };
}

/**
 * The type reward: is the product the kind of thing the goal asks for?
 *
 * @param product The purchased product.
 * @param goal The goal.
 * @returns The type reward and its evidence.
 *
 * @example Usage
 * ```ts
 * import { typeReward } from "./reward.ts";
 * const goal = { query: "tea", product_category: "Food › Tea", name: "Green Tea Bags" };
 * const product = { query: "coffee", product_category: "Food › Coffee", name: "Coffee Bags" };
 * console.log(typeReward(product, goal)); // { type: 1, queryMatch: false, categoryMatch: false, titleScore: 0.3333333333333333 }
 * ```
 */
export function typeReward(
  product: Pick<RewardProduct, "query" | "product_category" | "name">,
  goal: Pick<RewardGoal, "query" | "product_category" | "name">,
): TypeReward {
  const queryMatch = product.query === goal.query;
  const levels = (path: string) => new Set(path.split("›").map(pyStrip));
  const goalLevels = levels(goal.product_category);
  const shared = [...levels(product.product_category)].filter((l) => goalLevels.has(l)).length;
  const categoryMatch = shared >= 2;
  const purchased = new Set(titleNouns(product.name));
  const desired = titleNouns(goal.name);
  const common = new Set(desired.filter((w) => purchased.has(w))).size;
  const titleScore = desired.length === 0 ? 0.2 : common / desired.length;
  let type = queryMatch || categoryMatch || titleScore > 0.2 ? 1 : 0.5;
  if (titleScore < 0.1) type = 0.1;
  if (titleScore === 0) type = 0;
  return { type, queryMatch, categoryMatch, titleScore };
}

/**
 * How many of the goal's attributes the product has: a fuzzy match with
 * one of its attributes, else a substring of its title, bullets or
 * description (lower-cased).
 *
 * @param product The purchased product.
 * @param goalAttributes The goal's attributes.
 * @returns The number matched.
 *
 * @example Usage
 * ```ts
 * import { attributeMatches } from "./reward.ts";
 * const p = { name: "Tee", attributes: ["machine wash"], description: "Made of soft cotton", bullets: [] };
 * console.log(attributeMatches(p, ["machine washable", "soft cotton", "long lasting"])); // 2
 * ```
 */
export function attributeMatches(
  product: Pick<RewardProduct, "name" | "attributes" | "description" | "bullets">,
  goalAttributes: readonly string[],
): number {
  let count = 0;
  const title = product.name.toLowerCase();
  const bullets = product.bullets.join(" ").toLowerCase();
  const description = product.description.toLowerCase();
  for (const wanted of goalAttributes) {
    if (
      product.attributes.some((a) => tokenSetRatio(a, wanted) > FUZZY_THRESHOLD) ||
      title.includes(wanted) || bullets.includes(wanted) || description.includes(wanted)
    ) count++;
  }
  return count;
}

/**
 * How many of the goal's options the chosen option values match, after
 * colour normalisation. A goal option is compared as the reference
 * compares it: its base colour when its value is one, else the text of
 * the Python tuple `(name, value)`.
 *
 * @param chosen The chosen option values.
 * @param goalOptions The goal's options (name -> value).
 * @returns The number of goal options matched.
 *
 * @example Usage
 * ```ts
 * import { optionMatches } from "./reward.ts";
 * console.log(optionMatches(["jet black", "large"], { color: "black", size: "x-large" })); // 2
 * ```
 */
export function optionMatches(
  chosen: readonly string[],
  goalOptions: Readonly<Record<string, string>>,
): number {
  const purchased = chosen.map(normalizeColor);
  let count = 0;
  for (const [name, value] of Object.entries(goalOptions)) {
    const wanted = normalizeColorPair(name, value) ?? `(${pyRepr(name)}, ${pyRepr(value)})`;
    if (purchased.some((p) => tokenSetRatio(p, wanted) > FUZZY_THRESHOLD)) count++;
  }
  return count;
}

/** Closed-class English words: never nouns. */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  ("a an the this that these those each every either neither some any all both no another such " +
    "what which whose i me my mine we us our ours you your yours he him his she her hers it its " +
    "they them their theirs myself yourself himself herself itself ourselves themselves who whom " +
    "about above across after against along among around as at before behind below beneath " +
    "beside besides between beyond by down during except for from in inside into near of off on " +
    "onto out outside over per since than through throughout till to toward towards under " +
    "underneath until up upon via with within without and or but nor so yet if because while " +
    "although though unless whether is are was were be been being am do does did have has had " +
    "can could will would shall should may might must not very too also just only more most " +
    "less then there here how when where why").split(" "),
);

/**
 * The nouns of a product title, as the type reward counts them: the
 * lower-cased words (runs of letters and digits) that are not closed-class
 * words, numbers or single characters, duplicates kept. A deterministic
 * stand-in for spaCy's NOUN/PROPN tags.
 *
 * @param title A product title.
 * @returns The words, in order.
 *
 * @example Usage
 * ```ts
 * import { titleNouns } from "./reward.ts";
 * console.log(titleNouns("Men's Running Shoes for Trail, 2 Pack")); // [ "men", "running", "shoes", "trail", "pack" ]
 * ```
 */
export function titleNouns(title: string): string[] {
  return (title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) =>
    w.length > 1 && !/^\p{N}+$/u.test(w) && !FUNCTION_WORDS.has(w)
  );
}

/**
 * thefuzz 0.19's `ratio` over python-Levenshtein: the similarity of two
 * strings from their insert/delete distance, 0-100, rounded half to even.
 *
 * @param a A string.
 * @param b A string.
 * @returns The ratio, an integer 0-100.
 *
 * @example Usage
 * ```ts
 * import { fuzzRatio } from "./reward.ts";
 * console.log(fuzzRatio("this is a test", "this is a test!")); // 97
 * ```
 */
export function fuzzRatio(a: string, b: string): number {
  if (a === b) return 100;
  if (a.length === 0 || b.length === 0) return 0;
  const x = Array.from(a);
  const y = Array.from(b);
  const lensum = x.length + y.length;
  const distance = lensum - 2 * longestCommonSubsequence(x, y);
  return roundHalfEven(100 * ((lensum - distance) / lensum));
}

/**
 * thefuzz 0.19's `token_set_ratio`: both strings processed (characters
 * 128-255 dropped, non-word characters to spaces, lower case), split into
 * token sets, and the best ratio among (shared tokens, shared + rest of
 * each) comparisons; 0 when either string has no token.
 *
 * @param a A string.
 * @param b A string.
 * @returns The ratio, an integer 0-100.
 *
 * @example Usage
 * ```ts
 * import { tokenSetRatio } from "./reward.ts";
 * console.log(tokenSetRatio("fuzzy was a bear", "fuzzy fuzzy was a bear")); // 100
 * ```
 */
export function tokenSetRatio(a: string, b: string): number {
  const p1 = fullProcess(a);
  const p2 = fullProcess(b);
  if (p1.length === 0 || p2.length === 0) return 0;
  const t1 = new Set(p1.split(/ +/));
  const t2 = new Set(p2.split(/ +/));
  const sorted = (xs: string[]) => xs.sort(codePointCompare).join(" ");
  const sect = sorted([...t1].filter((t) => t2.has(t)));
  const only1 = sorted([...t1].filter((t) => !t2.has(t)));
  const only2 = sorted([...t2].filter((t) => !t1.has(t)));
  const combined1 = pyStrip(`${sect} ${only1}`);
  const combined2 = pyStrip(`${sect} ${only2}`);
  return Math.max(
    fuzzRatio(sect, combined1),
    fuzzRatio(sect, combined2),
    fuzzRatio(combined1, combined2),
  );
}

/** thefuzz's `full_process(s, force_ascii=True)`. */
function fullProcess(s: string): string {
  return pyStrip(s.replace(/[\u0080-\u00ff]/g, "").replace(/[^\p{L}\p{N}_]/gu, " ").toLowerCase());
}

function longestCommonSubsequence(x: string[], y: string[]): number {
  let prev = new Int32Array(y.length + 1);
  let row = new Int32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      row[j] = x[i - 1] === y[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], row[j - 1]);
    }
    [prev, row] = [row, prev];
  }
  return prev[y.length];
}

/** Python's `round()` of a float to an integer. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const rest = x - floor;
  if (rest !== 0.5) return rest < 0.5 ? floor : floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** Python's string order (by code point). */
function codePointCompare(a: string, b: string): number {
  const x = a[Symbol.iterator]();
  const y = b[Symbol.iterator]();
  for (;;) {
    const p = x.next();
    const q = y.next();
    if (p.done || q.done) return p.done ? (q.done ? 0 : -1) : 1;
    const d = p.value.codePointAt(0)! - q.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

/** Python's `str.strip()`. */
function pyStrip(s: string): string {
  // deno-lint-ignore no-control-regex
  return s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/gu, "");
}

/** Python's `repr()` of a string. */
function pyRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === "\\" || ch === quote) out += `\\${ch}`;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch !== " " && /[\p{C}\p{Z}]/u.test(ch)) {
      const hex = cp.toString(16);
      out += cp < 0x100
        ? `\\x${hex.padStart(2, "0")}`
        : cp < 0x10000
        ? `\\u${hex.padStart(4, "0")}`
        : `\\U${hex.padStart(8, "0")}`;
    } else out += ch;
  }
  return out + quote;
}
