/**
 * The WebShop grounder: reads each page's text into the vocabulary's facts,
 * symbolically, from the instruction and the page alone.
 *
 * - The page kind (`on_search`, `on_results`, `on_item`, `on_detail`) and
 *   what it offers (`clickable`, the shop's buttons as `is_buy`, ...).
 * - Results, listed in page order (so a free choice among them takes the
 *   best ranked): `result(x)`, `match(x)` when the title shares a word of
 *   the instruction's product (stemmed as the search index stems),
 *   `price_match(x)` when its lowest price is within the budget.
 * - The open product: `option(o)` for its option values, `opt_match(o)` for
 *   the values the instruction names, `curr_match()` when its title matches
 *   and it offers every value named, `curr_price()` within the budget.
 * - What the shopper did, which no page shows: `visited(x)` once a product
 *   was opened, `opt_clicked(o)` once a value was chosen on the open
 *   product's page (forgotten when another product opens or a search
 *   starts).
 *
 * An action the page does not offer (a click on something not there, an
 * empty search) is rejected, as the shop ignores it.
 *
 * @module
 */
import type { Atom, FactDelta, FactView } from "../../dsl/facts.ts";
import type { Grounder, Grounding } from "../../runtime/environment.ts";
import { analyze } from "./analyzer.ts";
import { type Instruction, lowestPrice, plainText, readInstruction } from "./instruction.ts";
import { BACK_TO_SEARCH, BUY_NOW, NEXT_PAGE, PREV_PAGE, SUB_PAGES } from "./pages.ts";

const SEP = " [SEP] ";
const PAGE_FACTS = [
  "on_search",
  "on_results",
  "on_item",
  "on_detail",
  "clickable",
  "result",
  "match",
  "price_match",
  "option",
  "opt_match",
  "curr_match",
  "curr_price",
  "is_buy",
  "is_prev",
  "is_next",
  "is_back",
];
const CONTROLS: Record<string, string | undefined> = {
  [BUY_NOW]: "is_buy",
  [PREV_PAGE]: "is_prev",
  [NEXT_PAGE]: "is_next",
  [BACK_TO_SEARCH]: "is_back",
};
const ASIN = /^[A-Z0-9]{10}$/;

/** One page as facts. */
interface PageFacts {
  atoms: Atom[];
  objects: Record<string, string>;
  /** The page is a product's. */
  onItem?: boolean;
}

/**
 * The grounder.
 *
 * @example Usage
 * ```ts
 * import { WebShopGrounder } from "./grounder.ts";
 * const g = new WebShopGrounder().initial(
 *   "WebShop [SEP] Instruction: [SEP] Find me a mug, and price lower than 20.00 dollars [SEP] Search",
 *   "Find me a mug, and price lower than 20.00 dollars",
 * );
 * console.log(g.delta.add.map((a) => a.pred)); // [ "query", "on_search" ]
 * ```
 */
export class WebShopGrounder implements Grounder {
  #instruction?: Instruction;

  /** The instruction read once per episode (every page is grounded against it). */
  #read(text: string): Instruction {
    if (this.#instruction?.text !== text) this.#instruction = readInstruction(text);
    return this.#instruction;
  }

  /** The facts of the first page and the query. */
  initial(observation: string, goal: string): Grounding {
    const instruction = this.#read(goal);
    const page = readPage(observation, instruction);
    return {
      delta: {
        add: [{ pred: "query", args: [goal] }, ...page.atoms],
        remove: [],
        objects: { [goal]: "Query", ...page.objects },
      },
    };
  }

