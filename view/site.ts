/**
 * The viewer's pages served over HTTP on this machine, or written as a
 * static site: the same map of path to HTML either way.
 *
 * @module
 */
import { writeTextFileAtomic } from "../io/json_file.ts";
import type { TaskSpec } from "../runtime/environment.ts";
import { buildSite, type SiteInput } from "./pages.ts";
import { parseRunLog } from "./run_log.ts";

/**
 * Serves the pages: `/` is `index.html`; anything else not in the map is a
 * 404 naming the path.
 *
 * @example Usage
 * ```ts ignore
 * const server = servePages(buildSite({ library }), { port: 0 });
 * console.log(`http://127.0.0.1:${server.addr.port}/`);
 * ```
 */
export function servePages(
  pages: ReadonlyMap<string, string>,
  options: {
    port: number;
    hostname?: string;
    signal?: AbortSignal;
    /**
     * Runs a task from the page's form (`POST /run`, field `task`) and
     * answers the path of the run's page, which `pages` then holds.
     */
    run?: (task: string) => Promise<string>;
  },
): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({
    port: options.port,
    hostname: options.hostname ?? "127.0.0.1",
    ...(options.signal ? { signal: options.signal } : {}),
    onListen: () => {},
  }, async (request) => {
    const path = decodeURIComponent(new URL(request.url).pathname).replace(/^\/+/, "") ||
      "index.html";
    if (request.method === "POST" && path === "run" && options.run) {
      const task = String((await request.formData()).get("task") ?? "").trim();
      try {
        const page = await options.run(task);
        return new Response(null, { status: 303, headers: { location: `/${page}` } });
      } catch (e) {
        return text(`The run of task "${task}" failed: ${(e as Error).message}`, 400);
      }
    }
    const html = pages.get(path);
    if (html === undefined) return text(`No page "${path}"`, 404);
    return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
}

function text(body: string, status: number): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/** Writes the pages under `dir` (each written whole: a temporary file, then a rename). */
export async function writePages(pages: ReadonlyMap<string, string>, dir: string): Promise<void> {
  for (const [path, html] of pages) {
    const file = `${dir}/${path}`;
    await Deno.mkdir(file.slice(0, file.lastIndexOf("/")), { recursive: true });
    await writeTextFileAtomic(file, html);
  }
}

/**
 * Serves a library's site; with `runTask`, its page runs the agent on a
 * task named in a form (an id, or digits for a seed) and shows the run.
 *
 * @example Usage
 * ```ts ignore
 * const server = serveLibrary({ library }, { port: 0, runTask: (t) => agentRunLog(kit, dir, t, {}) });
 * ```
 */
export function serveLibrary(
  input: SiteInput,
  options: { port: number; runTask?: (task: TaskSpec) => Promise<string> },
): Deno.HttpServer<Deno.NetAddr> {
  const runs = [...input.runs ?? []];
  const runnable = options.runTask !== undefined;
  const pages = buildSite({ ...input, runs, runnable });
  const runTask = options.runTask;
  return servePages(pages, {
    port: options.port,
    ...(runTask
      ? {
        run: async (text: string) => {
          if (text === "") throw new Error("Give a task id or seed");
          const task: TaskSpec = /^\d+$/.test(text) ? { seed: Number(text) } : { id: text };
          runs.push(parseRunLog(await runTask(task), `task ${text}`));
          for (const [path, html] of buildSite({ ...input, runs, runnable })) pages.set(path, html);
          return `run/${runs.length}.html`;
        },
      }
      : {}),
  });
}
