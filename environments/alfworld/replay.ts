/**
 * Transcript replay: rebuild each transcript's room, replay its actions in
 * the simulator and compare every observation exactly; ground every
 * observation of the transcript and report text the grounder does not
 * understand. A faithful simulator reports nothing for the real
 * demonstrations.
 *
 * @module
 */
import type { Trace } from "../../dsl/trace.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import type { AlfredData } from "./catalog.ts";
import { AlfworldEnv } from "./env.ts";
import { AlfworldGrounder } from "./grounder.ts";
import { sceneSpecFromTrace } from "./reconstruct.ts";

export type { ReplayMismatch, ReplayReport } from "../../runtime/environment.ts";
import type { ReplayMismatch, ReplayReport } from "../../runtime/environment.ts";

/** Options of {@linkcode replayTraces}. */
export interface ReplayOptions {
  /** ALFRED data (default: the shared data folder). */
  data?: AlfredData;
}

function nameOf(trace: Trace): string {
  return trace.task.id ?? trace.source ?? "transcript";
}

/** Grounds every observation of a transcript; returns the grounding errors. */
export function groundingErrors(trace: Trace): string[] {
  const name = nameOf(trace);
  const grounder = new AlfworldGrounder();
  const facts = new FactStore();
  const errors: string[] = [];
  const first = grounder.initial(trace.initial, trace.goal);
  for (const text of first.unknown ?? []) {
    errors.push(`${name} step 0: the grounder does not understand "${text}"`);
  }
  facts.apply(first.delta);
  trace.steps.forEach((step, i) => {
    const g = grounder.step(facts, step.action, step.observation);
    for (const text of g.unknown ?? []) {
      errors.push(
        `${name} step ${i + 1} ("${step.action}"): the grounder does not understand "${text}"`,
      );
    }
    facts.apply(g.delta);
  });
  return errors;
}

/**
 * Replays one transcript in the simulator. Returns the mismatches and the
 * errors (a room that cannot be rebuilt, grounding errors).
 */
export async function replayTrace(
  trace: Trace,
  options: ReplayOptions = {},
): Promise<{ mismatches: ReplayMismatch[]; errors: string[] }> {
  const name = nameOf(trace);
  const errors = groundingErrors(trace);
  const mismatches: ReplayMismatch[] = [];
  let env: AlfworldEnv;
  try {
    const spec = sceneSpecFromTrace(trace);
    env = new AlfworldEnv({ data: options.data });
    const reset = await env.reset({ spec });
    if (reset.observation !== trace.initial) {
      mismatches.push({
        transcript: name,
        step: 0,
        action: "",
        expected: trace.initial,
        actual: reset.observation,
      });
    }
  } catch (e) {
    errors.push(`${name}: cannot rebuild the room: ${e instanceof Error ? e.message : e}`);
    return { mismatches, errors };
  }
  for (const [i, step] of trace.steps.entries()) {
    const { observation } = await env.step(step.action);
    if (observation !== step.observation) {
      mismatches.push({
        transcript: name,
        step: i + 1,
        action: step.action,
        expected: step.observation,
        actual: observation,
      });
    }
  }
  return { mismatches, errors };
}

/**
 * Replays transcripts and sums up.
 *
 * @example Usage
 * ```ts
 * import { importTranscripts } from "./transcript.ts";
 * import { replayTraces } from "./replay.ts";
 * const text = Deno.readTextFileSync(new URL("../../../shared/data/alfworld/react_demos_2per_type.json", import.meta.url));
 * const report = await replayTraces(importTranscripts(text, "react_demos_2per_type.json"));
 * console.log(report.mismatches.length); // 0
 * ```
 */
export async function replayTraces(
  traces: Trace[],
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const report: ReplayReport = { transcripts: traces.length, steps: 0, mismatches: [], errors: [] };
  for (const trace of traces) {
    const result = await replayTrace(trace, options);
    report.steps += trace.steps.length;
    for (const x of result.mismatches) report.mismatches.push(x);
    for (const x of result.errors) report.errors.push(x);
  }
  return report;
}
