/**
 * What `deno task bench` runs an environment's benchmark on: the request
 * its flags make, and the setup the kit's benchmark description gives
 * (demonstrations from transcripts or the expert, the unseen tasks, the
 * action budget), with the example domains of `examples/` beside the
 * registered environments.
 *
 * @module
 */
import type { Trace } from "../dsl/trace.ts";
import { readTraces } from "../compiler/trace_io.ts";
import type { EnvironmentKit, TaskSpec } from "../runtime/environment.ts";
import { episodeBudgets } from "../runtime/eval/task_lists.ts";
import { generateExpertTraces } from "../runtime/eval/expert_traces.ts";
import { gardenKit } from "../examples/garden/kit.ts";
import { deployKit } from "../examples/deploy/kit.ts";
import { UsageError } from "./_cli.ts";
import { demonstrationTasks, taskList } from "./_tasks.ts";

/** What the flags ask of every environment's benchmark. */
export interface BenchRequest {
  data: string;
  train?: number;
  trainDepths?: number[];
  n?: number;
  maxActions?: number;
  /** Episodes of the throughput run (0: none). */
  throughput: number;
  /** Steps of the long trace of the input-size run (0: none). */
  inputSize: number;
  /** Weak libraries honed (0: none). */
  weak: number;
  /** Training tasks each weak library is honed over. */
  honeTrain: number;
}

/** One environment's benchmark setup. */
export interface Setup {
  kit: EnvironmentKit;
  envOptions: Record<string, unknown>;
  traces: Trace[];
  /** Where the demonstrations came from, in words. */
  source: string;
  tasks: TaskSpec[];
  /** What the tasks are, in words. */
  taskText: string;
  maxActions: number;
  /** The demonstration tasks when the expert made them (for the scaling run). */
  demonstrate?: (count?: number) => TaskSpec[];
}

/**
 * An environment's benchmark, as its kit describes it: demonstrations
 * from transcripts in the data folder or by the expert (on data the kit
 * names, e.g. the full recipe set), tasks of the unseen split.
 */
export async function benchSetup(kit: EnvironmentKit, request: BenchRequest): Promise<Setup> {
  const b = kit.benchmark ?? {};
  const envOptions: Record<string, unknown> = {};
  for (const [option, path] of Object.entries(b.dataOptions ?? {})) {
    envOptions[option] = `${request.data}/${path}`;
    await mustExist(`${request.data}/${path}`);
  }
  let traces: Trace[];
  let source: string;
  let demonstrate: Setup["demonstrate"];
  if (b.transcripts !== undefined && request.train === undefined && !request.trainDepths) {
    const path = `${request.data}/${b.transcripts}`;
    await mustExist(path);
    traces = await readTraces(path, kit);
    source = `${traces.length} transcripts of ${b.transcripts} only`;
  } else {
    const count = request.train ?? b.demonstrations;
    let what: string;
    const depths = request.trainDepths;
    if (depths) {
      demonstrate = (n?: number) =>
        taskList(kit, { split: "train", depths, ...(n !== undefined ? { n } : {}) });
      what = `depth-${depths.join(" and depth-")} tasks (seeds from 1, depths in turn)`;
    } else {
      demonstrate = (n?: number) => demonstrationTasks(kit, n);
      what = b.demonstrationText ?? "demonstration tasks";
    }
    const tasks = demonstrate(count);
    console.error(`${kit.name}: the expert demonstrates ${tasks.length} tasks...`);
    traces = await generateExpertTraces(kit, tasks, { envOptions });
    source = `expert traces of ${tasks.length} ${what}`;
  }
  const tasks = taskList(kit, {
    split: "unseen",
    ...(request.n ?? b.tasks) !== undefined ? { n: request.n ?? b.tasks } : {},
    ...b.taskSelectors,
  });
  return {
    kit,
    envOptions,
    traces,
    source,
    tasks,
    taskText: `${tasks.length} ${b.taskText ?? "tasks of the unseen split"}`,
    maxActions: request.maxActions ?? episodeBudgets(kit).maxActions,
    ...(demonstrate ? { demonstrate } : {}),
  };
}

/** The example domains of `examples/`, written against the public API only. */
export const EXAMPLE_KITS: Record<string, EnvironmentKit> = {
  garden: gardenKit,
  deploy: deployKit,
};

async function mustExist(path: string): Promise<void> {
  try {
    await Deno.stat(path);
  } catch {
    throw new UsageError(`Benchmark data not found: "${path}" (set --data <dir>)`);
  }
}
