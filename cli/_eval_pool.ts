/**
 * `eval --concurrency N` on a local environment: N workers (threads of
 * this process) each build the variant's runner once and take the next
 * task as they finish one. Records come back in task order, as a
 * sequential run gives them.
 *
 * @module
 */
import type { Skill } from "../dsl/graph/schema.ts";
import type { ActionModelData } from "../runtime/action_model_data.ts";
import type { TaskSpec } from "../runtime/environment.ts";
import { type EpisodeRecord, type Evaluation, summarize } from "../runtime/eval/evaluate.ts";
import type { TaskTemplate } from "../runtime/store/task_template.ts";

/** What every worker builds its runner from: names and data only. */
export interface WorkerJob {
  /** The `--env` value (a built-in, a PDDL domain or a plugin path). */
  env: string;
  /** The variant's name, for the report. */
  name: string;
  envOptions: Record<string, unknown>;
  expert: boolean;
  expertOptions: Record<string, unknown>;
  /** The library (not for the expert). */
  library?: { skills: Skill[]; templates: TaskTemplate[]; actionModel?: ActionModelData };
  maxActions?: number;
  maxSkillCalls?: number;
  /** Consult the kit's background knowledge (`eval --knowledge`). */
  knowledge?: boolean;
}

/** What the pool sends a worker. */
export type PoolMessage =
  | { type: "job"; job: WorkerJob }
  | { type: "task"; index: number; task: TaskSpec; label: string };

/** What a worker answers. */
export type WorkerMessage =
  | { type: "ready" }
  | { type: "record"; record: EpisodeRecord }
  | { type: "error"; message: string };

/** Options of {@linkcode evaluateInWorkers}. */
export interface WorkerPoolOptions {
  job: WorkerJob;
  /** The environment's name, for the report. */
  envName: string;
  /** Rewards are graded (the kit has a `successReward`): the report has a score. */
  graded?: boolean;
  tasks: readonly TaskSpec[];
  labels: readonly string[];
  /** Workers to start (at most one per task). */
  workers: number;
  /** Called as each episode ends, with the number done. */
  onEpisode?: (record: EpisodeRecord, done: number) => void;
}

/**
 * Runs the job's variant on every task in a pool of workers.
 *
 * @throws {Error} When a worker cannot build its runner or fails outside an
 * episode (an episode's own errors are records, as in a sequential run).
 */
export async function evaluateInWorkers(options: WorkerPoolOptions): Promise<Evaluation> {
  const { tasks, labels } = options;
  const started = performance.now();
  const records: EpisodeRecord[] = new Array(tasks.length);
  let next = 0;
  let done = 0;
  const count = Math.max(1, Math.min(options.workers, tasks.length));
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      if (tasks.length === 0) return resolve();
      const feed = (worker: Worker) => {
        if (next >= tasks.length) return;
        const index = next++;
        const message: PoolMessage = {
          type: "task",
          index,
          task: tasks[index],
          label: labels[index],
        };
        worker.postMessage(message);
      };
      for (let i = 0; i < count; i++) {
        const worker = new Worker(new URL("./_eval_worker.ts", import.meta.url).href, {
          type: "module",
        });
        workers.push(worker);
        worker.onerror = (e) => {
          e.preventDefault();
          reject(new Error(`An evaluation worker failed: ${e.message}`));
        };
        worker.onmessage = (e: MessageEvent<WorkerMessage>) => {
          const m = e.data;
          if (m.type === "error") return reject(new Error(m.message));
          if (m.type === "record") {
            records[m.record.index] = m.record;
            options.onEpisode?.(m.record, ++done);
            if (done === tasks.length) return resolve();
          }
          feed(worker);
        };
        worker.postMessage({ type: "job", job: options.job } satisfies PoolMessage);
      }
    });
  } finally {
    for (const w of workers) w.terminate();
  }
  return {
    records,
    report: summarize(records, {
      env: options.envName,
      variant: options.job.name,
      seconds: (performance.now() - started) / 1000,
      graded: options.graded ?? false,
    }),
  };
}
