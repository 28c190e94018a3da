/**
 * The knowledge role: when a call fails because the facts offer no way to
 * what it needs, an LLM is asked how, from what it knows of the domain
 * (the recipe a listing leaves out, the place an item is usually found).
 * The answer is facts in the vocabulary's predicates, checked like a
 * grounder's answer (known predicates, arity, types; new objects declared
 * with their type, but, unlike an observation's, not named anywhere);
 * the agent assumes them and its retry of the call verifies them by acting
 * (see `runtime/knowledge.ts`).
 *
 * @module
 */
import { z } from "zod";
import { type Atom, AtomSchema, formatAtom } from "../dsl/facts.ts";
import type { Vocabulary } from "../dsl/vocabulary.ts";
import type { KnowledgeAnswer, KnowledgeQuestion, KnowledgeSource } from "../runtime/knowledge.ts";
import type { ChatMessage } from "./cache.ts";
import type { LlmClient } from "./client.ts";
import { checkGrounding } from "./grounder.ts";
import { describeVocabulary } from "./_vocabulary_text.ts";

/** A valid answer of the knowledge role. */
export interface KnowledgeReply {
  /** Facts that would give a way (empty: the model does not know). */
  add: Atom[];
  /** New objects they name, with their types. */
  objects: Record<string, string>;
}

/** Zod schema of a {@linkcode KnowledgeReply}. */
export const KnowledgeReplySchema: z.ZodType<KnowledgeReply, Partial<KnowledgeReply>> = z.object({
  add: z.array(AtomSchema).default([]),
  objects: z.record(z.string(), z.string()).default({}),
});

/**
 * A knowledge source that asks an LLM. When no valid answer comes, the
 * call throws the client's `LlmError`, naming the role and the request.
 *
 * @example Usage
 * ```ts ignore
 * runAgent({ ...options, knowledge: new LlmKnowledge(client, kit.vocabulary) });
 * ```
 */
export class LlmKnowledge implements KnowledgeSource {
  readonly #client: LlmClient;
  readonly #vocab: Vocabulary;

  /** Creates a source asking `client` in the words of `vocab`. */
  constructor(client: LlmClient, vocab: Vocabulary) {
    this.#client = client;
    this.#vocab = vocab;
  }

  /** Facts that would give a way to what the failed call needs, or `undefined`. */
  async ask(question: KnowledgeQuestion): Promise<KnowledgeAnswer | undefined> {
    const messages = knowledgePrompt(this.#vocab, question);
    const r = await this.#client.ask({
      role: "knowledge",
      messages,
      schema: KnowledgeReplySchema,
      check: (a) =>
        checkGrounding(
          { ...a, remove: [], rejected: null, unknown: [] },
          this.#vocab,
          (id) => question.facts.typeOf(id),
          // What the domain knows is new by nature: a declared object is enough.
          undefined,
        ),
    });
    if (!r.ok) throw r.error;
    if (r.value.add.length === 0) return undefined;
    return { add: r.value.add, objects: r.value.objects, source: `LLM ${this.#client.model}` };
  }
}

/** The request: the vocabulary, then the failed call, what it needs, why it failed and the facts. */
export function knowledgePrompt(vocab: Vocabulary, q: KnowledgeQuestion): ChatMessage[] {
  const system = [
    `An agent in the "${vocab.name}" environment is stuck: a skill call failed and the facts it ` +
    "holds offer no way to what the call needs. Say what you know of the domain that gives a " +
    "way (a recipe, a place, a rule the facts do not list), as facts in the vocabulary's " +
    "predicates. The agent assumes them and checks them by acting.",
    ...describeVocabulary(vocab, { types: true, predicates: true }),
    "Answer with JSON only: " +
    '{"add": [{"pred": "<predicate>", "args": [...]}], "objects": {"<new object id>": "<type>"}}; ' +
    '{"add": []} when you do not know. A new object needs its type in "objects"; one the ' +
    'facts do not name is called "<its type in lower case> <n>" after those of its type.',
  ];
  const user = [
    `Goal: ${q.goal}`,
    `Failed call: ${q.skill}(${JSON.stringify(q.args)})`,
    `It needs: ${q.need}`,
    `Why it failed: ${q.diagnosis}`,
    `About: ${q.objects.join(", ")}`,
    `Known objects (id: type): ${JSON.stringify(q.facts.objects())}`,
    "Facts:",
    ...q.facts.atoms().map(formatAtom),
    "",
    "What facts would give a way?",
  ];
  return [
    { role: "system", content: system.join("\n") },
    { role: "user", content: user.join("\n") },
  ];
}
