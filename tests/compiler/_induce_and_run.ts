/**
 * Induction from demonstrations with the rules learned, then the agent on
 * test problems: what the policy and exploration tests share.
 */
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import type { Trace } from "../../dsl/trace.ts";
import { type EnvironmentKit, withEnvOptions } from "../../runtime/environment.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { compileSkills } from "../../runtime/store/library.ts";
import { runAgent } from "../../runtime/agent/mod.ts";
import { drainAgent } from "../runtime/_agent_fixtures.ts";

/** Options of {@linkcode induceAndRun}. */
export interface InduceAndRunOptions {
  /** The library holds the decision list alone (no other skill to fall back on). */
  policyOnly?: boolean;
  /** The kit's options. @default { rules: "learned" } */
  envOptions?: Record<string, unknown>;
  /** Explored traces the action model learns from too (`compileTraces`). */
  explored?: readonly Trace[];
  /** Actions per episode. @default 200 */
  maxActions?: number;
}

/**
 * Induces a library from the kit's `demos` (task ids the expert solves, or
 * traces) and runs it on `tests`, with the rules learned.
 */
export async function induceAndRun(
  kit: EnvironmentKit,
  demos: (string | Trace)[],
  tests: string[],
  options: InduceAndRunOptions = {},
) {
  const { policyOnly = false, envOptions = { rules: "learned" }, maxActions = 200 } = options;
  const traces: Trace[] = [];
  for (const demo of demos) {
    if (typeof demo !== "string") traces.push(demo);
    else traces.push(...await generateExpertTraces(kit, [{ id: demo }], { envOptions }));
  }
  const learned = withEnvOptions(kit, envOptions);
  const compiled = compileTraces(traces, learned, {
    policy: true,
    ...(options.explored ? { explored: options.explored } : {}),
  });
  const library = compileSkills(
    compiled.skills
      .filter((s) => !policyOnly || s.name.startsWith("policy_"))
      .map((s) => ({ data: s, source: s.name })),
    kit.vocabulary,
  );
  const results = [];
  const events = [];
  for (const id of tests) {
    const run = await drainAgent(runAgent({
      env: kit.create(envOptions),
      kit: learned,
      library,
      templates: compiled.templates,
      actionModel: compiled.actionModel,
      task: { id },
      maxActions,
    }));
    results.push(run.result);
    events.push(run.events);
  }
  const policy = compiled.skills.find((s) => s.name.startsWith("policy_"));
  return { results, events, policy: JSON.stringify(policy) };
}
