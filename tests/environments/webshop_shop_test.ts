// The WebShop text shop: pages compared with the texts WebShop's text
// environment ("text" mode) gives for the same small synthetic catalog, the
// answers to invalid actions, a full episode ending with the reward, then
// one episode on the real catalog (skipped when the WebShop data folder is
// missing).
import assert from "node:assert/strict";
import type { Catalog, Goal, Product } from "../../environments/webshop/catalog.ts";
import { webshopReward } from "../../environments/webshop/reward.ts";
import { webshopDataTest } from "./_webshop_data.ts";
import { parseAction, type ProductSearch, WebShop } from "../../environments/webshop/shop.ts";
import {
  donePage,
  optionsJson,
  pageText,
  priceTag,
  pythonFloat,
} from "../../environments/webshop/pages.ts";

const CATEGORY =
  "Home & Kitchen › Kitchen & Dining › Dinnerware & Serveware › Cups, Mugs & Saucers › Mugs";

function product(asin: string, name: string, extra: Partial<Product> = {}): Product {
  return {
    asin,
    name,
    pricingText: "",
    pricing: [],
    price: 100,
    options: {},
    category: "garden",
    query: "travel mugs",
    product_category: CATEGORY,
    description: "",
    bullets: [],
    rating: null,
    attributes: ["DUMMY_ATTR"],
    ...extra,
  };
}

/** A red mug with options, eleven travel mugs (two results pages) and a kettle. */
function syntheticCatalog(): Catalog {
  const products: Product[] = [
    product("B000MUG001", "Ceramic Coffee Mug, Red & White", {
      pricingText: "$12.99",
      pricing: [12.99],
      price: 12.99,
      options: { color: ["red", "blue | white"], size: ["12 oz", "16 oz"] },
      query: "coffee mugs",
      description: "A sturdy stoneware mug.",
      bullets: ["Dishwasher safe", "Holds 12 oz"],
      attributes: ["dishwasher safe"],
    }),
  ];
  for (let i = 2; i <= 12; i++) {
    const id = `B000MUG${String(i).padStart(3, "0")}`;
    products.push(
      product(id, `Travel Mug ${i}`, i % 2 ? { pricing: [i, i + 0.5], price: i } : {}),
    );
  }
  products.push(product("B000KETTLE", "Electric Kettle", {
    pricing: [30],
    price: 30,
    query: "kettles",
    bullets: [""],
  }));
  const goal: Goal = {
    index: 0,
    instruction_text: INSTRUCTION,
    attributes: ["dishwasher safe"],
    goal_options: { color: "red", size: "12 oz" },
    price_upper: 20,
    weight: 1,
    asin: "B000MUG001",
    name: "Ceramic Coffee Mug, Red & White",
    query: "coffee mugs",
    category: "garden",
    product_category: CATEGORY,
  };
  return { products, goals: [goal], byAsin: new Map(products.map((p) => [p.asin, p])) };
}

const INSTRUCTION =
  "i need a red ceramic coffee mug that is dishwasher safe with size: 12 oz, and price lower than 20.00 dollars";

/** Products whose title holds a query word, in catalog order: keeps the pages independent of BM25. */
function wordSearch(catalog: Catalog): ProductSearch {
  return {
    search: (query, k) => {
      const words = query.toLowerCase().split(" ").filter((w) => w !== "");
      return catalog.products
        .filter((p) => words.some((w) => p.name.toLowerCase().includes(w)))
        .slice(0, k)
        .map((p) => p.asin);
    },
  };
}

function newShop(): WebShop {
  const catalog = syntheticCatalog();
  return new WebShop({ catalog, search: wordSearch(catalog) });
}

// The texts below are the reference's pages for this catalog, written from
// its templates as WebAgentTextEnv(observation_mode="text") renders them.
const HEAD = `Instruction: [SEP] ${INSTRUCTION} [SEP] Back to Search`;
const SEARCH_PAGE = `WebShop [SEP] Instruction: [SEP] ${INSTRUCTION} [SEP] Search`;
const RESULTS_1 = `${HEAD} [SEP] Page 1 (Total results: 12) [SEP] Next > [SEP] ` +
  "B000MUG001 [SEP] Ceramic Coffee Mug, Red & White [SEP] $12.99 [SEP] " +
  "B000MUG002 [SEP] Travel Mug 2 [SEP] $100.0 [SEP] B000MUG003 [SEP] Travel Mug 3 [SEP] $3.0 to $3.5 [SEP] " +
  "B000MUG004 [SEP] Travel Mug 4 [SEP] $100.0 [SEP] B000MUG005 [SEP] Travel Mug 5 [SEP] $5.0 to $5.5 [SEP] " +
  "B000MUG006 [SEP] Travel Mug 6 [SEP] $100.0 [SEP] B000MUG007 [SEP] Travel Mug 7 [SEP] $7.0 to $7.5 [SEP] " +
  "B000MUG008 [SEP] Travel Mug 8 [SEP] $100.0 [SEP] B000MUG009 [SEP] Travel Mug 9 [SEP] $9.0 to $9.5 [SEP] " +
  "B000MUG010 [SEP] Travel Mug 10 [SEP] $100.0";
