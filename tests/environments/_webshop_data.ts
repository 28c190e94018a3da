// The WebShop tests' access to the real catalog: `webshopDataTest` runs a
// test with the catalog (loaded once per process), or ignores it, naming
// the folder, when the data is missing (unless SKILLC_REQUIRE_DATA=1, as CI
// sets it, which makes it fail instead).
import {
  type Catalog,
  defaultDataDir,
  loadCatalog,
  WEBSHOP_DATA_ENV,
} from "../../environments/webshop/catalog.ts";

/** The WebShop data folder the tests read. */
export const WEBSHOP_DATA_DIR: string = defaultDataDir();

const HAS_DATA = (() => {
  try {
    return Deno.statSync(`${WEBSHOP_DATA_DIR}/goals.jsonl`).isFile;
  } catch {
    return false;
  }
})();
const SKIP = !HAS_DATA && Deno.env.get("SKILLC_REQUIRE_DATA") !== "1";

let loaded: Promise<Catalog> | undefined;

/** A test on the real catalog: ignored, naming the folder, when it is missing. */
export function webshopDataTest(
  name: string,
  fn: (catalog: Catalog) => void | Promise<void>,
): void {
  Deno.test({
    name: SKIP
      ? `${name} (needs the WebShop data in ${WEBSHOP_DATA_DIR}, or set ${WEBSHOP_DATA_ENV})`
      : name,
    ignore: SKIP,
    fn: async () => fn(await (loaded ??= loadCatalog(WEBSHOP_DATA_DIR))),
  });
}
