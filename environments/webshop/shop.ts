/**
 * The WebShop text shop as a state machine: WebShop's text environment
 * (`web_agent_text_env.py` in "text" observation mode, as AgentGym's
 * WebShop server runs it) re-implemented over the product catalog, the
 * search index and the reward, deterministic given the catalog and the goal.
 *
 * Actions are `search[keywords]` and `click[label]`. Like the reference,
 * any action it cannot perform (an unparsable one, `search[]`, a click on
 * something the page does not offer, `click[search]`) changes nothing: the
 * answer is the same page again, reward 0, not done. `click[buy now]` ends
 * the episode with the reward on the done page.
 *
 * @module
 */
import type { Environment, ResetResult, StepResult, TaskSpec } from "../../runtime/environment.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { type Catalog, defaultDataDir, type Goal, loadCatalog, type Product } from "./catalog.ts";
import { SearchIndex } from "./search.ts";
import { webshopReward } from "./reward.ts";
import {
  BACK_TO_SEARCH,
  BUY_NOW,
  type Clickable,
  donePage,
  itemPage,
  NEXT_PAGE,
  type Page,
  pageClickables,
  pageText,
  PREV_PAGE,
  RESULTS_PER_PAGE,
  resultsPage,
  searchPage,
  SUB_PAGES,
  subPage,
  type SubPageName,
} from "./pages.ts";

/** The task type of every WebShop goal. */
export const WEBSHOP_TASK_TYPE = "purchase";

/** How many products a search returns (the reference's `SEARCH_RETURN_N`). */
export const SEARCH_RESULTS = 50;

/** The page the shop shows. */
export type ShopView =
  | { kind: "search" }
  | { kind: "results" }
  | { kind: "item" }
  | { kind: "sub"; sub: SubPageName }
  | { kind: "done"; reward: number };

/** The session: what the reference's server keeps per user. */
export interface ShopSession {
  /** The last search's keywords (the lower-cased query split at spaces). */
  keywords: string[] | null;
  /** The results page number. */
  page: number | null;
  /** The product open. */
  asin: string | null;
  /** Products opened since the last search page. */
  asins: Set<string>;
  /** Chosen options of the open product: option name -> value. */
  options: Record<string, string>;
}

/** What `get_available_actions` returns. */
export interface AvailableActions {
  /** The page has the search box. */
  hasSearchBar: boolean;
  /** The keys `click[...]` accepts, in the page's order. */
  clickables: string[];
}

/** Options of {@linkcode WebShop}. */
export interface WebShopOptions {
  /** The catalog, already loaded (wins over `dataDir`). */
  catalog?: Catalog;
  /** The data folder to load the catalog from. @default defaultDataDir() */
  dataDir?: string;
  /** The vocabulary skills use. @default a vocabulary of the two actions */
  vocabulary?: Vocabulary;
  /** Show the `Attributes` button on item pages (the reference's `show_attrs`). @default false */
  showAttributes?: boolean;
  /** The search engine. @default the catalog's {@linkcode SearchIndex}, built once per catalog */
  search?: ProductSearch;
}

/** A search engine over the catalog: what {@linkcode SearchIndex} offers. */
export interface ProductSearch {
  /** The ASINs of the best `k` products for `query`, best first. */
  search(query: string, k: number): string[];
}

/** The vocabulary used when none is given: the two actions, nothing else. */
export const WEBSHOP_ACTIONS_VOCABULARY: Vocabulary = {
  name: "webshop",
  types: {},
  predicates: {},
  functions: {},
  actions: {
    search: {
      template: "search[{keywords}]",
      params: [{ name: "keywords", type: "Str" }],
      doc: "Search the shop (from any page).",
    },
    click: {
      template: "click[{target}]",
      params: [{ name: "target", type: "Str" }],
      doc: "Click a button, product or option the page shows.",
    },
  },
};

/**
 * The reference's `parse_action`: `name[arg]` with a non-empty argument
 * (the last `[` before the last `]`), else the whole text as a name.
 *
 * @param action The action text.
 * @returns The name and the argument, `undefined` when there is none.
 *
 * @example Usage
 * ```ts
 * import { parseAction } from "./shop.ts";
 * console.log(parseAction("click[Buy Now]")); // ["click", "Buy Now"]
 * console.log(parseAction("search[]")); // ["search[]", undefined]
 * ```
 */
export function parseAction(action: string): [string, string | undefined] {
  const m = /^([^\n]+)\[([^\n]+)\]/.exec(action);
  return m ? [m[1], m[2]] : [action, undefined];
}

/** The goal index a task asks for: `seed`, or `id` as `17` or `webshop/17`. */
function goalIndex(task: TaskSpec, count: number): number {
  let index: number | undefined;
  if (task.seed !== undefined) index = task.seed;
  else if (task.id !== undefined) {
    const m = /^(?:webshop\/)?(\d+)$/.exec(task.id);
    if (!m) {
      throw new TypeError(`Cannot read WebShop task id "${task.id}": expected "webshop/N" or "N"`);
    }
    index = Number(m[1]);
  } else {
    throw new TypeError('A WebShop task needs a goal index: { seed: N } or { id: "webshop/N" }');
  }
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new RangeError(`WebShop has no goal ${index}: goals are 0 to ${count - 1}`);
  }
  return index;
}

