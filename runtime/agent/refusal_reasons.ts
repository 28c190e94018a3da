/**
 * What the environment's refusals teach an episode about the actions its
 * skills send. A rule of a decision list that drops what its demonstrations
 * said of an argument's kind (a plane flown to "any object") proposes, in
 * a larger task, actions the world refuses: a place no runway serves, a
 * parcel taken for a place. The action model's hypotheses (what held at
 * every demonstrated use) name the reason among those a refusal broke,
 * when they name it at all; so an action that breaks every hypothesis a
 * refused one broke would be refused for the same reason: it is not sent,
 * and the earlier answer is recalled in its place, as for an action
 * refused in this same state before (see `action_memory.ts`), so that what
 * follows a rejection follows (another object, the next rule, an action
 * that may stand in for it).
 *
 * Sound as far as the hypotheses go: a refusal with the reason among them
 * rules out only actions that break it too; one that broke no hypothesis
 * teaches nothing; and the more coincidences a refusal broke, the fewer
 * later actions break them all.
 *
 * @module
 */
import { matchAction } from "../../dsl/action.ts";
import type { FactView } from "../../dsl/facts.ts";
import type { ActionModel } from "../learn/action_model.ts";
import { goalPredicates } from "../plan/landmark_agenda.ts";

/** Reasons kept per action template (the most general ones). */
const REASONS_PER_ACTION = 32;

/** One refusal: the refused action, the world's answer and the hypotheses of its template it broke. */
interface Reason {
  action: string;
  answer: Answer;
  broken: ReadonlySet<string>;
}

/** The world's answer to a refused action: what it observed and why it was refused. */
export interface Answer {
  observation: string;
  rejected: string;
}

/** The reasons an episode's refusals gave, by action template. */
export class RefusalReasons {
  readonly #model: ActionModel;
  readonly #goals: ReadonlySet<string>;
  readonly #reasons = new Map<string, Reason[]>();

  /** @param model The action model whose rules (hypotheses included) name the reasons. */
  constructor(model: ActionModel) {
    this.#model = model;
    this.#goals = goalPredicates(model.vocab);
  }

  /**
   * Records that the environment refused `action` in `facts` (the state it
   * was sent in, which a refusal leaves as it was) with `answer`.
   * @returns Whether it taught a reason (some hypothesis of the action is
   *   false there).
   */
  record(facts: FactView, action: string, answer: Answer): boolean {
    const m = matchAction(this.#model.vocab, action);
    if (!m) return false;
    const broken = this.#broken(facts, action);
    if (broken.size === 0) return false;
    const reasons = this.#reasons.get(m.action) ?? [];
    // A reason that asks less of the action than one kept says more.
    if (reasons.some((r) => isSubset(r.broken, broken))) return false;
    const kept = reasons.filter((r) => !isSubset(broken, r.broken));
    kept.push({ action, answer, broken });
    this.#reasons.set(m.action, kept.slice(-REASONS_PER_ACTION));
    return true;
  }

  /**
   * The answer `action` would get in `facts`, recalled: it breaks every
   * hypothesis a refused action of its template broke. `undefined` when it
   * may be sent.
   */
  recall(facts: FactView, action: string): Answer | undefined {
    const m = matchAction(this.#model.vocab, action);
    const reasons = m && this.#reasons.get(m.action);
    if (!m || !reasons) return undefined;
    const broken = this.#broken(facts, action);
    const same = reasons.find((r) => isSubset(r.broken, broken));
    return same && {
      observation: same.answer.observation,
      rejected:
        `${same.answer.rejected} (recalled: "${action}" breaks what "${same.action}" broke, ${
          [...same.broken].join(", ")
        })`,
    };
  }

  /** The hypotheses of `action` false in `facts`, none about what the goal asks. */
  #broken(facts: FactView, action: string): Set<string> {
    return new Set(this.#model.falseRules(facts, action, this.#goals));
  }
}

function isSubset(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (!b.has(x)) return false;
  return true;
}
