/**
 * Reading a WebShop instruction: the constraints a shopper can read from
 * it. WebShop's synthetic instructions end with the options and the budget
 * (`Find me machine wash men's pants with relaxed fit with color: grey, and
 * size: 40w x 34l, and price lower than 70.00 dollars`); people's
 * instructions say the budget the same way and the rest freely.
 *
 * @module
 */
import { analyze } from "./analyzer.ts";

/** What an instruction asks for. */
export interface Instruction {
  /** The instruction as given. */
  text: string;
  /** The words before the options and the budget (product kind and attributes). */
  wants: string;
  /** Options the instruction names, option name -> value (lower-case). */
  options: Record<string, string>;
  /** The budget in dollars; `Infinity` when none is named. */
  priceUpper: number;
  /** The search terms of `wants` (the analyzer's stems), without repeats. */
  terms: string[];
}

const PRICE = /,?\s*(?:and )?price lower than \$?([0-9]+(?:\.[0-9]+)?) dollars\.?\s*$/i;
// An option's name is one to four words, none of them "with" (`fit type`, `item package quantity`).
const NAME = "(?:(?!with )[a-z]+ ){0,3}(?!with:)[a-z]+";
const OPTIONS = new RegExp(` with (${NAME}: .*)$`, "i");
const NEXT_OPTION = new RegExp(`, and (?=${NAME}: )`, "i");
const OPENERS = /^(?:find me|i need|i want|i am looking for|i'm looking for|get me|buy me)\s+/i;

/**
 * Reads an instruction's options, budget and wanted words.
 *
 * @param text The instruction.
 * @returns What it asks for.
 *
 * @example Usage
 * ```ts
 * import { readInstruction } from "./instruction.ts";
 * const i = readInstruction(
 *   "Find me men's pants with relaxed fit with color: grey, and size: 40w x 34l, and price lower than 70.00 dollars",
 * );
 * console.log(i.options, i.priceUpper); // { color: "grey", size: "40w x 34l" } 70
 * ```
 */
export function readInstruction(text: string): Instruction {
  let rest = text.trim();
  let priceUpper = Infinity;
  const price = PRICE.exec(rest);
  if (price) {
    priceUpper = Number(price[1]);
    rest = rest.slice(0, price.index);
  }
  const options: Record<string, string> = {};
  const named = OPTIONS.exec(rest);
  if (named) {
    for (const part of named[1].split(NEXT_OPTION)) {
      const colon = part.indexOf(": ");
      if (colon < 0) continue;
      options[part.slice(0, colon).trim().toLowerCase()] = part.slice(colon + 2).trim()
        .toLowerCase();
    }
    if (Object.keys(options).length > 0) rest = rest.slice(0, named.index);
  }
  const wants = rest.replace(OPENERS, "").trim();
  return { text, wants, options, priceUpper, terms: [...new Set(analyze(wants))] };
}

/** The lower-case, space-normalised form texts are compared in. */
export function plainText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * The lowest price of a price tag as pages show it (`$12.99`, `$10.0 to
 * $15.0`); `undefined` when the text holds none.
 *
 * @example Usage
 * ```ts
 * import { lowestPrice } from "./instruction.ts";
 * console.log(lowestPrice("Price: $10.0 to $15.0")); // 10
 * ```
 */
export function lowestPrice(text: string): number | undefined {
  const prices = [...text.matchAll(/\$([0-9][0-9,]*(?:\.[0-9]+)?)/g)].map((m) =>
    Number(m[1].replaceAll(",", ""))
  );
  return prices.length > 0 ? Math.min(...prices) : undefined;
}
