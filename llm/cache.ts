/**
 * Record and replay of LLM answers: a JSONL file with one line per request
 * asked and the answer given, keyed by a hash of the request (model and
 * messages). A run that finds its requests in the file needs no server, so
 * a run with an LLM can be reproduced exactly, offline and in CI.
 *
 * @module
 */
import { z } from "zod";
import { InputFileError, parseJsonLine, writeTextFileAtomic } from "../io/json_file.ts";

/** One message of a chat request. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** One recorded request and its answer. */
export interface CachedAnswer {
  /** {@linkcode requestKey} of the request. */
  key: string;
  /** The role that asked (grounder, synthesizer, ...), for people reading the file. */
  role: string;
  model: string;
  messages: ChatMessage[];
  /** The answer's text, as the server sent it. */
  content: string;
  usage: { prompt: number; completion: number };
}

const CachedAnswerSchema: z.ZodType<CachedAnswer> = z.object({
  key: z.string().regex(/^[0-9a-f]{64}$/),
  role: z.string(),
  model: z.string(),
  messages: z.array(
    z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() }),
  ),
  content: z.string(),
  usage: z.object({
    prompt: z.number().int().nonnegative(),
    completion: z.number().int().nonnegative(),
  }),
});

/**
 * The key of a request: the SHA-256 of its model and messages.
 *
 * @example Usage
 * ```ts
 * import { requestKey } from "./cache.ts";
 * const key = await requestKey("m", [{ role: "user", content: "hi" }]);
 * console.log(key.length); // 64
 * ```
 */
export async function requestKey(model: string, messages: readonly ChatMessage[]): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify([model, messages]));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A cache file: answers found in it are used instead of calling the
 * server; new answers are appended to it.
 *
 * @example Usage
 * ```ts ignore
 * const cache = await LlmCache.open("runs/llm.jsonl");
 * const hit = cache.get(await requestKey(model, messages));
 * ```
 */
export class LlmCache {
  /** The file. */
  readonly path: string;
  #answers = new Map<string, CachedAnswer>();
  /** By the hash of the messages alone, for a replay that names no model. */
  #byMessages = new Map<string, CachedAnswer>();

  private constructor(path: string) {
    this.path = path;
  }

  /**
   * Opens (or starts) a cache file.
   *
   * @throws {InputFileError} Naming the line that is not a valid entry.
   */
  static async open(path: string): Promise<LlmCache> {
    const cache = new LlmCache(path);
    let text = "";
    try {
      text = await Deno.readTextFile(path);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) {
        throw new InputFileError(path, `Cannot read file: ${e instanceof Error ? e.message : e}`);
      }
    }
    if (text !== "" && !text.endsWith("\n")) {
      // A run killed while writing left a torn last line: drop it, so that
      // the next answer starts a line of its own.
      text = text.slice(0, text.lastIndexOf("\n") + 1);
      await writeTextFileAtomic(path, text);
    }
    const lines = text.split("\n");
    for (const [i, line] of lines.entries()) {
      if (line.trim() === "") continue;
      const answer = parseJsonLine(line, CachedAnswerSchema, {
        path,
        line: i + 1,
        what: "LLM cache line",
      });
      if (answer === undefined) {
        throw new InputFileError(path, "Invalid LLM cache line: not JSON", i + 1);
      }
      cache.#answers.set(answer.key, answer);
      cache.#byMessages.set(await requestKey("", answer.messages), answer);
    }
    return cache;
  }

  /** Number of recorded answers. */
  get size(): number {
    return this.#answers.size;
  }

  /** The recorded answer of a request key, if any. */
  get(key: string): CachedAnswer | undefined {
    return this.#answers.get(key);
  }

  /**
   * The answer recorded last for these messages, whatever the model: what a
   * replay without a server (and so without a model) uses.
   */
  async find(messages: readonly ChatMessage[]): Promise<CachedAnswer | undefined> {
    return this.#byMessages.get(await requestKey("", messages));
  }

  /** Records an answer (appended to the file as one line). */
  async put(answer: CachedAnswer): Promise<void> {
    this.#answers.set(answer.key, answer);
    this.#byMessages.set(await requestKey("", answer.messages), answer);
    await Deno.writeTextFile(this.path, `${JSON.stringify(answer)}\n`, { append: true });
  }
}
