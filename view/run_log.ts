/**
 * A run as the viewer draws it, read from `run-skill --json` output (the
 * agent's events, or one skill's run events, one JSON object per line):
 * the steps in order, and per skill the nodes visited and edges taken with
 * their counts and the failure with its diagnosis.
 *
 * @module
 */
import { InputFileError } from "../io/json_file.ts";

/** One node evaluation of the run. */
export interface RunStep {
  skill: string;
  depth: number;
  node: string;
  kind: "think" | "act" | "observe" | "end" | "decide" | "call";
  text: string;
}

/** What one skill's graph shows of the run. */
export interface SkillMarks {
  visits: Map<string, number>;
  taken: Map<string, number>;
  failed?: { node: string; message: string };
}

/** A run read from a log. */
export interface RunLog {
  /** The file it came from. */
  source: string;
  /** The task's goal, when the log names it. */
  goal?: string;
  steps: RunStep[];
  /** Marks per skill (task programs included), in order of first use. */
  skills: Map<string, SkillMarks>;
  /** Whether the run succeeded and why it stopped, when the log says. */
  result?: { success: boolean; stop: string };
}

type Json = Record<string, unknown>;

/**
 * Reads a run log.
 *
 * @throws {InputFileError} Naming the line that is not a JSON object.
 */
export function parseRunLog(text: string, source: string): RunLog {
  const log: RunLog = { source, steps: [], skills: new Map() };
  /** The node each open invocation was last at, by depth. */
  const last: (string | undefined)[] = [];
  const marks = (skill: string) => {
    let m = log.skills.get(skill);
    if (!m) log.skills.set(skill, m = { visits: new Map(), taken: new Map() });
    return m;
  };
  const visit = (skill: string, depth: number, node: string) => {
    const m = marks(skill);
    const before = last[depth];
    if (before !== node) {
      m.visits.set(node, (m.visits.get(node) ?? 0) + 1);
      if (before !== undefined) {
        const key = `${before}->${node}`;
        m.taken.set(key, (m.taken.get(key) ?? 0) + 1);
      }
    }
    last[depth] = node;
  };
  let program: string | undefined;
  for (const [i, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    let data: Json;
    try {
      data = JSON.parse(line);
    } catch {
      throw new InputFileError(source, "Not a JSON line of run-skill --json output", i + 1);
    }
    if (typeof data !== "object" || data === null) {
      throw new InputFileError(source, "Expected a JSON object", i + 1);
    }
    if (data.type === "task" && typeof data.goal === "string") log.goal = data.goal;
    if (data.type === "plan" && typeof data.program === "string") {
      program = data.program;
      last.length = 0;
    }
    if (data.type === "decide" && program && typeof data.node === "string") {
      // Think steps of the task program, which runs at depth -1 in the log's eyes.
      visit(program, 0, data.node);
      log.steps.push({
        skill: program,
        depth: -1,
        node: data.node,
        kind: "decide",
        text: String(data.text ?? ""),
      });
      continue;
    }
    if (data.type === "call" && program && typeof data.node === "string" && data.level === 0) {
      // A call the task program made from one of its nodes.
      visit(program, 0, data.node);
      log.steps.push({
        skill: program,
        depth: -1,
        node: data.node,
        kind: "call",
        text: `${String(data.skill)}(${JSON.stringify(data.args ?? {})})`,
      });
      continue;
    }
    if (data.result && typeof data.result === "object") {
      const r = data.result as Json;
      const success = r.success === true || r.outcome === "success";
      log.result = { success, stop: String(r.stop ?? r.outcome ?? "") };
      continue;
    }
    const event = (data.type === "run" ? data.event : data) as Json | undefined;
    if (!event || typeof event.skill !== "string" || typeof event.depth !== "number") continue;
    const skill = event.skill;
    const depth = event.depth + 1;
    if (event.type === "start") {
      last[depth] = undefined;
      marks(skill);
      continue;
    }
    if (typeof event.node !== "string") continue;
    const node = event.node;
    switch (event.type) {
      case "think":
        visit(skill, depth, node);
        log.steps.push({ skill, depth: depth - 1, node, kind: "think", text: String(event.text) });
        break;
      case "act":
        visit(skill, depth, node);
        log.steps.push({ skill, depth: depth - 1, node, kind: "act", text: String(event.action) });
        break;
      case "observe":
        log.steps.push({
          skill,
          depth: depth - 1,
          node,
          kind: "observe",
          text: event.rejected ? `rejected: ${event.rejected}` : String(event.observation),
        });
        break;
      case "end": {
        visit(skill, depth, node);
        const diagnosis = event.diagnosis as { node?: string; message?: string } | undefined;
        if (event.outcome === "failure") {
          marks(skill).failed = {
            node: diagnosis?.node ?? node,
            message: diagnosis?.message ?? "failure",
          };
        }
        log.steps.push({
          skill,
          depth: depth - 1,
          node,
          kind: "end",
          text: `${event.outcome}${diagnosis?.message ? `: ${diagnosis.message}` : ""}`,
        });
        last[depth] = undefined;
        break;
      }
    }
  }
  return log;
}
