/**
 * The WebShop catalog: the 1,000 products of WebShop's small shop, their
 * attributes, the prices they sell at and the 6,910 synthetic goals, read
 * from the shared data folder (`items_shuffle_1000.jsonl`,
 * `items_ins_v2_1000.json`, `product_prices.json`, `goals.jsonl`) and
 * validated.
 *
 * Products are prepared the way the reference's `load_products`
 * (`engine/engine.py`) prepares them: option names lower-cased, option
 * values stripped, lower-cased and with `/` written ` | `, options without
 * values dropped; the listed prices parsed from the pricing text; the
 * query lower-cased and stripped; a product without attributes in
 * `items_ins_v2_1000.json` gets `["DUMMY_ATTR"]`; products with an ASIN of
 * `nan` or longer than 10 characters, and repeated ASINs, are skipped.
 *
 * @module
 */
import { z } from "zod";
import { InputFileError, parseJsonLine, readJsonFile } from "../../io/json_file.ts";

/** The environment variable naming the WebShop data folder. */
export const WEBSHOP_DATA_ENV = "SKILLC_WEBSHOP_DATA";

/** The files of the data folder. */
export const WEBSHOP_FILES = {
  products: "items_shuffle_1000.jsonl",
  attributes: "items_ins_v2_1000.json",
  prices: "product_prices.json",
  goals: "goals.jsonl",
} as const;

/** One product, as the shop shows it and the reward reads it. */
export interface Product {
  /** ASIN, the product's id. */
  readonly asin: string;
  /** The title (the reference's `Title`). */
  readonly name: string;
  /** The pricing text as written (`"$10.99 - $15.99"`, or `""`). */
  readonly pricingText: string;
  /** The listed prices parsed from the text: none, one, or a range's two ends. */
  readonly pricing: readonly number[];
  /** The price it sells at, in dollars (`product_prices.json`). */
  readonly price: number;
  /** Option name -> values, in the shop's order (lower case, `/` written ` | `). */
  readonly options: Readonly<Record<string, readonly string[]>>;
  /** WebShop category (`beauty`, `fashion`, `food`, `electronics`, `garden`). */
  readonly category: string;
  /** The search query the product was scraped for, lower-cased and stripped. */
  readonly query: string;
  /** Amazon's category path, levels separated by `›`. */
  readonly product_category: string;
  /** The full description. */
  readonly description: string;
  /** The feature bullets (a single string in the source becomes one bullet). */
  readonly bullets: readonly string[];
  /** The average rating, or `null` when none is given. */
  readonly rating: number | null;
  /** The product's attributes (`items_ins_v2_1000.json`; `["DUMMY_ATTR"]` when absent). */
  readonly attributes: readonly string[];
}

/** One synthetic goal: an instruction and what the reward compares a purchase with. */
export interface Goal {
  /** The goal's position (0-499 test, 500-1499 validation, the rest training). */
  readonly index: number;
  /** The instruction shown to the agent. */
  readonly instruction_text: string;
  /** The attributes the instruction asks for. */
  readonly attributes: readonly string[];
  /** Option name -> the value asked for. */
  readonly goal_options: Readonly<Record<string, string>>;
  /** The price the purchase must not exceed (1,000,000 when the instruction names none). */
  readonly price_upper: number;
  /** The goal's sampling weight in the reference. */
  readonly weight: number;
  /** The target product's ASIN. */
  readonly asin: string;
  /** The target product's title. */
  readonly name: string;
  /** The target product's query (lower case). */
  readonly query: string;
  /** The target product's category. */
  readonly category: string;
  /** The target product's category path. */
  readonly product_category: string;
}

/** The loaded catalog. */
export interface Catalog {
  /** Products in the catalog's order (the order the search index numbers them). */
  readonly products: readonly Product[];
  /** Goals in the environment's order (`goals[i].index === i`). */
  readonly goals: readonly Goal[];
  /** Products by ASIN. */
  readonly byAsin: ReadonlyMap<string, Product>;
}

const RawProductSchema = z.object({
  asin: z.string(),
  name: z.string(),
  pricing: z.string(),
  options: z.record(z.string(), z.array(z.string()).nullable()),
  category: z.string(),
  query: z.string(),
  product_category: z.string(),
  description: z.string(),
  bullets: z.union([z.array(z.string()), z.string()]),
  rating: z.union([z.number(), z.literal("")]),
});

