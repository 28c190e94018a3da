/**
 * The garden grounder: reads the first observation (places, plants, the
 * shed's tools), the goal sentence, and every reply into facts. It knows
 * the reply texts, never the simulator: kinds come from names (`shed 1`,
 * `can 2`) and plant states from the words in parentheses.
 *
 * @module
 */
import {
  type Atom,
  type AtomArg,
  type FactDelta,
  FactStore,
  type FactView,
  type Grounder,
  type Grounding,
} from "../../mod.ts";

const REJECTED = /^You can't do that: (.+)$/;
const NOTHING = "Nothing happens.";
const PLANT_WORDS = new Set(["dry", "watered", "fertilized"]);
const WATER: Record<string, number> = { "empty": 0, "half full": 1, "full": 2 };

/** Collects one delta; `remove` then `add`, as a fact store applies it. */
class DeltaBuilder {
  readonly add: Atom[] = [];
  readonly remove: Atom[] = [];
  readonly objects: Record<string, string> = {};
  constructor(readonly facts: FactView) {}

  /** Makes the atom true. */
  set(pred: string, ...args: AtomArg[]): void {
    if (!this.add.some((a) => a.pred === pred && same(a.args, args))) this.add.push({ pred, args });
  }

  /** Makes the atom false (when believed). */
  unset(pred: string, ...args: AtomArg[]): void {
    this.dropAll(pred, args);
  }

  /** Makes every believed atom matching the pattern false (`null` = any). */
  dropAll(pred: string, pattern: (AtomArg | null)[]): void {
    for (const atom of this.facts.query(pred, pattern)) this.remove.push(atom);
    this.add.splice(
      0,
      this.add.length,
      ...this.add.filter((a) =>
        a.pred !== pred || !pattern.every((p, i) => p === null || a.args[i] === p)
      ),
    );
  }

  /** Sets or clears a flag atom. */
  flag(pred: string, on: boolean, ...args: AtomArg[]): void {
    if (on) this.set(pred, ...args);
    else this.unset(pred, ...args);
  }

  /** Declares an object (types from names, see {@linkcode typeOfItem}). */
  declare(id: string, type: string): void {
    if (this.facts.typeOf(id) !== type) this.objects[id] = type;
  }

  /** The delta. */
  delta(): FactDelta {
    return { add: this.add, remove: this.remove, objects: this.objects };
  }
}

