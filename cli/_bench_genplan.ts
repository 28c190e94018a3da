/**
 * `deno task bench --suite genplan`: generalised planning on the PDDL
 * domains of `<data>/genplan/<suite>/<domain>/` (domain.pddl, train/,
 * test/). For every domain: the expert's plans of the smallest training
 * problems are the demonstrations; the library is induced from them with
 * the domain's action rules withheld (`rules: "learned"`: the agent knows
 * only what it learned from the demonstrations); the expert and the
 * library are evaluated on every test problem. The rows say how the
 * library compares with the expert: success, actions, rejected actions
 * and the share of actions look-ahead planned rather than a skill.
 *
 * @module
 */
import { compileTraces } from "../compiler/compile.ts";
import { describeExploration, exploreUnusedActions } from "../compiler/explore_actions.ts";
import { loadPddlKit } from "../environments/pddl/load.ts";
import { type EnvironmentKit, withEnvOptions } from "../runtime/environment.ts";
import type { EpisodeRecord, Evaluation } from "../runtime/eval/evaluate.ts";
import { ActionModel } from "../runtime/learn/action_model.ts";
import { compileSkills } from "../runtime/store/library.ts";
import { writeTextFileAtomic } from "../io/json_file.ts";
import { UsageError } from "./_cli.ts";
import { builtinTraces } from "./_tasks.ts";
import { MemoryPeak } from "./_memory_peak.ts";
import { runVariant } from "./_variants.ts";
import { percent, wrap } from "./_report_format.ts";

/** What the suite runs. */
export interface GenplanRequest {
  /** The data folder holding `genplan/`. */
  data: string;
  /** Domains as `<suite>/<domain>` or `<domain>` (every suite's); all when absent. */
  domains?: string[];
  /** Demonstrations: the expert's plans of this many smallest training problems. */
  demos: number;
  /** Actions per episode. */
  maxActions: number;
  /** Where results.md and results.json go. */
  out: string;
  /** Episodes at once (worker threads). */
  concurrency: number;
  /**
   * Domains measured at once, each in a process of its own: the expert and
   * the induction run on one core, so two domains keep two cores busy.
   * @default {1}
   */
  parallel?: number;
  /** The command, for the results' header. */
  command: string;
  /** Progress lines. */
  log: (line: string) => void;
}

/** One domain's row. */
export interface GenplanRow {
  domain: string;
  test_problems: number;
  demonstrations: number;
  expert: { success_rate: number; avg_actions: number; seconds: number };
  induced: {
    success_rate: number;
    avg_actions: number;
    invalid_action_rate: number;
    planned_action_rate: number;
    llm_calls: number;
    seconds: number;
    episodes_per_second: number;
  };
  /** Induced success over the expert's. */
  ratio_to_expert: number;
  /** Actions of the library over the expert's, on the problems both solve (null when none). */
  actions_vs_expert: number | null;
  induction_seconds: number;
  skills: number;
  /** Peak resident memory of the domain's process, in MiB. */
  peak_memory_mib?: number;
  /** Wall time of the domain's process (expert, induction and evaluation), in seconds. */
  wall_seconds?: number;
  /** What went wrong before the evaluation, when something did. */
  error?: string;
}

/** The domains of the suite, `<suite>/<domain>`, sorted. */
export function genplanDomains(data: string): string[] {
  const root = `${data}/genplan`;
  const out: string[] = [];
  let suites: Deno.DirEntry[];
  try {
    suites = [...Deno.readDirSync(root)].filter((e) => isDirectory(root, e));
  } catch (e) {
    throw new UsageError(`No generalised-planning data in "${root}": ${(e as Error).message}`);
  }
  for (const s of suites) {
    for (const d of Deno.readDirSync(`${root}/${s.name}`)) {
      if (isDirectory(`${root}/${s.name}`, d)) out.push(`${s.name}/${d.name}`);
    }
  }
  if (out.length === 0) {
    throw new UsageError(
      `No generalised-planning domains in "${root}": expected <suite>/<domain>/ folders, each with domain.pddl, train/ and test/`,
    );
  }
  return out.sort();
}

/** Whether a folder entry is a directory, following a symbolic link. */
function isDirectory(parent: string, e: Deno.DirEntry): boolean {
  if (e.isDirectory) return true;
  if (!e.isSymlink) return false;
  try {
    return Deno.statSync(`${parent}/${e.name}`).isDirectory;
  } catch {
    return false;
  }
}

/** The domains a request names (each must exist), or all of them. */
function chosenDomains(request: GenplanRequest): string[] {
  const all = genplanDomains(request.data);
  if (!request.domains) return all;
  return request.domains.flatMap((name) => {
    const found = all.filter((d) => d === name || d.endsWith(`/${name}`));
    if (found.length === 0) {
      throw new UsageError(`No genplan domain "${name}"; known: ${all.join(", ")}`);
    }
    return found;
  });
}