const AttributesSchema = z.record(
  z.string(),
  z.object({
    attributes: z.array(z.string()).optional(),
    instruction: z.string().optional(),
    instruction_attributes: z.array(z.string()).optional(),
  }),
);

const PricesSchema = z.record(z.string(), z.number().nonnegative());

const GoalSchema = z.object({
  index: z.number().int().nonnegative(),
  asin: z.string(),
  category: z.string(),
  query: z.string(),
  name: z.string(),
  product_category: z.string(),
  instruction_text: z.string(),
  attributes: z.array(z.string()),
  price_upper: z.number().positive(),
  goal_options: z.record(z.string(), z.string()),
  weight: z.number(),
});

/**
 * The WebShop data folder: `$SKILLC_WEBSHOP_DATA` when set, else
 * `$SKILLC_DATA/webshop` when that is set, else `../shared/data/webshop`
 * beside the repository root. Without permission to read the environment
 * the default is used.
 *
 * @returns The folder's path.
 *
 * @example Usage
 * ```ts
 * import { defaultDataDir } from "./catalog.ts";
 * console.log(defaultDataDir().endsWith("webshop")); // true
 * ```
 */
export function defaultDataDir(): string {
  const own = readEnv(WEBSHOP_DATA_ENV);
  if (own) return own.replace(/\/+$/, "");
  const shared = readEnv("SKILLC_DATA");
  if (shared) return `${shared.replace(/\/+$/, "")}/webshop`;
  return urlToPath(new URL("../../../shared/data/webshop", import.meta.url));
}

/**
 * Loads and validates the catalog in `dir`.
 *
 * @param dir The data folder (see {@linkcode defaultDataDir}).
 * @returns The catalog.
 * @throws {InputFileError} When a file is missing or malformed: the message
 * names the file, the line where known, and the field at fault; also when a
 * product has no price or a goal names an unknown product or is out of order.
 *
 * @example Usage
 * ```ts ignore
 * import { defaultDataDir, loadCatalog } from "./catalog.ts";
 * const catalog = await loadCatalog(defaultDataDir());
 * console.log(catalog.products.length, catalog.goals.length); // 1000 6910
 * ```
 */
export async function loadCatalog(dir: string): Promise<Catalog> {
  const path = (name: string) => `${dir.replace(/\/+$/, "")}/${name}`;
  try {
    if (!(await Deno.stat(dir)).isDirectory) throw new Error("not a folder");
  } catch {
    throw new InputFileError(
      dir,
      `Expected the WebShop data folder here (set ${WEBSHOP_DATA_ENV} to its path)`,
    );
  }
  const [productLines, attributes, prices, goalLines] = await Promise.all([
    readLines(path(WEBSHOP_FILES.products)),
    readJsonAs(path(WEBSHOP_FILES.attributes), AttributesSchema, "attributes table"),
    readJsonAs(path(WEBSHOP_FILES.prices), PricesSchema, "price table"),
    readLines(path(WEBSHOP_FILES.goals)),
  ]);

  const products: Product[] = [];
  const byAsin = new Map<string, Product>();
  for (const [i, text] of productLines) {
    const where = { path: path(WEBSHOP_FILES.products), line: i, what: "product" };
    const raw = parseLine(text, RawProductSchema, where);
    if (raw.asin === "nan" || raw.asin.length > 10 || byAsin.has(raw.asin)) continue;
    const price = prices[raw.asin];
    if (price === undefined) {
      throw new InputFileError(
        path(WEBSHOP_FILES.prices),
        `Expected a price for product "${raw.asin}" (${WEBSHOP_FILES.products} line ${i})`,
      );
    }
    const product = prepareProduct(raw, price, attributes[raw.asin]?.attributes, where);
    products.push(product);
    byAsin.set(product.asin, product);
  }

  const goals: Goal[] = [];
  for (const [i, text] of goalLines) {
    const where = { path: path(WEBSHOP_FILES.goals), line: i, what: "goal" };
    const goal = parseLine(text, GoalSchema, where);
    if (goal.index !== goals.length) {
      throw new InputFileError(
        where.path,
        `Expected goal index ${goals.length}, found ${goal.index}`,
        i,
      );
    }
    if (!byAsin.has(goal.asin)) {
      throw new InputFileError(where.path, `Expected a product "${goal.asin}" in the catalog`, i);
    }
    goals.push(goal);
  }
  return { products, goals, byAsin };
}

