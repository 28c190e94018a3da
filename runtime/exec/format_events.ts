/**
 * Human-readable rendering of run events, one line (or two) per event,
 * indented by skill-call depth.
 *
 * @module
 */
import type { RunEvent } from "./interpreter.ts";

/**
 * Formats one event as display text.
 *
 * @example Usage
 * ```ts
 * import { formatEvent } from "./format_events.ts";
 * console.log(formatEvent({ type: "act", skill: "craft", depth: 0, node: "get", action: "get 1 oak logs" }));
 * // [craft] act    get: get 1 oak logs
 * ```
 */
export function formatEvent(event: RunEvent): string {
  const pad = "  ".repeat(event.depth);
  const tag = `${pad}[${event.skill}]`;
  switch (event.type) {
    case "start":
      return `${tag} start  ${JSON.stringify(event.args)}`;
    case "think":
      return `${tag} think  ${event.node}: ${event.text}`;
    case "act":
      return event.lookahead
        ? `${tag} ahead  ${event.node}: ${event.action} (look-ahead, for the node's action)`
        : event.standsFor !== undefined
        ? `${tag} act    ${event.node}: ${event.action} (in place of "${event.standsFor}")`
        : `${tag} act    ${event.node}: ${event.action}`;
    case "observe": {
      const lines = [`${pad}${" ".repeat(event.skill.length + 2)} obs    ${event.observation}`];
      if (event.rejected !== undefined) lines.push(`${tag} reject ${event.rejected}`);
      if (event.unknown?.length) {
        lines.push(`${tag} warn   grounder did not understand: ${event.unknown.join(" | ")}`);
      }
      if (event.done) lines.push(`${tag} done   episode ended, reward ${event.reward}`);
      return lines.join("\n");
    }
    case "end": {
      const head =
        `${tag} end    ${event.outcome} at ${event.node} (${event.steps} steps, ${event.actions} actions)`;
      if (!event.diagnosis) return head;
      const d = event.diagnosis;
      const cond = d.condition !== undefined
        ? `\n${tag} why    ${d.condition}${
          d.holds !== undefined ? ` [${d.holds ? "holds" : "does not hold"}]` : ""
        }`
        : "";
      return `${head}\n${tag} why    ${d.message}${cond}`;
    }
  }
}
