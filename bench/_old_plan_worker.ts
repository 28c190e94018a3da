/**
 * A worker that runs the old planner (`_old_plan.ts`) on one problem at a
 * time, so the bench can stop it after a timeout.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { planPddl } from "./_old_plan.ts";
import { loadDomain, loadWorld, validPlan } from "./_genplan.ts";

self.onmessage = (e: MessageEvent<{ domain: string; file: string }>) => {
  const world = loadWorld(loadDomain(e.data.domain), e.data.file);
  const t0 = performance.now();
  const plan = planPddl(world);
  const seconds = (performance.now() - t0) / 1000;
  self.postMessage({
    length: plan?.length,
    valid: plan !== undefined && validPlan(world, plan),
    seconds,
  });
};
