/**
 * Skill honing: failures become new logic. When a skill's action is
 * rejected and reflective planning finds a corrective plan, the plan is
 * grafted onto the failing node behind a guard: a check on the failed
 * action's arguments that the recovery made false (`is_closed(target)` when
 * opening fixed it). A graft starts tentative, becomes permanent after it
 * has resolved the failure `solidifyAfter` times, and is removed if its path
 * fails. When no recovery exists, the skill's docstring and precondition are
 * narrowed to exclude that context. Every change is recorded for the
 * library's history.
 *
 * @module
 */
import { matchAction, renderAction } from "../../dsl/action.ts";
import { subtypesOf } from "../../dsl/vocabulary.ts";
import type { Atom, FactView, Value } from "../../dsl/facts.ts";
import type { Graft, Skill } from "../../dsl/graph/schema.ts";
import type { Vocabulary } from "../../dsl/vocabulary.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import { freeVars } from "../../dsl/expr/vars.ts";
import type { Environment, OnlineGrounder } from "../environment.ts";
import type { FactStore } from "../fact_store.ts";
import type { RunEvent, RunResult } from "../exec/interpreter.ts";
import { SkillLibrary } from "../store/library.ts";
import type { Change } from "../store/library_store.ts";
import { compileSkill } from "../exec/program.ts";
import {
  applySkillEdit,
  type GraftStep,
  nextGraftNumber,
  type SkillEdit,
} from "../store/skill_edit.ts";
import { recoverAction, type RecoveryAdvisor, type RecoveryStep } from "./reflect.ts";

/** Options of a {@linkcode Honer}. */
export interface HoneOptions {
  /** Successful uses after which a tentative graft becomes permanent. @default 2 */
  solidifyAfter?: number;
  /** Ranks corrective actions (a learned action model). */
  advisor?: RecoveryAdvisor;
  /** Most corrective actions tried per failure. @default 8 */
  maxTries?: number;
}

/** A failed skill run handed to the honer. */
export interface HoneFailure {
  skill: string;
  /** The call's arguments: exploration looks first at what relates to them. */
  args?: Record<string, Value>;
  result: RunResult;
  events: readonly RunEvent[];
  env: Environment;
  grounder: OnlineGrounder;
  facts: FactStore;
}

/** What the honer did about a failure. */
export interface HoneOutcome {
  /** The failed action succeeded after the corrective plan. */
  recovered: boolean;
  /** Environment actions taken. */
  actions: number;
  /** One line for the trace. */
  note: string;
  /** The environment ended the episode during recovery. */
  done?: boolean;
  reward?: number;
}

/**
 * Keeps a set of skills and changes them as failures happen.
 *
 * @example Usage
 * ```ts ignore
 * const honer = new Honer(store.skills(), vocab, { solidifyAfter: 2 });
 * const outcome = await honer.onFailure({ skill, result, events, env, grounder, facts });
 * honer.observe(skill, events, result);
 * await store.commit(honer.skills(), honer.takeChanges());
 * ```
 */
export class Honer {
  #skills = new Map<string, Skill>();
  #changes: Change[] = [];
  #vocab: Vocabulary;
  #options: Required<Pick<HoneOptions, "solidifyAfter" | "maxTries">> & HoneOptions;
  #nextGraft = 1;

  /** Creates a honer over copies of `skills`. */
  constructor(skills: readonly Skill[], vocab: Vocabulary, options: HoneOptions = {}) {
    this.#vocab = vocab;
    this.#options = { solidifyAfter: 2, maxTries: 8, ...options };
    this.adopt(skills);
  }

  /**
   * Continues from `skills` (e.g. the library as committed, with what other
   * processes honed meanwhile); changes not yet taken are kept.
   */
  adopt(skills: readonly Skill[]): void {
    this.#skills = new Map(skills.map((s) => [s.name, structuredClone(s)]));
    this.#nextGraft = Math.max(this.#nextGraft, nextGraftNumber(skills));
  }

  /** Replaces the advisor that ranks corrective actions (e.g. a model updated with experience). */
  useAdvisor(advisor: RecoveryAdvisor | undefined): void {
    this.#options = { ...this.#options, advisor };
  }