  /** The change of one action: the new page's facts, and what the action did. */
  step(facts: FactView, action: string, observation: string): Grounding {
    const goal = facts.query("query", [null])[0]?.args[0];
    const instruction = this.#read(typeof goal === "string" ? goal : "");
    const page = readPage(observation, instruction);
    const delta: FactDelta = { add: [], remove: [], objects: {} };
    const rejected = rejection(facts, action);
    if (rejected !== undefined) return { delta, rejected };
    const next = new Set(page.atoms.map(key));
    for (const pred of PAGE_FACTS) {
      for (const atom of facts.query(pred, [])) if (!next.has(key(atom))) delta.remove.push(atom);
    }
    for (const atom of page.atoms) if (!facts.has(atom)) delta.add.push(atom);
    for (const [name, type] of Object.entries(page.objects)) {
      if (facts.typeOf(name) === undefined) delta.objects![name] = type;
    }
    const click = /^click\[(.*)\]$/s.exec(action.trim());
    // Item pages do not show the ASIN: the click on a listed result opened it.
    const opened = page.onItem && click
      ? facts.query("result", [null]).map((a) => String(a.args[0])).find((x) =>
        plainText(x) === plainText(click[1])
      )
      : undefined;
    if (opened !== undefined || /^search\[/.test(action.trim())) {
      // Choices belong to one product's page.
      delta.remove.push(...facts.query("opt_clicked", [null]));
    }
    if (opened !== undefined) {
      const visited = { pred: "visited", args: [opened] };
      if (!facts.has(visited)) delta.add.push(visited);
    } else if (click && page.onItem) {
      const chosen = facts.query("option", [null]).find((a) =>
        plainText(String(a.args[0])) === plainText(click[1])
      );
      if (chosen) {
        const atom = { pred: "opt_clicked", args: chosen.args };
        if (!facts.has(atom)) delta.add.push(atom);
      }
    }
    return { delta };
  }
}

function key(atom: Atom): string {
  return `${atom.pred}(${atom.args.join("\u0000")})`;
}

/** Why the shop ignores the action, or `undefined` when the page offers it. */
function rejection(facts: FactView, action: string): string | undefined {
  const text = action.trim();
  const search = /^search\[(.*)\]$/s.exec(text);
  if (search) {
    return search[1].trim() === "" ? "An empty search: the shop ignores it" : undefined;
  }
  const click = /^click\[(.*)\]$/s.exec(text);
  if (!click) return `"${text}" is neither search[...] nor click[...]: the shop ignores it`;
  const target = plainText(click[1]);
  const offered = facts.query("clickable", [null]).some((a) =>
    plainText(String(a.args[0])) === target
  );
  return offered ? undefined : `The page has no "${click[1]}" to click: the shop ignores it`;
}

/** The facts of a page's text. */
function readPage(observation: string, instruction: Instruction): PageFacts {
  const parts = observation.replace(/^Observation:\s*/, "").split(SEP).map((p) => p.trim());
  const atoms: Atom[] = [];
  const objects: Record<string, string> = {};
  const control = (name: string) => {
    objects[name] = "Control";
    atoms.push({ pred: "clickable", args: [name] });
    const kind = CONTROLS[name];
    if (kind) atoms.push({ pred: kind, args: [name] });
  };
  if (parts[0] === "WebShop" && parts.at(-1) === "Search") {
    atoms.push({ pred: "on_search", args: [] });
    return { atoms, objects };
  }
  if (parts[0].startsWith("Thank you for shopping")) return { atoms, objects };
  const pageAt = parts.findIndex((p) => /^Page [0-9]+ \(Total results: [0-9]+\)$/.test(p));
  if (pageAt >= 0) {
    atoms.push({ pred: "on_results", args: [] });
    control(BACK_TO_SEARCH);
    let i = pageAt + 1;
    if (parts[i] === PREV_PAGE) control(parts[i++]);
    if (parts[i] === NEXT_PAGE) control(parts[i++]);
    for (; i + 2 < parts.length + 1 && ASIN.test(parts[i] ?? ""); i += 3) {
      const asin = parts[i];
      const title = parts[i + 1] ?? "";
      const price = lowestPrice(parts[i + 2] ?? "");
      objects[asin] = "Product";
      atoms.push({ pred: "clickable", args: [asin] }, { pred: "result", args: [asin] });
      if (titleMatches(title, instruction)) atoms.push({ pred: "match", args: [asin] });
      if (price !== undefined && price <= instruction.priceUpper) {
        atoms.push({ pred: "price_match", args: [asin] });
      }
    }
    return { atoms, objects };
  }
  const priceAt = parts.findIndex((p) => p.startsWith("Price: "));
  if (parts.at(-1) === BUY_NOW && priceAt >= 0) {
    atoms.push({ pred: "on_item", args: [] });
    control(BACK_TO_SEARCH);
    control(PREV_PAGE);
    const prevAt = parts.indexOf(PREV_PAGE);
    const title = parts[priceAt - 1];
    const names = new Set(Object.keys(instruction.options));
    const wanted = new Set(Object.values(instruction.options));
    const offered = new Set<string>();
    for (const value of parts.slice(prevAt + 1, priceAt - 1)) {
      if (names.has(plainText(value))) continue;
      objects[value] = "Option";
      offered.add(plainText(value));
      atoms.push({ pred: "clickable", args: [value] }, { pred: "option", args: [value] });
      if (wanted.has(plainText(value))) atoms.push({ pred: "opt_match", args: [value] });
    }
    if (titleMatches(title, instruction) && [...wanted].every((v) => offered.has(v))) {
      atoms.push({ pred: "curr_match", args: [] });
    }
    const price = lowestPrice(parts[priceAt]);
    if (price !== undefined && price <= instruction.priceUpper) {
      atoms.push({ pred: "curr_price", args: [] });
    }
    for (const p of parts.slice(priceAt + 1)) {
      if ((SUB_PAGES as readonly string[]).includes(p) || p === BUY_NOW) control(p);
    }
    return { atoms, objects, onItem: true };
  }
  if (parts.includes(BACK_TO_SEARCH) && parts.includes(PREV_PAGE)) {
    atoms.push({ pred: "on_detail", args: [] });
    control(BACK_TO_SEARCH);
    control(PREV_PAGE);
  }
  return { atoms, objects };
}

/** Whether a title shares a word (stem) of what the instruction wants. */
function titleMatches(title: string, instruction: Instruction): boolean {
  if (instruction.terms.length === 0) return true;
  const words = new Set(analyze(title));
  return instruction.terms.some((t) => words.has(t));
}
