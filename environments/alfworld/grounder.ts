/**
 * The rule-based ALFWorld grounder: observation -> fact change, with the
 * predicates of the vocabulary. It keeps the agent's belief: where it is,
 * what it has seen in each receptacle, what it holds, object states, and
 * which listed receptacles it has not yet looked into (`unexplored`).
 * "Nothing happens." sets `rejected`; text of no known form is returned in
 * `unknown`.
 *
 * @module
 */
import type { Atom, FactDelta, FactView } from "../../dsl/facts.ts";
import type { Grounder, Grounding } from "../../runtime/environment.ts";
import { goalFacts, parseGoal } from "./goals.ts";
import { typeOfId } from "./names.ts";
import { type Observed, parseObservation } from "./observation_parse.ts";
import { parseCommand } from "./commands.ts";
import { type ClassRules, classRules } from "./rules.ts";
import { loadAlfredData } from "./catalog.ts";

const atom = (pred: string, ...args: (string | number)[]): Atom => ({ pred, args });

/** Builds one delta, skipping additions already true and removals already false. */
class DeltaBuilder {
  readonly delta: FactDelta = { add: [], remove: [], objects: {} };
  readonly #facts: FactView | undefined;
  readonly #added = new Set<string>();
  readonly #removed = new Set<string>();

  constructor(facts?: FactView) {
    this.#facts = facts;
  }