  /** The current skills. */
  skills(): Skill[] {
    return [...this.#skills.values()].map((s) => structuredClone(s));
  }

  /** The current skills compiled into a library. */
  library(): SkillLibrary {
    return new SkillLibrary(
      [...this.#skills.values()].map((s) => {
        const r = compileSkill(s, this.#vocab);
        if (!r.ok) throw new Error(`Honed skill "${s.name}" is invalid: ${r.error[0].message}`);
        return r.value;
      }),
    );
  }

  /** Changes made since the last call (for the library history). */
  takeChanges(): Change[] {
    const out = this.#changes;
    this.#changes = [];
    return out;
  }

  /**
   * Handles a failed run: a failing graft is removed; a rejected action is
   * recovered and the recovery grafted; otherwise the skill is narrowed.
   */
  async onFailure(f: HoneFailure): Promise<HoneOutcome> {
    const skill = this.#skills.get(f.skill);
    const node = f.result.diagnosis?.node;
    if (!skill || node === undefined) {
      return { recovered: false, actions: 0, note: "nothing to hone" };
    }
    const graft = (skill.grafts ?? []).find((g) => g.nodes.includes(node));
    if (graft) {
      this.#removeGraft(skill, graft, `its path failed at "${node}"`);
      return { recovered: false, actions: 0, note: `removed graft ${graft.id}` };
    }
    const rejected = [...f.events].reverse().find((
      e,
    ): e is Extract<RunEvent, { type: "observe" }> =>
      e.type === "observe" && e.skill === f.skill && e.node === node && e.rejected !== undefined
    );
    if (!rejected) {
      // Nothing was rejected: the skill did not find what it needed. Explore.
      const explored = await this.#explore(f);
      if (explored.revealed) {
        return {
          recovered: true,
          actions: explored.actions,
          note: `explored ${explored.tried.join(", ")}`,
          ...(explored.done ? { done: true, reward: explored.reward } : {}),
        };
      }
      this.#narrow(skill, f.result, "it failed without a rejected action");
      return { recovered: false, actions: explored.actions, note: `narrowed ${skill.name}` };
    }
    const recovery = await recoverAction(
      { action: rejected.action, reason: rejected.rejected! },
      { env: f.env, grounder: f.grounder, facts: f.facts, vocab: this.#vocab },
      { advisor: this.#options.advisor, maxTries: this.#options.maxTries },
    );
    const base = {
      actions: recovery.actions,
      ...(recovery.done ? { done: true, reward: recovery.reward } : {}),
    };
    if (!recovery.ok) {
      this.#narrow(skill, f.result, `no corrective plan made "${rejected.action}" succeed`);
      return { recovered: false, ...base, note: `no recovery; narrowed ${skill.name}` };
    }
    const added = this.#graft(skill, node, rejected.action, recovery.plan);
    return {
      recovered: true,
      ...base,
      note: added
        ? `recovered with ${recovery.plan.map((s) => s.action).join(", ")}; grafted ${added}`
        : `recovered with ${recovery.plan.map((s) => s.action).join(", ")} (not grafted)`,
    };
  }

  /**
   * Grafts a repair the agent's regression found: the skill's action on
   * `object` was rejected at a node, a call of `call` (a skill, on that
   * object) made the retry succeed. The call goes in front of the node
   * behind an invented guard: a fact of the object that held before the
   * rejection and that the objects the node acted on successfully lack
   * (`craftable(item_i)`: a basic ingredient is fetched, a craftable one
   * crafted). When a check leads to the node (`count(x) < need(r, x)`),
   * the graft goes before it and repeats while both hold: `while
   * craftable(x) and count(x) < need(r, x): craft_item(x)`.
   *
   * @param failed The events of the failed run.
   * @param stateBefore The belief state before an action was rejected (the last time).
   * @returns The graft's id, or `undefined` when none could be made.
   */
  graftSubgoal(
    skillName: string,
    failed: readonly RunEvent[],
    object: string,
    call: { skill: string; args: Record<string, Value> },
    stateBefore: (action: string) => FactView | undefined,
    relation?: string,
  ): string | undefined {
    const skill = this.#skills.get(skillName);
    const callee = this.#skills.get(call.skill);
    if (!skill || !callee) return undefined;
    const rejected = [...failed].reverse().find((e): e is Extract<RunEvent, { type: "observe" }> =>
      e.type === "observe" && e.skill === skillName && e.rejected !== undefined &&
      Object.values(matchAction(this.#vocab, e.action)?.args ?? {}).includes(object)
    );
    const facts = rejected && stateBefore(rejected.action);
    if (!rejected || !facts) return undefined;
    const node = skill.nodes.find((n) => n.id === rejected.node);
    const m = matchAction(this.#vocab, rejected.action);
    if (!node || node.kind !== "primitive" || !m) return undefined;
    const param = Object.keys(m.args).find((k) => m.args[k] === object);
    const expr = param === undefined ? undefined : node.args[param];
    if (expr === undefined) return undefined;
    // The call's arguments, written with the node's expression for the object, or for an
    // object the regression related to it (`select_one(x: Item, member(x, item_i))`).
    const args: Record<string, string> = {};
    let related = false;
    for (const [k, v] of Object.entries(call.args)) {
      if (v === object) {
        args[k] = expr;
        continue;
      }
      const type = callee.params.find((p) => p.name === k)?.type;
      if (relation === undefined || type === undefined || typeof v !== "string") return undefined;
      if (facts.has({ pred: relation, args: [v, object] })) {
        args[k] = `select_one(x: ${type}, ${relation}(x, ${expr}))`;
      } else if (facts.has({ pred: relation, args: [object, v] })) {
        args[k] = `select_one(x: ${type}, ${relation}(${expr}, x))`;
      } else return undefined;
      related = true;
    }
    // Objects the node acted on without a rejection.
    const fine = new Set<Value>();
    for (const e of failed) {
      if (e.type !== "observe" || e.node !== node.id || e.rejected !== undefined) continue;
      const v = param !== undefined ? matchAction(this.#vocab, e.action)?.args[param] : undefined;
      if (v !== undefined) fine.add(v);
    }
    const caused = new Set(rejected.delta.add.map((a) => `${a.pred}(${a.args.join(",")})`));
    const literal = Object.entries(this.#vocab.predicates).find(([pred, decl]) =>
      decl.params.length === 1 && facts.has({ pred, args: [object] }) &&
      !caused.has(`${pred}(${object})`) &&
      [...fine].every((o) => !facts.has({ pred, args: [o as string] }))
    )?.[0];
    if (literal === undefined) return undefined;
    // A related object's repair replaces the action (its object stays out of reach): no
    // repeat on a check that the repair does not change.
    const check = related ? undefined : skill.edges
      .filter((e) => e.to === node.id && e.label === "yes")
      .map((e) => skill.nodes.find((n) => n.id === e.from))
      .find((n) => n?.kind === "check");
    const guard = check?.kind === "check"
      ? `${literal}(${expr}) and (${check.cond})`
      : `${literal}(${expr})`;
    const edit: SkillEdit = {
      op: "graft",
      skill: skill.name,
      graft: `g${this.#nextGraft}`,
      before: check?.id ?? node.id,
      guard,
      steps: [{ action: call.skill, args }],
      ...(check ? { repeat: true } : {}),
      ...(related ? { instead: true } : {}),
    };
    return this.#addGraft(
      skill,
      edit,
      (id) =>
        `${id} ${related ? "instead of" : "before"} "${edit.before}": ${
          check ? "while" : "if"
        } ${guard} then ${call.skill} (tentative; the agent's regression found it)`,
    );
  }

  /**
   * Updates tentative grafts after a run of `skill`: a graft whose guard
   * fired counts a success, or is removed when the run then failed.
   */
  observe(skillName: string, events: readonly RunEvent[], result: RunResult): void {
    const skill = this.#skills.get(skillName);
    if (!skill) return;
    for (const graft of [...(skill.grafts ?? [])]) {
      const fired = events.some((e) =>
        e.type === "think" && e.skill === skillName && e.node === graft.nodes[0] &&
        e.text.endsWith("-> yes")
      );
      if (!fired) continue;
      if (result.outcome === "failure") {
        // A run that fails later, at a node of its own, says nothing of the graft; one that
        // fails in the graft's path, or right where the graft led, removes it. (A graft
        // removed earlier in this loop is left alone: the edit says it is gone.)
        const at = result.diagnosis?.node;
        const target = skill.edges.find((e) => e.from === graft.nodes[0] && e.label === "no")?.to;
        const blamed = at === undefined || graft.nodes.includes(at) || at === target;
        // A permanent graft has worked often enough that one failure of its own call (an
        // ingredient the callee cannot make either) does not undo it.
        if (blamed && (graft.status === "tentative" || at !== graft.nodes.at(-1))) {
          this.#removeGraft(this.#skills.get(skillName)!, graft, "the run failed after it");
        }
        continue;
      }
      graft.successes++;
      if (graft.status === "tentative" && graft.successes >= this.#options.solidifyAfter) {
        graft.status = "permanent";
        this.#changes.push({
          kind: "solidify",
          skill: skill.name,
          detail: `graft ${graft.id} resolved the failure ${graft.successes} times`,
          edit: { op: "solidify", skill: skill.name, graft: graft.id },
        });
      }
    }
  }

  /**
   * Exploration: actions whose learned effect changes a one-argument fact of
   * their object (going where the agent has not been), objects
   * linked to the call's arguments first, until an observation reveals a fact
   * about an argument value.
   */
  async #explore(
    f: HoneFailure,
  ): Promise<
    { revealed: boolean; actions: number; tried: string[]; done?: boolean; reward?: number }
  > {
    const advisor = this.#options.advisor;
    const out = { revealed: false, actions: 0, tried: [] as string[] };
    if (!advisor) return out;
    const values = new Set(
      Object.values(f.args ?? {}).filter((v): v is string => typeof v === "string"),
    );
    const linked = new Set<string>();
    for (const atom of f.facts.atoms()) {
      if (atom.args.some((a) => typeof a === "string" && values.has(a))) {
        for (const a of atom.args) if (typeof a === "string") linked.add(a);
      }
    }
    const candidates: { text: string; linked: boolean }[] = [];
    for (const decl of Object.values(this.#vocab.actions)) {
      if (decl.params.length !== 1) continue;
      for (const type of subtypesOf(this.#vocab, decl.params[0].type)) {
        for (const o of f.facts.objectsOfType(type)) {
          const text = renderAction(decl, { [decl.params[0].name]: o });
          if (advisor.unmet(f.facts, text).length > 0) continue;
          // predict() keeps only real changes: a one-argument fact about o that
          // it would make true (not yet visited) or false (still unexplored).
          const d = advisor.predict(f.facts, text);
          const about = (a: { args: unknown[] }) => a.args.length === 1 && a.args[0] === o;
          if (d && (d.add.some(about) || d.remove.some(about))) {
            candidates.push({ text, linked: linked.has(o) });
          }
        }
      }
    }
    candidates.sort((a, b) => Number(b.linked) - Number(a.linked));
    for (const { text } of candidates.slice(0, this.#options.maxTries)) {
      out.tried.push(text);
      const step = await f.env.step(text);
      out.actions++;
      const g = await f.grounder.step(f.facts, text, step.observation);
      f.facts.apply(g.delta);
      if (step.done) return { ...out, revealed: step.reward > 0, done: true, reward: step.reward };
      if (g.rejected !== undefined) continue;
      if (g.delta.add.some((a) => a.args.some((x) => typeof x === "string" && values.has(x)))) {
        return { ...out, revealed: true };
      }
    }
    return out;
  }

  #graft(skill: Skill, nodeId: string, failed: string, plan: RecoveryStep[]): string | undefined {
    const node = skill.nodes.find((n) => n.id === nodeId);
    const m = matchAction(this.#vocab, failed);
    if (!node || node.kind !== "primitive" || !m || plan.length === 0) return undefined;
    // Each argument value of the failed action -> the expression the node used for it.
    const exprOf = new Map<Value, string>();
    for (const [param, value] of Object.entries(m.args)) {
      if (node.args[param] !== undefined && !exprOf.has(value)) exprOf.set(value, node.args[param]);
    }
    const lift = (v: Value) => exprOf.get(v);
    const steps: GraftStep[] = [];
    for (const s of plan) {
      const sm = matchAction(this.#vocab, s.action);
      if (!sm) return undefined;
      const args: Record<string, string> = {};
      for (const [k, v] of Object.entries(sm.args)) {
        const e = lift(v);
        if (e === undefined) return undefined;
        args[k] = e;
      }
      steps.push({ action: sm.action, args });
    }
    const guard = guardOf(plan, lift);
    if (!guard) return undefined;
    const edit: SkillEdit = {
      op: "graft",
      skill: skill.name,
      graft: `g${this.#nextGraft}`,
      before: nodeId,
      guard,
      steps,
    };
    return this.#addGraft(
      skill,
      edit,
      (id) =>
        `${id} before "${nodeId}": if ${guard} then ${
          steps.map((s) => s.action).join(", ")
        } (tentative)`,
    );
  }

  /**
   * Applies a graft edit when the result compiles (calls of the library's
   * skills included) and records it; the graft's id, or `undefined`.
   */
  #addGraft(
    skill: Skill,
    edit: Extract<SkillEdit, { op: "graft" }>,
    detail: (graftId: string) => string,
  ): string | undefined {
    const { skill: candidate, graft: graftId, note } = applySkillEdit(skill, edit);
    const signatures = Object.fromEntries(
      [...this.#skills.values()].map((s) => [s.name, { params: s.params }]),
    );
    if (
      candidate === skill || !graftId || note ||
      !compileSkill(candidate, this.#vocab, signatures).ok
    ) {
      return undefined;
    }
    this.#nextGraft++;
    this.#skills.set(skill.name, candidate);
    this.#changes.push({ kind: "graft", skill: skill.name, detail: detail(graftId), edit });
    return graftId;
  }

  #removeGraft(skill: Skill, graft: Graft, why: string): void {
    const edit: SkillEdit = { op: "remove", skill: skill.name, graft: graft.id };
    const { skill: updated, note } = applySkillEdit(skill, edit);
    if (note) return;
    this.#skills.set(skill.name, updated);
    this.#changes.push({
      kind: "remove",
      skill: skill.name,
      detail: `graft ${graft.id}: ${why}`,
      edit,
    });
  }

  #narrow(skill: Skill, result: RunResult, why: string): void {
    const node = skill.nodes.find((n) => n.id === result.diagnosis?.node);
    const cond = node?.kind === "terminal" ? node.diagnosis : undefined;
    const params = new Set(skill.params.map((p) => p.name));
    const parsed = cond ? parseExpr(cond) : undefined;
    // Only a diagnosis that held when the run ended describes the context to
    // exclude; one the run's own facts contradict says nothing about it.
    const usable = parsed?.ok && result.diagnosis?.holds !== false &&
      [...freeVars(parsed.value)].every((v) => params.has(v));
    const note = `Does not apply when ${
      usable ? `${cond}` : `${result.diagnosis?.message ?? "it failed"}`
    }.`;
    const edit: SkillEdit = {
      op: "narrow",
      skill: skill.name,
      ...(usable && cond ? { cond } : {}),
      note,
    };
    const narrowed = applySkillEdit(skill, edit).skill;
    // Narrowed so already (the same failure again): no change, no new version.
    if (JSON.stringify(narrowed) === JSON.stringify(skill)) return;
    this.#skills.set(skill.name, narrowed);
    this.#changes.push({ kind: "narrow", skill: skill.name, detail: `${why}: ${note}`, edit });
  }
}

/**
 * The guard of a recovery: the atoms about the failed action's arguments
 * that the corrective steps made false (or, failing that, made true,
 * negated), with the arguments replaced by the node's expressions.
 */
function guardOf(plan: RecoveryStep[], lift: (v: Value) => string | undefined): string | undefined {
  const render = (a: Atom): string | undefined => {
    const args: string[] = [];
    for (const x of a.args) {
      const e = lift(x);
      if (e === undefined) {
        if (typeof x === "number") args.push(String(x));
        else return undefined;
      } else args.push(e);
    }
    return `${a.pred}(${args.join(", ")})`;
  };
  const removed = plan.flatMap((s) => s.delta.remove).map(render).filter((t): t is string => !!t);
  if (removed.length > 0) return [...new Set(removed)].join(" and ");
  const added = plan.flatMap((s) => s.delta.add).map(render).filter((t): t is string => !!t);
  if (added.length > 0) return [...new Set(added)].map((t) => `not ${t}`).join(" and ");
  return undefined;
}
