/**
 * What an episode learns of the actions no demonstration showed at work.
 * Small demonstrations may never need an action a larger task does (a
 * vehicle driven inside a town, where the demonstrations' towns had one
 * place each): the action model knows nothing of it and no look-ahead can
 * use it. The agent tries such actions when look-ahead toward the goal
 * finds no plan (`exploreUnseenActions` in `plans.ts`); their accepted
 * uses update the model for the rest of the episode.
 *
 * What held at every demonstrated use of the other actions may not hold in
 * the larger task either (every place of the demonstrations was an
 * airport, so loading a truck "needs" one): once something was learned,
 * look-ahead may also plan with {@linkcode UnseenActions.relations}, which
 * keeps of each action only what relates its arguments, what it consumes,
 * and what the episode's rejections showed it needs. A look-ahead plan
 * refused at once puts that view to use as well, though every action was
 * seen at work ({@linkcode UnseenActions.refine}).
 *
 * @module
 */
import { matchAction } from "../../dsl/action.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import type { ActionModelData } from "../action_model_data.ts";
import { ActionModel, type Transition } from "../learn/action_model.ts";
import type { FactView } from "../../dsl/facts.ts";
import { goalPredicates } from "../plan/landmark_agenda.ts";

/**
 * Expansions of an episode's searches with the relations view: plans of
 * tens of actions (every load carried across towns), a few for each goal
 * atom.
 */
const RELATIONS_SEARCH_NODES = 1500;

/** What an episode learns of the actions its model had not seen work. */
export class UnseenActions {
  /** Actions of the vocabulary the starting model knows no effect of. */
  readonly unseen: ReadonlySet<string>;
  /** Expansions left to the episode's searches with {@linkcode relations}. */
  readonly search: { nodes: number } = { nodes: RELATIONS_SEARCH_NODES };
  readonly #base: ActionModel;
  readonly #transitions: Transition[] = [];
  readonly #tried = new Set<string>();
  /** Per action, hypotheses a rejection of it broke (lifted texts). */
  readonly #needed = new Map<string, Set<string>>();
  readonly #goals: ReadonlySet<string>;
  /** The starting model updated with the unseen actions' accepted uses. */
  #updated: ActionModel | undefined;
  #model: ActionModel;
  #relations: ActionModel | undefined;

  /** @param model The episode's starting action model. */
  constructor(model: ActionModel) {
    this.#base = model;
    this.#model = model;
    this.#goals = goalPredicates(model.vocab);
    const known = new Set(model.schemas().map((s) => s.action));
    this.unseen = new Set(Object.keys(model.vocab.actions).filter((a) => !known.has(a)));
  }

  /** Whether some unseen action was seen to change the state. */
  get learned(): boolean {
    return this.#transitions.some((t) => t.delta && t.delta.add.length + t.delta.remove.length > 0);
  }

  /**
   * The model, updated with what the episode saw the unseen actions do. Of
   * what held before every use of one, only what relates two of its
   * arguments (`at(truck, from)`, `in_city(to, city)`) and what it consumes
   * are kept: properties of one argument or of the rest of the state are
   * mostly chance after a few uses (each use went to an airport, something
   * stood at the place), and the relations bind the arguments so the
   * look-ahead need not try every object for each.
   */
  get model(): ActionModel {
    if (this.#updated === undefined && this.#transitions.length > 0) {
      this.#updated = this.#base.update(this.#transitions);
      this.#model = this.#view(this.#updated.toJSON(), this.unseen, false);
    }
    return this.#model;
  }

  /**
   * The model with every action's rules cut to what relates its arguments,
   * what it consumes and what a rejection showed it needs, all taken for
   * confirmed (see the module's doc).
   */
  get relations(): ActionModel {
    const model = this.model;
    this.#relations ??= this.#view(
      (this.#updated ?? model).toJSON(),
      new Set(Object.keys(model.vocab.actions)),
      true,
    );
    return this.#relations;
  }

  #view(data: ActionModelData, cut: ReadonlySet<string>, confirm: boolean): ActionModel {
    const vocab = this.#base.vocab;
    const copy = structuredClone(data);
    for (const [name, entry] of Object.entries(copy.actions)) {
      if (!cut.has(name)) continue;
      const params = new Set(vocab.actions[name].params.map((p) => p.name));
      const consumed = new Set(entry.effects.remove);
      const needed = this.#needed.get(name) ?? new Set();
      entry.rules = entry.rules
        .filter((r) =>
          r.confirmed || consumed.has(r.text) || needed.has(r.text) ||
          relatesArguments(r.text, params, this.#goals)
        )
        .map((r) => confirm ? { ...r, confirmed: true } : r);
    }
    return ActionModel.fromJSON(copy, vocab);
  }

