/**
 * The grounder role: an LLM reads an observation (with the last action and
 * the facts and objects known so far) and answers the fact change in the
 * vocabulary's predicates. It is what an environment with a vocabulary but
 * no grounder code runs with, and it can stand in for a hand-written
 * grounder. The answer is data, checked against the vocabulary: an
 * unknown predicate, a wrong arity, an ill-typed argument or an object that
 * is neither known nor introduced (named in the observation, or, for what
 * the observation describes without a name, called `<type> <n>`) is
 * rejected with the reason and asked again once.
 *
 * @module
 */
import { z } from "zod";
import { type Atom, AtomSchema, type FactDelta, formatAtom } from "../dsl/facts.ts";
import { isAssignable, isObjectType, own, type Vocabulary } from "../dsl/vocabulary.ts";
import type { Trace } from "../dsl/trace.ts";
import type { Grounder, Grounding, OnlineGrounder } from "../runtime/environment.ts";
import { FactStore } from "../runtime/fact_store.ts";
import type { ChatMessage } from "./cache.ts";
import { describeVocabulary } from "./_vocabulary_text.ts";
import type { LlmClient } from "./client.ts";

/** A valid answer of the grounder role for one observation. */
export interface GroundingAnswer {
  /** Facts that became true. */
  add: Atom[];
  /** Facts that stopped holding. */
  remove: Atom[];
  /** Objects not known before, with their types. */
  objects: Record<string, string>;
  /** Why the environment refused the action, or `null`. */
  rejected: string | null;
  /** Observation text the predicates cannot express. */
  unknown: string[];
}

/** What the model may send: the last three members may be left out. */
export type GroundingAnswerInput =
  & Pick<GroundingAnswer, "add" | "remove">
  & Partial<Omit<GroundingAnswer, "add" | "remove">>;

/** Zod schema of a {@linkcode GroundingAnswer}. */
export const GroundingAnswerSchema: z.ZodType<GroundingAnswer, GroundingAnswerInput> = z.object({
  add: z.array(AtomSchema),
  remove: z.array(AtomSchema),
  objects: z.record(z.string(), z.string()).default({}),
  rejected: z.string().nullable().default(null),
  unknown: z.array(z.string()).default([]),
});

/**
 * A grounder that asks an LLM. Each call is one request (two when the
 * first answer is rejected); when no valid answer comes, the call throws
 * the client's `LlmError`, naming the role and the request, and the episode
 * ends with it.
 *
 * @example Usage
 * ```ts ignore
 * const grounder = new LlmGrounder(client, kit.vocabulary);
 * const first = await grounder.initial(reset.observation, reset.goal);
 * ```
 */
export class LlmGrounder implements OnlineGrounder {
  readonly #client: LlmClient;
  readonly #vocab: Vocabulary;
  readonly #system: ChatMessage;
  readonly #memo?: Map<string, Grounding>;

  /**
   * Creates a grounder asking `client` in the words of `vocab`; with
   * `memo`, every answer is also kept there by its request (see
   * {@linkcode groundTracesAhead}).
   */
  constructor(
    client: LlmClient,
    vocab: Vocabulary,
    options: { memo?: Map<string, Grounding> } = {},
  ) {
    this.#client = client;
    this.#vocab = vocab;
    this.#system = { role: "system", content: grounderInstructions(vocab) };
    this.#memo = options.memo;
  }

  /** Facts of the first observation and the goal. */
  initial(observation: string, goal: string): Promise<Grounding> {
    return this.#ask(initialRequest(observation, goal), undefined, `${goal}\n${observation}`);
  }

  /** The fact change of `action` and its `observation`, given the current facts. */
  step(facts: FactStore, action: string, observation: string): Promise<Grounding> {
    return this.#ask(
      groundingRequest(facts, action, observation),
      facts,
      `${action}\n${observation}`,
    );
  }

  async #ask(content: string, facts: FactStore | undefined, text: string): Promise<Grounding> {
    const r = await this.#client.ask({
      role: "grounder",
      messages: [this.#system, { role: "user", content }],
      schema: GroundingAnswerSchema,
      check: (a) => checkGrounding(a, this.#vocab, (id) => facts?.typeOf(id), text),
    });
    if (!r.ok) throw r.error;
    const a = r.value;
    const delta: FactDelta = { add: a.add, remove: a.remove, objects: a.objects };
    const grounding: Grounding = {
      delta,
      ...(a.rejected !== null ? { rejected: a.rejected } : {}),
      ...(a.unknown.length > 0 ? { unknown: a.unknown } : {}),
    };
    this.#memo?.set(content, grounding);
    return grounding;
  }
}

/**
 * Grounds recorded traces with the model once, each trace as an episode of
 * its own (`client.episode()`: its own call budget), and returns a
 * synchronous grounder that answers the same requests from memory:
 * induction grounds traces synchronously, and more than once.
 *
 * @throws {LlmError} When an observation gets no valid answer.
 *
 * @example Usage
 * ```ts ignore
 * const grounder = await groundTracesAhead(client, kit.vocabulary, traces);
 * const compiled = compileTraces(traces, { ...kit, grounder: () => grounder });
 * ```
 */
