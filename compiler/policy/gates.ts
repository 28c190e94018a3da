/**
 * Gates: places a mover cannot enter until another action opens them. A
 * mover's step may ask something of its destination that the map does not
 * fix (`open(v)`) and another action makes true (`unlock(cur, l, key, s)`
 * adds `open(l)`). When the goal's business lies where no open path leads,
 * a place to open is a **blocking** one: closed, next to where the mover
 * can go, and on a path that ignores what is closed to a place the goal
 * still needs (where a pending object lies, or is to go) and no open path
 * reaches. Where opening one such place is enough (an open path leads
 * from it to such a place), only those block: a mover with a key opened
 * every lock of its shape on the way to anywhere the goal needs. (Not
 * "the first closed place on a shortest such path": that changes with
 * every step the mover takes, and a mover heading for what opens it then
 * goes round in circles; which places are next to the open region does
 * not.) What the opening action needs of
 * another of its objects (`holding(key)`, of a key whose shape is the
 * lock's) makes that object **wanted**: the demonstrations fetched a key
 * only when a lock stood in the way. An object the goal wants only at
 * places no open path reaches is **stranded**, unless it opens the way
 * itself: the demonstrations took up no such thing, which would fill the
 * hand the key needs.
 *
 * In the expression language all three are quantified conditions over
 * distances (`distance(...)`), the step graph's and the same graph's
 * without what is closed.
 *
 * @module
 */
import type { Atom } from "../../dsl/facts.ts";
import { isAssignable, type Vocabulary } from "../../dsl/vocabulary.ts";
import {
  assignments,
  type Conjunction,
  existentialText,
  freshName,
  type Literal,
  literalText,
  type StateIndex,
} from "./conjunction.ts";
import { distanceText, movedArgument, type Mover, MoverDistances, stepText } from "./movers.ts";
import { pending, type PendingGoal, pendingText } from "./pending.ts";
import { goalRelations } from "./goals.ts";

/** The predicate of a blocking literal (one argument, the place): `blocking:<gate index>`. */
export const BLOCKING = "blocking:";

/** The predicate of a stranded literal (one argument): `stranded:<gate index>`. */
export const STRANDED = "stranded:";

/** The predicate of a wanted literal (one argument): `wanted:<gate index>`. */
export const WANTED = "wanted:";

/** A mover's closable places and the action that opens them. */
export interface Gate {
  /** The mover whose steps need the destination open. */
  mover: Mover;
  /** The same graph with only what the map fixes (the closable places open). */
  relaxed: Mover;
  /** The one-argument predicate a step needs of its destination (`open`). */
  fluent: string;
  /** The action that makes it true and the parameter it makes it of. */
  opener: string;
  at: number;
  /**
   * What the map says of the opener's objects at every demonstrated use
   * (its static preconditions), over its parameters in `order`: the wanted
   * object first, the opened place after what links them.
   */
  condition: Conjunction;
  /** The opener's parameters in the order `condition` numbers them. */
  order: number[];
  /**
   * The predicate the opener needs true of its wanted object (`holding`),
   * whose parameter is variable 0 of `condition`; none when it needs
   * nothing but the mover there.
   */
  wanted?: string;
  /** Predicates that place a pending object (`at(x, t)`, `goal_at(x, t)`): its position and the place's. */
  links: { pred: string; object: number; place: number; type: string; goal: boolean }[];
  /**
   * The goal's relations that place an object (`goal_at` of `at`), the
   * object's position: an object already where one of them wants it is
   * not wanted for a lock (taking it undoes the goal).
   */
  placed: { pred: string; goal: string; object: number; type: string }[];
}

/** What one demonstrated use of an action did. */
export interface ActionUse {
  args: readonly string[];
  add: readonly Atom[];
}

/**
 * The gates of the movers (see the module doc): for each mover whose every
 * step needs a one-argument fluent atom of its destination, each action
 * apart from the mover's own that, in every demonstrated use, made that
 * atom true of one of its arguments.
 *
 * @param movers The movers along a graph.
 * @param uses Each action's demonstrated uses.
 * @param held What held of each action's parameters at every use.
 * @param staticPreds Predicates no demonstrated action changes.
 */
