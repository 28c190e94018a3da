/**
 * The WebShop pages as WebShop's text environment sees them: each page is
 * the ordered list of its visible text nodes and clickable elements, built
 * from the benchmark's HTML templates (search, results, item, the item's
 * Description / Features / Reviews / Attributes sub-pages and the done
 * page). The "text" observation is those texts, stripped and joined with
 * ` [SEP] `; the clickables are the buttons, product links and option radio
 * buttons, keyed as `get_available_actions` keys them.
 *
 * The texts follow the reference exactly, including its quirks: the rating
 * is always `N.A.` (the reference never loads reviews), the Reviews page is
 * empty, `Next >` shows on every results page, the done page prints its
 * hidden debugging fields (`None` where the server passes nothing), and a
 * whitespace-only text node on one line gives an empty entry.
 *
 * @module
 */

/** One visible element of a page, in document order. */
export type PageElement =
  /** A text node as the template renders it (before stripping). */
  | { kind: "text"; text: string }
  /** A button (`class="btn"`): its text is its label and, lower-cased, its key. */
  | { kind: "button"; text: string }
  /** A product link on the results page: the ASIN, lower-cased as its key. */
  | { kind: "product"; asin: string }
  /** An option radio button with its label: the value is the key, as is. */
  | { kind: "option"; name: string; value: string };

/** Which template a page comes from. */
export type PageKind = "search" | "results" | "item" | "sub" | "done";

/** A rendered page. */
export interface Page {
  /** The template. */
  readonly kind: PageKind;
  /** Its visible elements in document order. */
  readonly elements: readonly PageElement[];
  /** The page has the search box (only the search page). */
  readonly hasSearchBar: boolean;
}

/** A clickable element: a button, a product link or an option. */
export type Clickable = Exclude<PageElement, { kind: "text" }>;

/** The item sub-pages, by the label of their button. */
export type SubPageName = "Description" | "Features" | "Reviews" | "Attributes";

/** The sub-page labels in the reference's order (its `ACTION_TO_TEMPLATE`). */
export const SUB_PAGES: readonly SubPageName[] = [
  "Description",
  "Features",
  "Reviews",
  "Attributes",
];

/** The purchase button. */
export const BUY_NOW = "Buy Now";
/** The next results page button. */
export const NEXT_PAGE = "Next >";
/** The previous page button (results page 2 on, item page, sub-pages). */
export const PREV_PAGE = "< Prev";
/** The button back to the search page. */
export const BACK_TO_SEARCH = "Back to Search";
/** Results per page. */
export const RESULTS_PER_PAGE = 10;

/** What the pages show of a product (the catalog's product fits it). */
export interface ProductView {
  /** ASIN, upper case. */
  readonly asin: string;
  /** Title. */
  readonly name: string;
  /** The listed price or price range in dollars (empty: none listed). */
  readonly pricing: readonly number[];
  /** Option name -> values, in page order (lower case, as the reference loads them). */
  readonly options: Readonly<Record<string, readonly string[]>>;
  /** The full description. */
  readonly description: string;
  /** The feature bullets. */
  readonly bullets: readonly string[];
  /** The product's attributes (Attributes sub-page only). */
  readonly attributes?: readonly string[];
  /** Category (Attributes sub-page only). */
  readonly category?: string;
  /** Search query the product was scraped for (Attributes sub-page only). */
  readonly query?: string;
  /** Category path (Attributes sub-page only). */
  readonly product_category?: string;
}

// Python's `str.isspace` characters, which `str.strip()` removes.
const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029" +
  "\\u202f\\u205f\\u3000";
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "g");
// BeautifulSoup's ASCII spaces: a text node of only these is collapsed.
const ASCII_SPACES = /^[ \n\t\f\r]+$/;

/**
 * The entry a text node gives in the "text" observation, or none: the
 * node stripped; a whitespace-only node collapses (as BeautifulSoup does)
 * to `\n`, which is skipped, when it spans lines, else to an empty entry.
 */
function visibleText(text: string): string[] {
  if (text === "") return [];
  if (ASCII_SPACES.test(text)) return text.includes("\n") ? [] : [""];
  return [text.replace(PY_STRIP, "")];
}

