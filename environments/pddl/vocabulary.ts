/**
 * The vocabulary generated from a PDDL domain and its problems:
 *
 * - **Types.** PDDL types become object types (`object` becomes `Obj`).
 *   An untyped domain usually types its objects with static unary
 *   predicates (`(ball ?b)`, `(room ?r)`): a unary predicate no action
 *   changes that gives each object at most one such kind, the same in every
 *   problem, becomes a type too (`Ball`, a subtype of the object's PDDL
 *   type), and an action parameter such a predicate constrains gets that
 *   type.
 *   Each domain constant (an object of every problem: the pump) gets a
 *   type of its own.
 * - **Predicates** keep their arity; **actions** are written `name arg...`.
 * - **Goal facts.** Every predicate gets a twin `goal_<p>` (`_` appended
 *   while the domain or another twin has the name) that holds of
 *   the goal's atoms (the grounder reads it off the goal line), whatever
 *   the problems at hand ask for, so a library induced on one problem set
 *   loads on another; every predicate an action adds also gets a landmark:
 *   the step that makes `p` true where the goal asks for it ends a
 *   subgoal, so induced skills achieve one goal condition and task
 *   programs iterate over the goal's conditions.
 * - **`either` types** become the nearest common ancestor of their members.
 *
 * @module
 */
import { type LandmarkDecl, own, RESERVED_NAMES, type Vocabulary } from "../../dsl/vocabulary.ts";
import {
  actionAtoms,
  changingPredicates,
  effectAtoms,
  eitherTypes,
  EQUALITY,
  type PddlDomain,
  type PddlProblem,
} from "./parse.ts";

/**
 * A vocabulary name for a PDDL name: an identifier that is no keyword of
 * the expression language (`on-table` -> `on_table`, `in` -> `in_`).
 */
export function identifier(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_]/g, "_");
  const safe = /^[A-Za-z_]/.test(id) ? id : `_${id}`;
  return RESERVED_NAMES.has(safe) ? `${safe}_` : safe;
}

/**
 * The vocabulary type of a PDDL type; an `either` type (`either a b`)
 * names the nearest common ancestor of its members when `types` (each
 * type's parent) is given, else `Obj`.
 */
export function typeName(type: string, types: Readonly<Record<string, string>> = {}): string {
  const members = eitherTypes(type);
  if (members.length > 1) return typeName(commonAncestor(members, types));
  return type === "object" ? "Obj" : identifier(type);
}

/** A type and its ancestors, nearest first, ending with `object`. */
function ancestorsOf(type: string, types: Readonly<Record<string, string>>): string[] {
  const out = [type];
  for (let x = own(types, type); x !== undefined && !out.includes(x); x = own(types, x)) {
    out.push(x);
  }
  return out.includes("object") ? out : [...out, "object"];
}

/** The nearest type all of `members` are (`object` at worst). */
function commonAncestor(members: readonly string[], types: Readonly<Record<string, string>>) {
  const lines = members.map((m) => ancestorsOf(m, types));
  return lines[0].find((c) => lines.every((l) => l.includes(c))) ?? "object";
}

/** The prefix of goal predicates: `goal_on(b1, b2)` holds when the goal asks for `on b1 b2`. */
export const GOAL_PREFIX = "goal_";

/**
 * The prefix of the predicates of what a goal forbids: `goal_false_visited(mo)`
 * holds when the goal asks for `(not (visited mo))`.
 */
export const GOAL_FALSE_PREFIX = "goal_false_";

/**
 * The vocabulary names of each PDDL predicate's goal twins: `goal`, which
 * holds of what the goal asks for, and `forbid` (for a predicate some
 * action adds or removes), which holds of what it asks to be false. A twin's name
 * another predicate or twin already has (a domain's `goal-cell` beside
 * `cell`, or `goal-false-visited` beside `visited`) gets `_` appended until
 * it is free.
 */
export function goalTwins(domain: PddlDomain): Map<string, { goal: string; forbid?: string }> {
  const taken = new Set(Object.keys(domain.predicates).map(identifier));
  const out = new Map<string, { goal: string; forbid?: string }>();
  for (const p of Object.keys(domain.predicates)) {
    let goal = `${GOAL_PREFIX}${identifier(p)}`;
    while (taken.has(goal)) goal = `${goal}_`;
    taken.add(goal);
    out.set(p, { goal });
  }
  // A goal may ask any atom an action changes to be false: one some action
  // adds must stay or become false (a place not visited), one some action
  // only removes must be made false (a key no longer lying there).
  const changed = new Set(domain.actions.flatMap((a) => {
    const { add, del } = effectAtoms(a);
    return [...add, ...del].map((x) => x.pred);
  }));
  for (const p of Object.keys(domain.predicates)) {
    if (!changed.has(p)) continue;
    let forbid = `${GOAL_FALSE_PREFIX}${identifier(p)}`;
    while (taken.has(forbid)) forbid = `${forbid}_`;
    taken.add(forbid);
    out.get(p)!.forbid = forbid;
  }
  return out;
}

