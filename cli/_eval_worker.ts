/**
 * A worker of `eval --concurrency`: builds the variant's runner once from
 * the job (the environment by name, the library as data), then runs each
 * task the pool sends and answers with its record.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { loadEnvironmentKit } from "../environments/registry.ts";
import { ActionModel } from "../runtime/learn/action_model.ts";
import { evaluate } from "../runtime/eval/evaluate.ts";
import { compileSkills } from "../runtime/store/library.ts";
import type { EvaluateOptions } from "../runtime/eval/evaluate.ts";
import type { PoolMessage, WorkerJob, WorkerMessage } from "./_eval_pool.ts";
import { variantRunner } from "./_variants.ts";

let setup: Promise<Omit<EvaluateOptions, "tasks">> | undefined;

async function prepare(job: WorkerJob): Promise<Omit<EvaluateOptions, "tasks">> {
  const kit = await loadEnvironmentKit(job.env);
  const data = job.library;
  const library = data && {
    templates: data.templates,
    library: compileSkills(
      data.skills.map((s) => ({ data: s, source: `skill "${s.name}"` })),
      kit.vocabulary,
    ),
    ...(data.actionModel
      ? { actionModel: ActionModel.fromJSON(data.actionModel, kit.vocabulary) }
      : {}),
  };
  return {
    env: kit.name,
    variant: job.name,
    createEnv: () => kit.create(job.envOptions),
    ...(kit.successReward !== undefined ? { successReward: kit.successReward } : {}),
    runner: variantRunner(kit, {
      name: job.name,
      expert: job.expert,
      expertOptions: job.expertOptions,
      ...(library ? { library } : {}),
      ...(job.maxActions !== undefined ? { maxActions: job.maxActions } : {}),
      ...(job.maxSkillCalls !== undefined ? { maxSkillCalls: job.maxSkillCalls } : {}),
      ...(job.knowledge ? { knowledge: true, envOptions: job.envOptions } : {}),
    }),
  };
}

function post(message: WorkerMessage): void {
  self.postMessage(message);
}

self.onmessage = async (e: MessageEvent<PoolMessage>) => {
  const message = e.data;
  try {
    if (message.type === "job") {
      setup = prepare(message.job);
      await setup;
      post({ type: "ready" });
      return;
    }
    const options = await setup!;
    const { records } = await evaluate({
      ...options,
      tasks: [message.task],
      labels: [message.label],
    });
    post({ type: "record", record: { ...records[0], index: message.index } });
  } catch (err) {
    post({ type: "error", message: err instanceof Error ? err.message : String(err) });
  }
};
