/**
 * What the agent remembers of the actions it sent in an episode, so that it
 * notices when it is stuck: an action the environment rejected in a state
 * is not sent again in that same state (the world would answer the same:
 * the answer is recalled instead, and the repairs read it as before), and
 * an action sent twice from the same state is not sent a third time (the
 * agent is going round in a cycle): the part that wanted to send it gets
 * the reason instead and must change course; when nothing does, the
 * episode ends with that diagnosis rather than spending its budget. The
 * state the last action was sent from is kept too, so that a skill with
 * another way to go can be told an action would undo the last one; and,
 * for each atom, the accepted action that last changed it, so that it can
 * be told an action would undo an earlier one whose atoms nothing changed
 * since (a parcel put back where one truck just took it from while other
 * trucks acted in between).
 *
 * @module
 */
import { type FactDelta, formatAtom } from "../../dsl/facts.ts";
import type { FactStore } from "../fact_store.ts";

/** What one accepted action changed: atom texts made true and made false. */
interface Change {
  action: string;
  add: ReadonlySet<string>;
  remove: ReadonlySet<string>;
  /** The object arguments of each atom made true. */
  added: readonly (readonly string[])[];
}

/** Changes kept as ones a later action may undo; older ones are not looked at. */
const OPEN_CHANGES = 256;

/** Sends of one action from one state after which it counts as a cycle. */
const CYCLE_AFTER = 2;

/** The agent's memory of (state, action) pairs in one episode. */
export class ActionMemory {
  /** The rejections seen, by state and action: the observation and the reason. */
  readonly #rejected = new Map<string, { observation: string; rejected: string }>();
  readonly #sent = new Map<string, number>();
  /** The sends by look-ahead among them. */
  readonly #planned = new Map<string, number>();
  #previous: string | undefined;
  /** The changes of the accepted actions, in the order they were sent. */
  readonly #changes: Change[] = [];
  /** For each atom text, the index in `#changes` of the last action that changed it. */
  readonly #lastChange = new Map<string, number>();
  /**
   * The indices of the changes no later action used (none had every
   * object of an atom it made true among its arguments: a drop where the
   * truck just drove uses the drive), oldest first.
   */
  #open: number[] = [];

  /** A key equal for equal belief states (see {@linkcode FactStore.fingerprint}). */
  static stateKey(facts: FactStore): string {
    return facts.fingerprint();
  }

  /**
   * Why `action` must not be sent in the state `key`, or `undefined` when
   * it may be. A `planned` action (the first of a plan searched from here)
   * is a new course though the skills went round through it: only the
   * planned sends of it from this state count toward a cycle.
   */
  refusal(key: string, action: string, { planned = false } = {}): string | undefined {
    const k = `${key}\u0000${action}`;
    if (this.#rejected.has(k)) {
      return `"${action}" was rejected in this same state before; not sent again`;
    }
    if (((planned ? this.#planned : this.#sent).get(k) ?? 0) >= CYCLE_AFTER) {
      return `"${action}" was already sent ${CYCLE_AFTER} times from this same state (a cycle); not sent again`;
    }
    return undefined;
  }

  /**
   * Records that `action` was sent in state `key` (by look-ahead when
   * `planned`), and the environment's answer when it rejected it.
   */
  record(
    key: string,
    action: string,
    rejection?: { observation: string; rejected: string },
    delta?: FactDelta,
    objects: readonly string[] = [],
    planned = false,
  ): void {
    const k = `${key}\u0000${action}`;
    if (rejection) this.#rejected.set(k, rejection);
    else {
      this.#sent.set(k, (this.#sent.get(k) ?? 0) + 1);
      if (planned) this.#planned.set(k, (this.#planned.get(k) ?? 0) + 1);
    }
    this.#previous = key;
    if (rejection || !delta) return;
    // What this action used of earlier changes, they no longer undo for nothing.
    const args = new Set(objects);
    this.#open = this.#open.filter((i) =>
      !this.#changes[i].added.some((as) => as.every((a) => args.has(a)))
    );
    const change: Change = {
      action,
      add: new Set(delta.add.map(formatAtom)),
      remove: new Set(delta.remove.map(formatAtom)),
      added: delta.add.map((a) => a.args.filter((x): x is string => typeof x === "string")),
    };
    if (change.add.size + change.remove.size === 0) return;
    const at = this.#changes.push(change) - 1;
    for (const text of [...change.add, ...change.remove]) this.#lastChange.set(text, at);
    this.#open.push(at);
    if (this.#open.length > OPEN_CHANGES) this.#open.shift();
  }

  /**
   * The earlier accepted action that `delta`, applied to `facts`, would
   * undo for nothing: the one that last changed every atom `delta` changes,
   * and changed each the other way (what it made true becomes false again,
   * and the reverse), so that those atoms return to how they stood before
   * it, and that no action since used (see `record`). `undefined` when
   * there is none, or `delta` changes nothing.
   *
   * @param facts The state the action would be sent in.
   * @param delta The action's predicted effects in that state.
   */
  undone(facts: FactStore, delta: FactDelta): string | undefined {
    const add = delta.add.filter((a) => !facts.has(a)).map(formatAtom);
    const remove = delta.remove.filter((a) => facts.has(a)).map(formatAtom);
    if (add.length + remove.length === 0) return undefined;
    const at = this.#lastChange.get((add[0] ?? remove[0])!);
    if (at === undefined || !this.#open.includes(at)) return undefined;
    const change = this.#changes[at];
    if (change.remove.size !== new Set(add).size || change.add.size !== new Set(remove).size) {
      return undefined;
    }
    const same = (texts: string[], other: ReadonlySet<string>) =>
      texts.every((t) => other.has(t) && this.#lastChange.get(t) === at);
    return same(add, change.remove) && same(remove, change.add) ? change.action : undefined;
  }

  /** The state the last action was sent from. */
  get previous(): string | undefined {
    return this.#previous;
  }

  /** The answer to `action` when it was rejected in state `key` before. */
  recall(key: string, action: string): { observation: string; rejected: string } | undefined {
    return this.#rejected.get(`${key}\u0000${action}`);
  }
}
