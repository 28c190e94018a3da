/**
 * The garden simulator: its state, the seeded generator of a task's garden,
 * the rules of every action with their deterministic replies, and the true
 * facts of a state (what a perfect grounder would believe).
 *
 * @module
 */
import { type Atom, matchAction } from "../../mod.ts";
import { gardenVocabulary } from "./vocabulary.ts";
import { idNumbers, mixSeed, mulberry32, pick, randomInt, sample } from "./random.ts";

/** The task types: water the goal plants, or water and fertilize them. */
export const GARDEN_TASK_TYPES = ["water", "water_and_fertilize"] as const;
/** One of {@linkcode GARDEN_TASK_TYPES}. */
export type GardenTaskType = typeof GARDEN_TASK_TYPES[number];

/** Waterings a full can holds; so a can must be refilled every two plants. */
export const CAN_CAPACITY = 2;

/** A plant in a bed. */
export interface GardenPlant {
  id: string;
  species: string;
  bed: string;
  watered: boolean;
  fertilized: boolean;
}

/** A tool: a can, a bag or a plain (distractor) tool. */
export interface GardenTool {
  id: string;
  /** The name part of the id: `can`, `bag`, `trowel`, ...; one of each kind may be carried. */
  kind: string;
  /** Where it lies; `undefined` while carried. */
  place?: string;
  /** Waterings left (cans). */
  water: number;
  /** Still sealed (bags). */
  sealed: boolean;
}

/** The whole state of one garden. */
export interface GardenState {
  type: GardenTaskType;
  goalSpecies: string;
  gate: string;
  shed: string;
  tap: string;
  /** Beds in listing order. */
  beds: string[];
  /** Where the agent is. */
  agent: string;
  plants: GardenPlant[];
  tools: GardenTool[];
}

const SPECIES = ["rose", "tulip", "fern", "daisy", "lily", "iris", "mint", "sage"];
const PLAIN_TOOLS = ["trowel", "rake", "hoe"];

/**
 * Generates the garden of a task: `size` dry plants of the goal species,
 * 2-4 distractor plants of other species, 2-3 cans at the shed with random
 * fill (so which can is usable varies), 1-2 bags (sealed or open) and maybe
 * a plain tool. Ids are numbered at random so they differ across seeds.
 *
 * @param seed Generator seed.
 * @param size Number of goal plants (1-10).
 * @param type Task type.
 */
export function generateGarden(seed: number, size: number, type: GardenTaskType): GardenState {
  const random = mulberry32(mixSeed(seed, size));
  const goalSpecies = pick(random, SPECIES);
  const others = sample(random, SPECIES.filter((s) => s !== goalSpecies), 1 + randomInt(random, 2));
  const distractors = 2 + randomInt(random, 3);
  const speciesCounts = new Map<string, number>([[goalSpecies, size]]);
  for (let i = 0; i < distractors; i++) {
    const s = pick(random, others);
    speciesCounts.set(s, (speciesCounts.get(s) ?? 0) + 1);
  }
  const total = size + distractors;
  const bedCount = 2 + Math.floor(total / 3);
  const beds = idNumbers(random, bedCount).map((n) => `bed ${n}`);
  const plants: GardenPlant[] = [];
  for (const [species, count] of speciesCounts) {
    for (const n of idNumbers(random, count)) {
      const goal = species === goalSpecies;
      plants.push({
        id: `${species} ${n}`,
        species,
        bed: pick(random, beds),
        // Goal plants start untended; distractors may already be tended.
        watered: !goal && random() < 0.5,
        fertilized: !goal && random() < 0.3,
      });
    }
  }
  plants.sort((a, b) => compareIds(a.id, b.id));
  const shed = `shed ${1 + randomInt(random, 3)}`;
  const tools: GardenTool[] = [];
  const tool = (kind: string, n: number, water = 0, sealed = false) =>
    tools.push({ id: `${kind} ${n}`, kind, place: shed, water, sealed });
  for (const n of idNumbers(random, 2 + randomInt(random, 2), 2)) {
    tool("can", n, randomInt(random, CAN_CAPACITY + 1));
  }
  for (const n of idNumbers(random, 1 + randomInt(random, 2), 2)) {
    tool("bag", n, 0, random() < 0.7);
  }
  if (random() < 0.6) tool(pick(random, PLAIN_TOOLS), 1 + randomInt(random, 3));
  const gate = `gate ${1 + randomInt(random, 3)}`;
  return {
    type,
    goalSpecies,
    gate,
    shed,
    tap: `tap ${1 + randomInt(random, 3)}`,
    beds,
    agent: gate,
    plants,
    tools: tools.sort(compareTools),
  };
}

