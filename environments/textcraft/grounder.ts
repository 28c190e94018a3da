/**
 * The rule-based TextCraft grounder: crafting commands become recipe facts,
 * replies become inventory changes, refusals and rejections. It reads only
 * the observations (never the recipe database): families are recognised by
 * their names.
 *
 * @module
 */
import type { Atom, AtomArg, FactDelta, FactView } from "../../dsl/facts.ts";
import type { Grounder, Grounding } from "../../runtime/environment.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { idToName, nameToId } from "./names.ts";
import type { RecipeBook } from "./recipe_book.ts";

const LINE = /^craft ([0-9]+) (.+) using (.+)$/;
const COUNTED = /^([0-9]+) (.+)$/;

/** One listed crafting command. */
export interface ListedRecipe {
  /** Output text name. */
  output: string;
  /** Output count. */
  count: number;
  /** Inputs as listed (text names, possibly family names) with counts. */
  inputs: { item: string; count: number }[];
}

/**
 * Parses a crafting command line `craft 4 stick using 2 planks`; returns
 * `undefined` when the line is not one.
 *
 * @example Usage
 * ```ts
 * import { parseRecipeLine } from "./grounder.ts";
 * console.log(parseRecipeLine("craft 4 stick using 2 planks"));
 * // { output: "stick", count: 4, inputs: [{ item: "planks", count: 2 }] }
 * ```
 */
export function parseRecipeLine(line: string): ListedRecipe | undefined {
  const m = LINE.exec(line.trim());
  if (!m) return undefined;
  const inputs: ListedRecipe["inputs"] = [];
  for (const part of m[3].split(",")) {
    const c = COUNTED.exec(part.trim());
    if (!c) return undefined;
    inputs.push({ item: c[2], count: Number(c[1]) });
  }
  return { output: m[2], count: Number(m[1]), inputs };
}

/**
 * Whether `item` looks like a member of the family `family`: its last word
 * is the family's last word or that word's singular (`oak planks` in
 * `planks`, `oak slab` in `wooden slabs`, `red wool` in `wool`). A
 * qualified name whose last word is repeated unchanged names a sibling, not
 * a family (`blue dye` is not a kind of `green dye`).
 *
 * @example Usage
 * ```ts
 * import { isFamilyMember } from "./grounder.ts";
 * console.log(isFamilyMember("oak slab", "wooden slabs")); // true
 * ```
 */
export function isFamilyMember(item: string, family: string): boolean {
  if (item === family) return false;
  const word = lastWord(family);
  if (family.trim().includes(" ") && lastWord(item) === word) return false;
  return wordForms(word).has(lastWord(item));
}

function lastWord(s: string): string {
  return s.trim().split(/\s+/).at(-1) ?? "";
}

/** A family's last word and its singular forms (`planks` -> `plank`, `berries` -> `berry`). */
function wordForms(word: string): Set<string> {
  const forms = new Set([word]);
  if (word.endsWith("ies")) forms.add(word.slice(0, -3) + "y");
  if (word.endsWith("es")) forms.add(word.slice(0, -2));
  if (word.endsWith("s")) forms.add(word.slice(0, -1));
  return forms;
}

/**
 * The TextCraft grounder.
 *
 * @example Usage
 * ```ts
 * import { TextCraftGrounder } from "./grounder.ts";
 * const g = new TextCraftGrounder().initial(
 *   "Crafting commands:\ncraft 4 oak planks using 1 oak logs\n\nGoal: craft oak planks.",
 *   "craft oak planks",
 * );
 * console.log(g.delta.add.length > 0); // true
 * ```
 */
export class TextCraftGrounder implements Grounder {
  readonly #book?: RecipeBook;

  /**
   * A grounder; with `book`, the recipe data the environment is built from
   * decides which listed names are families and what their members are
   * (names it does not know are judged by their words, as without it).
   */
  constructor(options: { book?: RecipeBook } = {}) {
    this.#book = options.book;
  }