  /** Whether some unseen action has not been explored in this episode yet. */
  unexplored(): boolean {
    return [...this.unseen].some((a) => !this.#tried.has(a));
  }

  /** Whether `action` (a template name) has been explored in this episode. */
  tried(action: string): boolean {
    return this.#tried.has(action);
  }

  /** Marks `action` explored. */
  markTried(action: string): void {
    this.#tried.add(action);
  }

  /**
   * Records an accepted send of an unseen action (others are ignored):
   * what held before every accepted use is assumed needed, and a few
   * rejections say as little of why (a rule fitted to two of them reads
   * "the place must be an airport").
   */
  record(transition: Transition, action: string): void {
    if (!this.unseen.has(action) || !transition.ok) return;
    this.#transitions.push(transition);
    this.#updated = undefined;
    this.#relations = undefined;
  }

  /**
   * Whether a refused plan made the view serve although no unseen action
   * was learned (see {@linkcode refine}).
   */
  get refined(): boolean {
    return this.#refined;
  }
  #refined = false;

  /**
   * Records a rejection of `action` in `facts`: when no rule
   * {@linkcode relations} keeps for it is false there, the hypotheses of
   * its action false there are what it needs after all, and are kept from
   * then on. (A rejection a kept rule explains, a truck sent to another
   * town, says nothing of the rest: that the place was no airport.)
   */
  rejected(facts: FactView, action: string): void {
    // The view serves only once an unseen action is learned, or a plan refused.
    if (this.unseen.size === 0 && !this.#refined) return;
    this.#learnNeeded(facts, action);
  }

  /**
   * Records the rejection of the first action of a plan searched with
   * what each action merely consumes (or with every hypothesis): the
   * hypotheses it broke become needed, and the view serves from then on,
   * each refusal sharpening it (a block picked up from under another:
   * "nothing stands on it"). @returns Whether it learned something.
   */
  refine(facts: FactView, action: string): boolean {
    const learned = this.#learnNeeded(facts, action);
    if (learned) this.#refined = true;
    return learned;
  }

  #learnNeeded(facts: FactView, action: string): boolean {
    const m = matchAction(this.#base.vocab, action);
    if (!m) return false;
    if (this.relations.unmet(facts, action).length > 0) return false;
    // False here, and about the world: what the goal asks is no reason an
    // action is refused (see relatesArguments).
    const broken = (this.#updated ?? this.#base).falseRules(facts, action, this.#goals);
    const params = new Set(Object.keys(m.args));
    // What a rejection cannot tell apart, the simplest first: a property
    // of an argument (the place is an airport) before a statement about
    // the rest of the state (something stands there).
    const plain = broken.filter((t) => atomOver(t, params) !== undefined);
    const needed = this.#needed.get(m.action) ?? new Set<string>();
    const size = needed.size;
    for (const text of plain.length > 0 ? plain : broken) needed.add(text);
    this.#needed.set(m.action, needed);
    this.#relations = undefined;
    return needed.size > size;
  }
}

/**
 * Whether a rule is a plain atom over two or more distinct arguments and
 * no goal predicate (the goal says what to do, never what can be done: a
 * plane "needs" the goal to want the load where the demonstrations
 * unloaded it).
 */
function relatesArguments(
  text: string,
  params: ReadonlySet<string>,
  goals: ReadonlySet<string>,
): boolean {
  const atom = atomOver(text, params);
  return atom !== undefined && !atom.negated && !goals.has(atom.pred) &&
    new Set(atom.args).size >= 2;
}

/**
 * A rule's atom, negated or not, when it is a predicate over `params`
 * alone (`at(truck, from)`, `not hub(to)`); else undefined.
 */
function atomOver(
  text: string,
  params: ReadonlySet<string>,
): { pred: string; args: string[]; negated: boolean } | undefined {
  const parsed = parseExpr(text);
  if (!parsed.ok) return undefined;
  const negated = parsed.value.kind === "not";
  const expr = parsed.value.kind === "not" ? parsed.value.arg : parsed.value;
  if (expr.kind !== "call") return undefined;
  const args = expr.args.map((a) => a.kind === "var" && params.has(a.name) ? a.name : undefined);
  if (args.some((a) => a === undefined)) return undefined;
  return { pred: expr.name, args: args as string[], negated };
}