const searchIndexes = new WeakMap<Catalog, SearchIndex>();
const catalogs = new Map<string, Promise<Catalog>>();

/** The catalog's search index, built once per catalog. */
function searchIndexOf(catalog: Catalog): SearchIndex {
  let index = searchIndexes.get(catalog);
  if (!index) {
    index = new SearchIndex(catalog.products);
    searchIndexes.set(catalog, index);
  }
  return index;
}

/**
 * The WebShop environment: `reset` to a goal by index, `step` with
 * `search[...]` / `click[...]`, the text observations of the reference.
 * The goal sentence is the goal's instruction text, as every page shows it.
 *
 * @example Usage
 * ```ts ignore
 * import { WebShop } from "./shop.ts";
 * const shop = new WebShop();
 * const { observation } = await shop.reset({ seed: 0 });
 * // WebShop [SEP] Instruction: [SEP] Find me ... [SEP] Search
 * await shop.step("search[decorative pillows]");
 * ```
 */
export class WebShop implements Environment {
  /** `webshop`. */
  readonly name = "webshop";
  /** The domain vocabulary. */
  readonly vocabulary: Vocabulary;
  readonly #options: WebShopOptions;
  #catalog: Catalog | undefined;
  #goal: Goal | undefined;
  #goalIndex = -1;
  #view: ShopView = { kind: "search" };
  #session: ShopSession = emptySession();
  #results: { query: string; asins: string[] } | undefined;
  #reward = 0;

  /**
   * Creates the shop; the catalog is loaded at the first `reset` unless given.
   *
   * @param options Catalog source and display options.
   */
  constructor(options: WebShopOptions = {}) {
    this.#options = options;
    this.#catalog = options.catalog;
    this.vocabulary = options.vocabulary ?? WEBSHOP_ACTIONS_VOCABULARY;
  }

  /** The catalog, once loaded. */
  get catalog(): Catalog | undefined {
    return this.#catalog;
  }

  /** The current goal, once reset. */
  get goal(): Readonly<Goal> | undefined {
    return this.#goal;
  }

  /** The page shown. */
  get view(): Readonly<ShopView> {
    return this.#view;
  }

  /** A copy of the session (search, page, open product, chosen options). */
  get session(): ShopSession {
    const s = this.#session;
    return {
      ...s,
      keywords: s.keywords && [...s.keywords],
      asins: new Set(s.asins),
      options: { ...s.options },
    };
  }

  /** The reward of the purchase, 0 before it: WebShop's score. */
  get progressRate(): number {
    return this.#reward;
  }

  /**
   * Starts the task of goal `seed` or `id` (`webshop/N` or `N`) on the
   * search page.
   *
   * @throws {TypeError} When the task names no goal index.
   * @throws {RangeError} When the catalog has no such goal.
   */
  async reset(task: TaskSpec): Promise<ResetResult> {
    const catalog = await this.#loadCatalog();
    const index = goalIndex(task, catalog.goals.length);
    this.#goal = catalog.goals[index];
    this.#goalIndex = index;
    this.#view = { kind: "search" };
    this.#session = emptySession();
    this.#results = undefined;
    this.#reward = 0;
    // One task type: every goal is a purchase, whatever the product's category.
    return {
      observation: this.observation(),
      goal: this.#goal.instruction_text,
      taskId: `webshop/${index}`,
      taskType: WEBSHOP_TASK_TYPE,
    };
  }

  /** The index of the current goal, -1 before `reset`. */
  get goalIndex(): number {
    return this.#goalIndex;
  }