  add(a: Atom): void {
    const key = JSON.stringify(a);
    if (this.#added.has(key)) return;
    this.#added.add(key);
    if (this.#removed.delete(key)) {
      this.delta.remove = this.delta.remove.filter((r) => JSON.stringify(r) !== key);
    }
    if (this.#facts?.has(a)) return;
    this.delta.add.push(a);
  }

  remove(a: Atom): void {
    const key = JSON.stringify(a);
    if (this.#removed.has(key)) return;
    if (this.#added.delete(key)) {
      this.delta.add = this.delta.add.filter((x) => JSON.stringify(x) !== key);
    }
    if (this.#facts && !this.#facts.has(a)) return;
    this.#removed.add(key);
    this.delta.remove.push(a);
  }

  query(pred: string, pattern: (string | null)[]): Atom[] {
    return this.#facts?.query(pred, pattern) ?? [];
  }

  /** Declares an item (and its class) the first time it is seen. */
  item(id: string): void {
    if (this.#facts?.typeOf(id) !== undefined || this.delta.objects![id]) return;
    this.delta.objects![id] = "Item";
    this.add(atom("is_type", id, typeOfId(id)));
  }

  /** Declares a receptacle (and its class) the first time it is seen. */
  receptacle(id: string): void {
    if (this.#facts?.typeOf(id) !== undefined || this.delta.objects![id]) return;
    this.delta.objects![id] = "Receptacle";
    this.add(atom("receptacle_type", id, typeOfId(id)));
  }
}

/** The agent stands at `ids` (and nowhere else). */
function moveTo(b: DeltaBuilder, ids: string[]): void {
  for (const old of b.query("locates", [null])) {
    if (!ids.includes(old.args[0] as string)) b.remove(old);
  }
  for (const id of ids) {
    b.receptacle(id);
    b.add(atom("locates", id));
    b.add(atom("visited", id));
  }
}

/** The receptacle holds exactly `items` (as seen now). */
function seeContents(b: DeltaBuilder, receptacle: string, items: string[]): void {
  b.receptacle(receptacle);
  for (const old of b.query("contains", [receptacle, null])) {
    if (!items.includes(old.args[1] as string)) b.remove(old);
  }
  for (const item of items) {
    b.item(item);
    for (const elsewhere of b.query("contains", [null, item])) {
      if (elsewhere.args[0] !== receptacle) b.remove(elsewhere);
    }
    b.remove(atom("holds", item));
    b.add(atom("contains", receptacle, item));
  }
  b.remove(atom("unexplored", receptacle));
}

function setOpen(b: DeltaBuilder, receptacle: string, open: boolean): void {
  b.receptacle(receptacle);
  b.add(atom(open ? "is_open" : "is_closed", receptacle));
  b.remove(atom(open ? "is_closed" : "is_open", receptacle));
}

function hold(b: DeltaBuilder, item: string): void {
  b.item(item);
  for (const c of b.query("contains", [null, item])) b.remove(c);
  b.add(atom("holds", item));
}

function applyObserved(b: DeltaBuilder, o: Observed, grounding: Grounding): void {
  switch (o.kind) {
    case "room":
      for (const old of b.query("locates", [null])) b.remove(old);
      for (const r of o.receptacles) {
        b.receptacle(r);
        b.add(atom("reachable", r));
        if (b.query("visited", [r]).length === 0 && b.query("unexplored", [r]).length === 0) {
          b.add(atom("unexplored", r));
        }
      }
      return;
    case "view":
      // Seeing a receptacle means standing at it (go to, open and examine all require it).
      moveTo(b, [o.receptacle]);
      if (o.state === "closed") setOpen(b, o.receptacle, false);
      else {
        if (o.state === "open") setOpen(b, o.receptacle, true);
        seeContents(b, o.receptacle, o.items);
      }
      return;
    case "close":
      setOpen(b, o.receptacle, false);
      return;
    case "take":
      hold(b, o.item);
      return;
    case "put":
      b.item(o.item);
      b.remove(atom("holds", o.item));
      b.receptacle(o.to);
      b.add(atom("contains", o.to, o.item));
      return;
    case "change":
      b.item(o.item);
      if (o.verb === "clean") b.add(atom("is_clean", o.item));
      if (o.verb === "heat") {
        b.add(atom("is_hot", o.item));
        b.remove(atom("is_cool", o.item));
      }
      if (o.verb === "cool") {
        b.add(atom("is_cool", o.item));
        b.remove(atom("is_hot", o.item));
      }
      return;
    case "toggle":
      b.item(o.item);
      if (o.on) b.add(atom("is_on", o.item));
      else b.remove(atom("is_on", o.item));
      return;
    case "no_switch":
      grounding.rejected = `"${o.item}" has no switch`;
      return;
    case "inventory":
      for (const h of b.query("holds", [null])) {
        if (!o.items.includes(h.args[0] as string)) b.remove(h);
      }
      for (const item of o.items) hold(b, item);
      return;
    case "examine_item": {
      b.item(o.item);
      for (const state of ["clean", "hot", "cool"] as const) {
        if (o[state]) b.add(atom(`is_${state}`, o.item));
        else if (o.on === undefined && o.contents === undefined) {
          b.remove(atom(`is_${state}`, o.item));
        }
      }
      if (o.on === true) b.add(atom("is_on", o.item));
      if (o.on === false) b.remove(atom("is_on", o.item));
      return;
    }
    case "facing":
      moveTo(b, o.receptacles);
      return;
    case "receptacle_object":
      b.item(o.item);
      if (o.rule.startsWith("Pickup")) hold(b, o.item);
      else b.remove(atom("holds", o.item));
      return;
    case "task": {
      const goal = parseGoal(o.goal);
      if (!goal) grounding.unknown = [...(grounding.unknown ?? []), `Your task is to: ${o.goal}`];
      else for (const a of goalFacts(goal)) b.add(a);
      return;
    }
    case "nothing":
      grounding.rejected = "Nothing happens.";
      return;
    case "todo":
      grounding.rejected = "The action is not implemented (TODO).";
      return;
    case "ok":
    case "help":
    case "slice":
      return;
    case "unknown":
      grounding.unknown = [...(grounding.unknown ?? []), o.text];
      return;
  }
}

/**
 * The ALFWorld grounder.
 *
 * @example Usage
 * ```ts
 * import { AlfworldGrounder } from "./grounder.ts";
 * const g = new AlfworldGrounder();
 * const first = g.initial("You are in the middle of a room. Looking quickly around you, you see a fridge 1, and a sinkbasin 1.", "put a clean apple in fridge.");
 * console.log(first.delta.add.length > 0, first.unknown); // true undefined
 * ```
 */
export class AlfworldGrounder implements Grounder {
  #rules?: ClassRules;

  /** Creates a grounder; placement rules load from the ALFRED data on first use unless given. */
  constructor(rules?: ClassRules) {
    this.#rules = rules;
  }

  /** Facts of the first observation (room and task line) and of the goal sentence. */
  initial(observation: string, goal: string): Grounding {
    const b = new DeltaBuilder();
    const grounding: Grounding = { delta: b.delta };
    const parsed = parseObservation(observation);
    applyObserved(b, parsed, grounding);
    const inline = parsed.kind === "room" ? parsed.goal : undefined;
    const sentence = goal.trim() || inline;
    if (sentence) {
      applyObserved(
        b,
        { kind: "task", goal: sentence.replace(/^Your task is to:\s*/, "") },
        grounding,
      );
    }
    this.#placement(b);
    return grounding;
  }

  // ALFRED's placement rules as facts: which receptacles of the room may
  // hold an item of a class the goal names (the item, the lamp).
  #placement(b: DeltaBuilder): void {
    const types = b.delta.add.filter((a) => a.pred === "goal_item" || a.pred === "goal_lamp")
      .map((a) => a.args[0]).filter((t): t is string => typeof t === "string");
    if (types.length === 0) return;
    this.#rules ??= classRules(loadAlfredData());
    for (const atom of b.delta.add.filter((a) => a.pred === "receptacle_type")) {
      const [receptacle, rtype] = atom.args;
      if (typeof receptacle !== "string" || typeof rtype !== "string") continue;
      for (const t of types) {
        if (this.#rules.canContain(rtype, t)) b.add({ pred: "may_hold", args: [receptacle, t] });
      }
    }
  }

  /**
   * What a recorded step's success proves held before it: acting on a
   * receptacle (open, close, take from, put in, clean/heat/cool with) needs
   * the agent there, and opening needs it closed. Some recorded episodes
   * start next to a receptacle without saying so.
   */
  hindsight(facts: FactView, action: string, observation: string): FactDelta {
    const delta: FactDelta = { add: [], remove: [] };
    if (/^\s*Nothing happens\.?\s*$/.test(observation)) return delta;
    const command = parseCommand(action);
    if (!command) return delta;
    const at = command.kind === "open" || command.kind === "close"
      ? command.target
      : command.kind === "take"
      ? command.from
      : command.kind === "put"
      ? command.to
      : command.kind === "clean" || command.kind === "heat" || command.kind === "cool"
      ? command.station
      : undefined;
    if (at === undefined || facts.typeOf(at) === undefined) return delta;
    if (!facts.has({ pred: "locates", args: [at] })) {
      for (const x of facts.query("locates", [null])) delta.remove.push(x);
      delta.add.push({ pred: "locates", args: [at] });
    }
    if (
      command.kind === "open" && !facts.has({ pred: "is_closed", args: [at] }) &&
      !facts.has({ pred: "is_open", args: [at] })
    ) delta.add.push({ pred: "is_closed", args: [at] });
    return delta;
  }

  /** The fact change of one step. */
  step(facts: FactView, _action: string, observation: string): Grounding {
    const b = new DeltaBuilder(facts);
    const grounding: Grounding = { delta: b.delta };
    applyObserved(b, parseObservation(observation), grounding);
    return grounding;
  }
}
