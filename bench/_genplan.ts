/**
 * Reading the generalised-planning benchmark for the planner bench: the
 * domains, their problems, and plan validation by replay.
 *
 * @module
 */
import { parseDomain, parseProblem, type PddlDomain } from "../environments/pddl/parse.ts";
import { type GroundAction, PddlWorld } from "../environments/pddl/world.ts";

/** Where the benchmark lives (`<suite>/<domain>/...`). */
export const GENPLAN: string = new URL("../../shared/data/genplan", import.meta.url).pathname;

/** Every domain as `suite/domain`, sorted. */
export function domains(root = GENPLAN): string[] {
  const out: string[] = [];
  for (const suite of [...Deno.readDirSync(root)].filter((e) => e.isDirectory)) {
    for (const d of Deno.readDirSync(`${root}/${suite.name}`)) {
      if (d.isDirectory) out.push(`${suite.name}/${d.name}`);
    }
  }
  return out.sort();
}

/** A domain's problem files of a set (`train`, `test`), sorted naturally (`p2` before `p10`). */
export function problemFiles(domain: string, set: string, root = GENPLAN): string[] {
  const dir = `${root}/${domain}/${set}`;
  return [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".pddl"))
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
    .map((n) => `${dir}/${n}`);
}

/**
 * The domain, without pddlgym's action predicates: the literals of the
 * predicates a `; (:actions ...)` comment names are the agent's choice of
 * action, never facts, so they are dropped from preconditions (as the
 * parser will do itself).
 */
export function loadDomain(domain: string, root = GENPLAN): PddlDomain {
  const text = Deno.readTextFileSync(`${root}/${domain}/domain.pddl`);
  const parsed = parseDomain(text, `${domain}/domain.pddl`);
  const named = /;\s*\(:actions\s+([^)]*)\)/i.exec(text);
  if (named) {
    const preds = new Set(named[1].trim().toLowerCase().split(/\s+/));
    for (const a of parsed.actions) {
      a.precondition = a.precondition.filter((l) => l.negated || !preds.has(l.pred));
    }
  }
  return parsed;
}

/** The world of a problem file. */
export function loadWorld(domain: PddlDomain, file: string): PddlWorld {
  return new PddlWorld(domain, parseProblem(Deno.readTextFileSync(file), file));
}

/** Whether the plan applies step by step and reaches the goal. */
export function validPlan(world: PddlWorld, plan: readonly GroundAction[]): boolean {
  let state = world.initial();
  for (const step of plan) {
    if (!world.holds(step, state)) return false;
    state = world.apply(step, state);
  }
  return world.satisfied(state);
}