function elementText(e: PageElement): string {
  switch (e.kind) {
    case "text":
    case "button":
      return e.text;
    case "product":
      return e.asin;
    case "option":
      return e.value;
  }
}

/**
 * The page in WebShop's "text" observation mode: its visible texts,
 * stripped, joined with ` [SEP] `.
 *
 * @param page A rendered page.
 * @returns The observation text.
 *
 * @example Usage
 * ```ts
 * import { pageText, searchPage } from "./pages.ts";
 * console.log(pageText(searchPage("i need a red mug")));
 * // WebShop [SEP] Instruction: [SEP] i need a red mug [SEP] Search
 * ```
 */
export function pageText(page: Page): string {
  return page.elements.flatMap((e) => visibleText(elementText(e))).join(" [SEP] ");
}

/**
 * The page's clickables by key, as `get_available_actions` builds them:
 * buttons (label lower-cased), then product links (ASIN lower-cased), then
 * option radio buttons (value as is); a later element with a taken key
 * replaces the earlier one in its place.
 *
 * @param page A rendered page.
 * @returns Key -> element, in the reference's order.
 */
export function pageClickables(page: Page): Map<string, Clickable> {
  const out = new Map<string, Clickable>();
  for (const kind of ["button", "product", "option"] as const) {
    for (const e of page.elements) {
      if (e.kind !== kind) continue;
      const key = e.kind === "button"
        ? e.text.toLowerCase()
        : e.kind === "product"
        ? e.asin.toLowerCase()
        : e.value;
      out.set(key, e);
    }
  }
  return out;
}

/**
 * Python's `str()` of a float: shortest round-trip digits, a `.0` on
 * whole numbers, exponent form below 1e-4 and from 1e16 (`1e-05`).
 *
 * @param x The number.
 * @returns Its Python text.
 */
export function pythonFloat(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (x === 0) return `${sign}0.0`;
  const [mantissa, e] = Math.abs(x).toExponential().split("e");
  const exp = Number(e);
  const digits = mantissa.replace(".", "");
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
    if (digits.length <= exp + 1) return `${sign}${digits.padEnd(exp + 1, "0")}.0`;
    return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

/**
 * The price tag the reference shows: `$10.99`, `$10.99 to $15.99` (the first
 * two prices of a range), `$100.0` when no price is listed.
 *
 * @param pricing The listed prices.
 * @returns The tag.
 */
export function priceTag(pricing: readonly number[]): string {
  if (pricing.length === 0) return "$100.0";
  if (pricing.length === 1) return `$${pythonFloat(pricing[0])}`;
  return `$${pythonFloat(pricing[0])} to $${pythonFloat(pricing[1])}`;
}

const HTML_SAFE: Readonly<Record<string, string>> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "'": "\\u0027",
};
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

function jsonString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (Object.hasOwn(SHORT_ESCAPES, ch)) out += SHORT_ESCAPES[ch];
    else if (Object.hasOwn(HTML_SAFE, ch)) out += HTML_SAFE[ch];
    else if (code >= 0x20 && code <= 0x7e) out += ch;
    else {
      for (let i = 0; i < ch.length; i++) {
        out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, "0")}`;
      }
    }
  }
  return out + '"';
}

function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/**
 * Flask's `tojson` of the chosen options: keys sorted, ASCII only, `<`,
 * `>`, `&` and `'` escaped: `{"color": "red", "size": "men\u0027s"}`.
 *
 * @param options Option name -> chosen value.
 * @returns The JSON text.
 */
export function optionsJson(options: Readonly<Record<string, string>>): string {
  const keys = Object.keys(options).sort(byCodePoint);
  return `{${keys.map((k) => `${jsonString(k)}: ${jsonString(options[k])}`).join(", ")}}`;
}

const text = (t: string): PageElement => ({ kind: "text", text: t });
const button = (t: string): PageElement => ({ kind: "button", text: t });

/** The instruction block and the two navigation buttons of the item pages. */
function itemHeader(instruction: string): PageElement[] {
  return [text("Instruction:"), text(instruction), button(BACK_TO_SEARCH), button(PREV_PAGE)];
}

/**
 * The search page (`search_page.html`).
 *
 * @param instruction The goal's instruction text.
 * @returns The page.
 */