export function findGates(
  vocab: Vocabulary,
  movers: readonly Mover[],
  uses: ReadonlyMap<string, readonly ActionUse[]>,
  held: ReadonlyMap<string, Conjunction>,
  staticPreds: ReadonlySet<string>,
): Gate[] {
  const out: Gate[] = [];
  for (const mover of movers) {
    const own = new Set(mover.steps.map((s) => s.action));
    const { pred: movedPred } = movedArgument(mover);
    // The destination's fluent atoms every step needs.
    const needs = mover.steps.map((s) =>
      new Set(
        s.edge.literals.filter((l) =>
          !l.negated && l.none === undefined && !staticPreds.has(l.pred) &&
          l.args.length === 1 && l.args[0] === 1
        ).map((l) => l.pred),
      )
    );
    const fluents = [...needs[0]].filter((p) => needs.every((n) => n.has(p)));
    if (fluents.length === 0) continue;
    const relaxed: Mover = {
      ...mover,
      steps: mover.steps.map((s) => ({
        ...s,
        edge: { ...s.edge, literals: s.edge.literals.filter((l) => staticPreds.has(l.pred)) },
      })),
    };
    const links = placeLinks(vocab, mover.type, staticPreds);
    const placed = goalRelations(vocab).flatMap(({ pred, goal }) =>
      links.filter((k) => k.pred === goal && k.goal).map((k) => ({
        pred,
        goal,
        object: k.object,
        type: k.type,
      }))
    );
    for (const fluent of fluents) {
      for (const [action, list] of uses) {
        if (own.has(action) || list.length === 0) continue;
        const params = vocab.actions[action].params;
        const at = params.findIndex((p, j) =>
          list.every((u) => u.add.some((a) => a.pred === fluent && a.args[0] === u.args[j])) &&
          p.type === mover.type
        );
        const base = held.get(action);
        if (at < 0 || !base) continue;
        // What it needs of another object that some action changes.
        // (Not where the mover stands, which the mover's own steps see to.)
        const wantedLit = base.literals.find((l) =>
          !l.negated && l.none === undefined && !staticPreds.has(l.pred) &&
          l.pred !== movedPred && l.pred !== fluent && l.args.length === 1 &&
          l.args[0] !== at && !isAssignable(vocab, params[l.args[0]].type, mover.type)
        );
        const first = wantedLit?.args[0] ?? at;
        const statics = base.literals.filter((l) => staticPreds.has(l.pred));
        const order = linkOrder(statics, params.length, first);
        const rename = new Map(order.map((p, i) => [p, i]));
        out.push({
          mover,
          relaxed,
          fluent,
          opener: action,
          at,
          condition: {
            types: order.map((p) => params[p].type),
            literals: statics.map((l) => ({ ...l, args: l.args.map((a) => rename.get(a)!) })),
          },
          order,
          ...(wantedLit ? { wanted: wantedLit.pred } : {}),
          links,
          placed,
        });
      }
    }
  }
  return out;
}

/**
 * The parameters in the order the map links them from `first` (a search
 * along the static literals), the others after: the expression then binds
 * the opened place from the wanted object (a key's shape, then the locks
 * of that shape) before asking whether it blocks.
 */
function linkOrder(statics: readonly Literal[], arity: number, first: number): number[] {
  const order = [first];
  for (let k = 0; k < order.length; k++) {
    for (const l of statics) {
      if (!l.args.includes(order[k])) continue;
      for (const a of l.args) if (!order.includes(a)) order.push(a);
    }
  }
  for (let p = 0; p < arity; p++) if (!order.includes(p)) order.push(p);
  return order;
}

/** The binary predicates that relate an object to a place of `type` and that change or are goals. */
function placeLinks(
  vocab: Vocabulary,
  type: string,
  staticPreds: ReadonlySet<string>,
): Gate["links"] {
  const out: Gate["links"] = [];
  const goals = new Set(goalRelations(vocab).map((r) => r.goal));
  for (const [pred, decl] of Object.entries(vocab.predicates)) {
    if (decl.params.length !== 2 || (staticPreds.has(pred) && !goals.has(pred))) continue;
    for (const place of [0, 1]) {
      const object = 1 - place;
      if (!isAssignable(vocab, type, decl.params[place])) continue;
      if (vocab.types[decl.params[object]]?.kind !== "object") continue;
      out.push({ pred, object, place, type: decl.params[object], goal: goals.has(pred) });
    }
  }
  return out;
}

/**
 * Blocking places and wanted objects in indexed states (see the module
 * doc), computed once per state; the same conditions as
 * {@linkcode blockingText} and {@linkcode wantedText} write.
 */
export class GateStates {
  readonly #full: MoverDistances;
  readonly #relaxed: MoverDistances;
  readonly #blocking = new WeakMap<StateIndex, Set<string>>();
  readonly #wanted = new WeakMap<StateIndex, Set<string>>();