const RESULTS_2 = `${HEAD} [SEP] Page 2 (Total results: 12) [SEP] < Prev [SEP] Next > [SEP] ` +
  "B000MUG011 [SEP] Travel Mug 11 [SEP] $11.0 to $11.5 [SEP] B000MUG012 [SEP] Travel Mug 12 [SEP] $100.0";
const ITEM =
  `${HEAD} [SEP] < Prev [SEP] color [SEP] red [SEP] blue | white [SEP] size [SEP] 12 oz ` +
  "[SEP] 16 oz [SEP] Ceramic Coffee Mug, Red & White [SEP] Price: $12.99 [SEP] Rating: N.A. " +
  "[SEP] Description [SEP] Features [SEP] Reviews [SEP] Buy Now";
const DESCRIPTION = `${HEAD} [SEP] < Prev [SEP] A sturdy stoneware mug.`;
const FEATURES = `${HEAD} [SEP] < Prev [SEP] Dishwasher safe [SEP] Holds 12 oz`;
const REVIEWS = `${HEAD} [SEP] < Prev`;
const ITEM_CLICKABLES = [
  "back to search",
  "< prev",
  "description",
  "features",
  "reviews",
  "buy now",
  "red",
  "blue | white",
  "12 oz",
  "16 oz",
];
const done = (options: string, reward: string) =>
  "Thank you for shopping with us! [SEP] Your code: [SEP] None [SEP] (Paste it in your MTurk interface.) " +
  `[SEP] Purchased [SEP] asin [SEP] B000MUG001 [SEP] options [SEP] ${options} [SEP] attrs [SEP] None ` +
  "[SEP] category [SEP] None [SEP] query [SEP] None [SEP] product category [SEP] None [SEP] Target " +
  "[SEP] asin [SEP] options [SEP] attrs [SEP] price upper [SEP] instuction text [SEP] category " +
  "[SEP] product category [SEP] query [SEP] Goal [SEP] None [SEP] Reward " +
  `[SEP] Your score (min 0.0, max 1.0) [SEP] ${reward} [SEP] Reward Details [SEP] None`;

Deno.test("reset() shows the search page; the goal is the instruction text", async () => {
  const shop = newShop();
  const start = await shop.reset({ seed: 0 });
  assert.deepEqual(start, {
    observation: SEARCH_PAGE,
    goal: INSTRUCTION,
    taskId: "webshop/0",
    taskType: "purchase",
  });
  assert.deepEqual(shop.availableActions(), { hasSearchBar: true, clickables: ["search"] });
  assert.deepEqual(await shop.admissibleActions(), []);
  assert.equal((await shop.reset({ id: "webshop/0" })).taskId, "webshop/0");
  assert.equal((await shop.reset({ id: "0" })).observation, SEARCH_PAGE);
});

Deno.test("search[...] lists 10 results a page; Next > and < Prev page through them", async () => {
  const shop = newShop();
  await shop.reset({ seed: 0 });
  assert.deepEqual(await shop.step("search[Red Mug]"), {
    observation: RESULTS_1,
    reward: 0,
    done: false,
  });
  assert.deepEqual(shop.availableActions().clickables, [
    "back to search",
    "next >",
    ...Array.from({ length: 10 }, (_, i) => `b000mug${String(i + 1).padStart(3, "0")}`),
  ]);
  assert.equal((await shop.step("click[Next >]")).observation, RESULTS_2);
  assert.deepEqual(shop.availableActions().clickables, [
    "back to search",
    "< prev",
    "next >",
    "b000mug011",
    "b000mug012",
  ]);
  // Next > shows on every page, past the last result too.
  assert.equal(
    (await shop.step("click[next >]")).observation,
    `${HEAD} [SEP] Page 3 (Total results: 12) [SEP] < Prev [SEP] Next >`,
  );
  await shop.step("click[< prev]");
  assert.equal((await shop.step("click[< prev]")).observation, RESULTS_1);
});

