/**
 * What `deno task bench` reports of each environment (the shape of
 * results.json) and the markdown page it writes of them (results.md).
 *
 * @module
 */
import type { EvalReport } from "../runtime/eval/evaluate.ts";
import type { WeakHoning } from "./_bench_honing.ts";
import type { InputSize, Scaling, SizeRun, Throughput } from "./_bench_timing.ts";
import { byTypeTable, comparisonTable, markdownTable, plural, wrap } from "./_report_format.ts";
import { VARIANTS } from "./_variants.ts";

/** The results of one environment. */
export interface EnvResult {
  env: string;
  demonstrations: { traces: number; source: string };
  tasks: { count: number; what: string };
  max_actions: number;
  induction: {
    /**
     * `seconds`: induction run again once the process has induced (the JIT
     * warm, as in a long-running process; the median of three runs);
     * `first_seconds`: the first run.
     */
    full: { seconds: number; first_seconds: number; skills: number; templates: number };
    linear: { seconds: number; skills: number };
  };
  honing: Record<string, number>;
  variants: Record<string, EvalReport & { episodes_per_second: number; nodes_per_second: number }>;
  /** Induction from 4x the demonstrations (expert demonstrations only). */
  scaling?: Scaling;
  /** Time against input size: one long trace, and (TextCraft) one large observation. */
  input_size?: InputSize;
  /** The full variant on the task list repeated to `--throughput` episodes. */
  throughput?: Throughput;
  /** Weak libraries (one demonstration per task type) before and after honing. */
  honing_gain?: WeakHoning[];
}

/** The markdown page of the results: a section per environment, its measures as a list, then its tables. */
export function renderMarkdown(
  command: string,
  date: string,
  results: readonly EnvResult[],
  memory: { mib: number },
): string {
  const lines = [
    "# Benchmark results",
    "",
    wrap(
      `Produced by \`${command}\` on ${date.slice(0, 10)} (Deno ${Deno.version.deno}). ` +
        "No LLM is used: every role is symbolic. Rates are over all episodes; steps are " +
        `environment actions. Peak resident memory of the run (sampled): ${
          Math.round(memory.mib)
        } MiB.`,
    ),
    "",
  ];
  const item = (text: string) => lines.push(wrap(`- ${text}`, 100, "  "));
  for (const r of results) {
    const reports = VARIANTS.flatMap((v) => r.variants[v] ? [r.variants[v]] : []);
    lines.push(`## ${r.env}`, "");
    item(`Demonstrations: ${r.demonstrations.source}.`);
    item(
      `Tasks: ${r.tasks.what}; at most ${r.max_actions} actions and as many skill calls per episode.`,
    );
    item(
      `Induction: ${plural(r.induction.full.skills, "skill")} and ${
        plural(r.induction.full.templates, "task template")
      } in ${
        r.induction.full.seconds.toFixed(2)
      } s (the first run of the process, compiling its code: ${
        r.induction.full.first_seconds.toFixed(2)
      } s); linear scripts in ${r.induction.linear.seconds.toFixed(2)} s.`,
    );
    if (r.scaling) {
      item(
        `Scaling: induction from ${r.scaling.traces} demonstrations (4x) in ${
          r.scaling.seconds.toFixed(2)
        } s, ${r.scaling.ratio.toFixed(2)}x the time of ${r.demonstrations.traces}.`,
      );
    }
    const size = r.input_size;
    if (size) {
      const linear = (x: SizeRun, unit: string) =>
        `${x.seconds[1].toFixed(2)} s, ${x.ratio.toFixed(1)}x the time of ${
          x.sizes[0].toLocaleString("en-US")
        }${unit} (${x.seconds[0].toFixed(2)} s; 10x is linear)`;
      const obs = size.observation;
      item(
        `Input size: one trace of ${
          size.trace.sizes[1].toLocaleString("en-US")
        } steps (the first demonstration's first step repeated) induces in ${
          linear(size.trace, " steps")
        }${
          obs
            ? `; a ${obs.sizes[1]} MB first observation (distinct crafting commands) grounds in ${
              linear(obs, " MB")
            }`
            : ""
        }.`,
      );
    }
    const t = r.throughput;
    if (t) {
      item(
        `Throughput: ${t.episodes} episodes of the full variant (the tasks repeated) in ${
          t.seconds.toFixed(2)
        } s, ${(t.episodes / t.seconds).toFixed(0)} episodes/s (success ${
          (100 * t.success_rate).toFixed(1)
        }%).`,
      );
    }
    const h = r.honing;
    item(
      `Honing: ${h.graft} grafts, ${h.solidify} solidified, ${h.remove} removed, ${h.narrow} narrowed.`,
    );
    for (const g of r.honing_gain ?? []) {
      const c = g.changes;
      item(
        `Honing from a weak library (demonstration ${g.demonstration + 1} of each task type, ${
          plural(g.traces, "trace")
        }) over ${g.train_tasks} training tasks: unseen success ${
          (100 * g.before).toFixed(1)
        }% before, ${(100 * g.after).toFixed(1)}% after (${g.after >= g.before ? "+" : ""}${
          (100 * (g.after - g.before)).toFixed(1)
        } points; ${
          (100 * g.during).toFixed(1)
        }% while honing); ${c.graft} grafts, ${c.solidify} solidified, ${c.remove} removed, ${c.narrow} narrowed.${
          (g.grafts ?? []).length > 0 ? ` Kept: ${g.grafts.map((x) => `"${x}"`).join("; ")}.` : ""
        }`,
      );
    }
    const { expert, full } = r.variants;
    if (expert.success_rate > 0 && expert.avg_steps > 0) {
      item(
        `Generalisation: the induced library (full) reaches ${
          (100 * full.success_rate / expert.success_rate).toFixed(1)
        }% of the expert's success with ${
          (full.avg_steps / expert.avg_steps).toFixed(2)
        }x its actions and ${(100 * full.invalid_action_rate).toFixed(1)}% rejected actions.`,
      );
    }
    const known = r.variants.knowledge;
    if (known) {
      item(
        `Background knowledge: ${(100 * full.success_rate).toFixed(1)}% without it, ${
          (100 * known.success_rate).toFixed(1)
        }% when the agent consults it where the facts offer no way (${
          (100 * known.invalid_action_rate).toFixed(1)
        }% rejected actions, ${known.avg_steps.toFixed(1)} actions per episode against the ` +
          `expert's ${expert.avg_steps.toFixed(1)}).`,
      );
    }
    lines.push("");
    lines.push(comparisonTable(reports), "");
    lines.push(
      markdownTable(
        [
          ["variant", "episodes/s", "node evaluations", "node evaluations/s"],
          ...reports.map((x) => [
            x.variant,
            x.episodes_per_second.toFixed(1),
            String(x.node_steps),
            x.node_steps > 0 ? Math.round(x.nodes_per_second).toString() : "-",
          ]),
        ],
        [false, true, true, true],
      ),
      "",
    );
    if (Object.keys(r.variants.full.by_type).length > 1) {
      lines.push("Success per task type:", "", byTypeTable(reports), "");
    }
    const errors = reports.flatMap((x) =>
      x.errors.map((e) => `${x.variant} ${e.task}: ${e.error}`)
    );
    if (errors.length > 0) {
      lines.push("Episodes that failed with an error:", "");
      for (const e of errors) item(e);
      lines.push("");
    }
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