/**
 * The listed prices of a pricing text, as the reference parses them: the
 * amounts after each `$` with everything but digits and dots removed, at
 * most two. An amount that is not a number comes out as `NaN`.
 *
 * @param text The pricing text (`"$10.99 - $15.99"`, `""`).
 * @returns The prices: none, one, or a range's two ends.
 *
 * @example Usage
 * ```ts
 * import { parsePricing } from "./catalog.ts";
 * console.log(parsePricing("$1,299.00 - $1,499.99")); // [ 1299, 1499.99 ]
 * ```
 */
export function parsePricing(text: string): number[] {
  if (text === "") return [];
  return text.split("$").slice(1, 3).map((part) => {
    const digits = part.replace(/[^\d.]/g, "");
    return digits === "" ? NaN : Number(digits);
  });
}

type RawProduct = z.infer<typeof RawProductSchema>;

function prepareProduct(
  raw: RawProduct,
  price: number,
  attributes: string[] | undefined,
  where: { path: string; line: number },
): Product {
  const pricing = parsePricing(raw.pricing);
  if (pricing.some((p) => !Number.isFinite(p))) {
    throw new InputFileError(
      where.path,
      `Invalid product at "pricing": expected dollar amounts, found ${JSON.stringify(raw.pricing)}`,
      where.line,
    );
  }
  const options: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(raw.options)) {
    if (values === null) continue;
    options[name.toLowerCase()] = values.map((v) =>
      v.replace(PY_STRIP, "").replaceAll("/", " | ").toLowerCase()
    );
  }
  return {
    asin: raw.asin,
    name: raw.name,
    pricingText: raw.pricing,
    pricing,
    price,
    options,
    category: raw.category,
    query: raw.query.toLowerCase().replace(PY_STRIP, ""),
    product_category: raw.product_category,
    description: raw.description,
    bullets: typeof raw.bullets === "string" ? [raw.bullets] : raw.bullets,
    rating: raw.rating === "" ? null : raw.rating,
    attributes: attributes ?? ["DUMMY_ATTR"],
  };
}

/** Python's `str.strip()` with no argument: Unicode white space at both ends. */
// deno-lint-ignore no-control-regex
const PY_STRIP = /^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/gu;

/** The non-blank lines of a JSON Lines file, with their 1-based numbers. */
async function readLines(path: string): Promise<[number, string][]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    throw new InputFileError(path, `Cannot read file: ${e instanceof Error ? e.message : e}`);
  }
  const lines: [number, string][] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() !== "") lines.push([i + 1, line]);
  });
  return lines;
}

function parseLine<T>(
  text: string,
  schema: z.ZodType<T>,
  where: { path: string; line: number; what: string },
): T {
  const value = parseJsonLine(text, schema, where);
  if (value === undefined) {
    throw new InputFileError(where.path, `Expected a JSON ${where.what} on this line`, where.line);
  }
  return value;
}

/** Reads a JSON object file; a rejected entry is reported at the line of its key. */
async function readJsonAs<T>(path: string, schema: z.ZodType<T>, what: string): Promise<T> {
  const data = await readJsonFile(path);
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const key = issue.path[0];
  let line: number | undefined;
  if (typeof key === "string") {
    const text = await Deno.readTextFile(path);
    const offset = text.indexOf(JSON.stringify(key));
    if (offset >= 0) line = text.slice(0, offset).split("\n").length;
  }
  const at = issue.path.length > 0 ? ` at "${issue.path.join(".")}"` : "";
  throw new InputFileError(path, `Invalid ${what}${at}: ${issue.message}`, line);
}

function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined; // no --allow-env: use the default
  }
}

function urlToPath(url: URL): string {
  if (url.protocol !== "file:") return url.href;
  const path = decodeURIComponent(url.pathname);
  return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path;
}
