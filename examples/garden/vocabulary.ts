/**
 * The garden vocabulary: places (gate, shed, tap, beds), plants of species,
 * tools (watering cans, fertilizer bags, distractor tools), what the agent
 * carries, plant and tool states, and the goal facts.
 *
 * @module
 */
import type { Vocabulary } from "../../mod.ts";

/**
 * The garden vocabulary. Ids are display names (`bed 4`, `rose 3`,
 * `can 2`); a place's kind and a tool's kind are read off its name.
 *
 * Goal facts (from the goal sentence): `goal_species(s)`, the species whose
 * plants must be watered, and for `water_and_fertilize` tasks also
 * `goal_fertilize(s)`.
 *
 * @example Usage
 * ```ts
 * import { gardenVocabulary } from "./vocabulary.ts";
 * console.log(gardenVocabulary.actions.water.template); // water {plant} with {can}
 * ```
 */
export const gardenVocabulary: Vocabulary = {
  name: "garden",
  types: {
    Place: {
      kind: "object",
      doc: "Somewhere the agent can go: `gate 2`, `shed 1`, `tap 3`, `bed 4`.",
    },
    Plant: { kind: "object", doc: "A plant in a bed, named by its species: `rose 3`." },
    Tool: { kind: "object", doc: "A movable tool; plain tools (`trowel 2`) are never needed." },
    Can: { kind: "object", parent: "Tool", doc: "A watering can: `can 2`." },
    Bag: { kind: "object", parent: "Tool", doc: "A fertilizer bag: `bag 1`." },
    Species: { kind: "value", doc: "A plant species as printed: `rose`, `fern`." },
  },
  predicates: {
    at: { params: ["Place"], doc: "The agent is at the place." },
    is_shed: { params: ["Place"], doc: "The place is the tool shed." },
    is_tap: { params: ["Place"], doc: "The place is the water tap, where cans are filled." },
    is_bed: { params: ["Place"], doc: "The place is a flower bed." },
    grows_in: { params: ["Plant", "Place"], doc: "The plant grows in the bed." },
    species: { params: ["Plant", "Species"], doc: "The plant's species." },
    watered: { params: ["Plant"], doc: "The plant has been watered." },
    fertilized: { params: ["Plant"], doc: "The plant has been fertilized." },
    located: { params: ["Tool", "Place"], doc: "The tool lies at the place (not carried)." },
    holding: { params: ["Tool"], doc: "The agent carries the tool (at most one of each kind)." },
    water_level: {
      params: ["Can", "Num"],
      doc: "Waterings left in the can: 0 (empty), 1 (half full) or 2 (full); known once seen.",
    },
    sealed: { params: ["Bag"], doc: "The bag is still sealed: it must be opened before use." },
    goal_species: { params: ["Species"], doc: "Every plant of this species must be watered." },
    goal_fertilize: {
      params: ["Species"],
      doc: "Every plant of this species must also be fertilized.",
    },
  },
  functions: {
    water_left: {
      params: ["Can"],
      returns: "Num",
      predicate: "water_level",
      default: 0,
      doc: "Waterings left in the can (0 when not known).",
    },
  },
  actions: {
    go: { template: "go to {place}", params: [{ name: "place", type: "Place" }] },
    take: {
      template: "take {tool}",
      params: [{ name: "tool", type: "Tool" }],
      doc: "Pick up a tool where the agent is; one tool of each kind at a time.",
    },
    put_down: {
      template: "put down {tool}",
      params: [{ name: "tool", type: "Tool" }],
      doc: "Leave a carried tool where the agent is.",
    },
    fill: {
      template: "fill {can}",
      params: [{ name: "can", type: "Can" }],
      doc: "Fill the carried can at the tap (it then holds two waterings).",
    },
    open: {
      template: "open {bag}",
      params: [{ name: "bag", type: "Bag" }],
      doc: "Open the carried sealed bag.",
    },
    water: {
      template: "water {plant} with {can}",
      params: [{ name: "plant", type: "Plant" }, { name: "can", type: "Can" }],
      doc: "At the plant's bed, with a carried can that is not empty.",
    },
    fertilize: {
      template: "fertilize {plant} with {bag}",
      params: [{ name: "plant", type: "Plant" }, { name: "bag", type: "Bag" }],
      doc: "At the plant's bed, with a carried open bag.",
    },
    look: { template: "look", params: [], doc: "Describe the place the agent is at." },
    inventory: { template: "inventory", params: [], doc: "List the carried tools." },
  },
  landmarks: [
    { pred: "holding", on: "add", skill: "fetch_tool", doc: "a tool was picked up" },
    { pred: "watered", on: "add", skill: "water_plant", doc: "a plant was watered" },
    { pred: "fertilized", on: "add", skill: "fertilize_plant", doc: "a plant was fertilized" },
  ],
};
