/**
 * Task templates: for each task type seen in the demonstrations, the
 * ordered skill calls that solved it, with each argument given as an
 * expression over the episode's initial facts (learned by
 * `compiler/templates.ts`, stored in the library index, followed by the
 * planner).
 *
 * Argument expressions are read with value domains (see
 * `value_domains.ts`): `select_one(t: ItemType, goal_item(t))` may
 * quantify over a value type.
 *
 * @module
 */
import { z } from "zod";
import { type Skill, type SkillInput, SkillSchema } from "../../dsl/graph/schema.ts";

/** One argument of a template step: how to compute it from the initial facts. */
export interface TemplateArg {
  /** The skill parameter. */
  name: string;
  /** Its type. */
  type: string;
  /** Intermediate bindings evaluated first, in order (`var := expr`). */
  steps?: { var: string; expr: string }[];
  /**
   * The expression giving the value; absent when none was found, in which
   * case the planner reuses the value of an earlier step's argument of the
   * same name and type.
   */
  expr?: string;
}
/** Zod schema of a {@linkcode TemplateArg}. */
export const TemplateArgSchema: z.ZodType<TemplateArg, TemplateArg> = z.object({
  name: z.string(),
  type: z.string(),
  steps: z.array(z.object({ var: z.string(), expr: z.string() })).optional(),
  expr: z.string().optional(),
});

/** One skill call of a template. */
export interface TemplateStep {
  skill: string;
  args: TemplateArg[];
}
/** Zod schema of a {@linkcode TemplateStep}. */
export const TemplateStepSchema: z.ZodType<TemplateStep, TemplateStep> = z.object({
  skill: z.string(),
  args: z.array(TemplateArgSchema),
});

/** A sequence of skill calls and how many demonstrations used it. */
export interface TemplateSequence {
  steps: TemplateStep[];
  /** Demonstrations whose segments followed exactly this sequence. */
  support: number;
}
/** Zod schema of a {@linkcode TemplateSequence}. */
export const TemplateSequenceSchema: z.ZodType<TemplateSequence, TemplateSequence> = z.object({
  steps: z.array(TemplateStepSchema),
  support: z.number().int().nonnegative(),
});

/** The template of one task type. */
export interface TaskTemplate {
  /** The task type (a trace's `task.type`, or its goal pattern `goal:<preds>`). */
  type: string;
  /** Demonstrations of this type. */
  traces: number;
  /** The most frequent sequence. */
  steps: TemplateStep[];
  /** Demonstrations that followed `steps`. */
  support: number;
  /** The other sequences seen, most frequent first. */
  alternatives: TemplateSequence[];
  /**
   * The task program induced from the same demonstrations (a skill whose
   * primitive nodes call skills, with loops over the goal's objects where
   * the demonstrations show them). When present the planner runs it
   * instead of the fixed sequences.
   */
  program?: Skill;
}
/** Zod schema of a {@linkcode TaskTemplate}; `alternatives` defaults to `[]`. */
export const TaskTemplateSchema: z.ZodType<
  TaskTemplate,
  Omit<TaskTemplate, "alternatives" | "program"> & {
    alternatives?: TemplateSequence[];
    program?: SkillInput;
  }
> = z.object({
  type: z.string(),
  traces: z.number().int().nonnegative(),
  steps: z.array(TemplateStepSchema),
  support: z.number().int().nonnegative(),
  alternatives: z.array(TemplateSequenceSchema).default([]),
  program: SkillSchema.optional(),
});

/**
 * The sequences of a template, most frequent first: `steps`, then the
 * alternatives.
 *
 * @example Usage
 * ```ts
 * import { templateSequences } from "./task_template.ts";
 * const t = { type: "t", traces: 1, steps: [], support: 1, alternatives: [] };
 * console.log(templateSequences(t).length); // 1
 * ```
 */
export function templateSequences(template: TaskTemplate): TemplateSequence[] {
  return [{ steps: template.steps, support: template.support }, ...template.alternatives];
}
