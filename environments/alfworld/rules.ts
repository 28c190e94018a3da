/**
 * Class rules read from the ALFRED constants, keyed by display type names
 * (`creditcard`, `sidetable`): which receptacle may hold which object, which
 * objects can be picked up, cleaned, heated, cooled, toggled or sliced, and
 * which receptacles open. These are the `canContain`, `cleanable`, ...,
 * `openable` facts of ALFWorld's PDDL problems.
 *
 * @module
 */
import type { AlfredData } from "./catalog.ts";
import { classToTypeName } from "./names.ts";

/**
 * ALFRED's placement table has one `TableTop` entry for every kind of table;
 * the floor plans name the tables. Layout counts also say `Sink`/`Bathtub`
 * for the basins the text world calls `sinkbasin`/`bathtubbasin`.
 */
const RECEPTACLE_ALIASES: Record<string, string> = {
  sidetable: "TableTop",
  diningtable: "TableTop",
  coffeetable: "TableTop",
};

/** The station receptacle type of each object-changing action. */
export const STATIONS = { clean: "sinkbasin", heat: "microwave", cool: "fridge" } as const;

/** Object types that count as lamps for "look at X under the lamp" tasks. */
export const LAMP_TYPES: readonly string[] = ["desklamp", "floorlamp"];

/** Which object and receptacle classes do what. */
export interface ClassRules {
  /** The ALFRED class of a display type name (`creditcard` -> `CreditCard`), if known. */
  className(typeName: string): string | undefined;
  /** Whether a receptacle of this type may hold an object of that type (PDDL `canContain`). */
  canContain(receptacleType: string, itemType: string): boolean;
  /** Whether receptacles of this type open and close. */
  openable(receptacleType: string): boolean;
  /** Whether an object of this type can be picked up (unknown types can). */
  pickupable(itemType: string): boolean;
  /** Whether the object can be cleaned in a sink basin. */
  cleanable(itemType: string): boolean;
  /** Whether the object can be heated in a microwave. */
  heatable(itemType: string): boolean;
  /** Whether the object can be cooled in a fridge. */
  coolable(itemType: string): boolean;
  /** Whether the object can be switched on (`use`). */
  toggleable(itemType: string): boolean;
  /** Whether the object can be sliced. */
  sliceable(itemType: string): boolean;
  /** Whether the object is a movable receptacle (`mug`, `bowl`, ...): examine shows its inside. */
  receptacleObject(itemType: string): boolean;
}

/**
 * Builds the class rules from the loaded constants.
 *
 * @example Usage
 * ```ts
 * import { loadAlfredData } from "./catalog.ts";
 * import { classRules } from "./rules.ts";
 * const rules = classRules(loadAlfredData());
 * console.log(rules.canContain("sidetable", "apple")); // true
 * ```
 */
export function classRules(data: AlfredData): ClassRules {
  // Built once per data set: every environment and task generator shares them,
  // so the caches keyed by rules (room plans, generated tasks) are hit.
  let rules = rulesByData.get(data);
  if (!rules) {
    rules = buildClassRules(data);
    rulesByData.set(data, rules);
  }
  return rules;
}

const rulesByData = new WeakMap<AlfredData, ClassRules>();

function buildClassRules(data: AlfredData): ClassRules {
  const c = data.constants;
  const byName = new Map<string, string>();
  for (const cls of [...c.OBJECTS, ...c.RECEPTACLES, ...Object.keys(c.VAL_RECEPTACLE_OBJECTS)]) {
    byName.set(classToTypeName(cls), cls);
  }
  const names = (list: readonly string[]): Set<string> => new Set(list.map(classToTypeName));
  const contain = new Map<string, Set<string>>();
  for (const [rec, objs] of Object.entries(c.VAL_RECEPTACLE_OBJECTS)) {
    contain.set(classToTypeName(rec), names(objs));
  }
  const placeable = new Set<string>();
  for (const objs of contain.values()) for (const o of objs) placeable.add(o);
  for (const m of c.MOVABLE_RECEPTACLES) placeable.add(classToTypeName(m));
  const known = names(c.OBJECTS);
  const heat = names(c.VAL_ACTION_OBJECTS.Heatable);
  const cool = names(c.VAL_ACTION_OBJECTS.Coolable);
  const clean = names(c.VAL_ACTION_OBJECTS.Cleanable);
  const toggle = names(c.VAL_ACTION_OBJECTS.Toggleable);
  const slice = names(c.VAL_ACTION_OBJECTS.Sliceable);
  const open = names(c.OPENABLE_CLASS_LIST);
  const movable = names(c.MOVABLE_RECEPTACLES);
  const tableKey = (r: string): string => classToTypeName(RECEPTACLE_ALIASES[r] ?? r);
  return {
    className: (t) => byName.get(t),
    canContain: (r, o) => contain.get(tableKey(r))?.has(o) ?? false,
    openable: (r) => open.has(r),
    // Unknown types (e.g. `pineapple` in a ReAct demo) are treated as ordinary pickable objects.
    pickupable: (o) => placeable.has(o) || !known.has(o),
    cleanable: (o) => clean.has(o),
    heatable: (o) => heat.has(o),
    coolable: (o) => cool.has(o),
    toggleable: (o) => toggle.has(o),
    sliceable: (o) => slice.has(o),
    receptacleObject: (o) => movable.has(o),
  };
}
