/**
 * The planner: turns a task into skill calls (DESIGN section 6).
 *
 * - **Templates.** The task's template (matched by the reset's task type,
 *   else the most demonstrated template whose argument expressions all
 *   evaluate on the initial facts) gives the ordered skill calls, each
 *   argument computed from the initial facts.
 * - **Skipping.** A step whose postcondition already holds is skipped,
 *   unless the template repeats the same call (twice the same subgoal: the
 *   postcondition does not tell the two apart).
 * - **Goal regression.** When a call fails, {@linkcode Planner.regress}
 *   proposes calls that produce what the failure was missing (see
 *   `regression.ts`); the agent achieves them first and retries.
 *
 * @module
 */
import type { Expr } from "../../dsl/expr/ast.ts";
import { formatExprError } from "../../dsl/expr/errors.ts";
import { evalExpr } from "../../dsl/expr/eval.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import type { FactView, Value } from "../../dsl/facts.ts";
import { checkArgs } from "../exec/args.ts";
import type { SkillLibrary } from "../store/library.ts";
import { checkPostcondition, type PostconditionCheck } from "../exec/postcondition.ts";
import {
  type FailureView,
  regressionCandidates,
  type RegressionOptions,
  type Subgoal,
} from "./regression.ts";
import { type TaskTemplate, templateSequences, type TemplateStep } from "../store/task_template.ts";
import {
  type ValueDomains,
  valueDomainVocabulary,
  withValueDomains,
} from "../exec/value_domains.ts";
import { compileSkill, formatIssues, type Program } from "../exec/program.ts";

/** A skill with its arguments. */
export interface SkillCall {
  skill: string;
  args: Record<string, Value>;
}

/** The plan of a task: a template's calls, bound on the initial facts. */
export interface Plan {
  /** The template followed. */
  template: TaskTemplate;
  /** Which of its sequences (0: the most frequent, then the alternatives). */
  sequence: number;
  /** How the template was chosen. */
  matchedBy: "type" | "arguments";
  /** The calls, in order (empty when the plan is a program). */
  calls: SkillCall[];
  /**
   * The template's task program, compiled: run it, calling skills as its
   * nodes say, instead of `calls`. Its expressions read the facts through
   * value domains (`withValueDomains`).
   */
  program?: Program;
}

/** A task program compiled against the library, or why it does not compile. */
export type CompiledProgram = { ok: true; value: Program } | { ok: false; error: string };

/** Options of {@linkcode Planner}. */
export interface PlannerOptions {
  /** Deepest goal regression (subgoals of subgoals ...). @default 6 */
  maxDepth?: number;
}

/**
 * Chooses skill calls from task templates and regresses failures.
 *
 * @example Usage
 * ```ts ignore
 * const planner = new Planner(library, templates);
 * const plan = planner.plan(facts, reset.taskType);
 * if (plan.ok) for (const call of plan.value.calls) console.log(call.skill, call.args);
 * ```
 */
export class Planner {
  /** The skills. */
  readonly library: SkillLibrary;
  /** The templates. */
  readonly templates: readonly TaskTemplate[];
  /** The regression depth limit. */
  readonly maxDepth: number;
  /** Task programs compiled so far, per template. */
  #programs = new Map<TaskTemplate, CompiledProgram>();

  /** Creates a planner over a library and its templates. */
  constructor(
    library: SkillLibrary,
    templates: readonly TaskTemplate[],
    options: PlannerOptions = {},
  ) {
    this.library = library;
    this.templates = templates;
    this.maxDepth = options.maxDepth ?? 6;
  }

  /**
   * The plan of a task: the template of `taskType` if there is one whose
   * calls bind, else the most demonstrated template (ties: first) whose
   * argument expressions all evaluate on `facts` to valid arguments.
   *
   * @returns The plan, or why there is none.
   */
  plan(
    facts: FactView,
    taskType?: string,
  ): { ok: true; value: Plan } | { ok: false; error: string } {
    const problems: string[] = [];
    const tryTemplate = (template: TaskTemplate, matchedBy: Plan["matchedBy"]) => {
      if (template.program) {
        const program = this.taskProgram(template);
        if (program.ok) {
          return { template, sequence: 0, matchedBy, calls: [], program: program.value };
        }
        problems.push(`template "${template.type}": ${program.error}`);
      }
      const sequences = templateSequences(template);
      for (let i = 0; i < sequences.length; i++) {
        const bound = this.bind(sequences[i].steps, facts);
        if (bound.ok) return { template, sequence: i, matchedBy, calls: bound.value };
        problems.push(
          `template "${template.type}"${i > 0 ? ` (alternative ${i})` : ""}: ${bound.error}`,
        );
      }
      return undefined;
    };
    if (taskType !== undefined) {
      for (const t of this.templates.filter((t) => t.type === taskType)) {
        const plan = tryTemplate(t, "type");
        if (plan) return { ok: true, value: plan };
      }
    }
    const ranked = this.templates
      .map((t, i) => ({ t, i }))
      .filter(({ t }) => t.type !== taskType)
      .sort((a, b) => b.t.traces - a.t.traces || a.i - b.i);
    for (const { t } of ranked) {
      const plan = tryTemplate(t, "arguments");
      if (plan) return { ok: true, value: plan };
    }
    if (this.templates.length === 0) {
      return { ok: false, error: "The library has no task templates" };
    }
    return {
      ok: false,
      error: `No template fits the task${taskType !== undefined ? ` of type "${taskType}"` : ""}: ${
        problems.join("; ")
      }`,
    };
  }