  /**
   * @param full Distances along the gate's mover, where they are kept
   *   already (the learner's closer literals read the same graph).
   */
  constructor(
    readonly gate: Gate,
    readonly goals: readonly PendingGoal[],
    full: MoverDistances = new MoverDistances(gate.mover),
  ) {
    this.#full = full;
    this.#relaxed = new MoverDistances(gate.relaxed);
  }

  /** Whether place `l` blocks the way in `state`. */
  blocking(state: StateIndex, l: string): boolean {
    return this.#blockingIn(state).has(l);
  }

  /** Whether the opener wants `x` for a blocking place in `state`. */
  wanted(state: StateIndex, x: string): boolean {
    let set = this.#wanted.get(state);
    if (!set) {
      set = new Set();
      const { condition, order, at } = this.gate;
      const slot = order.indexOf(at);
      for (const l of this.#blockingIn(state)) {
        const fixed: (string | undefined)[] = condition.types.map(() => undefined);
        fixed[slot] = l;
        for (const a of assignments(condition, state, fixed)) {
          const x = a[0];
          if (x !== undefined && state.fits(x, condition.types[0]) && !this.#placed(state, x)) {
            set.add(x);
          }
        }
      }
      this.#wanted.set(state, set);
    }
    return set.has(x);
  }