/** Runs the suite and writes its results. */
export async function runGenplanSuite(request: GenplanRequest): Promise<GenplanRow[]> {
  const peak = new MemoryPeak();
  const domains = chosenDomains(request);
  const measured: (GenplanRow | undefined)[] = domains.map(() => undefined);
  // The rows measured so far, in the suite's order.
  const measuredRows = () => measured.filter((r): r is GenplanRow => r !== undefined);
  const parallel = Math.max(1, Math.min(request.parallel ?? 1, domains.length));
  const began = performance.now();
  // The results are written after every domain: a run stopped part-way keeps what it measured.
  const write = async (complete: boolean) => {
    const rows = measuredRows();
    const json = {
      date: new Date().toISOString(),
      deno: Deno.version.deno,
      command: request.command,
      demonstrations: request.demos,
      max_actions: request.maxActions,
      rules: "learned",
      parallel,
      suite_seconds: Math.round((performance.now() - began) / 100) / 10,
      peak_memory_mib: Math.round(
        Math.max(peak.peakMiB(), ...rows.map((r) => r.peak_memory_mib ?? 0)),
      ),
      ...(complete ? {} : { partial: `${rows.length} of ${domains.length} domains measured` }),
      domains: rows,
    };
    await Deno.mkdir(request.out, { recursive: true });
    await writeTextFileAtomic(`${request.out}/results.json`, `${JSON.stringify(json, null, 2)}\n`);
    await writeTextFileAtomic(`${request.out}/results.md`, renderGenplan(json));
  };
  // With several domains at once, each line names its domain.
  const say = (domain: string, line: string) =>
    request.log(parallel > 1 ? `   ${domain}: ${line}` : `   ${line}`);
  let next = 0;
  const worker = async () => {
    while (next < domains.length) {
      const k = next++;
      const domain = domains[k];
      request.log(`== ${domain}`);
      const started = performance.now();
      const row = await benchInChild(domain, request, (line) => say(domain, line));
      row.wall_seconds = Math.round((performance.now() - started) / 100) / 10;
      measured[k] = row;
      peak.sample();
      say(
        domain,
        `expert ${percent(row.expert.success_rate)}, induced ${
          percent(row.induced.success_rate)
        } (ratio ${row.ratio_to_expert.toFixed(2)}), actions x${
          row.actions_vs_expert?.toFixed(2) ?? "-"
        }, planned ${percent(row.induced.planned_action_rate)}, ${row.wall_seconds} s${
          row.error ? `; ${row.error}` : ""
        }`,
      );
      if (measured.includes(undefined)) await write(false);
    }
  };
  try {
    await Promise.all(Array.from({ length: parallel }, worker));
  } finally {
    peak.stop();
  }
  await write(true);
  request.log(`Wrote ${request.out}/results.md and ${request.out}/results.json`);
  return measuredRows();
}

/**
 * Measures one domain in this process. `onExpert` receives the row once
 * the expert's figures are in (a run that dies later keeps them);
 * `progress` a line at the end of each phase.
 */