export function searchPage(instruction: string): Page {
  return {
    kind: "search",
    hasSearchBar: true,
    elements: [text("WebShop"), text("Instruction: "), text(instruction), button("Search")],
  };
}

/**
 * A results page (`results_page.html`): `< Prev` from page 2 on, `Next >`
 * always, then ASIN, title and price tag of each product shown.
 *
 * @param instruction The goal's instruction text.
 * @param page The page number, from 1.
 * @param total How many products the search returned.
 * @param products The products of this page.
 * @returns The page.
 */
export function resultsPage(
  instruction: string,
  page: number,
  total: number,
  products: readonly ProductView[],
): Page {
  const elements: PageElement[] = [
    text("Instruction:"),
    text(instruction),
    button(BACK_TO_SEARCH),
    text(`Page ${page} (Total results: ${total})`),
  ];
  if (page > 1) elements.push(button(PREV_PAGE));
  elements.push(button(NEXT_PAGE));
  for (const p of products) {
    elements.push({ kind: "product", asin: p.asin }, text(p.name), text(priceTag(p.pricing)));
  }
  return { kind: "results", hasSearchBar: false, elements };
}

/**
 * An item page (`item_page.html`). The text shows no chosen option (the
 * reference marks them only in its HTML).
 *
 * @param instruction The goal's instruction text.
 * @param product The product.
 * @param showAttributes Show the `Attributes` button (the reference's `show_attrs`).
 * @returns The page.
 */
export function itemPage(instruction: string, product: ProductView, showAttributes = false): Page {
  const elements = itemHeader(instruction);
  for (const [name, values] of Object.entries(product.options)) {
    elements.push(text(name));
    for (const value of values) elements.push({ kind: "option", name, value });
  }
  elements.push(
    text(product.name),
    text(`Price: ${priceTag(product.pricing)}`),
    text("Rating: N.A."),
    ...SUB_PAGES.filter((s) => s !== "Attributes" || showAttributes).map(button),
    button(BUY_NOW),
  );
  return { kind: "item", hasSearchBar: false, elements };
}

/**
 * An item's sub-page: its description, its feature bullets, its reviews
 * (none: the reference loads no reviews) or its attributes.
 *
 * @param instruction The goal's instruction text.
 * @param sub Which sub-page.
 * @param product The product.
 * @returns The page.
 */
export function subPage(instruction: string, sub: SubPageName, product: ProductView): Page {
  const elements = itemHeader(instruction);
  switch (sub) {
    case "Description":
      elements.push(text(product.description));
      break;
    case "Features":
      for (const b of product.bullets) elements.push(text(` ${b}`));
      break;
    case "Reviews":
      break;
    case "Attributes":
      for (const a of product.attributes ?? []) elements.push(text(` ${a}`));
      elements.push(
        text(product.category ?? ""),
        text((product.query ?? "").replace(PY_STRIP, "").toLowerCase()),
        text(product.product_category ?? ""),
      );
      break;
  }
  return { kind: "sub", hasSearchBar: false, elements };
}

/**
 * The done page (`done_page.html`) after `Buy Now`, with every field the
 * text environment sees (also those the HTML hides).
 *
 * @param asin The purchased product's ASIN.
 * @param options The chosen options.
 * @param reward The reward.
 * @returns The page.
 */
export function donePage(
  asin: string,
  options: Readonly<Record<string, string>>,
  reward: number,
): Page {
  const none = "None";
  const fields = (names: string[], value?: string) =>
    names.flatMap((n) => value === undefined ? [text(n)] : [text(n), text(value)]);
  return {
    kind: "done",
    hasSearchBar: false,
    elements: [
      text("Thank you for shopping with us!"),
      text("Your code: "),
      text(none),
      text(" (Paste it in your MTurk interface.)"),
      text("Purchased"),
      text("asin"),
      text(asin),
      text("options"),
      text(optionsJson(options)),
      ...fields(["attrs", "category", "query", "product category"], none),
      text("Target"),
      ...fields([
        "asin",
        "options",
        "attrs",
        "price upper",
        "instuction text",
        "category",
        "product category",
        "query",
      ]),
      text("Goal "),
      text(none),
      text("Reward"),
      text("Your score (min 0.0, max 1.0)"),
      text(pythonFloat(reward)),
      text("Reward Details "),
      text(none),
    ],
  };
}