Deno.test("the item page, its sub-pages and < Prev back to the item and the results", async () => {
  const shop = newShop();
  await shop.reset({ seed: 0 });
  await shop.step("search[mug]");
  assert.equal((await shop.step("click[B000MUG001]")).observation, ITEM);
  assert.deepEqual(shop.availableActions(), { hasSearchBar: false, clickables: ITEM_CLICKABLES });
  assert.deepEqual(
    await shop.admissibleActions(),
    ITEM_CLICKABLES.map((c) => `click[${c}]`),
  );
  // Choosing an option changes nothing the text shows.
  assert.equal((await shop.step("click[red]")).observation, ITEM);
  assert.deepEqual(shop.session.options, { color: "red" });
  assert.equal((await shop.step("click[Description]")).observation, DESCRIPTION);
  assert.deepEqual(shop.availableActions().clickables, ["back to search", "< prev"]);
  assert.equal((await shop.step("click[< prev]")).observation, ITEM);
  assert.deepEqual(shop.session.options, { color: "red" }, "the sub-page keeps the options");
  assert.equal((await shop.step("click[features]")).observation, FEATURES);
  await shop.step("click[< prev]");
  assert.equal((await shop.step("click[reviews]")).observation, REVIEWS);
  await shop.step("click[< prev]");
  assert.equal((await shop.step("click[< prev]")).observation, RESULTS_1);
  assert.deepEqual(shop.session.options, {}, "back on the results, the options are cleared");
  assert.deepEqual(shop.view, { kind: "results" });
});

Deno.test("an empty bullet is an empty entry and an item without options lists none", async () => {
  const shop = newShop();
  await shop.reset({ seed: 0 });
  await shop.step("search[kettle]");
  const item = await shop.step("click[b000kettle]");
  assert.equal(
    item.observation,
    `${HEAD} [SEP] < Prev [SEP] Electric Kettle [SEP] Price: $30.0 [SEP] Rating: N.A. ` +
      "[SEP] Description [SEP] Features [SEP] Reviews [SEP] Buy Now",
  );
  assert.equal((await shop.step("click[features]")).observation, `${HEAD} [SEP] < Prev [SEP] `);
  // The sub-page offers no other sub-page: the click is ignored.
  assert.equal((await shop.step("click[description]")).observation, `${HEAD} [SEP] < Prev [SEP] `);
  await shop.step("click[< prev]");
  // An empty description is no entry at all.
  assert.equal((await shop.step("click[description]")).observation, `${HEAD} [SEP] < Prev`);
});

Deno.test("invalid actions leave the page as it was, reward 0, not done, and never throw", async () => {
  const shop = newShop();
  await shop.reset({ seed: 0 });
  const same = { observation: SEARCH_PAGE, reward: 0, done: false };
  for (
    const action of ["search[]", "click[search]", "click[nothing there]", "buy", "", "click[]"]
  ) {
    assert.deepEqual(await shop.step(action), same, action);
  }
  await shop.step("search[mug]");
  const results = { observation: RESULTS_1, reward: 0, done: false };
  // < Prev is not on page 1, Buy Now not on a results page, options not either.
  for (const action of ["click[< prev]", "click[buy now]", "click[red]", "click[description]"]) {
    assert.deepEqual(await shop.step(action), results, action);
  }
  await shop.step("click[b000mug001]");
  const item = { observation: ITEM, reward: 0, done: false };
  for (const action of ["click[b000mug002]", "click[next >]", "click[green]", "search[]"]) {
    assert.deepEqual(await shop.step(action), item, action);
  }
  assert.deepEqual(shop.view, { kind: "item" });
});

Deno.test("a search works from any page, as in the reference", async () => {
  const shop = newShop();
  await shop.reset({ seed: 0 });
  await shop.step("search[mug]");
  await shop.step("click[b000mug001]");
  assert.equal(shop.availableActions().hasSearchBar, false);
  assert.equal(
    (await shop.step("search[Kettle]")).observation,
    `${HEAD} [SEP] Page 1 (Total results: 1) [SEP] Next > [SEP] B000KETTLE [SEP] Electric Kettle [SEP] $30.0`,
  );
  assert.deepEqual(shop.session.keywords, ["kettle"]);
});

Deno.test("a full episode: search, open the product, choose options, Buy Now ends with the reward", async () => {
  const shop = newShop();
  const catalog = shop.catalog!;
  await shop.reset({ seed: 0 });
  await shop.step("search[red ceramic coffee mug]");
  await shop.step("click[B000MUG001]");
  await shop.step("click[red]");
  await shop.step("click[12 oz]");
  const end = await shop.step("click[Buy Now]");
  const expected = webshopReward(
    catalog.goals[0],
    catalog.byAsin.get("B000MUG001")!,
    { color: "red", size: "12 oz" },
    12.99,
  ).reward;
  assert.equal(expected, 1);
  assert.deepEqual(end, {
    observation: done('{"color": "red", "size": "12 oz"}', "1.0"),
    reward: 1,
    done: true,
  });
  assert.equal(shop.progressRate, 1);
  assert.deepEqual(shop.availableActions(), { hasSearchBar: false, clickables: [] });
  assert.deepEqual(await shop.step("click[buy now]"), { ...end, reward: 0, done: false });
});