/** Orders ids by name, then by number (`bed 2` before `bed 10`). */
export function compareIds(a: string, b: string): number {
  const [na, xa] = splitId(a);
  const [nb, xb] = splitId(b);
  return na < nb ? -1 : na > nb ? 1 : xa - xb;
}

function splitId(id: string): [string, number] {
  const m = /^(.*) (\d+)$/.exec(id);
  return m ? [m[1], Number(m[2])] : [id, 0];
}

const KIND_ORDER = ["can", "bag"];

function compareTools(a: GardenTool, b: GardenTool): number {
  const rank = (t: GardenTool) => KIND_ORDER.includes(t.kind) ? KIND_ORDER.indexOf(t.kind) : 2;
  return rank(a) - rank(b) || compareIds(a.id, b.id);
}

/** The goal sentence of a state's task. */
export function gardenGoal(state: GardenState): string {
  const verb = state.type === "water" ? "water" : "water and fertilize";
  return `${verb} every ${state.goalSpecies}`;
}

/** The state text of a plant: `dry`, `watered`, `dry, fertilized`, `watered, fertilized`. */
export function plantState(p: GardenPlant): string {
  return `${p.watered ? "watered" : "dry"}${p.fertilized ? ", fertilized" : ""}`;
}

/** The state text of a can's water: `empty`, `half full`, `full`. */
export function waterText(water: number): string {
  return water <= 0 ? "empty" : water >= CAN_CAPACITY ? "full" : "half full";
}

/** A tool with its visible state: `can 2 (full)`, `bag 1 (sealed)`, `trowel 3`. */
export function toolLabel(t: GardenTool): string {
  if (t.kind === "can") return `${t.id} (${waterText(t.water)})`;
  if (t.kind === "bag") return `${t.id} (${t.sealed ? "sealed" : "open"})`;
  return t.id;
}

/** What an action would do: a rejection reason, or the change with its reply. */
type Outcome = { reason: string } | { run: () => string };

/**
 * A garden being played: applies actions to its state. Rejected actions
 * change nothing and reply `You can't do that: <reason>.` (or
 * `Nothing happens.` when the text is no action at all).
 */
export class GardenWorld {
  readonly #s: GardenState;

  /** Plays `state` (a private copy is kept). */
  constructor(state: GardenState) {
    this.#s = structuredClone(state);
  }