/** How a domain's objects are typed in its vocabulary. */
export interface PddlTyping {
  /** Vocabulary type of each object of every problem (and the domain's constants). */
  objects: Map<string, string>;
  /** Static unary predicates used as types, with the type each names. */
  kinds: Map<string, string>;
  /** The types this typing adds to the PDDL ones (kinds and constants), declared. */
  types: Map<string, { kind: "object"; parent: string; constant?: string; doc: string }>;
}

/**
 * The typing of a domain's objects: declared PDDL types, refined by the
 * static unary predicates that act as kinds (see the module doc).
 */
export function pddlTyping(domain: PddlDomain, problems: readonly PddlProblem[]): PddlTyping {
  const changed = changingPredicates(domain);
  const candidates = Object.entries(domain.predicates)
    .filter(([p, params]) => params.length === 1 && !changed.has(p)).map(([p]) => p);
  const declared = new Map<string, string>();
  for (const o of domain.constants) declared.set(o.name, o.type);
  for (const p of problems) for (const o of p.objects) declared.set(o.name, o.type);
  // An object's kinds in each problem; a candidate is a kind when no object
  // has two and every problem agrees on each object's.
  const kindOf = new Map<string, string>();
  const rejected = new Set<string>();
  const kindsIn = problems.map((p) => {
    const here = new Map<string, string[]>();
    for (const a of p.init) {
      if (!candidates.includes(a.pred)) continue;
      here.set(a.args[0], [...here.get(a.args[0]) ?? [], a.pred]);
    }
    return here;
  });
  for (const here of kindsIn) {
    for (const [o, kinds] of here) {
      if (kinds.length > 1) kinds.forEach((k) => rejected.add(k));
      const before = kindOf.get(o);
      if (before !== undefined && before !== kinds[0]) {
        [before, kinds[0]].forEach((k) => rejected.add(k));
      }
      kindOf.set(o, kinds[0]);
    }
  }
  // An object one problem gives a kind and another declares without it (the
  // goal cell of one maze is an ordinary cell of the next) has no kind: the
  // predicate says something of the problem, not of the object.
  problems.forEach((p, k) => {
    for (const o of p.objects) {
      const kind = kindOf.get(o.name);
      if (kind !== undefined && !kindsIn[k].has(o.name)) rejected.add(kind);
    }
  });
  const taken = new Set([...Object.keys(domain.types), "object"].map((t) => typeName(t)));
  /** A capitalised type name for `base` no other type has. */
  const fresh = (base: string, suffix: string) => {
    let name = identifier(base).replace(/^./, (c) => c.toUpperCase());
    while (taken.has(name)) name = `${name}${suffix}`;
    taken.add(name);
    return name;
  };
  const kinds = new Map<string, string>();
  const types: PddlTyping["types"] = new Map();
  for (const pred of candidates) {
    if (rejected.has(pred) || ![...kindOf.values()].includes(pred)) continue;
    const type = fresh(pred, "_kind");
    kinds.set(pred, type);
    // Under the PDDL type of its objects when they share one.
    const parents = new Set(
      [...kindOf].filter(([, k]) => k === pred).map(([o]) => declared.get(o)),
    );
    const [parent] = parents;
    types.set(type, {
      kind: "object",
      parent: parents.size === 1 && parent !== undefined ? typeName(parent) : "Obj",
      doc: `Objects ${pred} holds of.`,
    });
  }
  const objects = new Map<string, string>();
  for (const [o, type] of declared) {
    const kind = kindOf.get(o);
    objects.set(o, kind !== undefined && kinds.has(kind) ? kinds.get(kind)! : typeName(type));
  }
  // A constant is the same object in every problem (the pump, the jack):
  // its own type lets a skill choose it by role rather than by name.
  for (const c of domain.constants) {
    const type = fresh(c.name, "_const");
    types.set(type, {
      kind: "object",
      parent: objects.get(c.name)!,
      constant: c.name,
      doc: "A constant of the domain.",
    });
    objects.set(c.name, type);
  }
  return { objects, kinds, types };
}

/**
 * The type each predicate argument really takes, keyed `<pred>/<index>`:
 * the declared type when every action passes one of it, else the nearest
 * common ancestor of the types the actions pass (a domain may declare
 * `(in ?x - container ?y - obj)` and use `(in ?obj ?container)`).
 */
