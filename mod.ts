/**
 * skillc: a neuro-symbolic skill compiler. It lifts recorded interaction
 * traces into skills, typed workflow graphs whose nodes bind variables with
 * first-order logic, branch, loop, act and end with a diagnosis, and runs
 * them against text environments.
 *
 * @example Run a skill in a TextCraft task
 * ```ts
 * import { collectRun, compileSkill, FactStore, runSkill, textcraftKit } from "./mod.ts";
 *
 * const skill = {
 *   name: "fetch",
 *   vocabulary: "textcraft",
 *   params: [{ name: "item", type: "Item" }],
 *   doc: { summary: "Get one of an item." },
 *   entry: "get",
 *   nodes: [
 *     { id: "get", kind: "primitive", action: "get", args: { n: "1", item: "item" } },
 *     { id: "ok", kind: "terminal", outcome: "success" },
 *   ],
 *   edges: [{ from: "get", to: "ok", label: "next" }],
 * };
 * const program = compileSkill(skill, textcraftKit.vocabulary);
 * if (!program.ok) throw new Error(program.error.map((i) => i.message).join("\n"));
 * const env = textcraftKit.create();
 * const grounder = textcraftKit.grounder();
 * const task = await env.reset({ seed: 1, options: { depth: 1 } });
 * const facts = new FactStore();
 * facts.apply(grounder.initial(task.observation, task.goal).delta);
 * const { result } = await collectRun(
 *   runSkill(program.value, { item: "oak logs" }, { env, grounder, facts }),
 * );
 * console.log(result.outcome); // success
 * ```
 *
 * @module
 */
export * from "./dsl/mod.ts";
export * from "./runtime/mod.ts";
export * from "./compiler/mod.ts";
export * from "./environments/registry.ts";
export * from "./environments/textcraft/mod.ts";
export {
  AlfworldEnv,
  AlfworldExpert,
  AlfworldGrounder,
  alfworldKit,
  alfworldVocabulary,
  importTranscripts as importAlfworldTranscripts,
  parseSceneSpec,
  parseTranscript as parseAlfworldTranscript,
  SceneSpecSchema,
} from "./environments/alfworld/mod.ts";
export * from "./environments/remote/mod.ts";
export * from "./llm/mod.ts";