  /**
   * Whether the goal wants `x` at places of which none is open to the
   * mover now (there is one, and no open path leads there).
   */
  stranded(state: StateIndex, x: string): boolean {
    const { mover, links } = this.gate;
    const n = state.objectsOf(mover.type).length;
    const places: string[] = [];
    for (const link of links) {
      if (!link.goal) continue;
      const pattern: (string | undefined)[] = [undefined, undefined];
      pattern[link.object] = x;
      for (const args of state.atoms(link.pred, pattern)) {
        if (state.fits(args[link.place], mover.type)) places.push(args[link.place]);
      }
    }
    if (places.length === 0) return false;
    const from = this.#positions(state);
    if (places.some((t) => from.some((r) => this.#full.distance(state, r, t) < n))) return false;
    // What opens the way itself is no stranded thing.
    return this.gate.wanted === undefined || !this.wanted(state, x);
  }

  /** Whether `x` is where one of the goal's atoms wants it. */
  #placed(state: StateIndex, x: string): boolean {
    return this.gate.placed.some(({ pred, goal, object }) => {
      const pattern: (string | undefined)[] = [undefined, undefined];
      pattern[object] = x;
      return state.atoms(goal, pattern).some((args) => state.has(pred, args));
    });
  }

  #blockingIn(state: StateIndex): Set<string> {
    let kept = this.#blocking.get(state);
    if (!kept) this.#blocking.set(state, kept = this.#findBlocking(state));
    return kept;
  }

  #findBlocking(state: StateIndex): Set<string> {
    const set = new Set<string>();
    const { mover, relaxed, fluent } = this.gate;
    const places = state.objectsOf(mover.type);
    const n = places.length;
    const closed = places.filter((l) => !state.has(fluent, [l]));
    if (closed.length === 0) return set;
    const targets = this.#targets(state);
    const near = new Set<string>();
    for (const r of this.#positions(state)) {
      const far = targets.filter((t) =>
        this.#full.distance(state, r, t) >= n && this.#relaxed.distance(state, r, t) < n
      );
      if (far.length === 0) continue;
      for (const l of closed) {
        if (set.has(l) || !far.some((t) => this.#relaxed.distance(state, l, t) < n)) continue;
        // On the edge of where the mover can go: an open path leads next to it.
        const next = relaxed.steps.some((s) =>
          assignments(s.edge, state, [undefined, l], Infinity, true).some((a) =>
            a[0] !== undefined && state.fits(a[0], mover.type) && state.has(fluent, [a[0]]) &&
            this.#full.distance(state, a[0], r) < n
          )
        );
        if (!next) continue;
        set.add(l);
        if (far.some((t) => this.#full.distance(state, l, t) < n)) near.add(l);
      }
    }
    // Where opening one place is enough, those places alone.
    return near.size > 0 ? near : set;
  }

  /** Where the mover stands. */
  #positions(state: StateIndex): string[] {
    const { pred, position } = movedArgument(this.gate.mover);
    return [...new Set(state.atoms(pred, []).map((args) => args[position]))]
      .filter((p) => state.fits(p, this.gate.mover.type));
  }

  /** The places the goal still needs: pending ones, and where a pending object lies or is to go. */
  #targets(state: StateIndex): string[] {
    const out = new Set<string>();
    const { mover, links } = this.gate;
    for (const t of state.objectsOf(mover.type)) {
      if (pending(this.goals, state, t)) out.add(t);
    }
    for (const link of links) {
      for (const args of state.atoms(link.pred, [])) {
        const [x, t] = [args[link.object], args[link.place]];
        if (!state.fits(t, mover.type) || !state.fits(x, link.type)) continue;
        if (pending(this.goals, state, x)) out.add(t);
      }
    }
    return [...out];
  }
}

/**
 * The expression of "place `l` blocks the way" (`l` a variable name;
 * `taken` are names it must not rebind), or of its negation.
 */
export function blockingText(
  gate: Gate,
  goals: readonly PendingGoal[],
  vocab: Vocabulary,
  l: string,
  type: string,
  taken: readonly string[],
  negated = false,
): string {
  return said(
    vocab,
    l,
    type,
    gate.mover.type,
    taken,
    negated,
    (name) => {
      const names = [...taken, l, name];
      const other = freshName("l", names);
      const T = gate.mover.type;
      const near = (x: string) => frontierOf(gate, goals, vocab, x, names, true);
      // (Whether any place is enough is the same for every place asked
      // about: the evaluator works it out once.)
      const some = `exists(${other}: ${T}, ${near(other)})`;
      return `((${some} and ${near(name)}) or (not ${some} and ${
        frontierOf(gate, goals, vocab, name, names, false)
      }))`;
    },
  );
}

/**
 * "Closed place `l` is next to where the mover can go and on a way to a
 * place the goal still needs that no open path reaches": with `alone`,
 * opening `l` is enough to reach it (an open path leads from `l`), else a
 * way that ignores what is closed. `l` is of the mover's type.
 */
function frontierOf(
  gate: Gate,
  goals: readonly PendingGoal[],
  vocab: Vocabulary,
  l: string,
  taken: readonly string[],
  alone: boolean,
): string {
  const { mover, relaxed, fluent, links } = gate;
  const T = mover.type;
  const names = [...taken, l, "u", "v"];
  const fresh = (base: string) => {
    const name = freshName(base, names);
    names.push(name);
    return name;
  };
  const r = fresh("r");
  const t = fresh("t");
  const y = fresh("y");
  const w = fresh("w");
  const z = fresh("z");
  const stands = standingText(gate, vocab, r, names);
  const count = `len(select_all(${z}: ${T}, true))`;
  const dF = (a: string, b: string) => distanceText(mover, a, b);
  const dR = (a: string, b: string) => distanceText(relaxed, a, b);
  const way = [
    `${dF(r, t)} >= ${count}`,
    `${dR(r, t)} < ${count}`,
    `${alone ? dF(l, t) : dR(l, t)} < ${count}`,
  ].join(" and ");
  // (A path's steps ask the places they enter: the neighbour must be open itself.)
  const edge = `exists(${w}: ${T}, (${stepText(relaxed, w, l)}) and ${fluent}(${w}) and ${
    dF(w, r)
  } < ${count})`;
  const parts = [
    `exists(${t}: ${T}, ${pendingText(goals, vocab, t, T, names)} and ${way})`,
    ...links.map((k) => {
      const atom = k.object === 0 ? `${k.pred}(${y}, ${t})` : `${k.pred}(${t}, ${y})`;
      return `exists(${y}: ${k.type}, ${
        pendingText(goals, vocab, y, k.type, names)
      } and exists(${t}: ${T}, ${atom} and ${way}))`;
    }),
  ];
  return `not ${fluent}(${l}) and exists(${r}: ${T}, ${stands} and ${edge} and (${
    parts.join(" or ")
  }))`;
}

/**
 * `body` said of `x` (a variable of type `type`) as an object of type
 * `as`: itself where it is one, else through a variable of that type equal
 * to it; false where no object is both.
 */
function asType(
  vocab: Vocabulary,
  x: string,
  type: string,
  as: string,
  taken: readonly string[],
  body: (name: string) => string,
): string {
  if (isAssignable(vocab, type, as)) return body(x);
  if (!isAssignable(vocab, as, type)) return "false";
  const c = freshName("c", [...taken, x]);
  return `exists(${c}: ${as}, ${c} == ${x} and ${body(c)})`;
}

/** `body` said of `x` as an object of type `as` (see `asType`), or its negation, in parentheses. */
function said(
  vocab: Vocabulary,
  x: string,
  type: string,
  as: string,
  taken: readonly string[],
  negated: boolean,
  body: (name: string) => string,
): string {
  const text = asType(vocab, x, type, as, taken, body);
  return negated ? `not (${text})` : `(${text})`;
}

/**
 * The expression of "the opener wants `x`" (`x` a variable name; `taken`
 * are names it must not rebind), or of its negation.
 */
export function wantedText(
  gate: Gate,
  goals: readonly PendingGoal[],
  vocab: Vocabulary,
  x: string,
  type: string,
  taken: readonly string[],
  negated = false,
): string {
  return said(
    vocab,
    x,
    type,
    gate.condition.types[0],
    taken,
    negated,
    (name) => wantedOf(gate, goals, vocab, name, [...taken, x]),
  );
}

/** "The opener wants `x`", `x` of the type it wants. */
function wantedOf(
  gate: Gate,
  goals: readonly PendingGoal[],
  vocab: Vocabulary,
  x: string,
  taken: readonly string[],
): string {
  const { condition, order, at } = gate;
  const slot = order.indexOf(at);
  const names = condition.types.map((_, i) => i === 0 ? x : freshName(`g${i}`, [...taken, x]));
  const blocking = { pred: BLOCKING, args: [slot], negated: false };
  const opens = existentialText(
    { types: condition.types, literals: [...condition.literals, blocking] },
    names,
    1,
    (l, ns) =>
      l.pred === BLOCKING
        ? blockingText(gate, goals, vocab, ns[l.args[0]], gate.mover.type, [...taken, ...ns])
        : literalText(l, ns),
  );
  const placed = placedText(gate, vocab, x, condition.types[0], [...taken, ...names]);
  return placed === "false" ? opens : `not ${placed} and ${opens}`;
}

/** "`x` is where one of the goal's atoms wants it", in parentheses; `false` where none can. */
function placedText(
  gate: Gate,
  vocab: Vocabulary,
  x: string,
  type: string,
  taken: readonly string[],
): string {
  const t = freshName("t", [...taken, x]);
  const atoms = gate.placed.map(({ pred, goal, object, type: as }) =>
    asType(vocab, x, type, as, [...taken, t], (name) => {
      const args = object === 0 ? `${name}, ${t}` : `${t}, ${name}`;
      return `${goal}(${args}) and ${pred}(${args})`;
    })
  ).filter((a) => a !== "false");
  if (atoms.length === 0) return "false";
  return `exists(${t}: ${gate.mover.type}, ${atoms.map((a) => `(${a})`).join(" or ")})`;
}

/**
 * The expression of "the goal wants `x` only where the mover cannot go
 * now" (`x` a variable name; `taken` are names it must not rebind), or of
 * its negation.
 */
export function strandedText(
  gate: Gate,
  goals: readonly PendingGoal[],
  vocab: Vocabulary,
  x: string,
  type: string,
  taken: readonly string[],
  negated = false,
): string {
  const { mover } = gate;
  const T = mover.type;
  const names = [...taken, x, "u", "v"];
  const r = freshName("r", names);
  const t = freshName("t", [...names, r]);
  const z = freshName("z", [...names, r, t]);
  const atoms = gate.links.filter((k) => k.goal).map((k) =>
    asType(
      vocab,
      x,
      type,
      k.type,
      [...names, r, t, z],
      (name) => k.object === 0 ? `${k.pred}(${name}, ${t})` : `${k.pred}(${t}, ${name})`,
    )
  ).filter((a) => a !== "false");
  if (atoms.length === 0) return negated ? "true" : "false";
  const asked = atoms.length === 1 ? atoms[0] : `(${atoms.join(" or ")})`;
  const stands = standingText(gate, vocab, r, [...names, r, t, z]);
  const open = `exists(${t}: ${T}, ${asked} and exists(${r}: ${T}, ${stands} and ${
    distanceText(mover, r, t)
  } < len(select_all(${z}: ${T}, true))))`;
  const itself = gate.wanted === undefined
    ? ""
    : ` and ${wantedText(gate, goals, vocab, x, type, [...taken, r, t, z], true)}`;
  const text = `exists(${t}: ${T}, ${asked}) and not ${open}${itself}`;
  return negated ? `not (${text})` : `(${text})`;
}

/** "The mover stands at `r`": its moved atom, the mover's other arguments quantified. */
function standingText(gate: Gate, vocab: Vocabulary, r: string, taken: readonly string[]): string {
  const { pred, position } = movedArgument(gate.mover);
  const params = vocab.predicates[pred].params;
  const names: string[] = [];
  const args = params.map((_, i) => {
    if (i === position) return r;
    const o = freshName(`o${i}`, [...taken, ...names]);
    names.push(o);
    return o;
  });
  const atom = `${pred}(${args.join(", ")})`;
  return params.reduceRight(
    (inner, type, i) => i === position ? inner : `exists(${args[i]}: ${type}, ${inner})`,
    atom,
  );
}
