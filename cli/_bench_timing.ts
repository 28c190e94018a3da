/**
 * The bench's measures of speed: episodes per second over a long run of
 * the full variant, induction time against the number of demonstrations,
 * and time against input size (one long trace; for TextCraft one large
 * observation).
 *
 * @module
 */
import { generateExpertTraces } from "../runtime/eval/expert_traces.ts";
import type { Setup } from "./_bench_setup.ts";
import { type BuiltLibrary, induceLibrary, runVariant } from "./_variants.ts";

/** The full variant on the task list repeated to a number of episodes. */
export interface Throughput {
  episodes: number;
  seconds: number;
  success_rate: number;
}

/** Induction from 4x the demonstrations, and its time against the main induction's. */
export interface Scaling {
  traces: number;
  seconds: number;
  ratio: number;
}

/** The full variant on the task list repeated to `episodes` episodes. */
export async function measureThroughput(
  setup: Setup,
  library: BuiltLibrary,
  episodes: number,
): Promise<Throughput> {
  const { kit } = setup;
  console.error(`${kit.name}: ${episodes} episodes of the full variant`);
  const tasks = Array.from(
    { length: episodes },
    (_, i) => setup.tasks[i % setup.tasks.length],
  );
  const { report } = await runVariant({
    name: "full",
    kit,
    envOptions: setup.envOptions,
    tasks,
    library,
    maxActions: setup.maxActions,
  });
  return { episodes: tasks.length, seconds: report.seconds, success_rate: report.success_rate };
}

/**
 * Induction from 4x the expert's demonstrations, timed like the main one,
 * when the expert made them and the kit has that many demonstration tasks.
 */
export async function measureScaling(setup: Setup, base: number): Promise<Scaling | undefined> {
  const count = setup.traces.length * 4;
  const tasks = setup.demonstrate?.(count);
  if (!tasks || tasks.length < count) return undefined;
  console.error(`${setup.kit.name}: inducing from ${count} demonstrations (scaling)`);
  const traces = await generateExpertTraces(setup.kit, tasks, { envOptions: setup.envOptions });
  const seconds = induceLibrary(traces, setup.kit, { envOptions: setup.envOptions }).seconds;
  return { traces: count, seconds, ratio: base > 0 ? seconds / base : 0 };
}

/** Seconds for a small and a 10x larger input, and their ratio (10 when linear). */
export interface SizeRun {
  sizes: [number, number];
  seconds: [number, number];
  ratio: number;
}
/** Time against input size: one long trace, and (TextCraft) one large observation. */
export interface InputSize {
  /** Induction from one trace of n/10 and of n steps. */
  trace: SizeRun;
  /** TextCraft: grounding a first observation of n/20000 and n/2000 MB. */
  observation?: SizeRun;
}

/** Steps of the long trace by default (and 2,000 times the megabytes of the large observation). */
export const INPUT_SIZE = 20_000;

/**
 * Time against input size. A long trace: the first demonstration with its
 * first step repeated (done again and again before the rest), induced
 * alone, at `steps` and a tenth of it. For TextCraft also a large first
 * observation of `steps / 2000` MB and a tenth of it: a listing of that
 * many distinct crafting commands, grounded.
 */
export function measureInputSize(setup: Setup, steps: number): InputSize {
  const { kit } = setup;
  const base = setup.traces[0];
  const timeOf = (fn: () => void) => {
    const t0 = performance.now();
    fn();
    return (performance.now() - t0) / 1000;
  };
  const run = (sizes: readonly [number, number], fn: (size: number) => void): SizeRun => {
    const seconds = sizes.map((n) => timeOf(() => fn(n))) as [number, number];
    return { sizes: [...sizes], seconds, ratio: seconds[0] > 0 ? seconds[1] / seconds[0] : 0 };
  };
  const lengths = [Math.max(1, Math.round(steps / 10)), steps] as const;
  console.error(`${kit.name}: inducing from one trace of ${lengths.join(" and ")} steps`);
  const trace = run(lengths, (n) => {
    const pad = Array.from({ length: Math.max(0, n - base.steps.length) }, () => base.steps[0]);
    induceLibrary([{ ...base, steps: [...pad, ...base.steps] }], kit, {
      envOptions: setup.envOptions,
    });
  });
  if (kit.name !== "textcraft") return { trace };
  const megabytes = [steps / 20_000, steps / 2_000] as const;
  console.error(`${kit.name}: grounding observations of ${megabytes.join(" and ")} MB`);
  const observation = run(megabytes, (mb) => {
    const lines = [];
    for (let i = 0, bytes = 0; bytes < mb * 1e6; i++) {
      const line = `craft 1 item ${i} using 2 part ${i % 100}, 1 part ${(i + 7) % 100}`;
      lines.push(line);
      bytes += line.length + 1;
    }
    kit.grounder().initial(`Crafting commands:\n${lines.join("\n")}\n\nGoal: craft item 1.`, "");
  });
  return { trace, observation };
}
