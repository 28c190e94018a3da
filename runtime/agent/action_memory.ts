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
 * another way to go can be told an action would undo the last one.
 *
 * @module
 */
import type { FactStore } from "../fact_store.ts";

/** Sends of one action from one state after which it counts as a cycle. */
const CYCLE_AFTER = 2;

/** The agent's memory of (state, action) pairs in one episode. */
export class ActionMemory {
  /** The rejections seen, by state and action: the observation and the reason. */
  readonly #rejected = new Map<string, { observation: string; rejected: string }>();
  readonly #sent = new Map<string, number>();
  #previous: string | undefined;

  /** A key equal for equal belief states (see {@linkcode FactStore.fingerprint}). */
  static stateKey(facts: FactStore): string {
    return facts.fingerprint();
  }

  /**
   * Why `action` must not be sent in the state `key`, or `undefined` when
   * it may be.
   */
  refusal(key: string, action: string): string | undefined {
    const k = `${key}\u0000${action}`;
    if (this.#rejected.has(k)) {
      return `"${action}" was rejected in this same state before; not sent again`;
    }
    if ((this.#sent.get(k) ?? 0) >= CYCLE_AFTER) {
      return `"${action}" was already sent ${CYCLE_AFTER} times from this same state (a cycle); not sent again`;
    }
    return undefined;
  }

  /**
   * Records that `action` was sent in state `key`, and the environment's
   * answer when it rejected it.
   */
  record(
    key: string,
    action: string,
    rejection?: { observation: string; rejected: string },
  ): void {
    const k = `${key}\u0000${action}`;
    if (rejection) this.#rejected.set(k, rejection);
    else this.#sent.set(k, (this.#sent.get(k) ?? 0) + 1);
    this.#previous = key;
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
