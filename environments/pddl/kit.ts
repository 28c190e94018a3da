/**
 * An environment kit generated from a PDDL domain and its problems, with
 * no code of its own: the vocabulary (types, predicates, actions with
 * their command templates), a grounder that reads AgentBoard's sentences
 * back into facts, the expert (the FF planner of `plan.ts`), and task
 * lists (the problems in file-name order; the smallest ones as
 * demonstrations).
 *
 * Names are made identifiers for the vocabulary (`on-table` ->
 * `on_table`); PDDL types become object types (`object` becomes `Obj`).
 *
 * @module
 */
import type { Trace } from "../../dsl/trace.ts";
import type {
  Environment,
  EnvironmentKit,
  Expert,
  Grounder,
  Grounding,
  TaskListRequest,
  TaskSpec,
} from "../../runtime/environment.ts";
import type { FactView } from "../../dsl/facts.ts";
import { changingPredicates, parseDomain, parseProblem, type PddlDomain } from "./parse.ts";
import { pddlActionRules } from "./rules.ts";
import { PddlEnv, type PddlTask } from "./env.ts";
import { planPddl, serialPlan } from "./plan.ts";
import { polishPlan, sameState } from "./polish.ts";
import { rejectSelectors } from "../../runtime/eval/task_lists.ts";
import { NoSolutionError, playExpert } from "../../runtime/eval/expert_traces.ts";
import {
  GOAL_LINE,
  INVALID_ACTION,
  NEGATED_CONDITION,
  OBJECTS_LINE,
  templateFor,
  type Templates,
} from "./text.ts";
import { actionText, type GroundAction, PddlWorld } from "./world.ts";
import { goalTwins, identifier, pddlTyping, pddlVocabulary } from "./vocabulary.ts";

/**
 * Reads the sentences of an observation back into facts: each predicate's
 * template becomes a pattern (`{}` an object name), a predicate without one
 * is read as `name arg1 arg2.`. The goal line's conditions become
 * `goal_<p>` facts, and those it asks to be false (`it is not the case
 * that ...`) `goal_false_<p>` facts. After the first observation only the predicates some
 * action changes are read: the others cannot have changed (and the
 * environment may leave them out, see `PddlEnvOptions.observe`).
 */
export class PddlGrounder implements Grounder {
  readonly #patterns: { pred: string; arity: number; re: RegExp; whole: RegExp }[];
  readonly #changing: { pred: string; arity: number; re: RegExp; whole: RegExp }[];
  readonly #types: ReadonlyMap<string, string>;
  readonly #twins: ReturnType<typeof goalTwins>;

