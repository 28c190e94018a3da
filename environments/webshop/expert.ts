/**
 * The WebShop expert, a shopper with privileged access to the goal: it
 * searches for the instruction and opens the results in the shop's order,
 * skipping those priced over the budget; on each product's page it knows
 * (from the goal and WebShop's reward) whether buying it with the options
 * asked for earns the full reward: then it chooses them and buys, else it
 * goes back to the results. Past the first page it goes to the goal's own
 * product, searching for its title when the instruction's search does not
 * list it. Its demonstrations therefore show both outcomes of the check
 * on a product's page.
 *
 * @module
 */
import type { Environment, Expert, TaskSpec } from "../../runtime/environment.ts";
import type { Trace } from "../../dsl/trace.ts";
import { playExpert } from "../../runtime/eval/expert_traces.ts";
import { BUY_NOW, NEXT_PAGE, PREV_PAGE, RESULTS_PER_PAGE } from "./pages.ts";
import { SEARCH_RESULTS, WebShop } from "./shop.ts";
import type { Catalog, Goal, Product } from "./catalog.ts";
import { webshopReward } from "./reward.ts";

/**
 * The expert.
 *
 * @example Usage
 * ```ts ignore
 * const trace = await new WebShopExpert().solve(new WebShop(), { seed: 0 });
 * console.log(trace.steps.at(-1)?.reward); // 1
 * ```
 */
export class WebShopExpert implements Expert {
  /**
   * Solves the task and returns the recorded trace.
   *
   * @throws {TypeError} When `env` is not the WebShop simulator.
   */
  async solve(env: Environment, task: TaskSpec): Promise<Trace> {
    if (!(env instanceof WebShop)) {
      throw new TypeError(`The WebShop expert needs the WebShop simulator, got "${env.name}"`);
    }
    const reset = await env.reset(task);
    const goal = env.goal!;
    const product = env.catalog!.byAsin.get(goal.asin);
    if (!product) throw new Error(`WebShop goal ${env.goalIndex} names no product of the catalog`);
    return await playExpert(env, reset, purchase(env, env.catalog!, goal, product), {
      ...(task.seed !== undefined ? { seed: task.seed } : {}),
    });
  }
}

/** The expert's actions, read off the shop as it goes. */
function* purchase(
  shop: WebShop,
  catalog: Catalog,
  goal: Readonly<Goal>,
  product: Product,
): Generator<string> {
  yield `search[${goal.instruction_text}]`;
  // The first page, in the shop's order: open what is within budget, buy what earns it all.
  const listed = shop.availableActions().clickables;
  for (const asin of listed) {
    const candidate = catalog.byAsin.get(asin.toUpperCase());
    if (!candidate || (candidate.pricing[0] ?? Infinity) > goal.price_upper) continue;
    yield `click[${candidate.asin}]`;
    const options = chosenOptions(candidate, goal);
    if (webshopReward(goal, candidate, options, candidate.price).reward >= 1) {
      yield* choose(options);
      return;
    }
    yield `click[${PREV_PAGE}]`;
  }
  // Else the goal's own product, on a later page or found by its title.
  const target = product.asin.toLowerCase();
  const shown = () => shop.availableActions().clickables.includes(target);
  for (const [i, words] of [goal.instruction_text, product.name].entries()) {
    if (i > 0) yield `search[${words}]`;
    for (let page = 1; !shown() && page < SEARCH_RESULTS / RESULTS_PER_PAGE; page++) {
      yield `click[${NEXT_PAGE}]`;
    }
    if (shown()) break;
    yield "click[Back to Search]";
  }
  yield `click[${product.asin}]`;
  yield* choose(chosenOptions(product, goal));
}

/** Clicks the option values and buys. */
function* choose(options: Record<string, string>): Generator<string> {
  for (const value of Object.values(options)) yield `click[${value}]`;
  yield `click[${BUY_NOW}]`;
}

/** The product's values of the goal's options (name -> its own spelling), those it offers. */
function chosenOptions(product: Product, goal: Readonly<Goal>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(goal.goal_options)) {
    const spelled = optionValue(product, name, value);
    if (spelled !== undefined) out[name] = spelled;
  }
  return out;
}

/** The product's own spelling of a goal option value, if it offers it. */
function optionValue(product: Product, name: string, value: string): string | undefined {
  const values = Object.entries(product.options).find(([n]) => n.toLowerCase() === name)?.[1] ??
    Object.values(product.options).flat();
  return values.find((v) => v.toLowerCase() === value.toLowerCase());
}
