/**
 * The agent (see `agent/run_agent.ts`): a thin loop over a pure choice of
 * repairs (`agent/decide.ts`), the achieving of calls (`agent/achieve.ts`),
 * skill runs (`agent/execute.ts`) and the ways through a task
 * (`agent/plans.ts`).
 *
 * @module
 */
export { runAgent } from "./run_agent.ts";
export type {
  AgentEvent,
  AgentFailure,
  AgentKit,
  AgentOptions,
  AgentResult,
  RecoveryOutcome,
  SkillFailure,
} from "./agent_types.ts";