  /**
   * A grounder for `domain`'s predicates, with `objects` mapped to their
   * vocabulary types (see {@linkcode pddlTyping}).
   */
  constructor(domain: PddlDomain, templates: Templates, objects: ReadonlyMap<string, string>) {
    this.#types = objects;
    this.#twins = goalTwins(domain);
    this.#patterns = Object.entries(domain.predicates).map(([pred, params]) => {
      const template = (templateFor(templates, pred, params.length) ??
        [pred, ...params.map(() => "{}")].join(" ")).trim();
      const body = template.replace(/[.!?]$/, "").split("{}").map(escape).join("(\\S+?)");
      return {
        pred,
        arity: params.length,
        re: new RegExp(`(?:^|(?<=[.\\n] ))${body}\\.(?= |$|\\n)`, "gm"),
        whole: new RegExp(`^${body}\\.?$`),
      };
    });
    const changed = changingPredicates(domain);
    this.#changing = this.#patterns.filter((p) => changed.has(p.pred));
  }

  /** The facts of the first observation, and the goal line's conditions as `goal_<p>` facts. */
  initial(observation: string): Grounding {
    const lines = observation.split("\n");
    const facts = this.#read(
      lines.filter((l) => !l.startsWith(GOAL_LINE) && !l.startsWith(OBJECTS_LINE)).join("\n"),
    );
    const goalLine = lines.find((l) => l.startsWith(GOAL_LINE));
    const goal = goalLine === undefined ? [] : this.#readGoal(goalLine.slice(GOAL_LINE.length));
    // The goal's objects are known too: a place only the goal names is one to go to.
    const objects = { ...facts.objects };
    for (const a of goal) for (const o of a.args) objects[o] ??= this.#types.get(o)!;
    // And those the objects line names (a pan no fact mentions yet).
    const othersLine = lines.find((l) => l.startsWith(OBJECTS_LINE));
    for (const o of othersLine?.slice(OBJECTS_LINE.length).replace(/\.$/, "").split(", ") ?? []) {
      const type = this.#types.get(o);
      if (type !== undefined) objects[o] ??= type;
    }
    return { delta: { add: [...facts.atoms, ...goal], remove: [], objects } };
  }

  /** The facts after an action: the observation lists all true facts. */
  step(facts: FactView, _action: string, observation: string): Grounding {
    const text = observation.trim();
    if (text === INVALID_ACTION) return { delta: { add: [], remove: [] }, rejected: text };
    if (text.startsWith("valid actions are:")) return { delta: { add: [], remove: [] } };
    const now = this.#read(text.replace(/ The goal is satisfied\.$/, ""), this.#changing);
    const keys = new Set(now.atoms.map((a) => [a.pred, ...a.args].join(" ")));
    const remove = this.#changing.flatMap(({ pred, arity }) =>
      facts.query(identifier(pred), new Array(arity).fill(null))
    ).filter((a) => !keys.has([a.pred, ...a.args].join(" ")));
    const add = now.atoms.filter((a) => !facts.has(a));
    return { delta: { add, remove, objects: now.objects } };
  }

  #read(text: string, patterns = this.#patterns) {
    const atoms: { pred: string; args: string[] }[] = [];
    const objects: Record<string, string> = {};
    for (const { pred, arity, re } of patterns) {
      for (const m of text.matchAll(re)) {
        const args = m.slice(1, 1 + arity);
        if (args.some((a) => !this.#types.has(a))) continue;
        atoms.push({ pred: identifier(pred), args });
        for (const a of args) objects[a] = this.#types.get(a)!;
      }
    }
    return { atoms, objects };
  }

  /** The goal's conditions: sentences joined by `, `. */
  #readGoal(text: string) {
    const atoms: { pred: string; args: string[] }[] = [];
    for (const sentence of text.split(/(?<=[.!?]),\s*/)) {
      const negated = sentence.trim().startsWith(NEGATED_CONDITION);
      const condition = negated ? sentence.trim().slice(NEGATED_CONDITION.length) : sentence.trim();
      for (const { pred, arity, whole } of this.#patterns) {
        const m = condition.match(whole);
        if (!m || m.slice(1, 1 + arity).some((a) => !this.#types.has(a))) continue;
        const twin = negated ? this.#twins.get(pred)!.forbid : this.#twins.get(pred)!.goal;
        // A goal forbidding what no action adds asks nothing an action could change.
        if (twin !== undefined) atoms.push({ pred: twin, args: m.slice(1, 1 + arity) });
        break;
      }
    }
    return atoms;
  }
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Goal conditions up to which the expert reaches them one at a time (as a
 * person demonstrates: each condition's steps a segment); a larger goal is
 * planned as a whole (reaching 200 conditions one at a time means 200
 * searches and more).
 */
const SERIAL_GOALS = 16;

/** Most actions the expert sends in a domain with chances, replanning included. */
const MAX_EXPERT_ACTIONS = 3000;

/**
 * The expert: plans on the simulator's problem and plays the plan. Where
 * actions have chances it plans with their most likely outcomes and plans
 * again from the state reached whenever an outcome differs; a state from
 * which no plan is found ends the episode unsolved.
 */
class PddlExpert implements Expert {
  async solve(env: Environment, task: TaskSpec): Promise<Trace> {
    if (!(env instanceof PddlEnv)) throw new TypeError("The PDDL expert needs a PddlEnv");
    const reset = await env.reset(task);
    const world = env.world!;
    const serial = world.goal().length <= SERIAL_GOALS ? serialPlan(world) : undefined;
    const plan = serial ?? planPddl(world);
    if (!plan) throw new NoSolutionError(`No plan found for ${reset.taskId}`);
    const polished = polishPlan(world, world.initial(), plan);
    if (!world.domain.actions.some((a) => a.chances)) {
      return await playExpert(env, reset, polished.map(actionText));
    }
    return await playExpert(env, reset, replanning(env, world, polished));
  }
}

/** The plan's actions, planning again from the state reached where an outcome differs from the plan's. */
function* replanning(env: PddlEnv, world: PddlWorld, first: GroundAction[]): Generator<string> {
  let plan = first;
  for (let k = 0, sent = 0; k < plan.length && sent < MAX_EXPERT_ACTIONS; sent++) {
    const expected = world.apply(plan[k], env.state);
    yield actionText(plan[k++]);
    // playExpert has sent the action: the environment's state is the outcome.
    if (world.satisfied(env.state) || sameState(expected, env.state)) continue;
    const next = planPddl(world, env.state);
    if (!next) return;
    plan = polishPlan(world, env.state, next);
    k = 0;
  }
}

/** What the agent knows of the actions (the `rules` option). */
export type PddlRules = "given" | "learned";

/**
 * The `rules` option of a PDDL kit, `"given"` by default.
 *
 * @throws {RangeError} For another value.
 */
export function rulesOption(options: Readonly<Record<string, unknown>>): PddlRules {
  const { rules = "given" } = options;
  if (rules !== "given" && rules !== "learned") {
    throw new RangeError(
      `PDDL option "rules" must be "given" or "learned", got ${JSON.stringify(rules)}`,
    );
  }
  return rules;
}

/**
 * The `observe` option of a PDDL kit, `"all"` by default.
 *
 * @throws {RangeError} For another value.
 */
export function observeOption(options: Readonly<Record<string, unknown>>): "all" | "changing" {
  const { observe = "all" } = options;
  if (observe !== "all" && observe !== "changing") {
    throw new RangeError(
      `PDDL option "observe" must be "all" or "changing", got ${JSON.stringify(observe)}`,
    );
  }
  return observe;
}

/** The problems of a kit: id and text. */
export interface PddlProblemText {
  /** E.g. `gripper/prob01`. */
  id: string;
  /** The file's name, for errors. */
  file: string;
  text: string;
}

/**
 * The kit of a domain and its problems (taken in the order given: the
 * benchmark's is file-name order).
 *
 * @param name The kit's name, e.g. `pddl:gripper`.
 * @param alsoTyping Further problems of the domain read for the objects'
 *   typing only, not tasks (those beside a single problem file): one
 *   problem alone cannot tell a kind of object (a ball) from a property
 *   problems give different objects (a goal cell), and a library induced
 *   on them all would not load on it. One that does not parse is left out.
 * @throws {PddlError} When the domain or a problem does not parse.
 */
export function pddlKit(
  name: string,
  domainText: string,
  domainFile: string,
  problems: readonly PddlProblemText[],
  templates: Templates,
  alsoTyping: readonly PddlProblemText[] = [],
): EnvironmentKit {
  const domain = parseDomain(domainText, domainFile);
  const tasks: PddlTask[] = problems.map((p) => ({
    id: p.id,
    world: new PddlWorld(domain, parseProblem(p.text, p.file)),
  }));
  const evidence = alsoTyping.flatMap((p) => {
    try {
      const parsed = parseProblem(p.text, p.file);
      return parsed.domain === domain.name ? [parsed] : [];
    } catch {
      return [];
    }
  });
  const typing = pddlTyping(domain, [...tasks.map((t) => t.world.problem), ...evidence]);
  const vocabulary = pddlVocabulary(domain, tasks.map((t) => t.world.problem), typing);
  // Demonstrations: the smallest problems (fewest objects, then file order).
  const all = tasks.map((t) => ({ id: t.id }));
  const smallest = all.map((t, i) => ({ t, size: tasks[i].world.objects.size }))
    .sort((a, b) => a.size - b.size).map((x) => x.t);
  return {
    name,
    vocabulary,
    create: (options = {}) => {
      rulesOption(options);
      return new PddlEnv(name, vocabulary, tasks, templates, { observe: observeOption(options) });
    },
    grounder: () => new PddlGrounder(domain, templates, typing.objects),
    expert: () => new PddlExpert(),
    actionRules: (options = {}) =>
      rulesOption(options) === "given" ? pddlActionRules(domain, vocabulary) : undefined,
    options: {
      observe: {
        type: "string",
        doc: `"all" (the default): every observation lists every true fact, as AgentBoard's ` +
          `do; "changing": after the first, only the facts actions can change (the others ` +
          `cannot change, and a large problem lists tens of thousands of them)`,
      },
      rules: {
        type: "string",
        doc: `"given" (the default): the agent knows the domain's action rules, as ` +
          `AgentBoard's instruction states them, and may look ahead with them; "learned": ` +
          `it knows only the action model learned from the demonstrations`,
      },
    },
    tasks: (options = {}) => options.split === "train" ? smallest.slice(0, 3) : [...all],
    taskList: ({ split, n, ...rest }: TaskListRequest) => {
      rejectSelectors("PDDL", rest);
      return split === "train" ? smallest.slice(0, n ?? 3) : all.slice(0, n);
    },
    demonstrationTasks: (count = 3) => smallest.slice(0, count),
    defaults: { maxActions: 100 },
    benchmark: {
      demonstrations: 3,
      demo: { demonstrations: 3 },
      demonstrationText: "smallest problems",
      taskText: "problems in file-name order",
    },
  };
}