  /**
   * Facts of the first observation: one `Recipe` object per command line
   * (`recipe 1`, ... in listing order) with makes/produces/uses/needs,
   * craftable outputs, families and members, `recipe_inputs`, and the goal.
   */
  initial(observation: string, goal: string): Grounding {
    const add: Atom[] = [];
    const objects: Record<string, string> = {};
    const unknown: string[] = [];
    const recipes: ListedRecipe[] = [];
    const lines = stripPrefix(observation).split("\n").map((l) => l.trim());
    for (const line of lines) {
      if (line === "" || line === "Crafting commands:" || line.startsWith("Goal:")) continue;
      const recipe = parseRecipeLine(line);
      if (recipe) recipes.push(recipe);
      else unknown.push(line);
    }
    const outputs = new Set(recipes.map((r) => r.output));
    // A set of keys, not a scan of `add`: a server may send thousands of lines.
    const added = new Set<string>();
    const push = (pred: string, ...args: AtomArg[]) => {
      const key = JSON.stringify([pred, ...args]);
      if (added.has(key)) return;
      added.add(key);
      add.push({ pred, args });
    };
    recipes.forEach((r, i) => {
      const id = `recipe ${i + 1}`;
      objects[id] = "Recipe";
      objects[r.output] = "Item";
      push("makes", id, r.output);
      push("produces", id, r.output, r.count);
      push("craftable", r.output);
      for (const input of r.inputs) {
        objects[input.item] = "Item";
        push("uses", id, input.item);
        push("needs", id, input.item, input.count);
      }
    });
    const inputs = new Set(recipes.flatMap((r) => r.inputs.map((i) => i.item)));
    const madeFrom = new Map<string, Set<string>>();
    for (const r of recipes) {
      const set = madeFrom.get(r.output) ?? new Set<string>();
      for (const i of r.inputs) set.add(i.item);
      madeFrom.set(r.output, set);
    }
    // Outputs by last word, in listing order: a family's members are found
    // by the forms of its own last word, not by testing every output.
    const byLastWord = new Map<string, number[]>();
    const outputList = [...outputs];
    outputList.forEach((o, i) => {
      const w = lastWord(o);
      const list = byLastWord.get(w);
      if (list) list.push(i);
      else byLastWord.set(w, [i]);
    });
    const book = this.#book;
    for (const family of inputs) {
      if (outputs.has(family)) continue;
      const familyId = nameToId(family);
      // The recipe data knows the name as a plain item: no family.
      if (book?.isItem(familyId) && !book.isTag(familyId)) continue;
      const candidates = [...wordForms(lastWord(family))]
        .flatMap((w) => byLastWord.get(w) ?? [])
        .sort((a, b) => a - b)
        .map((i) => outputList[i]);
      // An output made from the candidate family is not one of its members
      // (mossy cobblestone is made from cobblestone, not a kind of it); where
      // the recipe data knows both, it says.
      const members = book?.isTag(familyId)
        ? outputList.filter((o) =>
          book.isItem(nameToId(o))
            ? book.tagOf(nameToId(o)) === familyId
            : candidates.includes(o) && isFamilyMember(o, family) && !madeFrom.get(o)?.has(family)
        )
        // A family the data does not know: only outputs it does not know either
        // can be its members (the ones it knows belong where it says).
        : candidates.filter((o) =>
          !book?.isItem(nameToId(o)) && isFamilyMember(o, family) && !madeFrom.get(o)?.has(family)
        );
      if (members.length === 0) continue;
      push("is_tag", family);
      for (const m of members) push("member", m, family);
    }
    const goalItem = goalItemOf(goal) ?? goalItemOf(lastGoalLine(lines));
    if (goalItem !== undefined) {
      objects[goalItem] ??= "Item";
      push("goal", goalItem, 1);
    } else unknown.push(`goal: ${goal}`);
    const delta: FactDelta = { add, remove: [], objects };
    const store = new FactStore(add, objects);
    for (const x of refreshInputs(store, new Map(), new Set()).add) delta.add.push(x);
    return unknown.length ? { delta, unknown } : { delta };
  }

