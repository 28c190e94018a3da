/**
 * The deploy grounder: reads the server and service listing (first
 * observation and `status`), the goal sentence, and every reply into facts.
 * It knows the reply texts, never the simulator: a service's kind is the
 * name part of its id.
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
const SLOTS = "(no|\\d+) free slots?";
const SERVER_UP = new RegExp(`^(.+?): up, ${SLOTS}$`);
const SERVER_DOWN = /^(.+?): down$/;
const SERVICE = /^(.+?): (not built|built)(?:, deployed on (.+?))?(, tested)?$/;
const BOOTED = new RegExp(`^You boot (.+)\\. It is up with ${SLOTS}\\.$`);
const DEPLOYED = new RegExp(`^You deploy (.+) to (.+), which now has ${SLOTS}\\.$`);

/** Collects one delta (`remove` then `add`, as a fact store applies it) from listing lines and replies. */
class DeployDelta {
  readonly add: Atom[] = [];
  readonly remove: Atom[] = [];
  readonly objects: Record<string, string> = {};
  constructor(readonly facts: FactView) {}

  /** Makes the atom true. */
  set(pred: string, ...args: AtomArg[]): void {
    if (!this.add.some((a) => a.pred === pred && same(a.args, args))) this.add.push({ pred, args });
  }

  /** Makes every believed atom matching the pattern false (`null` = any). */
  drop(pred: string, ...pattern: (AtomArg | null)[]): void {
    this.remove.push(...this.facts.query(pred, pattern));
  }

  /** Sets or clears a flag atom. */
  flag(pred: string, on: boolean, id: string): void {
    if (on) this.set(pred, id);
    else this.drop(pred, id);
  }

  /** Declares an object. */
  declare(id: string, type: string): void {
    if (this.facts.typeOf(id) !== type) this.objects[id] = type;
  }

  /** A server's state; `free` only when up. */
  server(id: string, up: boolean, free?: number): void {
    this.declare(id, "Server");
    this.flag("up", up, id);
    this.flag("down", !up, id);
    this.drop("free_slots", id, null);
    if (free !== undefined) this.set("free_slots", id, free);
  }

  /** Facts of a `Servers:` / `Services:` listing; returns the lines not understood. */
  listing(text: string): string[] {
    const unknown: string[] = [];
    for (const raw of text.split("\n")) {
      const line = raw.trim();
      if (line === "" || line === "Servers:" || line === "Services:" || line.startsWith("Goal:")) {
        continue;
      }
      let m: RegExpExecArray | null;
      if ((m = SERVER_UP.exec(line))) this.server(m[1], true, slots(m[2]));
      else if ((m = SERVER_DOWN.exec(line))) this.server(m[1], false);
      else if ((m = SERVICE.exec(line))) {
        const [, id, built, host, tested] = m;
        this.declare(id, "Service");
        this.set("service_kind", id, id.replace(/ \d+$/, ""));
        this.flag("built", built === "built", id);
        this.drop("deployed", id, null);
        if (host !== undefined) this.set("deployed", id, host);
        this.flag("tested", tested !== undefined, id);
      } else unknown.push(line);
    }
    return unknown;
  }

  /** The delta. */
  delta(): FactDelta {
    return { add: this.add, remove: this.remove, objects: this.objects };
  }
}

function same(a: readonly AtomArg[], b: readonly AtomArg[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function slots(text: string): number {
  return text === "no" ? 0 : Number(text);
}

/**
 * The deploy grounder.
 *
 * @example Usage
 * ```ts
 * import { DeployGrounder } from "./grounder.ts";
 * const g = new DeployGrounder().initial(
 *   "Servers:\n  server 2: down\nServices:\n  web 1: not built",
 *   "deploy web 1",
 * );
 * console.log(g.delta.add.some((a) => a.pred === "wanted" && a.args[0] === "web 1")); // true
 * ```
 */
export class DeployGrounder implements Grounder {
  /** Facts of the first observation (the listing) and the goal sentence. */
  initial(observation: string, goal: string): Grounding {
    const b = new DeployDelta(new FactStore());
    const unknown = b.listing(observation);
    const g = /^deploy( and test)? (.+?)\.?$/i.exec(goal.trim());
    if (g) {
      for (const id of g[2].split(/, | and /)) {
        b.declare(id, "Service");
        b.set("wanted", id);
        if (g[1] !== undefined) b.set("wanted_tested", id);
      }
    } else {
      unknown.push(goal);
    }
    return result(b, unknown);
  }

  /** The fact change of one reply; rejections change nothing and set `rejected`. */
  step(facts: FactView, _action: string, observation: string): Grounding {
    const text = observation.trim();
    const b = new DeployDelta(facts);
    const rejected = REJECTED.exec(text);
    if (rejected) return { delta: b.delta(), rejected: rejected[1] };
    if (text === NOTHING) return { delta: b.delta(), rejected: NOTHING };
    let m: RegExpExecArray | null;
    const unknown: string[] = [];
    if ((m = BOOTED.exec(text))) {
      b.server(m[1], true, slots(m[2]));
    } else if ((m = /^You build (.+)\.$/.exec(text))) {
      b.set("built", m[1]);
    } else if ((m = DEPLOYED.exec(text))) {
      b.set("built", m[1]);
      b.set("deployed", m[1], m[2]);
      b.server(m[2], true, slots(m[3]));
    } else if ((m = /^You test (.+)\. All checks pass\.$/.exec(text))) {
      b.set("tested", m[1]);
    } else if (text.startsWith("Servers:")) {
      unknown.push(...b.listing(text));
    } else {
      unknown.push(text);
    }
    return result(b, unknown);
  }
}

function result(b: DeployDelta, unknown: string[]): Grounding {
  return unknown.length > 0 ? { delta: b.delta(), unknown } : { delta: b.delta() };
}
