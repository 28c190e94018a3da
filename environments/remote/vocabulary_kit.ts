/**
 * The local kit of an environment that skillc knows only by its
 * vocabulary (a JSON file): no grounder code, no expert, no simulator. It
 * runs behind a server (`agentgym:<name>@<url> --vocabulary <file>`), and
 * its observations are grounded by a language model (the grounder role).
 *
 * @module
 */
import { type Vocabulary, VocabularySchema } from "../../dsl/vocabulary.ts";
import type {
  EnvironmentKit,
  Grounder,
  TaskListRequest,
  TaskSpec,
} from "../../runtime/environment.ts";
import { readJsonFileAs } from "../../io/json_file.ts";
import { rejectSelectors } from "../../runtime/eval/task_lists.ts";

const vocabularyOnly = new WeakSet<EnvironmentKit>();

/**
 * Whether the kit (or the local kit behind a remote one) was made from a
 * vocabulary alone, so that its observations need a grounder from elsewhere.
 */
export function hasGrounderCode(kit: EnvironmentKit): boolean {
  return !vocabularyOnly.has(kit);
}

/**
 * Reads a vocabulary file: JSON that `VocabularySchema` accepts.
 *
 * @throws {InputFileError} Naming the file and the field that is wrong.
 */
export function readVocabularyFile(path: string): Promise<Vocabulary> {
  return readJsonFileAs(path, VocabularySchema, "vocabulary");
}

/**
 * A kit of `vocabulary` alone, named `name`: its tasks are the server's
 * task numbers (`{ seed: 0 }`, `{ seed: 1 }`, ..., from `seed`, default 0,
 * sent as AgentGym's `data_idx`);
 * `create` and `grounder` throw, saying what to use instead.
 *
 * @example Usage
 * ```ts ignore
 * const local = vocabularyKit("shop", await readVocabularyFile("shop.json"));
 * const kit = remoteKit("agentgym:shop@http://127.0.0.1:36001", local);
 * ```
 */
export function vocabularyKit(name: string, vocabulary: Vocabulary): EnvironmentKit {
  const kit: EnvironmentKit = {
    name,
    vocabulary,
    create() {
      throw new Error(
        `The "${name}" environment is known by its vocabulary only: run it behind a server ` +
          `(agentgym:${name}@http://host:port)`,
      );
    },
    grounder(): Grounder {
      throw new Error(
        `The "${name}" environment has no grounder code: its observations are grounded by a ` +
          "language model (--llm <url> --model <name>, the grounder role)",
      );
    },
    taskList(request: TaskListRequest): TaskSpec[] {
      const { split: _split, n, seed, ...selectors } = request;
      rejectSelectors(
        `Environment "${name}"`,
        selectors,
        "only n and seed: the server's task numbers",
      );
      const first = seed ?? 0;
      return Array.from({ length: n ?? 10 }, (_, i) => ({ seed: first + i }));
    },
  };
  vocabularyOnly.add(kit);
  return kit;
}
