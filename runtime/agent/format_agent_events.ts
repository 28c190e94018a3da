/**
 * Human-readable rendering of agent events: the plan, skill boundaries
 * (calls, skips, postcondition verification), regression subgoals,
 * recoveries and the interpreter's own events, indented by regression
 * depth.
 *
 * @module
 */
import { formatRouteChoice } from "../plan/router.ts";
import { formatLiteral, type Value } from "../../dsl/facts.ts";
import type { AgentEvent, AgentResult } from "./agent_types.ts";
import { formatEvent } from "../exec/format_events.ts";

/** `skill(name: 'value', ...)`. */
export function formatCall(skill: string, args: Readonly<Record<string, Value>>): string {
  return `${skill}(${
    Object.entries(args).map(([k, v]) => `${k}: ${formatLiteral(v)}`).join(", ")
  })`;
}

/**
 * Formats one agent event as display text (one or more lines).
 *
 * @example Usage
 * ```ts
 * import { formatAgentEvent } from "./format_agent_events.ts";
 * console.log(formatAgentEvent({ type: "stop", success: true, reason: "done" }));
 * // Stop: done
 * ```
 */
export function formatAgentEvent(event: AgentEvent): string {
  switch (event.type) {
    case "task": {
      const lines = [
        `Task ${event.taskId}${event.taskType ? ` (${event.taskType})` : ""}: ${event.goal}`,
      ];
      for (const line of event.observation.split("\n")) lines.push(`  | ${line}`);
      lines.push(`Facts: ${event.facts} atoms`);
      return lines.join("\n");
    }
    case "plan":
      if (event.program !== undefined) {
        return `Plan: task program "${event.program}" of template "${event.template}", matched by ${event.matchedBy}`;
      }
      return `Plan: template "${event.template}"${
        event.sequence > 0 ? ` (alternative ${event.sequence})` : ""
      }, matched by ${event.matchedBy}: ${
        event.calls.map((c) => formatCall(c.skill, c.args)).join(", ")
      }`;
    case "decide":
      return `.. ${event.node}: ${event.text}`;
    case "skip":
      return `${pad(event.level)}== skip ${
        formatCall(event.skill, event.args)
      }: postcondition already holds: ${event.condition}`;
    case "call": {
      const extra = [
        event.tolerate !== undefined ? `tolerating rejections at ${event.tolerate}` : "",
        event.avoid !== undefined
          ? `not choosing ${event.avoid.map((v) => formatLiteral(v)).join(", ")}`
          : "",
      ].filter((x) => x !== "");
      return `${pad(event.level)}== ${event.reason} ${formatCall(event.skill, event.args)}${
        extra.length ? ` (${extra.join("; ")})` : ""
      }`;
    }
    case "run":
      return indent(formatEvent(event.event), event.level);
    case "verify": {
      const call = formatCall(event.skill, event.args);
      if (event.post === undefined) return `${pad(event.level)}== verify ${call}: no postcondition`;
      const verdict = event.holds
        ? "holds"
        : event.outcome === "success"
        ? "VERIFICATION FAILED: the skill ended in success but this does not hold"
        : "does not hold";
      return `${pad(event.level)}== verify ${event.condition}: ${verdict}${
        event.error !== undefined ? ` (${event.error})` : ""
      }`;
    }
    case "regress":
      return `${pad(event.level)}== regress ${event.skill} needs ${
        formatLiteral(event.object)
      }: subgoal ${formatCall(event.call.skill, event.call.args)} (${event.via}${
        event.relation !== undefined ? ` via ${event.relation}` : ""
      }${event.more ? ", for more" : ""}) to achieve ${event.condition}`;
    case "recover":
      return `${pad(event.level)}== recovery of ${event.skill}: ${
        event.recovered ? "recovered" : "not recovered"
      } in ${event.actions} actions; postcondition ${event.holds ? "holds" : "does not hold"}${
        event.condition !== undefined ? `: ${event.condition}` : ""
      }`;
    case "fallback":
      return `${pad(event.level)}== primitive fallback for ${event.skill}: ${
        event.plan.join(", ")
      }; postcondition ${event.holds ? "holds" : "does not hold"}`;
    case "assume":
      return `${pad(event.level)}?? assume (${event.source}) for ${event.skill}: ${
        event.facts.join(", ")
      }`;
    case "retract":
      return `${pad(event.level)}?? retract for ${event.skill}: ${event.facts.join(", ")}`;
    case "route":
      return `Route: ${formatRouteChoice(event.step.choice)} -> ${event.step.outcome}`;
    case "stop":
      return `Stop: ${event.reason}`;
  }
}

/**
 * The closing line of an agent run.
 *
 * @example Usage
 * ```ts ignore
 * console.log(formatAgentResult(result));
 * ```
 */
export function formatAgentResult(result: AgentResult): string {
  return `Result: ${
    result.success ? "success" : "failure"
  } in ${result.actions} actions, ${result.skillCalls} skill calls, ${result.invalidActions} invalid actions, ${result.steps} steps, reward ${result.reward}`;
}

function pad(level: number): string {
  return "  ".repeat(level);
}

function indent(text: string, level: number): string {
  const p = pad(level);
  return text.split("\n").map((l) => p + l).join("\n");
}
