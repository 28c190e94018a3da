/**
 * The keys domain (`../environments/_keys_domain.ts`) as a kit, and one
 * episode of the agent on its problem with a single skill as the task's
 * one step: what the agent tests that need a small real environment share.
 *
 * @module
 */
import { pddlKit } from "../../environments/pddl/kit.ts";
import { runAgent } from "../../runtime/agent/mod.ts";
import { compileSkills } from "../../runtime/store/library.ts";
import type { Skill } from "../../dsl/graph/schema.ts";
import { KEYS_DOMAIN, KEYS_PROBLEM } from "../environments/_keys_domain.ts";
import { drainAgent } from "./_agent_fixtures.ts";

/** Two doors, two keys, three rooms (see `KEYS_PROBLEM`). */
export const keysKit = pddlKit("pddl:keys", KEYS_DOMAIN, "keys.pddl", [
  { id: "keys/p1", file: "p1.pddl", text: KEYS_PROBLEM },
], {});

/** Runs the agent on the keys problem with `skill` as the task's one step. */
export function runKeysAgent(
  skill: Skill,
  maxActions: number,
): ReturnType<typeof drainAgent> {
  const library = compileSkills([{ data: skill, source: "test" }], keysKit.vocabulary);
  return drainAgent(runAgent({
    env: keysKit.create(),
    kit: keysKit,
    library,
    templates: [{
      type: "pddl:keys",
      traces: 1,
      steps: [{ skill: skill.name, args: [] }],
      support: 1,
      alternatives: [],
    }],
    task: { id: "keys/p1" },
    maxActions,
  }));
}