export async function benchDomain(
  domain: string,
  request: Omit<GenplanRequest, "out" | "command" | "log">,
  onExpert?: (row: GenplanRow) => void,
  progress: (line: string) => void = () => {},
): Promise<GenplanRow> {
  const dir = `${request.data}/genplan/${domain}`;
  // The agent knows no action rule; observations list what can change.
  const rules = { rules: "learned", observe: "changing" };
  const trainSpec = `pddl:${dir}/domain.pddl+${dir}/train`;
  const testSpec = `pddl:${dir}/domain.pddl+${dir}/test`;
  const train = await loadPddlKit(trainSpec);
  const test = await loadPddlKit(testSpec);
  const tasks = test.taskList!({ split: "unseen" });
  const row: GenplanRow = { ...emptyRow(domain), test_problems: tasks.length };
  const expert = await runVariant({
    name: "expert",
    expert: true,
    kit: test,
    envOptions: rules,
    tasks,
    maxActions: request.maxActions,
    progress: false,
    concurrency: request.concurrency,
    workerEnv: testSpec,
  });
  row.expert = {
    success_rate: expert.report.success_rate,
    avg_actions: expert.report.avg_steps,
    seconds: expert.report.seconds,
  };
  onExpert?.(row);
  progress(
    `expert: ${percent(row.expert.success_rate)} of ${tasks.length} test problems, ${
      row.expert.seconds.toFixed(1)
    } s`,
  );
  let induced: Evaluation;
  try {
    // The smallest training problems the expert solves (a training problem may have no plan).
    const traces = await builtinTraces(train, { count: request.demos, envOptions: rules });
    row.demonstrations = traces.length;
    progress(
      `demonstrations: ${traces.length} plan${traces.length === 1 ? "" : "s"} of ${
        traces.map((t) => t.steps.length).join(", ")
      } actions; inducing`,
    );
    const started = performance.now();
    // What no demonstration did, tried in the demonstrations' problems.
    const explored = await exploreUnusedActions(train, traces, { envOptions: rules });
    if (explored.actions.length > 0) progress(describeExploration(explored));
    const compiled = compileTraces(traces, withEnvOptions(train, rules), {
      policy: true,
      explored: explored.traces,
    });
    row.induction_seconds = (performance.now() - started) / 1000;
    row.skills = compiled.skills.length;
    progress(
      `induced ${row.skills} skills in ${row.induction_seconds.toFixed(1)} s; evaluating`,
    );
    // The library moves to the test problems: compiled against their vocabulary.
    const library = compileSkills(
      compiled.skills.map((s) => ({ data: s, source: `${domain}: skill "${s.name}"` })),
      test.vocabulary,
    );
    const actionModel = ActionModel.fromJSON(compiled.actionModel.toJSON(), test.vocabulary);
    induced = await runVariant({
      name: "induced",
      kit: test as EnvironmentKit,
      envOptions: rules,
      tasks,
      library: { library, templates: compiled.templates, actionModel },
      maxActions: request.maxActions,
      progress: false,
      concurrency: request.concurrency,
      workerEnv: testSpec,
    });
  } catch (e) {
    row.error = (e as Error).message.split("\n")[0];
    return row;
  }
  const r = induced.report;
  row.induced = {
    success_rate: r.success_rate,
    avg_actions: r.avg_steps,
    invalid_action_rate: r.invalid_action_rate,
    planned_action_rate: r.planned_action_rate,
    llm_calls: r.llm_calls,
    seconds: r.seconds,
    episodes_per_second: r.seconds > 0 ? r.tasks / r.seconds : 0,
  };
  row.ratio_to_expert = expert.report.success_rate > 0
    ? r.success_rate / expert.report.success_rate
    : 0;
  row.actions_vs_expert = actionsRatio(induced.records, expert.records);
  return row;
}

/** Heap limit of one domain's process, in MiB. */
export const DOMAIN_HEAP_MIB = 3072;
/** Time limit of one domain's process, in seconds. */
export const DOMAIN_SECONDS = 900;

/**
 * Measures one domain in a process of its own, its heap capped at
 * {@linkcode DOMAIN_HEAP_MIB} and its time at {@linkcode DOMAIN_SECONDS}: a
 * domain that exceeds either is a row saying so (with the expert's figures
 * when they were in), and the suite goes on.
 */
async function benchInChild(
  domain: string,
  request: GenplanRequest,
  progress: (line: string) => void,
): Promise<GenplanRow> {
  const args = {
    data: request.data,
    demos: request.demos,
    maxActions: request.maxActions,
    concurrency: request.concurrency,
  };
  const signal = AbortSignal.timeout(DOMAIN_SECONDS * 1000);
  const command = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-env",
      `--v8-flags=--max-old-space-size=${DOMAIN_HEAP_MIB}`,
      new URL("./_bench_genplan_domain.ts", import.meta.url).pathname,
      domain,
      JSON.stringify(args),
    ],
    stdout: "piped",
    stderr: "piped",
    // Plain text: the row quotes the child's error.
    env: { NO_COLOR: "1" },
    signal,
  });
  // The child's lines as they come: progress is shown, the last row kept.
  let last: { row: GenplanRow; done?: boolean } | undefined;
  let err = "";
  let code = -1;
  try {
    const child = command.spawn();
    const errText = new Response(child.stderr).text();
    let pending = "";
    const take = (line: string) => {
      if (!line.startsWith("{")) return;
      const message = JSON.parse(line) as { row?: GenplanRow; done?: boolean; progress?: string };
      if (message.progress !== undefined) progress(message.progress);
      if (message.row !== undefined) last = { row: message.row, done: message.done };
    };
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop()!;
      lines.forEach(take);
    }
    take(pending);
    err = await errText;
    code = (await child.status).code;
  } catch (e) {
    err = (e as Error).message;
  }
  if (last?.done && code === 0) return last.row;
  const row = last?.row ?? emptyRow(domain);
  const outOfMemory = /out of memory/i.test(err);
  row.error = signal.aborted
    ? `stopped after ${DOMAIN_SECONDS} s`
    : outOfMemory
    ? `ran out of memory (heap limit ${DOMAIN_HEAP_MIB} MiB) ${
      last ? "after the expert's run" : ""
    }`.trim()
    : `exited with code ${code}: ${childError(err)}`;
  // What the child last reported is not its peak: it reached the limit.
  if (outOfMemory) row.peak_memory_mib = DOMAIN_HEAP_MIB;
  return row;
}

