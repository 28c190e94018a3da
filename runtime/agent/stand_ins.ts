/**
 * Stand-ins for a rejected action: the environment's other actions with the
 * same argument types that the action model never saw succeed. The
 * demonstrations may never have needed one of them (crossing a kind of place
 * they never crossed), and the vocabulary names it without saying what it
 * does; tried on the same arguments, it may do what the rejected action was
 * meant to do.
 *
 * @module
 */
import { matchAction, renderAction } from "../../dsl/action.ts";
import type { ActionModel } from "../learn/action_model.ts";

/**
 * The stand-ins of one episode: which actions may be tried in place of a
 * rejected one, and which were found not to do its work (never tried for
 * it again).
 *
 * @example Usage
 * ```ts ignore
 * const standIns = new StandIns(model);
 * standIns.for("walk a b"); // ["climb a b"] when climb was never seen
 * standIns.misfit("walk a b", "climb a b");
 * standIns.for("walk b c"); // []
 * ```
 */
export class StandIns {
  readonly #model: ActionModel;
  /** `<action>\u0000<stand-in>` template names found not to do the action's work. */
  readonly #misfits = new Set<string>();

  /** @param model The action model: what it learned is no stand-in. */
  constructor(model: ActionModel) {
    this.#model = model;
  }

  /**
   * The actions to try, in vocabulary order, in place of `action` once the
   * environment rejected it: each unlearned action whose parameters have
   * the same types in the same order, on the same arguments.
   *
   * @param action The rejected action's text.
   * @returns Action texts; empty when the action matches no template or
   *   has no arguments.
   */
  for(action: string): string[] {
    const vocab = this.#model.vocab;
    const m = matchAction(vocab, action);
    const params = m ? vocab.actions[m.action].params : [];
    // Without arguments nothing carries over: another action would do anything.
    if (!m || params.length === 0) return [];
    const learned = new Set(this.#model.schemas().map((s) => s.action));
    const out: string[] = [];
    for (const [name, decl] of Object.entries(vocab.actions)) {
      if (name === m.action || learned.has(name)) continue;
      if (this.#misfits.has(`${m.action}\u0000${name}`)) continue;
      if (decl.params.length !== params.length) continue;
      if (decl.params.some((p, i) => p.type !== params[i].type)) continue;
      const args = Object.fromEntries(decl.params.map((p, i) => [p.name, m.args[params[i].name]]));
      out.push(renderAction(decl, args));
    }
    return out;
  }

  /**
   * Records that `other`, accepted in place of `action`, did not do what
   * `action` was meant to: its template is no stand-in for `action`'s.
   */
  misfit(action: string, other: string): void {
    const vocab = this.#model.vocab;
    const a = matchAction(vocab, action)?.action;
    const b = matchAction(vocab, other)?.action;
    if (a !== undefined && b !== undefined) this.#misfits.add(`${a}\u0000${b}`);
  }
}