function same(a: readonly AtomArg[], b: readonly AtomArg[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The name part of an id: `rose` of `rose 3`. */
function nameOf(id: string): string {
  return id.replace(/ \d+$/, "");
}

/** Splits `a (x, y), b (z), c` at the commas outside parentheses. */
function splitItems(list: string): string[] {
  return list.split(/, (?![^(]*\))/).map((s) => s.trim()).filter((s) => s !== "");
}

/**
 * The type of a listed item: `Can` and `Bag` by name, `Plant` when its
 * state is a plant's, else what is already believed, else `Tool`.
 */
function typeOfItem(facts: FactView, id: string, state: string | undefined): string {
  const name = nameOf(id);
  if (name === "can") return "Can";
  if (name === "bag") return "Bag";
  if (state !== undefined && state.split(", ").every((w) => PLANT_WORDS.has(w))) return "Plant";
  return facts.typeOf(id) ?? "Tool";
}

/**
 * The garden grounder.
 *
 * @example Usage
 * ```ts
 * import { GardenGrounder } from "./grounder.ts";
 * const g = new GardenGrounder().initial(
 *   "You are at gate 1 in a garden.\nPlaces: gate 1, shed 2, tap 1, bed 3.\nIn bed 3: rose 1 (dry).\nIn shed 2: can 1.",
 *   "water every rose",
 * );
 * console.log(g.delta.add.some((a) => a.pred === "goal_species" && a.args[0] === "rose")); // true
 * ```
 */
export class GardenGrounder implements Grounder {
  /** Facts of the first observation and the goal sentence; unparsed lines go to `unknown`. */
  initial(observation: string, goal: string): Grounding {
    const b = new DeltaBuilder(new FactStore());
    const unknown: string[] = [];
    for (const raw of observation.split("\n")) {
      const line = raw.trim();
      if (line === "" || line.startsWith("Goal:")) continue;
      let m: RegExpExecArray | null;
      if ((m = /^You are at (.+) in a garden\.$/.exec(line))) {
        b.declare(m[1], "Place");
        b.set("at", m[1]);
      } else if ((m = /^Places: (.+)\.$/.exec(line))) {
        for (const place of splitItems(m[1])) {
          b.declare(place, "Place");
          const kind = nameOf(place);
          if (kind === "shed" || kind === "tap" || kind === "bed") b.set(`is_${kind}`, place);
        }
      } else if ((m = /^In (.+?): (.+)\.$/.exec(line))) {
        if (m[2] !== "nothing") this.#items(b, m[1], splitItems(m[2]), unknown);
      } else {
        unknown.push(line);
      }
    }
    const g = /^(water|water and fertilize) every ([a-z]+)\.?$/i.exec(goal.trim());
    if (g) {
      b.set("goal_species", g[2]);
      if (g[1].toLowerCase() !== "water") b.set("goal_fertilize", g[2]);
    } else {
      unknown.push(goal);
    }
    return result(b, unknown);
  }

  /** The fact change of one reply; rejections change nothing and set `rejected`. */
  step(facts: FactView, _action: string, observation: string): Grounding {
    const text = observation.trim();
    const b = new DeltaBuilder(facts);
    const rejected = REJECTED.exec(text);
    if (rejected) return { delta: b.delta(), rejected: rejected[1] };
    if (text === NOTHING) return { delta: b.delta(), rejected: NOTHING };
    const unknown: string[] = [];
    let m: RegExpExecArray | null;
    if ((m = /^You (?:arrive at|are at) (.+?)\. (.+)$/.exec(text))) {
      this.#arrive(b, m[1], m[2], unknown);
    } else if ((m = /^You take (.+?)\.(?: It is (.+)\.)?$/.exec(text))) {
      b.declare(m[1], typeOfItem(facts, m[1], undefined));
      b.dropAll("located", [m[1], null]);
      b.set("holding", m[1]);
      if (m[2] !== undefined) this.#toolState(b, m[1], m[2], unknown);
    } else if ((m = /^You put down (.+) at (.+)\.$/.exec(text))) {
      b.unset("holding", m[1]);
      b.set("located", m[1], m[2]);
    } else if ((m = /^You fill (.+) at (.+)\. It is (.+)\.$/.exec(text))) {
      this.#toolState(b, m[1], m[3], unknown);
    } else if ((m = /^You open (.+)\.$/.exec(text))) {
      b.unset("sealed", m[1]);
    } else if ((m = /^You water (.+) with (.+)\. It is now (.+)\.$/.exec(text))) {
      b.set("watered", m[1]);
      this.#toolState(b, m[2], m[3], unknown);
    } else if ((m = /^You fertilize (.+) with (.+)\.$/.exec(text))) {
      b.set("fertilized", m[1]);
    } else if (text === "You carry nothing." || (m = /^You carry: (.+)\.$/.exec(text))) {
      this.#carried(b, m ? splitItems(m[1]) : [], unknown);
    } else {
      unknown.push(text);
    }
    return result(b, unknown);
  }

  /** The agent is at `place` and sees `rest` (`You see ...` or `There is nothing here.`). */
  #arrive(b: DeltaBuilder, place: string, rest: string, unknown: string[]): void {
    b.declare(place, b.facts.typeOf(place) ?? "Place");
    b.dropAll("at", [null]);
    b.set("at", place);
    let listed: string[] = [];
    const m = /^You see (.+)\.$/.exec(rest);
    if (m) listed = this.#items(b, place, splitItems(m[1]), unknown);
    else if (rest !== "There is nothing here.") unknown.push(rest);
    // Tools believed here but not listed are gone.
    for (const atom of b.facts.query("located", [null, place])) {
      if (!listed.includes(atom.args[0] as string)) b.remove.push(atom);
    }
  }

  /** Facts of items listed at `place`; returns their ids. */
  #items(b: DeltaBuilder, place: string, items: string[], unknown: string[]): string[] {
    const ids: string[] = [];
    for (const item of items) {
      const m = /^(.+ \d+)(?: \((.+)\))?$/.exec(item);
      if (!m) {
        unknown.push(item);
        continue;
      }
      const [, id, state] = m;
      ids.push(id);
      const type = typeOfItem(b.facts, id, state);
      b.declare(id, type);
      if (type === "Plant") {
        b.set("grows_in", id, place);
        b.set("species", id, nameOf(id));
        const words = state?.split(", ") ?? [];
        b.flag("watered", words.includes("watered"), id);
        b.flag("fertilized", words.includes("fertilized"), id);
      } else {
        b.unset("holding", id);
        b.dropAll("located", [id, null]);
        b.set("located", id, place);
        if (state !== undefined) this.#toolState(b, id, state, unknown);
      }
    }
    return ids;
  }

  /** The carried tools are exactly `items`. */
  #carried(b: DeltaBuilder, items: string[], unknown: string[]): void {
    const held: string[] = [];
    for (const item of items) {
      const m = /^(.+ \d+)(?: \((.+)\))?$/.exec(item);
      if (!m) {
        unknown.push(item);
        continue;
      }
      held.push(m[1]);
      b.declare(m[1], typeOfItem(b.facts, m[1], m[2]));
      b.dropAll("located", [m[1], null]);
      b.set("holding", m[1]);
      if (m[2] !== undefined) this.#toolState(b, m[1], m[2], unknown);
    }
    for (const atom of b.facts.query("holding", [null])) {
      if (!held.includes(atom.args[0] as string)) b.remove.push(atom);
    }
  }

  /** A can's water (`empty`, `half full`, `full`) or a bag's seal (`sealed`, `open`). */
  #toolState(b: DeltaBuilder, id: string, state: string, unknown: string[]): void {
    if (state in WATER) {
      b.dropAll("water_level", [id, null]);
      b.set("water_level", id, WATER[state]);
    } else if (state === "sealed" || state === "open") {
      b.flag("sealed", state === "sealed", id);
    } else {
      unknown.push(`${id} (${state})`);
    }
  }
}

function result(b: DeltaBuilder, unknown: string[]): Grounding {
  return unknown.length > 0 ? { delta: b.delta(), unknown } : { delta: b.delta() };
}
