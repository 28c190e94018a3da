// A small shop of our own for the WebShop tests, written to a temporary data
// folder (the four files of the benchmark's data folder): shirts and mugs,
// goals asking for 0 to 3 options.

import type { EnvironmentKit } from "../../runtime/environment.ts";
import type { CompiledLibrary } from "../../compiler/compile.ts";
import { type AgentResult, runAgent } from "../../runtime/agent/mod.ts";
import { drainAgent } from "../runtime/_agent_fixtures.ts";

interface RawProduct {
  asin: string;
  name: string;
  pricing: string;
  options: Record<string, string[]>;
}

const PRODUCTS: RawProduct[] = [
  { asin: "B00SHIRT01", name: "Cotton T-Shirt for Men", pricing: "$15.00", options: {} },
  {
    asin: "B00SHIRT02",
    name: "Classic Cotton T-Shirt for Men",
    pricing: "$18.00",
    options: { color: ["black", "navy"], size: ["medium", "large"] },
  },
  {
    asin: "B00SHIRT03",
    name: "Slim Fit Men's T-Shirt",
    pricing: "$12.00",
    options: { color: ["white", "grey"], size: ["small", "large"], "fit type": ["men", "women"] },
  },
  { asin: "B00MUG0001", name: "Ceramic Coffee Mug", pricing: "$9.00", options: {} },
  {
    asin: "B00MUG0002",
    name: "Travel Coffee Mug",
    pricing: "$14.00",
    options: { color: ["red", "blue"] },
  },
];

function goal(index: number, asin: string, text: string, options: Record<string, string>) {
  const p = PRODUCTS.find((x) => x.asin === asin)!;
  return {
    index,
    asin,
    category: "fashion",
    query: "shirts",
    name: p.name,
    product_category: "Clothing › Men › Shirts",
    instruction_text: text,
    attributes: [],
    price_upper: 30,
    goal_options: options,
    weight: 1,
  };
}

export const GOALS = [
  // The demonstration: the first result lacks the options, the second has them.
  goal(
    0,
    "B00SHIRT02",
    "Find me a cotton t-shirt for men with color: navy, and size: large, and price lower than 30.00 dollars",
    { color: "navy", size: "large" },
  ),
  goal(
    1,
    "B00SHIRT03",
    "Find me a slim fit men's t-shirt with color: grey, and size: small, and fit type: women, and price lower than 30.00 dollars",
    { color: "grey", size: "small", "fit type": "women" },
  ),
  goal(2, "B00MUG0001", "Find me a ceramic coffee mug, and price lower than 30.00 dollars", {}),
  goal(
    3,
    "B00MUG0002",
    "Find me a travel coffee mug with color: blue, and price lower than 30.00 dollars",
    { color: "blue" },
  ),
];

/** Writes the shop to a new temporary folder and returns its path. */
export async function shopFolder(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "webshop_kit_test_" });
  const products = PRODUCTS.map((p) =>
    JSON.stringify({
      ...p,
      category: "fashion",
      query: "shirts",
      product_category: "Clothing",
      description: `${p.name}.`,
      bullets: [p.name],
      rating: "",
    })
  );
  await Deno.writeTextFile(`${dir}/items_shuffle_1000.jsonl`, products.join("\n") + "\n");
  await Deno.writeTextFile(`${dir}/items_ins_v2_1000.json`, "{}");
  await Deno.writeTextFile(
    `${dir}/product_prices.json`,
    JSON.stringify(Object.fromEntries(PRODUCTS.map((p) => [p.asin, Number(p.pricing.slice(1))]))),
  );
  await Deno.writeTextFile(
    `${dir}/goals.jsonl`,
    GOALS.map((g) => JSON.stringify(g)).join("\n") + "\n",
  );
  return dir;
}

/** The agent's episode with a compiled library on goal `seed` of the shop in `data` (15 actions). */
export async function playGoal(
  kit: EnvironmentKit,
  data: string,
  compiled: CompiledLibrary,
  seed: number,
): Promise<AgentResult> {
  const { result } = await drainAgent(runAgent({
    env: kit.create({ data }),
    kit,
    library: compiled.library,
    templates: compiled.templates,
    actionModel: compiled.actionModel,
    task: { seed },
    maxActions: 15,
  }));
  return result;
}