  /** The compiled task program of a template (cached per template). */
  taskProgram(template: TaskTemplate): CompiledProgram {
    const cached = this.#programs.get(template);
    if (cached) return cached;
    const first = this.library.programs()[0];
    let out: CompiledProgram;
    if (!template.program || !first) {
      out = { ok: false, error: "no task program or no skills to call" };
    } else {
      const signatures = Object.fromEntries(
        this.library.programs().map((p) => [p.skill.name, { params: p.skill.params }]),
      );
      const compiled = compileSkill(
        template.program,
        valueDomainVocabulary(first.vocab),
        signatures,
      );
      out = compiled.ok
        ? { ok: true, value: compiled.value }
        : { ok: false, error: formatIssues(compiled.error, `task program "${template.type}"`) };
    }
    this.#programs.set(template, out);
    return out;
  }

  /**
   * Binds a sequence of template steps on `facts`: each argument's
   * expression is evaluated (an argument without one reuses the value of
   * an earlier step's argument with the same name and type), and the
   * arguments are checked against the skill's parameters.
   */
  bind(
    steps: readonly TemplateStep[],
    facts: FactView,
  ): { ok: true; value: SkillCall[] } | { ok: false; error: string } {
    const calls: SkillCall[] = [];
    for (const [k, step] of steps.entries()) {
      const program = this.library.get(step.skill);
      if (!program) {
        return { ok: false, error: `step ${k + 1} calls unknown skill "${step.skill}"` };
      }
      const view = withValueDomains(program.vocab, facts);
      const args: Record<string, Value> = {};
      for (const arg of step.args) {
        let value: Value | undefined;
        if (arg.expr !== undefined) {
          const scope: Record<string, Value> = {};
          for (const s of [...(arg.steps ?? []), { var: "", expr: arg.expr }]) {
            const r = evaluate(s.expr, view, scope);
            if (!r.ok) {
              return {
                ok: false,
                error: `step ${k + 1} (${step.skill}) argument "${arg.name}": ${r.error}`,
              };
            }
            if (s.var === "") value = r.value;
            else scope[s.var] = r.value;
          }
        } else {
          value = calls.flatMap((c) => {
            const p = this.library.get(c.skill)?.skill.params.find((x) => x.name === arg.name);
            return p && p.type === arg.type && c.args[arg.name] !== undefined
              ? [c.args[arg.name]]
              : [];
          }).at(-1);
          if (value === undefined) {
            return {
              ok: false,
              error: `step ${
                k + 1
              } (${step.skill}) argument "${arg.name}" has no expression and no earlier value`,
            };
          }
        }
        args[arg.name] = value!;
      }
      const problems = checkArgs(program.skill.params, args, program.vocab);
      if (problems.length > 0) {
        return { ok: false, error: `step ${k + 1} (${step.skill}): ${problems.join("; ")}` };
      }
      calls.push({ skill: step.skill, args });
    }
    return { ok: true, value: calls };
  }

  /** The postcondition verdict of a call on `facts`. */
  postcondition(call: SkillCall, facts: FactView): PostconditionCheck {
    const program = this.library.get(call.skill);
    if (!program) return { holds: false, error: `Unknown skill "${call.skill}"` };
    return checkPostcondition(program, call.args, facts);
  }

  /**
   * Whether step `index` of a plan can be skipped: its postcondition holds
   * on `facts` and no earlier step of the plan is the same call (a repeated
   * subgoal, e.g. "take and place" done twice, must run again).
   */
  canSkip(plan: Plan, index: number, facts: FactView): PostconditionCheck | undefined {
    return this.skippable(plan.calls[index], plan.calls.slice(0, index).map(callKey), facts);
  }

  /**
   * Whether a call can be skipped: its postcondition holds on `facts` and
   * it is none of the calls already made (keys of {@linkcode callKey}), for
   * a plan's steps or a task program's calls alike.
   */
  skippable(
    call: SkillCall,
    made: Iterable<string>,
    facts: FactView,
  ): PostconditionCheck | undefined {
    const key = callKey(call);
    for (const k of made) if (k === key) return undefined;
    const check = this.postcondition(call, facts);
    return check.post !== undefined && check.holds ? check : undefined;
  }

  /**
   * Subgoals for a failed call, best first (see `regression.ts`): calls
   * whose postcondition, bound to an object the failure names (or to its
   * class, or to an object related to it), would provide what was missing.
   */
  regress(failure: FailureView, facts: FactView, options: RegressionOptions = {}): Subgoal[] {
    return regressionCandidates(this.library, failure, facts, options);
  }
}

/** A canonical key of a call (skill and arguments). */
export function callKey(call: SkillCall): string {
  const args = Object.keys(call.args).sort().map((k) => [k, call.args[k]]);
  return JSON.stringify([call.skill, args]);
}

const exprCache = new Map<string, Expr | string>();

function evaluate(
  text: string,
  view: ValueDomains,
  scope: Record<string, Value>,
): { ok: true; value: Value } | { ok: false; error: string } {
  let expr = exprCache.get(text);
  if (expr === undefined) {
    const r = parseExpr(text);
    expr = r.ok ? r.value : formatExprError(r.error);
    exprCache.set(text, expr);
  }
  if (typeof expr === "string") return { ok: false, error: expr };
  const r = evalExpr(expr, { vocab: view.vocab, facts: view.facts, scope, source: text });
  return r.ok ? { ok: true, value: r.value } : { ok: false, error: formatExprError(r.error) };
}