/** A domain's row before anything is measured. */
function emptyRow(domain: string): GenplanRow {
  return {
    domain,
    test_problems: 0,
    demonstrations: 0,
    expert: { success_rate: 0, avg_actions: 0, seconds: 0 },
    induced: {
      success_rate: 0,
      avg_actions: 0,
      invalid_action_rate: 0,
      planned_action_rate: 0,
      llm_calls: 0,
      seconds: 0,
      episodes_per_second: 0,
    },
    ratio_to_expert: 0,
    actions_vs_expert: null,
    induction_seconds: 0,
    skills: 0,
  };
}

/** Total actions of the library over the expert's, on the problems both solved. */
function actionsRatio(induced: EpisodeRecord[], expert: EpisodeRecord[]): number | null {
  let mine = 0;
  let theirs = 0;
  induced.forEach((r, i) => {
    const e = expert[i];
    if (!r.success || !e?.success) return;
    mine += r.actions;
    theirs += e.actions;
  });
  return theirs > 0 ? mine / theirs : null;
}

/** The results as markdown. */
export function renderGenplan(json: {
  date: string;
  command: string;
  demonstrations: number;
  max_actions: number;
  peak_memory_mib: number;
  partial?: string;
  /** Domains measured at once. */
  parallel?: number;
  /** The suite's wall time, in seconds. */
  suite_seconds?: number;
  domains: GenplanRow[];
}): string {
  const rows = json.domains;
  const worst = rows.length > 0 ? Math.min(...rows.map((r) => r.ratio_to_expert)) : 0;
  const total = json.suite_seconds ?? rows.reduce((sum, r) => sum + (r.wall_seconds ?? 0), 0);
  const parallel = json.parallel ?? 1;
  const lines = [
    "# Generalised planning: skills from the smallest training problems, on the test problems",
    "",
    ...(json.partial ? [`**Partial run: ${json.partial}.**`, ""] : []),
    wrap(
      `Produced by \`${json.command}\` on ${json.date.slice(0, 10)} (Deno ${Deno.version.deno}). ` +
        `For each domain the library is induced from the expert's plans of the ${json.demonstrations} ` +
        `smallest training problems with the domain's action rules withheld (\`rules: "learned"\`) ` +
        `and evaluated on every test problem, at most ${json.max_actions} actions per episode. ` +
        `"ratio" is the library's success over the expert's; "actions" the library's actions over ` +
        `the expert's on the problems both solve; "planned" the share of actions look-ahead chose ` +
        `rather than a skill. No LLM is used. Each domain runs in a process of its own, its heap ` +
        `capped at ${DOMAIN_HEAP_MIB} MiB and its time at ${DOMAIN_SECONDS} s; peak resident memory ` +
        `of one: ${json.peak_memory_mib} MiB. ` +
        `The domains took ${(total / 60).toFixed(1)} minutes in all${
          parallel > 1 ? `, ${parallel} at a time` : ""
        } ("s" per domain: expert, induction and evaluation${
          parallel > 1 ? `, beside another domain` : ""
        }). Worst ratio: ${worst.toFixed(2)}.`,
    ),
    "",
    "| domain | test problems | expert | induced | ratio | actions | rejected | planned | LLM calls | induction s | episodes/s | peak MiB | s |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((r) =>
      `| ${r.domain} | ${r.test_problems} | ${percent(r.expert.success_rate)} | ${
        percent(r.induced.success_rate)
      } | ${r.ratio_to_expert.toFixed(2)} | ${
        r.actions_vs_expert === null ? "-" : `${r.actions_vs_expert.toFixed(2)}x`
      } | ${percent(r.induced.invalid_action_rate)} | ${
        percent(r.induced.planned_action_rate)
      } | ${r.induced.llm_calls} | ${r.induction_seconds.toFixed(2)} | ${
        r.induced.episodes_per_second.toFixed(1)
      } | ${r.peak_memory_mib === undefined ? "-" : Math.round(r.peak_memory_mib)} | ${
        r.wall_seconds === undefined ? "-" : Math.round(r.wall_seconds)
      } |`
    ),
  ];
  const failed = rows.filter((r) => r.error);
  if (failed.length > 0) {
    lines.push("", "Errors:", "", ...failed.map((r) => `- ${r.domain}: ${r.error}`));
  }
  return lines.join("\n") + "\n";
}

/** The error a domain's process ended with: its `error:` line, else its last line. */
function childError(stderr: string): string {
  const lines = stderr.trim().split("\n");
  return lines.find((l) => l.startsWith("error: "))?.slice("error: ".length) ?? lines.at(-1) ?? "";
}
