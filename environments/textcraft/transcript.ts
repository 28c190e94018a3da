/**
 * TextCraft transcripts: the text form of episodes that the ADaPT and
 * AgentGym prompts show, to and from the project's trace format.
 *
 * A transcript is the first observation (`Crafting commands:`, one command
 * per line, a blank line, `Goal: craft <item>.`), then for each step a line
 * `> <action>` followed by the observation line(s). ReAct-style
 * `> think: ...` lines, answered by `OK.`, are not steps: they become
 * annotations of the next step (after the last step, of the last step).
 *
 * ```
 * Crafting commands:
 * craft 4 oak planks using 1 oak logs
 *
 * Goal: craft oak planks.
 *
 * > think: I need oak logs first.
 * OK.
 *
 * > get 1 oak logs
 * Got 1 oak logs
 * ```
 *
 * @module
 */
import type { Trace, TraceStep } from "../../dsl/trace.ts";
import { InputFileError, parseJsonText } from "../../io/json_file.ts";
import { idToName } from "./names.ts";

const ACTION = /^>\s?(.*)$/;
const THINK = /^think:/i;
const GOAL = /^Goal:\s*craft (.+?)\.?\s*$/;
const CRAFTED = /^Crafted [0-9]+ (\S+)\s*$/;
const HEADER = "Crafting commands:";

/** A problem at a line of one transcript (wrapped into an InputFileError by the callers). */
class LineError extends Error {
  constructor(readonly line: number, message: string) {
    super(message);
  }
}

/**
 * Parses one TextCraft transcript into a trace (`env` `textcraft`, task id
 * `name`). Steps get reward 0 and `done` false, except the one whose reply
 * crafts the goal item (reward 1, done), which also marks the trace a success.
 *
 * @param text The transcript.
 * @param name The transcript's name (file path or collection key), used in errors.
 * @returns The trace.
 * @throws {InputFileError} Naming `name` and the line: no `Crafting commands:`
 * or `Goal:` line, text after the goal before any action, an empty action, a
 * think not answered by `OK.`, or an action without an observation.
 *
 * @example Usage
 * ```ts
 * import { parseTextCraftTranscript } from "./transcript.ts";
 * const trace = parseTextCraftTranscript(
 *   "Crafting commands:\ncraft 4 oak planks using 1 oak logs\n\nGoal: craft oak planks.\n\n" +
 *     "> think: Logs first.\nOK.\n\n> get 1 oak logs\nGot 1 oak logs\n",
 *   "demo.txt",
 * );
 * console.log(trace.goal, trace.steps[0].annotations); // craft oak planks ["think: Logs first."]
 * ```
 */
export function parseTextCraftTranscript(text: string, name: string): Trace {
  try {
    return parse(text, name);
  } catch (e) {
    if (e instanceof LineError) throw new InputFileError(name, e.message, e.line);
    throw e;
  }
}

/**
 * Imports TextCraft transcripts: a JSON object of name -> transcript text
 * (sources `<source>#<name>`), or the text of one transcript (task id: the
 * file name without its extension).
 *
 * @param text The file text.
 * @param source The file name, used as the traces' source and in errors.
 * @returns One trace per transcript, in order.
 * @throws {InputFileError} Naming `source` (and, for a collection, the
 * transcript) and the line of the problem.
 *
 * @example Usage
 * ```ts
 * import { importTextCraftTranscripts } from "./transcript.ts";
 * const demo = "Crafting commands:\ncraft 4 oak planks using 1 oak logs\n\nGoal: craft oak planks.\n\n" +
 *   "> get 1 oak logs\nGot 1 oak logs\n\n> craft 4 oak planks using 1 oak logs\nCrafted 4 minecraft:oak_planks\n";
 * const [trace] = importTextCraftTranscripts(JSON.stringify({ planks: demo }), "demos.json");
 * console.log(trace.source, trace.success); // demos.json#planks true
 * ```
 */