  /** A copy of the current state (privileged: the expert and tests read it). */
  get state(): GardenState {
    return structuredClone(this.#s);
  }

  /** All places in listing order: gate, shed, tap, then the beds. */
  places(): string[] {
    return [this.#s.gate, this.#s.shed, this.#s.tap, ...this.#s.beds];
  }

  /** The goal sentence. */
  goal(): string {
    return gardenGoal(this.#s);
  }

  /**
   * The first observation: the places, the plants of each bed with their
   * state, and the tools in the shed by name only (their fill and seal
   * states are seen when the agent gets there).
   */
  firstObservation(): string {
    const s = this.#s;
    const lines = [`You are at ${s.agent} in a garden.`, `Places: ${this.places().join(", ")}.`];
    for (const bed of s.beds) {
      const here = s.plants.filter((p) => p.bed === bed).map((p) => `${p.id} (${plantState(p)})`);
      lines.push(`In ${bed}: ${here.length > 0 ? here.join(", ") : "nothing"}.`);
    }
    const tools = s.tools.filter((t) => t.place === s.shed).map((t) => t.id);
    lines.push(`In ${s.shed}: ${tools.length > 0 ? tools.join(", ") : "nothing"}.`);
    lines.push(`Goal: ${this.goal()}.`);
    return lines.join("\n");
  }

  /** Whether every goal plant is watered (and fertilized, when asked). */
  goalMet(): boolean {
    const s = this.#s;
    return s.plants.every((p) =>
      p.species !== s.goalSpecies ||
      (p.watered && (s.type === "water" || p.fertilized))
    );
  }

  /** Why `action` would be rejected now, or `undefined` when it would be accepted. */
  rejection(action: string): string | undefined {
    const o = this.#outcome(action);
    return "reason" in o ? o.reason : undefined;
  }

  /** Applies `action`; returns the reply and whether it was accepted. */
  apply(action: string): { observation: string; accepted: boolean } {
    const o = this.#outcome(action);
    if ("reason" in o) return { observation: o.reason, accepted: false };
    return { observation: o.run(), accepted: true };
  }

  /** Every action text over the garden's objects (accepted or not). */
  candidateActions(): string[] {
    const s = this.#s;
    const out = this.places().map((p) => `go to ${p}`);
    for (const t of s.tools) out.push(`take ${t.id}`, `put down ${t.id}`);
    for (const t of s.tools) {
      if (t.kind === "can") out.push(`fill ${t.id}`);
      if (t.kind === "bag") out.push(`open ${t.id}`);
    }
    for (const p of s.plants) {
      for (const t of s.tools) {
        if (t.kind === "can") out.push(`water ${p.id} with ${t.id}`);
        if (t.kind === "bag") out.push(`fertilize ${p.id} with ${t.id}`);
      }
    }
    out.push("look", "inventory");
    return out;
  }

  /**
   * The true facts of the state in the garden vocabulary: what a grounder
   * that has seen everything believes (every tool has been seen by then).
   */
  trueFacts(): Atom[] {
    const s = this.#s;
    const atoms: Atom[] = [{ pred: "at", args: [s.agent] }];
    atoms.push({ pred: "is_shed", args: [s.shed] }, { pred: "is_tap", args: [s.tap] });
    for (const b of s.beds) atoms.push({ pred: "is_bed", args: [b] });
    for (const p of s.plants) {
      atoms.push({ pred: "grows_in", args: [p.id, p.bed] });
      atoms.push({ pred: "species", args: [p.id, p.species] });
      if (p.watered) atoms.push({ pred: "watered", args: [p.id] });
      if (p.fertilized) atoms.push({ pred: "fertilized", args: [p.id] });
    }
    for (const t of s.tools) {
      atoms.push(
        t.place === undefined
          ? { pred: "holding", args: [t.id] }
          : { pred: "located", args: [t.id, t.place] },
      );
      if (t.kind === "can") atoms.push({ pred: "water_level", args: [t.id, t.water] });
      if (t.kind === "bag" && t.sealed) atoms.push({ pred: "sealed", args: [t.id] });
    }
    atoms.push({ pred: "goal_species", args: [s.goalSpecies] });
    if (s.type === "water_and_fertilize") {
      atoms.push({ pred: "goal_fertilize", args: [s.goalSpecies] });
    }
    return atoms;
  }

  #outcome(action: string): Outcome {
    const m = matchAction(gardenVocabulary, action);
    if (!m) return { reason: "Nothing happens." };
    const a = m.args as Record<string, string>;
    switch (m.action) {
      case "go":
        return this.#go(a.place);
      case "take":
        return this.#take(a.tool);
      case "put_down":
        return this.#putDown(a.tool);
      case "fill":
        return this.#fill(a.can);
      case "open":
        return this.#open(a.bag);
      case "water":
        return this.#water(a.plant, a.can);
      case "fertilize":
        return this.#fertilize(a.plant, a.bag);
      case "look":
        return { run: () => `You are at ${this.#s.agent}. ${this.#seeHere()}` };
      case "inventory":
        return { run: () => this.#inventory() };
      default:
        return { reason: "Nothing happens." };
    }
  }

  #go(place: string): Outcome {
    if (!this.places().includes(place)) return no(`there is no place called ${place}`);
    if (this.#s.agent === place) return no(`you are already at ${place}`);
    return {
      run: () => {
        this.#s.agent = place;
        return `You arrive at ${place}. ${this.#seeHere()}`;
      },
    };
  }

  #take(id: string): Outcome {
    const t = this.#tool(id);
    if (!t) return no(this.#plant(id) ? `${id} cannot be taken` : `there is no ${id} here`);
    if (t.place === undefined) return no(`you already carry ${id}`);
    if (t.place !== this.#s.agent) return no(`there is no ${id} here`);
    if (this.#carried(t.kind)) return no(`you already carry a ${t.kind}`);
    return {
      run: () => {
        t.place = undefined;
        if (t.kind === "can") return `You take ${id}. It is ${waterText(t.water)}.`;
        if (t.kind === "bag") return `You take ${id}. It is ${t.sealed ? "sealed" : "open"}.`;
        return `You take ${id}.`;
      },
    };
  }

  #putDown(id: string): Outcome {
    const t = this.#tool(id);
    if (!t || t.place !== undefined) return no(`you are not carrying ${id}`);
    return {
      run: () => {
        t.place = this.#s.agent;
        return `You put down ${id} at ${this.#s.agent}.`;
      },
    };
  }

  #fill(id: string): Outcome {
    const t = this.#tool(id);
    if (!t || t.kind !== "can") return no(`${id} is not a watering can`);
    if (t.place !== undefined) return no(`you are not carrying ${id}`);
    if (this.#s.agent !== this.#s.tap) return no(`there is no tap at ${this.#s.agent}`);
    if (t.water >= CAN_CAPACITY) return no(`${id} is already full`);
    return {
      run: () => {
        t.water = CAN_CAPACITY;
        return `You fill ${id} at ${this.#s.tap}. It is full.`;
      },
    };
  }

  #open(id: string): Outcome {
    const t = this.#tool(id);
    if (!t || t.kind !== "bag") return no(`${id} is not a fertilizer bag`);
    if (t.place !== undefined) return no(`you are not carrying ${id}`);
    if (!t.sealed) return no(`${id} is already open`);
    return {
      run: () => {
        t.sealed = false;
        return `You open ${id}.`;
      },
    };
  }

  #water(plantId: string, canId: string): Outcome {
    const p = this.#plant(plantId);
    if (!p) return no(`${plantId} is not a plant`);
    const t = this.#tool(canId);
    if (!t || t.kind !== "can") return no(`${canId} is not a watering can`);
    if (t.place !== undefined) return no(`you are not carrying ${canId}`);
    if (p.bed !== this.#s.agent) return no(`${plantId} is not here`);
    if (t.water <= 0) return no(`${canId} is empty`);
    if (p.watered) return no(`${plantId} is already watered`);
    return {
      run: () => {
        p.watered = true;
        t.water -= 1;
        return `You water ${plantId} with ${canId}. It is now ${waterText(t.water)}.`;
      },
    };
  }

  #fertilize(plantId: string, bagId: string): Outcome {
    const p = this.#plant(plantId);
    if (!p) return no(`${plantId} is not a plant`);
    const t = this.#tool(bagId);
    if (!t || t.kind !== "bag") return no(`${bagId} is not a fertilizer bag`);
    if (t.place !== undefined) return no(`you are not carrying ${bagId}`);
    if (p.bed !== this.#s.agent) return no(`${plantId} is not here`);
    if (t.sealed) return no(`${bagId} is sealed`);
    if (p.fertilized) return no(`${plantId} is already fertilized`);
    return {
      run: () => {
        p.fertilized = true;
        return `You fertilize ${plantId} with ${bagId}.`;
      },
    };
  }

  /** `You see ...` or `There is nothing here.` for the agent's place. */
  #seeHere(): string {
    const s = this.#s;
    const items = [
      ...s.plants.filter((p) => p.bed === s.agent).map((p) => `${p.id} (${plantState(p)})`),
      ...s.tools.filter((t) => t.place === s.agent).map(toolLabel),
    ];
    return items.length > 0 ? `You see ${items.join(", ")}.` : "There is nothing here.";
  }

  #inventory(): string {
    const held = this.#s.tools.filter((t) => t.place === undefined).map(toolLabel);
    return held.length > 0 ? `You carry: ${held.join(", ")}.` : "You carry nothing.";
  }

  #tool(id: string): GardenTool | undefined {
    return this.#s.tools.find((t) => t.id === id);
  }

  #plant(id: string): GardenPlant | undefined {
    return this.#s.plants.find((p) => p.id === id);
  }

  #carried(kind: string): boolean {
    return this.#s.tools.some((t) => t.kind === kind && t.place === undefined);
  }
}

function no(reason: string): Outcome {
  return { reason: `You can't do that: ${reason}.` };
}
