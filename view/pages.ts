/**
 * The viewer's pages, built once as a map of path to HTML: the library
 * (skills, task programs, versions, the action model's rules), each skill
 * as a graph, each version's changes as a diff of the graph, each run drawn
 * on the graphs it used (with a step-by-step walk through it), and
 * evaluation or benchmark results as pictures. The same map is served
 * (`deno task view`) or written as a static site (`--out`); nothing is
 * fetched from elsewhere.
 *
 * @module
 */
import type { Skill } from "../dsl/graph/schema.ts";
import { layoutSkill } from "./layout.ts";
import { addedNodes, type LibraryData, removedNodes } from "./library_data.ts";
import type { RunLog } from "./run_log.ts";
import { escapeXml as esc, type GraphMarks, skillSvg } from "./svg.ts";

/** What the site shows. */
export interface SiteInput {
  library: LibraryData;
  runs?: RunLog[];
  /** `eval --json` or `bench` output, parsed, with its file name. */
  results?: { source: string; data: unknown }[];
  /** The server can run the agent on a task from the library page (not in a static site). */
  runnable?: boolean;
}

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 0; color: #0f172a; background: #f8fafc; }
header { background: #0f172a; color: white; padding: 10px 20px; }
header a { color: #93c5fd; margin-right: 16px; text-decoration: none; }
main { padding: 16px 20px; }
h1 { font-size: 20px; margin: 0; display: inline; margin-right: 24px; }
h2 { font-size: 17px; margin-top: 24px; }
table { border-collapse: collapse; background: white; }
td, th { border: 1px solid #cbd5e1; padding: 4px 8px; text-align: left; vertical-align: top; font-size: 13px; }
code, pre { font-family: ui-monospace, monospace; font-size: 12px; }
.graph { background: white; border: 1px solid #cbd5e1; overflow: auto; padding: 8px; margin: 8px 0; }
.legend span { display: inline-block; margin-right: 12px; font-size: 12px; }
.legend i { display: inline-block; width: 12px; height: 12px; border: 2px solid; margin-right: 4px; vertical-align: middle; }
.steps li { font-family: ui-monospace, monospace; font-size: 12px; cursor: pointer; }
.steps li.current { background: #fce7f3; }
.node.current rect, .node.current polygon { stroke: #7c3aed !important; stroke-width: 5 !important; }
.change-graft { color: #7c3aed; } .change-narrow { color: #ca8a04; } .change-remove { color: #b91c1c; }
`;

const LEGEND = `<div class="legend">
<span><i style="background:#dbeafe;border-color:#2563eb"></i>binding (DataOp)</span>
<span><i style="background:#fef3c7;border-color:#ca8a04"></i>check (CheckOp)</span>
<span><i style="background:#ffedd5;border-color:#ea580c"></i>loop (LoopOp)</span>
<span><i style="background:#dcfce7;border-color:#16a34a"></i>action (PrimitiveOp)</span>
<span><i style="background:#f1f5f9;border-color:#475569"></i>end (TerminalOp)</span>
<span><i style="border-color:#7c3aed;border-style:dashed"></i>grafted by honing</span>
<span><i style="border-color:#db2777"></i>visited (count)</span>
<span><i style="border-color:#dc2626"></i>failed here</span>
</div>`;

/** A page with the site's header; `root` is the way back to the site's top ("" or "../"). */
function page(title: string, root: string, body: string, script = ""): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · skillc</title>
<style>${STYLE}</style></head>
<body><header><h1>${esc(title)}</h1><a href="${root}index.html">library</a></header>
<main>${body}</main>${script ? `<script>${script}</script>` : ""}</body></html>
`;
}

/** A skill's graph, its docstring and parameters. */
function skillBlock(skill: Skill, marks: GraphMarks = {}): string {
  const layout = layoutSkill(skill);
  const doc = skill.doc;
  const rows = [
    ["parameters", skill.params.map((p) => `${p.name}: ${p.type}`).join(", ") || "none"],
    ["summary", doc.summary],
    ...(doc.pre ? [["precondition", doc.pre]] : []),
    ...(doc.post ? [["postcondition", doc.post]] : []),
    ...(doc.excluded?.length ? [["excluded", doc.excluded.join("; ")]] : []),
    ...(skill.grafts?.length
      ? [[
        "grafts",
        skill.grafts.map((g) =>
          `${g.id} (${g.status}, ${g.successes} successes): ${g.nodes.join(", ")}`
        ).join("; "),
      ]]
      : []),
  ];
  return `<table class="spec">${
    rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td><code>${esc(v)}</code></td></tr>`).join("")
  }</table><div class="graph">${skillSvg(layout, marks)}</div>`;
}

/** The task programs of the library's templates, by name. */
function taskPrograms(library: LibraryData): Skill[] {
  return library.templates.flatMap((t) => t.program ? [t.program] : []);
}

/** Grafts made, solidified or removed between two versions of a skill, as diff text. */
function graftChanges(before: Skill | undefined, now: Skill): string {
  const was = new Map((before?.grafts ?? []).map((g) => [g.id, g.status]));
  const is = new Map((now.grafts ?? []).map((g) => [g.id, g.status]));
  const out: string[] = [];
  for (const [id, status] of is) {
    const old = was.get(id);
    if (old === undefined) out.push(`graft ${id} made (${status})`);
    else if (old !== status) out.push(`graft ${id} ${old} -> ${status}`);
  }
  for (const id of was.keys()) if (!is.has(id)) out.push(`graft ${id} removed`);
  return out.length > 0 ? `; <span class="change-graft">${esc(out.join("; "))}</span>` : "";
}

/** The site: path -> HTML. */
export function buildSite(input: SiteInput): Map<string, string> {
  const { library } = input;
  const pages = new Map<string, string>();
  const current = library.versions.at(-1);
  const skills = current?.skills ?? [];
  const programs = taskPrograms(library);

  // The library.
  const parts: string[] = [
    `<p>Library <code>${esc(library.dir)}</code> for vocabulary <code>${
      esc(library.vocabulary)
    }</code>, version ${library.version}.</p>`,
    `<h2>Skills</h2><ul>${
      skills.map((s) =>
        `<li><a class="skill-link" href="skill/${esc(s.name)}.html">${esc(s.name)}</a>(${
          esc(s.params.map((p) => `${p.name}: ${p.type}`).join(", "))
        }): ${esc(s.doc.summary)}${
          s.grafts?.length ? ` <span class="change-graft">${s.grafts.length} graft(s)</span>` : ""
        }</li>`
      ).join("")
    }</ul>`,
    `<h2>Task templates</h2><ul>${
      library.templates.map((t) =>
        `<li>${esc(t.type)} (${t.traces} demonstrations): ${
          t.program
            ? `task program <a href="skill/${esc(t.program.name)}.html">${esc(t.program.name)}</a>`
            : esc(t.steps.map((s) => s.skill).join(" -> "))
        }</li>`
      ).join("")
    }</ul>`,
    `<h2>Versions</h2><table><tr><th>version</th><th>time</th><th>changes</th></tr>${
      [...library.versions].reverse().map((v) =>
        `<tr><td><a href="version/${v.version}.html">${v.version}</a></td><td>${
          esc(v.changes[0]?.time ?? "")
        }</td><td>${
          v.changes.map((c) =>
            `<span class="change-${esc(c.kind)}">${esc(c.kind)}</span> ${esc(c.skill ?? "")} ${
              esc(c.detail ?? "")
            }`
          ).join("<br>")
        }</td></tr>`
      ).join("")
    }</table>`,
  ];
  if (library.actionModel) {
    parts.push(
      `<h2>Action model</h2><table><tr><th>action</th><th>preconditions (learned rules)</th><th>adds</th><th>removes</th><th>seen</th></tr>${
        Object.entries(library.actionModel.actions).map(([a, e]) =>
          `<tr><td><code>${esc(a)}</code></td><td>${
            e.rules.map((r) => `<code>${esc(r.text)}</code>${r.confirmed ? "" : " (unconfirmed)"}`)
              .join("<br>")
          }</td><td>${e.effects.add.map((x) => `<code>${esc(x)}</code>`).join("<br>")}</td><td>${
            e.effects.remove.map((x) => `<code>${esc(x)}</code>`).join("<br>")
          }</td><td>${e.successes} ok, ${e.failures} rejected</td></tr>`
        ).join("")
      }</table>`,
    );
  }
  if (input.runnable) {
    parts.push(
      `<h2>Run the agent</h2><form method="post" action="run"><input name="task" placeholder="task id or seed" required> <button type="submit">run</button></form>`,
    );
  }
  if (input.runs?.length) {
    parts.push(
      `<h2>Runs</h2><ul>${
        input.runs.map((r, i) =>
          `<li><a href="run/${i + 1}.html">${esc(r.source)}</a>${r.goal ? `: ${esc(r.goal)}` : ""}${
            r.result ? ` (${r.result.success ? "success" : "failure"})` : ""
          }</li>`
        ).join("")
      }</ul>`,
    );
  }
  if (input.results?.length) {
    parts.push(
      `<h2>Results</h2><ul>${
        input.results.map((r, i) => `<li><a href="results/${i + 1}.html">${esc(r.source)}</a></li>`)
          .join("")
      }</ul>`,
    );
  }
  pages.set("index.html", page(`skillc library ${library.vocabulary}`, "", parts.join("\n")));

  // Skills and task programs.
  for (const s of [...skills, ...programs]) {
    const changed = library.versions.filter((v) => v.changes.some((c) => c.skill === s.name));
    pages.set(
      `skill/${s.name}.html`,
      page(
        s.name,
        "../",
        LEGEND + skillBlock(s) +
          (changed.length
            ? `<h2>Versions that changed it</h2><p>${
              changed.map((v) => `<a href="../version/${v.version}.html">${v.version}</a>`).join(
                ", ",
              )
            }</p>`
            : ""),
      ),
    );
  }

  // Versions as diffs of the graphs.
  library.versions.forEach((v, i) => {
    const before = library.versions[i - 1];
    const body: string[] = [
      `<p>${
        v.changes.map((c) =>
          `<span class="change-${esc(c.kind)}">${esc(c.kind)}</span> ${esc(c.skill ?? "")}: ${
            esc(c.detail ?? "")
          }`
        ).join("<br>") || "no recorded change"
      }</p>`,
      LEGEND,
    ];
    for (const s of v.skills) {
      const old = before?.skills.find((x) => x.name === s.name);
      if (old && JSON.stringify(old) === JSON.stringify(s)) continue;
      const added = addedNodes(old, s);
      const removed = removedNodes(old, s);
      body.push(
        `<h2>${esc(s.name)}${old ? "" : " (new)"}</h2>` +
          `<p class="diff">${added.size} node(s) added${
            added.size ? `: <code class="added-list">${esc([...added].join(", "))}</code>` : ""
          }; ${removed.length} removed${
            removed.length ? `: <code>${esc(removed.join(", "))}</code>` : ""
          }${
            old && old.doc.pre !== s.doc.pre
              ? `; precondition <code>${esc(old.doc.pre ?? "none")}</code> became <code>${
                esc(s.doc.pre ?? "none")
              }</code>`
              : ""
          }${graftChanges(old, s)}${
            old && JSON.stringify(old.doc.excluded) !== JSON.stringify(s.doc.excluded)
              ? `; excluded: <code>${esc((s.doc.excluded ?? []).join("; "))}</code>`
              : ""
          }</p>` + skillBlock(s, { added }),
      );
    }
    pages.set(`version/${v.version}.html`, page(`version ${v.version}`, "../", body.join("\n")));
  });

  // Runs.
  const known = new Map([...skills, ...programs].map((s) => [s.name, s]));
  input.runs?.forEach((run, i) => {
    const body: string[] = [
      `<p>${run.goal ? `Goal: <b>${esc(run.goal)}</b>. ` : ""}${
        run.result ? `${run.result.success ? "Success" : "Failure"}: ${esc(run.result.stop)}` : ""
      }</p>`,
      LEGEND,
      `<p><button id="prev">previous step</button> <button id="next">next step</button> <span id="where"></span></p>`,
    ];
    for (const [name, marks] of run.skills) {
      const skill = known.get(name);
      body.push(`<h2>${esc(name)}</h2>`);
      body.push(
        skill
          ? `<div data-run-skill="${esc(name)}">${skillBlock(skill, marks)}</div>`
          : `<p>Not in the library's current version.</p>`,
      );
    }
    body.push(
      `<h2>Steps</h2><ol class="steps">${
        run.steps.map((s, k) =>
          `<li data-step="${k}" data-skill="${esc(s.skill)}" data-node="${esc(s.node)}">${
            "&nbsp;&nbsp;".repeat(Math.max(0, s.depth + 1))
          }[${esc(s.skill)}] ${esc(s.kind)} ${esc(s.node)}: ${esc(s.text)}</li>`
        ).join("")
      }</ol>`,
    );
    pages.set(`run/${i + 1}.html`, page(`run ${i + 1}`, "../", body.join("\n"), STEP_SCRIPT));
  });

  // Results.
  input.results?.forEach((r, i) => {
    pages.set(
      `results/${i + 1}.html`,
      page(`results ${r.source}`, "../", resultsBody(r.data)),
    );
  });
  return pages;
}