  /** The fact change of one action and its reply (see the module doc for the rules). */
  step(facts: FactView, action: string, observation: string): Grounding {
    const text = stripPrefix(observation).trim();
    const delta: FactDelta = { add: [], remove: [], objects: {} };
    const before = inventoryOf(facts);
    const after = new Map(before);
    const notTags = new Set<string>();
    let rejected: string | undefined;
    let unknown: string[] | undefined;
    let m: RegExpExecArray | null;
    if ((m = /^Got ([0-9]+) (.+)$/.exec(text))) {
      const item = m[2];
      after.set(item, (after.get(item) ?? 0) + Number(m[1]));
      const unavailable = { pred: "unavailable", args: [item] };
      if (facts.has(unavailable)) delta.remove.push(unavailable);
      // A fetched name is a plain item even if its name looked like a family.
      if (facts.has({ pred: "is_tag", args: [item] })) {
        notTags.add(item);
        delta.remove.push({ pred: "is_tag", args: [item] });
        for (const x of facts.query("member", [null, item])) delta.remove.push(x);
      }
    } else if ((m = /^Crafted ([0-9]+) (.+)$/.exec(text))) {
      const item = idToName(m[2]);
      after.set(item, (after.get(item) ?? 0) + Number(m[1]));
      for (const input of craftInputs(action)) {
        after.set(input.item, (after.get(input.item) ?? 0) - input.count);
      }
    } else if (text.startsWith("Inventory:")) {
      after.clear();
      for (const [, item, n] of text.matchAll(/\[([^\]]+)\] \(([0-9]+)\)/g)) {
        after.set(item, (after.get(item) ?? 0) + Number(n));
      }
    } else if (
      text.startsWith("Could not find enough items") ||
      text.startsWith("Could not find a valid recipe")
    ) {
      rejected = text;
    } else if ((m = /^Could not find (.*)$/.exec(text))) {
      const item = m[1];
      if (facts.typeOf(item) === undefined) delta.objects![item] = "Item";
      delta.add.push({ pred: "unavailable", args: [item] });
      rejected = text;
    } else if (text.startsWith("Could not") || text.startsWith("Wrong item format")) {
      rejected = text;
    } else {
      unknown = [observation];
    }
    for (const [item, n] of after) {
      if (n > 0 && facts.typeOf(item) === undefined) delta.objects![item] = "Item";
    }
    const changes = inventoryDiff(before, after);
    for (const x of changes.remove) delta.remove.push(x);
    for (const x of changes.add) delta.add.push(x);
    const refresh = refreshInputs(facts, after, notTags);
    for (const x of refresh.remove) delta.remove.push(x);
    for (const x of refresh.add) delta.add.push(x);
    const out: Grounding = { delta };
    if (rejected !== undefined) out.rejected = rejected;
    if (unknown !== undefined) out.unknown = unknown;
    return out;
  }
}

function stripPrefix(observation: string): string {
  // Some transcripts (AgentGym) prefix replies with "Observation: ".
  return observation.replace(/^Observation:\s*/, "");
}

function goalItemOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const m = /^(?:Goal:\s*)?craft (.+?)\.?$/.exec(text.trim());
  return m ? m[1].trim() : undefined;
}

function lastGoalLine(lines: string[]): string | undefined {
  return lines.findLast((l) => l.startsWith("Goal:"));
}

function craftInputs(action: string): { item: string; count: number }[] {
  const m = /^craft .* using (.*)$/.exec(action.trim());
  if (!m) return [];
  return m[1].split(",").flatMap((part) => {
    const c = COUNTED.exec(part.trim());
    return c ? [{ item: c[2], count: Number(c[1]) }] : [];
  });
}

function inventoryOf(facts: FactView): Map<string, number> {
  const out = new Map<string, number>();
  for (const a of facts.query("inventory", [null, null])) {
    out.set(String(a.args[0]), Number(a.args[1]));
  }
  return out;
}

function inventoryDiff(before: Map<string, number>, after: Map<string, number>): FactDelta {
  const delta: FactDelta = { add: [], remove: [] };
  for (const [item, n] of before) {
    if (after.get(item) !== n) delta.remove.push({ pred: "inventory", args: [item, n] });
  }
  for (const [item, n] of after) {
    if (n > 0 && before.get(item) !== n) delta.add.push({ pred: "inventory", args: [item, n] });
  }
  return delta;
}

/**
 * Recomputes `recipe_inputs` of every listed recipe for the inventory
 * `inventory`: each family replaced by the first member held in enough
 * quantity, else the first known member. Only changed atoms are returned.
 */
function refreshInputs(
  facts: FactView,
  inventory: ReadonlyMap<string, number>,
  notTags: ReadonlySet<string>,
): FactDelta {
  const delta: FactDelta = { add: [], remove: [] };
  for (const recipe of facts.objectsOfType("Recipe")) {
    const parts = facts.query("needs", [recipe, null, null]).map((a) => {
      const item = String(a.args[1]);
      const count = Number(a.args[2]);
      const isTag = !notTags.has(item) && facts.has({ pred: "is_tag", args: [item] });
      if (!isTag) return `${count} ${item}`;
      const members = facts.query("member", [null, item]).map((x) => String(x.args[0]));
      const held = members.find((x) => (inventory.get(x) ?? 0) >= count);
      return `${count} ${held ?? members[0] ?? item}`;
    });
    const text = parts.join(", ");
    const old = facts.query("recipe_inputs", [recipe, null]);
    if (old.length === 1 && old[0].args[1] === text) continue;
    for (const x of old) delta.remove.push(x);
    delta.add.push({ pred: "recipe_inputs", args: [recipe, text] });
  }
  return delta;
}
