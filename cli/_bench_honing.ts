/**
 * The bench's measure of honing: libraries made deliberately weak (each
 * induced from one demonstration per task type), honed over tasks of the
 * training split, and evaluated on the unseen tasks before and after.
 *
 * @module
 */
import type { Skill } from "../dsl/graph/schema.ts";
import type { Trace } from "../dsl/trace.ts";
import type { EnvironmentKit, TaskSpec } from "../runtime/environment.ts";
import { taskListOf } from "../runtime/eval/task_lists.ts";
import { induceLibrary, memoryHoning, runVariant } from "./_variants.ts";

/** One weak library's honing. */
export interface WeakHoning {
  /** Which demonstration of each task type it is induced from (0-based). */
  demonstration: number;
  /** Its traces (one per task type). */
  traces: number;
  /** Success on the unseen tasks before honing. */
  before: number;
  /** Success on the unseen tasks with the honed library (no honing while they run). */
  after: number;
  /** Success on the training tasks while honing. */
  during: number;
  /** Training tasks honed over. */
  train_tasks: number;
  /** The honing session's changes (grafts, solidified, removed, narrowed). */
  changes: Record<string, number>;
  /** The grafts the honed library keeps: `skill: if <guard> then <action>` (status). */
  grafts: string[];
}

/** What {@linkcode measureHoningGain} needs. */
export interface HoningGainSetup {
  kit: EnvironmentKit;
  envOptions: Record<string, unknown>;
  traces: readonly Trace[];
  tasks: readonly TaskSpec[];
  maxActions: number;
}

/**
 * The k-th demonstration of each task type (by `task.type`, in order), for
 * k = 0, 1, ... while every type still has one, at most `libraries` of them.
 */
export function weakTraceSets(traces: readonly Trace[], libraries: number): Trace[][] {
  const byType = new Map<string, Trace[]>();
  for (const t of traces) {
    const type = t.task.type ?? "task";
    byType.set(type, [...byType.get(type) ?? [], t]);
  }
  const most = Math.min(libraries, ...[...byType.values()].map((ts) => ts.length));
  return Array.from(
    { length: Math.max(0, most) },
    (_, k) => [...byType.values()].map((ts) => ts[k]),
  );
}

/**
 * Honing's gain from each weak library; empty when the environment lists no
 * training tasks.
 */
export async function measureHoningGain(
  setup: HoningGainSetup,
  options: { libraries: number; train: number },
): Promise<WeakHoning[]> {
  const { kit } = setup;
  let train: TaskSpec[];
  try {
    train = taskListOf(kit, { split: "train", n: options.train });
  } catch {
    return [];
  }
  const base = {
    kit,
    envOptions: setup.envOptions,
    maxActions: setup.maxActions,
    progress: false,
  };
  const out: WeakHoning[] = [];
  for (const [k, traces] of weakTraceSets(setup.traces, options.libraries).entries()) {
    console.error(`${kit.name}: honing the library of demonstration ${k + 1} of each task type`);
    const weak = induceLibrary(traces, kit, { envOptions: setup.envOptions });
    const tasks = [...setup.tasks];
    const before = await runVariant({ ...base, name: "weak", library: weak, tasks });
    const honing = memoryHoning(weak.skills, kit, weak.actionModel);
    const during = await runVariant({
      ...base,
      name: "honing",
      library: weak,
      honing,
      tasks: train,
    });
    const model = honing.actionModel();
    const honed = { ...weak, library: honing.library(), ...(model ? { actionModel: model } : {}) };
    const after = await runVariant({ ...base, name: "honed", library: honed, tasks });
    out.push({
      demonstration: k,
      traces: traces.length,
      before: before.report.success_rate,
      after: after.report.success_rate,
      during: during.report.success_rate,
      train_tasks: train.length,
      changes: { ...honing.changeCounts() },
      grafts: graftsOf(honing.library().programs().map((p) => p.skill)),
    });
  }
  return out;
}

/** The grafts of skills as text: `craft_item: if <guard> then craft_item(item_i) (permanent)`. */
export function graftsOf(skills: readonly Skill[]): string[] {
  return skills.flatMap((skill) =>
    (skill.grafts ?? []).map((g) => {
      const parts = g.nodes.map((id) => skill.nodes.find((n) => n.id === id)).map((n) =>
        n?.kind === "check"
          ? `if ${n.cond}`
          : n?.kind === "primitive"
          ? `then ${n.action}(${Object.values(n.args).join(", ")})`
          : n?.kind ?? "?"
      );
      return `${skill.name}: ${parts.join(" ")} (${g.status})`;
    })
  );
}