/** Walks through a run's steps, marking the current node on its skill's graph. */
const STEP_SCRIPT = `
const steps = [...document.querySelectorAll(".steps li")];
let at = -1;
function show(k) {
  if (steps.length === 0) return;
  at = Math.max(0, Math.min(steps.length - 1, k));
  document.querySelectorAll(".current").forEach((e) => e.classList.remove("current"));
  const li = steps[at];
  li.classList.add("current");
  const graph = document.querySelector('[data-run-skill="' + li.dataset.skill + '"]');
  const node = graph && graph.querySelector('g.node[data-node="' + li.dataset.node + '"]');
  if (node) { node.classList.add("current"); node.scrollIntoView({ block: "nearest" }); }
  document.getElementById("where").textContent = "step " + (at + 1) + " of " + steps.length;
}
document.getElementById("next").onclick = () => show(at + 1);
document.getElementById("prev").onclick = () => show(at - 1);
steps.forEach((li, k) => li.onclick = () => show(k));
`;

interface Report {
  variant?: string;
  env?: string;
  tasks?: number;
  success_rate?: number;
  avg_steps?: number;
  invalid_action_rate?: number;
  by_type?: Record<string, { tasks: number; success_rate: number }>;
}

/** The reports of an `eval --json` object or a bench `results.json`, by environment. */
function reportsOf(data: unknown): { env: string; reports: Report[] }[] {
  const d = data as {
    environments?: { env: string; variants: Record<string, Report> }[];
  } & Report;
  if (Array.isArray(d?.environments)) {
    return d.environments.map((e) => ({
      env: e.env,
      reports: Object.entries(e.variants).map(([variant, r]) => ({ ...r, variant })),
    }));
  }
  if (typeof d?.success_rate === "number") return [{ env: d.env ?? "", reports: [d] }];
  return [];
}

