/**
 * The WebShop kit: the shop, its grounder and expert, and its task splits
 * (WebShop's convention: goals 0-499 test, 500-1,499 validation, the rest
 * training).
 *
 * @module
 */
import type { EnvironmentKit, TaskListRequest, TaskSpec } from "../../runtime/environment.ts";
import { rejectSelectors } from "../../runtime/eval/task_lists.ts";
import { WebShop } from "./shop.ts";
import { WebShopGrounder } from "./grounder.ts";
import { WebShopExpert } from "./expert.ts";
import { webshopVocabulary } from "./vocabulary.ts";

/** WebShop's splits of the goal list, as `[first, end)` goal indexes. */
export const WEBSHOP_SPLITS: Readonly<Record<string, readonly [number, number]>> = {
  test: [0, 500],
  validation: [500, 1500],
  train: [1500, 6910],
};

/** The training goal the library is induced from by default (see `demonstrationTasks`). */
export const WEBSHOP_DEMONSTRATION = 1511;

/** The `data` option: the folder of the catalog files. */
function dataOption(options: Record<string, unknown>): string | undefined {
  const { data } = options;
  if (data !== undefined && typeof data !== "string") {
    throw new TypeError(`WebShop option "data" must be a folder path, got ${typeof data}`);
  }
  return data;
}

function goalTasks(first: number, end: number, n?: number): TaskSpec[] {
  const count = Math.max(0, Math.min(n ?? end - first, end - first));
  return Array.from({ length: count }, (_, i) => ({
    id: `webshop/${first + i}`,
    seed: first + i,
  }));
}

/**
 * The kit. Tasks are goal indexes (`{ "seed": 17 }` or `{ "id":
 * "webshop/17" }`); `--split unseen` is WebShop's test split (goals 0-499),
 * `train` its training goals; `--n` takes the first n.
 */
export const webshopKit: EnvironmentKit = {
  name: "webshop",
  vocabulary: webshopVocabulary,
  create(options: Record<string, unknown> = {}): WebShop {
    const data = dataOption(options);
    return new WebShop({ vocabulary: webshopVocabulary, ...(data ? { dataDir: data } : {}) });
  },
  grounder(): WebShopGrounder {
    return new WebShopGrounder();
  },
  expert(): WebShopExpert {
    return new WebShopExpert();
  },
  tasks(options: Record<string, unknown> = {}): TaskSpec[] {
    const { split = "test", ...rest } = options;
    rejectSelectors("WebShop", rest, "split");
    const name = split === "unseen" ? "test" : String(split);
    const range = WEBSHOP_SPLITS[name];
    if (!range) {
      throw new RangeError(
        `WebShop has no split "${name}"; its splits: ${Object.keys(WEBSHOP_SPLITS).join(", ")}`,
      );
    }
    return goalTasks(range[0], range[1]);
  },
  /** `unseen` is WebShop's test split (goals 0-499), `train` its training goals (1,500 on). */
  taskList(request: TaskListRequest): TaskSpec[] {
    const { split, n, seed: _seed, ...rest } = request;
    rejectSelectors("WebShop", rest, "only the split and the number of tasks");
    const [first, end] = WEBSHOP_SPLITS[split === "unseen" ? "test" : "train"];
    return goalTasks(first, end, n);
  },
  checkTaskSpec(value: unknown): string | undefined {
    if (typeof value !== "object" || value === null) return "expected an object";
    const { seed, id } = value as { seed?: unknown; id?: unknown };
    if (typeof seed === "number" && Number.isInteger(seed) && seed >= 0) return undefined;
    if (typeof id === "string" && /^(?:webshop\/)?[0-9]+$/.test(id)) return undefined;
    return 'expected {"seed": <goal index>} or {"id": "webshop/<goal index>"}';
  },
  /**
   * `count` training goals from goal 1,511 on (default 1: the paper induces
   * from a single successful purchase). Goal 1,511 is the first training
   * goal whose purchase shows the check on a product's page both ways, as
   * the grounder reads the pages: the shopper leaves two products that lack
   * an option asked for and buys the third, which has them all
   * (`tests/environments/webshop_data_test.ts`); earlier demonstrations
   * leave none, or leave products whose pages have everything the
   * instruction names (their attributes fall short of the reward), which
   * the facts cannot explain.
   */
  demonstrationTasks(count = 1): TaskSpec[] {
    return goalTasks(WEBSHOP_DEMONSTRATION, WEBSHOP_SPLITS.train[1], count);
  },
  options: {
    data: {
      type: "string",
      doc:
        "the folder of the catalog files (default ../shared/data/webshop, or $SKILLC_WEBSHOP_DATA)",
    },
  },
  defaults: { maxActions: 15 },
  // AgentGym's WebShop server speaks the env_idx form of the env-server protocol.
  remoteProtocol: "env_idx",
  benchmark: {
    policy: true,
    dataOptions: { data: "webshop" },
    demonstrations: 1,
    demo: { demonstrations: 1, tasks: 50, taskText: "test goals from goal 0 on" },
    demonstrationText: "training goal 1,511 (one purchase, the paper's setting)",
    taskText: "the 500 test goals (0-499)",
  },
  successReward: 1,
};
