/**
 * One domain of the genplan suite, in a process of its own (see
 * `benchInChild` in `_bench_genplan.ts`): `deno run cli/_bench_genplan_domain.ts
 * <suite/domain> <request JSON>`. Prints a JSON line with the row once the
 * expert's figures are in, one with `progress` at the end of each phase,
 * and a last one with `done` when the domain is measured.
 *
 * @module
 */
import { benchDomain } from "./_bench_genplan.ts";
import { MemoryPeak } from "./_memory_peak.ts";

const [domain, request] = Deno.args;
const { data, demos, maxActions, concurrency } = JSON.parse(request);
const peak = new MemoryPeak();
const row = await benchDomain(
  domain,
  { data, demos, maxActions, concurrency },
  (partial) =>
    console.log(JSON.stringify({ row: { ...partial, peak_memory_mib: peak.peakMiB() } })),
  (line) => console.log(JSON.stringify({ progress: line })),
);
row.peak_memory_mib = Math.round(peak.stop());
console.log(JSON.stringify({ row, done: true }));
