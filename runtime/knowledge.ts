/**
 * Background knowledge: what the agent asks when a call fails because the
 * facts offer no way to what it needs (no recipe makes the item, no known
 * place holds it). The answer is facts to assume, never trusted: the agent
 * adds them, retries the call, and retracts them when the retry fails too,
 * so acting verifies them. An environment may offer a source built from
 * its own data (`EnvironmentKit.knowledge`); the language model's
 * knowledge role is another (`llm/knowledge.ts`).
 *
 * @module
 */
import type { Atom, Value } from "../dsl/facts.ts";
import type { FactStore } from "./fact_store.ts";

/** What the agent asks. */
export interface KnowledgeQuestion {
  /** The task's goal sentence. */
  goal: string;
  /** The call that failed. */
  skill: string;
  args: Record<string, Value>;
  /** What the call was to make true: its postcondition on the arguments, or its name. */
  need: string;
  /** Why it failed. */
  diagnosis: string;
  /**
   * What the failure is about: the call's object arguments, then the
   * objects of the actions the environment rejected.
   */
  objects: string[];
  /** The belief state. */
  facts: FactStore;
}

/** Facts to assume, and where they come from. */
export interface KnowledgeAnswer {
  /** Atoms that would make a way, with the new objects they name. */
  add: Atom[];
  objects?: Record<string, string>;
  /** The source, for traces (`recipe data`, `LLM qwen2.5`). */
  source: string;
}

/** Answers how to reach what the facts offer no way to. */
export interface KnowledgeSource {
  /** Facts to assume, or `undefined` when the source knows nothing of it. */
  ask(question: KnowledgeQuestion): Promise<KnowledgeAnswer | undefined>;
}