  /**
   * The current page as the reference's "text" observation.
   *
   * @throws {Error} When called before `reset`.
   */
  observation(): string {
    return pageText(this.#page());
  }

  /**
   * The reference's `get_available_actions`: whether the page has the
   * search box, and the keys a click accepts.
   *
   * @throws {Error} When called before `reset`.
   */
  availableActions(): AvailableActions {
    const page = this.#page();
    return { hasSearchBar: page.hasSearchBar, clickables: [...pageClickables(page).keys()] };
  }

  /**
   * The clicks the page accepts, as actions (`click[buy now]`). A search
   * is possible from every page and is not listed.
   */
  admissibleActions(): Promise<string[]> {
    try {
      return Promise.resolve(
        this.availableActions().clickables.filter((k) => k !== "search").map((k) => `click[${k}]`),
      );
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /**
   * Sends one action and returns the page that follows, as the reference
   * does; an action it cannot perform leaves the page as it was (reward 0,
   * not done). `click[buy now]` gives the reward and ends the episode.
   *
   * @throws {Error} When called before `reset`.
   */
  step(action: string): Promise<StepResult> {
    try {
      return Promise.resolve(this.#step(action));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  #step(action: string): StepResult {
    const clickables = pageClickables(this.#page());
    const [name, rawArg] = parseAction(action);
    const arg = rawArg?.toLowerCase();
    let status = { reward: 0, done: false };
    if (name === "search" && arg !== undefined && arg !== "") {
      this.#search(arg.split(" "), 1);
    } else if (name === "click" && arg !== undefined && arg !== "search" && clickables.has(arg)) {
      status = this.#click(arg, clickables.get(arg)!);
    }
    return { observation: this.observation(), reward: status.reward, done: status.done };
  }

  /** The reference server's dispatch of a click (its `receive`). */
  #click(name: string, clickable: Clickable): { reward: number; done: boolean } {
    const page = this.#view.kind;
    if (name === BUY_NOW.toLowerCase()) return this.#buy();
    if (name === BACK_TO_SEARCH.toLowerCase()) {
      this.#view = { kind: "search" };
      this.#session = emptySession();
    } else if (name === NEXT_PAGE.toLowerCase() && page === "results") {
      this.#search(this.#session.keywords ?? [], (this.#session.page ?? 1) + 1);
    } else if (name === PREV_PAGE.toLowerCase() && page === "results") {
      this.#search(this.#session.keywords ?? [], (this.#session.page ?? 1) - 1);
    } else if (name === PREV_PAGE.toLowerCase() && page === "sub") {
      this.#openItem(name, clickable);
    } else if (name === PREV_PAGE.toLowerCase() && page === "item") {
      this.#search(this.#session.keywords ?? [], this.#session.page ?? 1);
    } else {
      const sub = SUB_PAGES.find((s) => s.toLowerCase() === name);
      if (sub) this.#view = { kind: "sub", sub };
      else this.#openItem(name, clickable);
    }
    return { reward: 0, done: false };
  }

  /** A search (or another page of the last one): the session's product and options reset. */
  #search(keywords: string[], page: number): void {
    const s = this.#session;
    s.keywords = keywords;
    s.page = page;
    s.asin = null;
    s.options = {};
    const query = keywords.join(" ");
    if (this.#results?.query !== query) {
      const catalog = this.#requireCatalog();
      const engine = this.#options.search ?? searchIndexOf(catalog);
      // Like the reference, products the catalog lacks are left out.
      const asins = engine.search(query, SEARCH_RESULTS).filter((a) => catalog.byAsin.has(a));
      this.#results = { query, asins };
    }
    this.#view = { kind: "results" };
  }

  /** The item page: a product link opens the product, an option is chosen. */
  #openItem(name: string, clickable: Clickable): void {
    const s = this.#session;
    if (clickable.kind === "product") {
      s.asin = name.toUpperCase();
      s.asins.add(s.asin);
    } else if (clickable.kind === "option") {
      s.options[clickable.name.toLowerCase()] = name;
    }
    this.#view = { kind: "item" };
  }

  #buy(): { reward: number; done: boolean } {
    const product = this.#product();
    const { reward } = webshopReward(
      this.#goal!,
      product,
      { ...this.#session.options },
      product.price,
    );
    this.#reward = reward;
    this.#view = { kind: "done", reward };
    return { reward, done: true };
  }

  #product(): Product {
    const asin = this.#session.asin;
    const product = asin === null ? undefined : this.#requireCatalog().byAsin.get(asin);
    if (!product) throw new Error(`WebShop has no product "${asin}" open`);
    return product;
  }

  /** The page the current view shows. */
  #page(): Page {
    const goal = this.#goal;
    if (!goal) throw new Error("Cannot use WebShop before reset()");
    const instruction = goal.instruction_text;
    const view = this.#view;
    switch (view.kind) {
      case "search":
        return searchPage(instruction);
      case "results": {
        const page = this.#session.page ?? 1;
        const asins = this.#results?.asins ?? [];
        const shown = asins.slice((page - 1) * RESULTS_PER_PAGE, page * RESULTS_PER_PAGE);
        const byAsin = this.#requireCatalog().byAsin;
        return resultsPage(instruction, page, asins.length, shown.map((a) => byAsin.get(a)!));
      }
      case "item":
        return itemPage(instruction, this.#product(), this.#options.showAttributes ?? false);
      case "sub":
        return subPage(instruction, view.sub, this.#product());
      case "done":
        return donePage(this.#session.asin ?? "", this.#session.options, view.reward);
    }
  }

  #requireCatalog(): Catalog {
    if (!this.#catalog) throw new Error("Cannot use WebShop before reset()");
    return this.#catalog;
  }

  async #loadCatalog(): Promise<Catalog> {
    if (this.#catalog) return this.#catalog;
    const dir = this.#options.dataDir ?? defaultDataDir();
    let loading = catalogs.get(dir);
    if (!loading) {
      loading = loadCatalog(dir);
      catalogs.set(dir, loading);
      loading.catch(() => catalogs.delete(dir));
    }
    this.#catalog = await loading;
    return this.#catalog;
  }
}

function emptySession(): ShopSession {
  return { keywords: null, page: null, asin: null, asins: new Set(), options: {} };
}
