/**
 * WebShop: the 1,000-product shop of the WebShop benchmark as a text
 * environment (its pages, actions, search and reward), its vocabulary, a
 * symbolic grounder, an expert that produces demonstrations, and the kit.
 *
 * @module
 */
export { WEBSHOP_SPLITS, webshopKit } from "./kit.ts";
export { webshopVocabulary } from "./vocabulary.ts";
export { WebShopGrounder } from "./grounder.ts";
export { WebShopExpert } from "./expert.ts";
export {
  parseAction,
  SEARCH_RESULTS,
  WebShop,
  WEBSHOP_TASK_TYPE,
  type WebShopOptions,
} from "./shop.ts";
export { type Instruction, readInstruction } from "./instruction.ts";
export {
  type Catalog,
  defaultDataDir,
  type Goal,
  loadCatalog,
  type Product,
  WEBSHOP_DATA_ENV,
} from "./catalog.ts";
export { SearchIndex } from "./search.ts";
export { type WebShopReward, webshopReward } from "./reward.ts";