export function importTextCraftTranscripts(text: string, source: string): Trace[] {
  if (!/^\s*[[{]/.test(text)) {
    const trace = parseTextCraftTranscript(text, source);
    return [{ ...trace, task: { id: stem(source) }, source }];
  }
  const value = parseJsonText(text, source);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InputFileError(
      source,
      "Expected a JSON object of name -> transcript text, got a JSON array",
    );
  }
  return Object.entries(value).map(([name, body]) => {
    if (typeof body !== "string") {
      throw new InputFileError(
        source,
        `Transcript "${name}" is not a text: got ${body === null ? "null" : typeof body}`,
      );
    }
    try {
      return { ...parse(body, name), source: `${source}#${name}` };
    } catch (e) {
      if (e instanceof LineError) {
        throw new InputFileError(source, `transcript "${name}", line ${e.line}: ${e.message}`);
      }
      throw e;
    }
  });
}

/**
 * Formats a trace as a TextCraft transcript that
 * {@linkcode parseTextCraftTranscript} reads back: annotations become
 * `> think: ...` lines answered by `OK.`, steps are separated by blank lines.
 *
 * @example Usage
 * ```ts ignore
 * console.log(formatTextCraftTranscript(trace));
 * ```
 */
export function formatTextCraftTranscript(trace: Trace): string {
  const blocks = [trace.initial.trim()];
  for (const step of trace.steps) {
    for (const note of step.annotations ?? []) {
      blocks.push(`> ${THINK.test(note) ? note : `think: ${note}`}\nOK.`);
    }
    blocks.push(`> ${step.action}\n${step.observation}`);
  }
  return blocks.join("\n\n") + "\n";
}

function parse(text: string, name: string): Trace {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length && !ACTION.test(lines[i])) i++;
  const introEnd = i;
  const header = lines.findIndex((l) => l.trim() !== "");
  if (header < 0 || header >= introEnd) {
    throw new LineError(1, `no first observation: expected "${HEADER}" before the first action`);
  }
  if (lines[header].trim() !== HEADER) {
    throw new LineError(header + 1, `expected "${HEADER}", found ${quote(lines[header])}`);
  }
  const goalLine = lines.slice(0, introEnd).findIndex((l) => l.trim().startsWith("Goal:"));
  if (goalLine < 0) {
    throw new LineError(
      Math.min(introEnd + 1, lines.length),
      'no "Goal: craft <item>." line before the first action',
    );
  }
  const goalMatch = GOAL.exec(lines[goalLine].trim());
  if (!goalMatch) {
    throw new LineError(
      goalLine + 1,
      `expected "Goal: craft <item>.", found ${quote(lines[goalLine])}`,
    );
  }
  const goalItem = goalMatch[1].trim();
  for (let k = goalLine + 1; k < introEnd; k++) {
    if (lines[k].trim() !== "") {
      throw new LineError(k + 1, `observation before any action: ${quote(lines[k])}`);
    }
  }
  const initial = lines.slice(header, goalLine + 1).join("\n").trim();
  const steps: TraceStep[] = [];
  let pending: string[] = [];
  let success = false;
  while (i < lines.length) {
    const lineNo = i + 1;
    const action = ACTION.exec(lines[i])![1].trim();
    const start = ++i;
    while (i < lines.length && !ACTION.test(lines[i])) i++;
    const observation = withoutBlankEnds(lines.slice(start, i));
    if (action === "") throw new LineError(lineNo, 'empty action after ">"');
    if (THINK.test(action)) {
      if (observation !== "" && observation.trim() !== "OK.") {
        let k = start;
        while (lines[k].trim() === "") k++;
        throw new LineError(k + 1, `expected "OK." after a think line, found ${quote(lines[k])}`);
      }
      pending.push(action);
      continue;
    }
    if (observation.trim() === "") {
      throw new LineError(lineNo, `action ${quote(action)} has no observation`);
    }
    const crafted = CRAFTED.exec(observation.trim());
    const reachesGoal = !success && crafted !== null && idToName(crafted[1]) === goalItem;
    const step: TraceStep = {
      action,
      observation,
      reward: reachesGoal ? 1 : 0,
      done: reachesGoal,
    };
    if (reachesGoal) success = true;
    if (pending.length > 0) step.annotations = pending;
    pending = [];
    steps.push(step);
  }
  const last = steps.at(-1);
  if (pending.length > 0 && last) last.annotations = [...(last.annotations ?? []), ...pending];
  return {
    format: "skillc/trace@1",
    env: "textcraft",
    task: { id: name },
    goal: `craft ${goalItem}`,
    initial,
    steps,
    success,
    source: name,
  };
}

/** The lines joined, without leading and trailing blank lines (inner text kept as is). */
function withoutBlankEnds(lines: string[]): string {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a].trim() === "") a++;
  while (b > a && lines[b - 1].trim() === "") b--;
  return lines.slice(a, b).join("\n");
}

function quote(line: string): string {
  const t = line.trim();
  return JSON.stringify(t.length > 60 ? `${t.slice(0, 57)}...` : t);
}

function stem(path: string): string {
  const base = path.split(/[\\/]/).at(-1) ?? path;
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}
