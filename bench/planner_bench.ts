/**
 * Times the PDDL expert's planner on the generalised-planning benchmark
 * (`/work/shared/data/genplan`, both suites): every problem is planned,
 * the plan replayed with `world.holds` / `world.apply` and checked with
 * `world.satisfied`. Prints per domain the problems, those solved with a
 * valid plan, the total plan length, the seconds spent planning and the
 * peak resident memory.
 *
 * With `--old`, the planner as it was before its rewrite (`_old_plan.ts`)
 * runs too, in a worker stopped after `--timeout` seconds per problem, and
 * the table adds its results and the speed ratio on the problems both
 * solve.
 *
 * ```sh
 * deno run -A bench/planner_bench.ts [--old] [--timeout=10] [--set=test|train|all] [--domain=gripper] [--verbose]
 * ```
 *
 * @module
 */
import { planPddl } from "../environments/pddl/plan.ts";
import { domains, loadDomain, loadWorld, problemFiles, validPlan } from "./_genplan.ts";

const args = new Map(Deno.args.map((a) => {
  const [k, v] = a.replace(/^--/, "").split("=");
  return [k, v ?? "true"] as const;
}));
const old = args.has("old");
const timeout = Number(args.get("timeout") ?? 10);
const sets = (args.get("set") ?? "all") === "all" ? ["train", "test"] : [args.get("set")!];
const only = args.get("domain");
const verbose = args.has("verbose");

interface Run {
  solved: boolean;
  length: number;
  seconds: number;
}

/** The old planner in a worker, restarted when it overruns. */
class OldPlanner {
  #worker?: Worker;
  async run(domain: string, file: string): Promise<Run | "timeout"> {
    this.#worker ??= new Worker(new URL("./_old_plan_worker.ts", import.meta.url), {
      type: "module",
    });
    const worker = this.#worker;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const result = await Promise.race([
      new Promise<Run>((resolve) => {
        worker.onmessage = (e) =>
          resolve({ solved: e.data.valid, length: e.data.length ?? 0, seconds: e.data.seconds });
        worker.onerror = (e) => {
          e.preventDefault();
          resolve({ solved: false, length: 0, seconds: 0 });
        };
        worker.postMessage({ domain, file });
      }),
      new Promise<"timeout">((resolve) =>
        timer = setTimeout(() => resolve("timeout"), timeout * 1000)
      ),
    ]);
    clearTimeout(timer);
    if (result === "timeout") {
      worker.terminate();
      this.#worker = undefined;
    }
    return result;
  }
  stop() {
    this.#worker?.terminate();
  }
}

const oldPlanner = old ? new OldPlanner() : undefined;
let peak = 0;
const rows: string[][] = [];
const total = {
  problems: 0,
  solved: 0,
  length: 0,
  seconds: 0,
  oldSolved: 0,
  both: 0,
  newBoth: 0,
  oldBoth: 0,
};
for (const domain of domains().filter((d) => !only || d.includes(only))) {
  const parsed = loadDomain(domain);
  const row = {
    problems: 0,
    solved: 0,
    length: 0,
    seconds: 0,
    max: 0,
    oldSolved: 0,
    oldInvalid: 0,
    oldTimeouts: 0,
    newBoth: 0,
    oldBoth: 0,
  };
  for (const set of sets) {
    for (const file of problemFiles(domain, set)) {
      const world = loadWorld(parsed, file);
      const t0 = performance.now();
      const plan = planPddl(world);
      const seconds = (performance.now() - t0) / 1000;
      const solved = plan !== undefined && validPlan(world, plan);
      peak = Math.max(peak, Deno.memoryUsage().rss);
      row.problems++;
      row.seconds += seconds;
      row.max = Math.max(row.max, seconds);
      if (solved) {
        row.solved++;
        row.length += plan.length;
      } else console.error(`${domain}/${set}/${file.split("/").pop()}: not solved`);
      let oldText = "";
      if (oldPlanner) {
        const o = await oldPlanner.run(domain, file);
        if (o === "timeout") row.oldTimeouts++;
        else if (o.solved) {
          row.oldSolved++;
          if (solved) {
            row.newBoth += seconds;
            row.oldBoth += o.seconds;
          }
        } else if (o.length > 0) row.oldInvalid++;
        oldText = o === "timeout"
          ? " old: timeout"
          : ` old: ${o.solved ? o.length : o.length > 0 ? "invalid" : "none"} ${
            o.seconds.toFixed(3)
          }s`;
      }
      if (verbose) {
        console.log(
          `${domain}/${set}/${file.split("/").pop()}: ${solved ? plan.length : "-"} ${
            seconds.toFixed(3)
          }s${oldText}`,
        );
      }
    }
  }
  const mb = (peak / 2 ** 20).toFixed(0);
  const cells = [
    domain,
    `${row.problems}`,
    `${row.solved}`,
    `${row.length}`,
    row.seconds.toFixed(2),
    row.max.toFixed(2),
    mb,
  ];
  if (old) {
    cells.push(
      `${row.oldSolved}${row.oldInvalid ? ` (${row.oldInvalid} invalid)` : ""}${
        row.oldTimeouts ? ` (${row.oldTimeouts} timeouts)` : ""
      }`,
      row.oldBoth.toFixed(2),
      row.newBoth.toFixed(2),
      row.newBoth > 0 ? `${(row.oldBoth / row.newBoth).toFixed(0)}x` : "-",
    );
  }
  rows.push(cells);
  console.log(cells.join(" | "));
  total.problems += row.problems;
  total.solved += row.solved;
  total.length += row.length;
  total.seconds += row.seconds;
  total.oldSolved += row.oldSolved;
  total.newBoth += row.newBoth;
  total.oldBoth += row.oldBoth;
}
oldPlanner?.stop();

const header = ["domain", "problems", "solved", "plan length", "seconds", "max s", "peak RSS MB"];
if (old) header.push(`old solved (≤${timeout}s)`, "old s (both)", "new s (both)", "speed-up");
const totals = [
  "total",
  `${total.problems}`,
  `${total.solved}`,
  `${total.length}`,
  total.seconds.toFixed(2),
  "",
  (peak / 2 ** 20).toFixed(0),
];
if (old) {
  totals.push(
    `${total.oldSolved}`,
    total.oldBoth.toFixed(2),
    total.newBoth.toFixed(2),
    total.newBoth > 0 ? `${(total.oldBoth / total.newBoth).toFixed(0)}x` : "-",
  );
}
console.log(`\nsets: ${sets.join(", ")}\n`);
for (const r of [header, header.map(() => "---"), ...rows, totals]) {
  console.log(`| ${r.join(" | ")} |`);
}
