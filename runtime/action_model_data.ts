/**
 * The serialised form of an action model: per action template, its rules
 * and effects as text. It is the form every party shares: an environment
 * states the rules it knows in it (`EnvironmentKit.actionRules`), the
 * learner (`learn/action_model.ts`) learns and refines it, and the library
 * stores it beside its index.
 *
 * @module
 */
import { z } from "zod";

/** A learned precondition in text form. */
export interface ActionRule {
  /** The literal over the action's parameters, e.g. `near(door)`. */
  text: string;
  /** Chosen to explain failures (used to block); `false` for a hypothesis. */
  confirmed: boolean;
  /** Failed transitions the rule rejects (0 for hypotheses). */
  covers: number;
}

/** What the model knows about one action template. */
export interface ActionEntryData {
  /** Accepted transitions seen. */
  successes: number;
  /** Rejected transitions seen. */
  failures: number;
  /** Accepted transitions that came with a fact change (the effects' evidence). */
  observed: number;
  /** Confirmed rules (in cover order), then hypotheses. */
  rules: ActionRule[];
  /** Lifted atoms made true and false in every observed success. */
  effects: { add: string[]; remove: string[] };
}

/** The format tag of a serialised action model. */
export const ACTION_MODEL_FORMAT = "skillc/action-model@1";

/** The serialised form of an action model (what `ActionModel.toJSON` returns). */
export interface ActionModelData {
  format: typeof ACTION_MODEL_FORMAT;
  /** Name of the vocabulary the rules are written in. */
  vocabulary: string;
  /** Entries by action (template) name. */
  actions: Record<string, ActionEntryData>;
  /**
   * Whether the model started from rules the environment states (a PDDL
   * domain's preconditions) rather than from observation alone: such a
   * model knows what no demonstration showed.
   */
  stated?: boolean;
}

const count = z.number().int().min(0);
/** Zod schema of an {@linkcode ActionModelData}. */
export const ActionModelSchema: z.ZodType<ActionModelData, ActionModelData> = z.object({
  format: z.literal(ACTION_MODEL_FORMAT),
  vocabulary: z.string().min(1),
  actions: z.record(
    z.string(),
    z.object({
      successes: count,
      failures: count,
      observed: count,
      rules: z.array(z.object({ text: z.string().min(1), confirmed: z.boolean(), covers: count })),
      effects: z.object({ add: z.array(z.string()), remove: z.array(z.string()) }),
    }),
  ),
  stated: z.boolean().optional(),
});