function usedTypes(domain: PddlDomain): Map<string, string> {
  const ancestors = (t: string) =>
    eitherTypes(t).length > 1
      ? ancestorsOf(commonAncestor(eitherTypes(t), domain.types), domain.types)
      : ancestorsOf(t, domain.types);
  const uses = new Map<string, string[]>();
  for (const a of domain.actions) {
    for (const { atom, scope } of actionAtoms(a)) {
      if (atom.pred === EQUALITY) continue;
      // A quantified variable takes its quantifier's type (the innermost where names repeat).
      const typeOf = new Map([...a.params, ...scope].map((p) => [p.name, p.type]));
      atom.args.forEach((arg, i) => {
        const t = typeOf.get(arg) ?? domain.constants.find((c) => c.name === arg)?.type;
        if (t !== undefined) {
          uses.set(`${atom.pred}/${i}`, [...uses.get(`${atom.pred}/${i}`) ?? [], t]);
        }
      });
    }
  }
  const out = new Map<string, string>();
  for (const [p, params] of Object.entries(domain.predicates)) {
    params.forEach((x, i) => {
      const types = uses.get(`${p}/${i}`) ?? [];
      if (types.every((t) => ancestors(t).includes(x.type))) return;
      const common = ancestors(types[0]).find((c) => types.every((t) => ancestors(t).includes(c)));
      out.set(`${p}/${i}`, common ?? "object");
    });
  }
  return out;
}

/** The vocabulary of a domain and its problems (see the module doc). */
export function pddlVocabulary(
  domain: PddlDomain,
  problems: readonly PddlProblem[] = [],
  typing: PddlTyping = pddlTyping(domain, problems),
): Vocabulary {
  const types: Vocabulary["types"] = { Obj: { kind: "object", doc: "Any PDDL object." } };
  for (const [t, parent] of Object.entries(domain.types)) {
    types[typeName(t)] = { kind: "object", parent: typeName(parent), doc: `PDDL type ${t}.` };
  }
  for (const [type, decl] of typing.types) types[type] = decl;
  const predicates: Vocabulary["predicates"] = {};
  const used = usedTypes(domain);
  for (const [p, params] of Object.entries(domain.predicates)) {
    const types = params.map((x, i) => typeName(used.get(`${p}/${i}`) ?? x.type, domain.types));
    const declared = params.map((x) => typeName(x.type, domain.types));
    predicates[identifier(p)] = {
      params: types,
      doc: `PDDL predicate ${p}.${
        types.join() === declared.join()
          ? ""
          : ` Declared (${declared.join(", ")}); the actions use it with (${types.join(", ")}).`
      }`,
    };
  }
  const actions: Vocabulary["actions"] = {};
  for (const a of domain.actions) {
    const params = a.params.map((p) => {
      const kind = a.precondition.find((l) =>
        !l.negated && l.args.length === 1 && l.args[0] === p.name && typing.kinds.has(l.pred)
      );
      return {
        name: identifier(p.name.slice(1)),
        type: kind ? typing.kinds.get(kind.pred)! : typeName(p.type, domain.types),
      };
    });
    actions[identifier(a.name)] = {
      template: [a.name, ...params.map((p) => `{${p.name}}`)].join(" "),
      params,
      doc: `PDDL action ${a.name}.`,
    };
  }
  const landmarks: LandmarkDecl[] = [];
  const twins = goalTwins(domain);
  // Only what some action adds can be achieved.
  const added = new Set(domain.actions.flatMap((a) => effectAtoms(a).add.map((x) => x.pred)));
  const argsOf = (id: string) => predicates[id].params.map((_, i) => `a${i}`).join(", ");
  for (const p of Object.keys(domain.predicates)) {
    const id = identifier(p);
    const { goal } = twins.get(p)!;
    predicates[goal] = {
      params: predicates[id].params,
      doc: `The goal asks for ${p}.`,
    };
    if (!added.has(p)) continue;
    landmarks.push({
      pred: id,
      on: "add",
      when: `${goal}(${argsOf(id)})`,
      skill: `achieve_${id}`,
      doc: `Makes ${p} hold as the goal asks.`,
    });
  }
  // What the goal forbids, after the rest: a step that makes such an atom
  // false ends a subgoal too, and one that makes it true where no action
  // makes it false again is a dead end.
  for (const p of Object.keys(domain.predicates)) {
    const id = identifier(p);
    const { forbid } = twins.get(p)!;
    if (forbid === undefined) continue;
    predicates[forbid] = {
      params: predicates[id].params,
      doc: `The goal asks that ${p} not hold.`,
    };
    landmarks.push({
      pred: id,
      on: "remove",
      when: `${forbid}(${argsOf(id)})`,
      skill: `end_${id}`,
      doc: `Makes ${p} false as the goal asks.`,
    });
  }
  return {
    name: identifier(domain.name),
    types,
    predicates,
    functions: {},
    actions,
    ...(landmarks.length > 0 ? { landmarks } : {}),
  };
}
