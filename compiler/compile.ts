/**
 * The whole compile pipeline in one call: traces in, library artefact out
 * (skills with their measurements, task templates with their programs, and
 * the action model), in memory. `writeCompiledLibrary` stores it as a
 * versioned library directory.
 *
 * @module
 */
import type { Skill } from "../dsl/graph/schema.ts";
import type { Trace } from "../dsl/trace.ts";
import type { ActionModel } from "../runtime/learn/action_model.ts";
import type { EnvironmentKit } from "../runtime/environment.ts";
import { compileSkills, type SkillLibrary } from "../runtime/store/library.ts";
import type { TaskTemplate } from "../runtime/store/task_template.ts";
import { exploredTransitions, learnActionModelFromGrounded } from "./action_model_from_traces.ts";
import { actionRelations } from "./action_relations.ts";
import { type InduceOptions, induceSkills, type Induction, segmentGroups } from "./induce.ts";
import { learnTemplates } from "./templates.ts";
import { inducePolicies } from "./policy/induce_policy.ts";
import { writeLibrary } from "./write_library.ts";

/** Options of {@linkcode compileTraces}. */
export interface CompileOptions extends InduceOptions {
  /** Receives one line per template decision (the templates' `--explain`). */
  explainTemplates?: (line: string) => void;
  /**
   * Also learn a decision-list policy per task type (`policy/`) and make
   * it the task's program. @default false
   */
  policy?: boolean;
  /**
   * Uses of actions no demonstration used, tried in the demonstrations'
   * problems (`exploreUnusedActions`): the action model learns from them
   * too; skills, templates and policies do not.
   */
  explored?: readonly Trace[];
}

/** A compiled library, in memory. */
export interface CompiledLibrary {
  /** The induced skills. */
  skills: Skill[];
  /** The task templates (with task programs) learned from the same traces. */
  templates: TaskTemplate[];
  /** The action model learned from the same traces. */
  actionModel: ActionModel;
  /** The skills, compiled against each other. */
  library: SkillLibrary;
  /** The induction's measurements (coverage, region, size per skill; ungrounded text). */
  induction: Induction;
  /** Compile time (skills, templates and action model), in seconds. */
  seconds: number;
}

/**
 * Compiles traces into a library: skills (`induceSkills`), task templates
 * and programs (`learnTemplates`), and the action model
 * (`learnActionModelFromTraces`), whose relations among each action's
 * arguments the skills' selections keep.
 *
 * @example Usage
 * ```ts ignore
 * import { compileTraces } from "./compile.ts";
 * const compiled = compileTraces(traces, kit);
 * console.log(compiled.skills.map((s) => s.name), compiled.templates.length);
 * ```
 */
export function compileTraces(
  traces: readonly Trace[],
  kit: EnvironmentKit,
  options: CompileOptions = {},
): CompiledLibrary {
  const started = performance.now();
  const { explainTemplates, policy, explored, ...induceOptions } = options;
  // Grounded and segmented once, for the skills and the task templates.
  const segmented = induceOptions.segmented ?? segmentGroups(traces, kit);
  const demonstrated = learnActionModelFromGrounded(segmented.grounded, kit);
  const actionModel = explored?.length
    ? demonstrated.update(exploredTransitions(explored, kit))
    : demonstrated;
  const induction = induceSkills(traces, kit, {
    actionRelations: actionRelations(demonstrated, kit.vocabulary),
    ...induceOptions,
    segmented,
  });
  const skills = induction.skills.map((s) => s.skill);
  const templates = learnTemplates(traces, kit, {
    segmented,
    skills: skills.map((s) => s.name),
    ...(explainTemplates ? { explain: explainTemplates } : {}),
  });
  if (policy) {
    for (
      const induced of inducePolicies(segmented.grounded, kit.vocabulary, {
        ...(explainTemplates ? { explain: explainTemplates } : {}),
      })
    ) {
      skills.push(induced.skill);
      const template = templates.find((t) => t.type === induced.type);
      if (template) template.program = induced.program;
      else {
        templates.push({
          type: induced.type,
          traces: induced.traces,
          steps: [],
          support: 0,
          alternatives: [],
          program: induced.program,
        });
      }
    }
  }
  const library = compileSkills(
    skills.map((s) => ({ data: s, source: `induced skill "${s.name}"` })),
    kit.vocabulary,
  );
  return {
    skills,
    templates,
    actionModel,
    library,
    induction,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * Writes a compiled library as a new version of the library at `dir` (a
 * directory or `kv:<path or URL>`; or a new library), with its action model.
 *
 * @param detail What the version was made from, for its history entry.
 */
export async function writeCompiledLibrary(
  dir: string,
  compiled: CompiledLibrary,
  kit: Pick<EnvironmentKit, "vocabulary">,
  options: { detail?: string; overwrite?: boolean } = {},
): Promise<{ version: number }> {
  const written = await writeLibrary(dir, compiled.skills, kit.vocabulary, {
    ...(options.overwrite !== undefined ? { overwrite: options.overwrite } : {}),
    ...(options.detail !== undefined ? { detail: options.detail } : {}),
    templates: compiled.templates,
    actionModel: compiled.actionModel,
  });
  return written;
}