/** The variant table and per-type success bars of results. */
function resultsBody(data: unknown): string {
  const envs = reportsOf(data);
  if (envs.length === 0) return "<p>No evaluation report in this file.</p>";
  const palette = ["#64748b", "#f59e0b", "#2563eb", "#16a34a", "#db2777", "#7c3aed", "#0891b2"];
  // One colour per variant name, the same in every environment.
  const names = [...new Set(envs.flatMap((e) => e.reports.map((r) => r.variant ?? "")))];
  const color = (r: Report) => palette[names.indexOf(r.variant ?? "") % palette.length];
  return envs.map(({ env, reports }) => {
    const table =
      `<table class="variants"><tr><th>variant</th><th>tasks</th><th>success</th><th>avg steps</th><th>invalid</th></tr>${
        reports.map((r) =>
          `<tr><td>${esc(r.variant ?? "")}</td><td>${r.tasks ?? ""}</td><td>${
            pct(r.success_rate)
          }</td><td>${(r.avg_steps ?? 0).toFixed(1)}</td><td>${
            pct(r.invalid_action_rate)
          }</td></tr>`
        ).join("")
      }</table>`;
    const types = [...new Set(reports.flatMap((r) => Object.keys(r.by_type ?? {})))];
    const barH = 14;
    const group = reports.length * barH + 10;
    const width = 640;
    const left = 220;
    const height = types.length * group + 30;
    const bars = types.map((t, i) =>
      `<text x="4" y="${i * group + group / 2 + 4}">${esc(t)}</text>` +
      reports.map((r, k) => {
        const rate = r.by_type?.[t]?.success_rate ?? 0;
        const y = i * group + k * barH;
        return `<rect class="bar" data-type="${esc(t)}" data-variant="${
          esc(r.variant ?? "")
        }" x="${left}" y="${y}" width="${(width - left - 60) * rate}" height="${barH - 2}" fill="${
          color(r)
        }"/><text x="${left + (width - left - 60) * rate + 4}" y="${y + barH - 4}" font-size="10">${
          pct(rate)
        }</text>`;
      }).join("")
    ).join("");
    const legend = reports.map((r, k) =>
      `<rect x="${left + k * 90}" y="${height - 14}" width="10" height="10" fill="${
        color(r)
      }"/><text x="${left + k * 90 + 14}" y="${height - 5}" font-size="11">${
        esc(r.variant ?? "")
      }</text>`
    ).join("");
    return `<h2>${esc(env)}</h2>${table}<h2>Success per task type</h2>` +
      `<svg class="type-bars" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="system-ui" font-size="12">${bars}${legend}</svg>`;
  }).join("\n");
}

function pct(x: number | undefined): string {
  return `${(100 * (x ?? 0)).toFixed(1)}%`;
}
