/**
 * A run of the agent for the viewer: the library's current version on one
 * task, its events as `run-skill --json` prints them.
 *
 * @module
 */
import { openLibrary } from "../compiler/open_library.ts";
import { runAgent } from "../runtime/agent/mod.ts";
import { type EnvironmentKit, type TaskSpec, withEnvOptions } from "../runtime/environment.ts";
import { episodeBudgets } from "../runtime/eval/task_lists.ts";

/** The agent on the library's current version, its events as run-skill --json prints them. */
export async function agentRunLog(
  kit: EnvironmentKit,
  dir: string,
  task: TaskSpec,
  envOptions: Record<string, unknown>,
): Promise<string> {
  const opened = await openLibrary(dir, kit.vocabulary);
  const env = kit.create(envOptions);
  const lines: string[] = [];
  try {
    const run = runAgent({
      env,
      kit: withEnvOptions(kit, envOptions),
      library: opened.library,
      templates: opened.templates,
      task,
      ...episodeBudgets(kit),
      ...(opened.actionModel ? { actionModel: opened.actionModel } : {}),
    });
    let r = await run.next();
    for (; !r.done; r = await run.next()) lines.push(JSON.stringify(r.value));
    lines.push(JSON.stringify({ result: r.value }));
  } finally {
    await env.close?.();
    opened.store.close();
  }
  return lines.join("\n");
}