export async function groundTracesAhead(
  client: LlmClient,
  vocab: Vocabulary,
  traces: readonly Trace[],
  onTrace?: (done: number, total: number) => void,
): Promise<Grounder> {
  const memo = new Map<string, Grounding>();
  for (const [i, trace] of traces.entries()) {
    const grounder = new LlmGrounder(client.episode(), vocab, { memo });
    const facts = new FactStore();
    facts.apply((await grounder.initial(trace.initial, trace.goal)).delta);
    for (const s of trace.steps) {
      facts.apply((await grounder.step(facts, s.action, s.observation)).delta);
    }
    onTrace?.(i + 1, traces.length);
  }
  const recall = (content: string): Grounding => {
    const g = memo.get(content);
    if (!g) throw new Error(`No grounding recorded for the request: ${content.slice(0, 120)}`);
    return g;
  };
  return {
    initial: (observation, goal) => recall(initialRequest(observation, goal)),
    step: (facts, action, observation) => {
      if (!(facts instanceof FactStore)) {
        throw new TypeError("The recorded grounder needs a FactStore");
      }
      return recall(groundingRequest(facts, action, observation));
    },
  };
}

/** The user message of the first observation. */
export function initialRequest(observation: string, goal: string): string {
  return `Goal: ${goal}\nFirst observation:\n${observation}\n\nWhich facts hold now?`;
}

/** The system message: the vocabulary's types and predicates and the answer's form. */
export function grounderInstructions(vocab: Vocabulary): string {
  const lines = [
    `You ground observations of the "${vocab.name}" environment into facts for skillc, an ` +
    "agent that runs skills on those facts.",
    ...describeVocabulary(vocab, { types: true, predicates: true }),
  ];
  lines.push(
    "Answer with JSON only, of this form:",
    '{"add": [{"pred": "<predicate>", "args": [<object id, string or number>, ...]}], ' +
      '"remove": [<facts that stop holding, same form>], ' +
      '"objects": {"<id of an object not known before>": "<its type>"}, ' +
      '"rejected": null or "<why the environment refused the action>", ' +
      '"unknown": ["<observation text the predicates cannot express>"]}',
    "Use only these predicates, each with its number and types of arguments. An object must be " +
      'known already or named in the observation; a new one needs its type in "objects". An ' +
      "object the observation describes without naming it (the second recipe of a list, say) " +
      'is called "<its type in lower case> <n>", e.g. "recipe 2".',
  );
  return lines.join("\n");
}

/** The user message of a step: known objects, current facts, the action and what was observed. */
export function groundingRequest(facts: FactStore, action: string, observation: string): string {
  return [
    `Known objects (id: type): ${JSON.stringify(facts.objects())}`,
    "Facts:",
    // In the order they became known, as the runtime holds them.
    ...facts.atoms().map(formatAtom),
    `Action: ${action}`,
    "Observation:",
    observation,
    "",
    "What changed?",
  ].join("\n");
}

/**
 * Why an answer does not fit the vocabulary, or names an object that is
 * neither known (`typeOf`) nor declared in the answer and introduced by
 * `text` (named in it, or `<type> <n>`; without `text`, declaring it is
 * enough); `undefined` when it fits.
 *
 * @example Usage
 * ```ts ignore
 * checkGrounding(answer, vocab, (id) => facts.typeOf(id), observation);
 * // 'add[0]: "holding" is no predicate of the vocabulary (known: at, in)'
 * ```
 */
export function checkGrounding(
  answer: GroundingAnswer,
  vocab: Vocabulary,
  typeOf: (id: string) => string | undefined,
  text: string | undefined,
): string | undefined {
  const lower = text?.toLowerCase();
  for (const [id, type] of Object.entries(answer.objects)) {
    if (!isObjectType(vocab, type)) {
      return `objects: "${type}" (the type of "${id}") is no object type of the vocabulary`;
    }
    if (
      lower !== undefined && typeOf(id) === undefined && !lower.includes(id.toLowerCase()) &&
      !numbered(id, type)
    ) {
      return `objects: "${id}" is neither a known object nor named in the observation (an ` +
        `object it describes without a name is called "${type.toLowerCase()} <n>")`;
    }
  }
  const typeOfAny = (id: string) => own(answer.objects, id) ?? typeOf(id);
  for (const side of ["add", "remove"] as const) {
    for (const [i, atom] of answer[side].entries()) {
      const why = atomProblem(atom, vocab, typeOfAny);
      if (why !== undefined) return `${side}[${i}] ${formatAtom(atom)}: ${why}`;
    }
  }
  return undefined;
}

/** Whether `id` is `<type> <n>`: the name of an object the observation describes but does not name. */
function numbered(id: string, type: string): boolean {
  const m = /^(.*) (\d+)$/.exec(id);
  return m !== null && m[1].toLowerCase() === type.toLowerCase();
}

/** What is wrong with one atom of an answer, if anything. */
function atomProblem(
  atom: Atom,
  vocab: Vocabulary,
  typeOf: (id: string) => string | undefined,
): string | undefined {
  const decl = own(vocab.predicates, atom.pred);
  if (!decl) {
    return `"${atom.pred}" is no predicate of the vocabulary (known: ${
      Object.keys(vocab.predicates).join(", ")
    })`;
  }
  if (atom.args.length !== decl.params.length) {
    return `${atom.pred} takes ${decl.params.length} argument(s) (${
      decl.params.join(", ")
    }), not ${atom.args.length}`;
  }
  for (const [k, param] of decl.params.entries()) {
    const arg = atom.args[k];
    const where = `argument ${k + 1} of ${atom.pred}`;
    if (isObjectType(vocab, param)) {
      if (typeof arg !== "string") return `${where} must be an object (${param}), not ${arg}`;
      const type = typeOf(arg);
      if (type === undefined) {
        return `"${arg}" (${where}) is an unknown object: name it in "objects" with its type`;
      }
      if (!isAssignable(vocab, type, param)) {
        return `"${arg}" is a ${type}, but ${where} is a ${param}`;
      }
    } else if (param === "Num") {
      if (typeof arg !== "number") return `${where} must be a number, not ${JSON.stringify(arg)}`;
    }
  }
  return undefined;
}