Deno.test("Back to Search forgets the options; buying without them scores less", async () => {
  const shop = newShop();
  await shop.reset({ seed: 0 });
  await shop.step("search[mug]");
  await shop.step("click[b000mug001]");
  await shop.step("click[blue | white]");
  assert.equal((await shop.step("click[Back to Search]")).observation, SEARCH_PAGE);
  assert.deepEqual(shop.session, {
    keywords: null,
    page: null,
    asin: null,
    asins: new Set(),
    options: {},
  });
  await shop.step("search[mug]");
  await shop.step("click[b000mug001]");
  const end = await shop.step("click[buy now]");
  assert.equal(end.reward, 0.5); // attribute and price, no option: 2 of 4
  assert.equal(end.observation, done("{}", "0.5"));
});

Deno.test("reset() rejects an unknown goal or a malformed task; step() before reset() rejects", async () => {
  const shop = newShop();
  await assert.rejects(() => shop.step("search[mug]"), /before reset/);
  await assert.rejects(() => shop.reset({ seed: 1 }), RangeError);
  await assert.rejects(() => shop.reset({ id: "mug" }), TypeError);
  await assert.rejects(() => shop.reset({}), TypeError);
});

Deno.test("parseAction() reads name[argument] as the reference does", () => {
  assert.deepEqual(parseAction("click[Buy Now]"), ["click", "Buy Now"]);
  assert.deepEqual(parseAction("search[]"), ["search[]", undefined]);
  assert.deepEqual(parseAction("search[a [b] c]"), ["search[a ", "b] c"]);
  assert.deepEqual(parseAction("click[x] and more"), ["click", "x"]);
  assert.deepEqual(parseAction("click[x"), ["click[x", undefined]);
});

Deno.test("Python's number and JSON texts: prices, rewards and the chosen options", () => {
  assert.equal(priceTag([]), "$100.0");
  assert.equal(priceTag([877.8]), "$877.8");
  assert.equal(priceTag([10, 15.99]), "$10.0 to $15.99");
  assert.deepEqual(
    [2 / 3, 1, 0, 1.5e-5, 1e16, 0.0001].map(pythonFloat),
    ["0.6666666666666666", "1.0", "0.0", "1.5e-05", "1e+16", "0.0001"],
  );
  assert.equal(
    optionsJson({ size: "men's <x> & café", color: "red" }),
    '{"color": "red", "size": "men\\u0027s \\u003cx\\u003e \\u0026 caf\\u00e9"}',
  );
  assert.match(pageText(donePage("B1", {}, 0.25)), /\[SEP\] 0\.25 \[SEP\] Reward Details/);
});

webshopDataTest(
  "on the real catalog, goal 0's product is found, bought with its options, and scored",
  async (catalog) => {
    const shop = new WebShop({ catalog });
    const goal = catalog.goals[0];
    const start = await shop.reset({ seed: 0 });
    assert.equal(
      start.observation,
      `WebShop [SEP] Instruction: [SEP] ${goal.instruction_text} [SEP] Search`,
    );
    const target = catalog.byAsin.get(goal.asin)!;
    const results = await shop.step(`search[${target.name}]`);
    assert.match(results.observation, /\[SEP\] Page 1 \(Total results: \d+\) \[SEP\] Next >/);
    assert.ok(
      shop.availableActions().clickables.includes(goal.asin.toLowerCase()),
      results.observation,
    );
    const item = await shop.step(`click[${goal.asin}]`);
    assert.ok(
      item.observation.includes(`[SEP] ${target.name.trim()} [SEP] Price: `),
      item.observation,
    );
    for (const value of Object.values(goal.goal_options)) await shop.step(`click[${value}]`);
    const end = await shop.step("click[buy now]");
    assert.equal(end.done, true);
    const { reward } = webshopReward(goal, target, shop.session.options, target.price);
    assert.equal(end.reward, reward);
    assert.ok(end.reward > 0.5, `reward ${end.reward}`);
    assert.ok(end.observation.startsWith("Thank you for shopping with us! [SEP] "));
    assert.ok(
      end.observation.includes(` [SEP] ${pythonFloat(reward)} [SEP] Reward Details [SEP] None`),
    );
  },
);
