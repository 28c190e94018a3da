/**
 * The viewer's pages served over HTTP on this machine, or written as a
 * static site: the same map of path to HTML either way.
 *
 * @module
 */
import { writeTextFileAtomic } from "../io/json_file.ts";

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
  options: { port: number; hostname?: string; signal?: AbortSignal },
): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({
    port: options.port,
    hostname: options.hostname ?? "127.0.0.1",
    ...(options.signal ? { signal: options.signal } : {}),
    onListen: () => {},
  }, (request) => {
    const path = decodeURIComponent(new URL(request.url).pathname).replace(/^\/+/, "") ||
      "index.html";
    const html = pages.get(path);
    if (html === undefined) {
      return new Response(`No page "${path}"`, {
        status: 404,
        headers: { "content-type": "text/plain; charset=utf-8" },
      });
    }
    return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
}

/** Writes the pages under `dir` (each written whole: a temporary file, then a rename). */
export async function writePages(pages: ReadonlyMap<string, string>, dir: string): Promise<void> {
  for (const [path, html] of pages) {
    const file = `${dir}/${path}`;
    await Deno.mkdir(file.slice(0, file.lastIndexOf("/")), { recursive: true });
    await writeTextFileAtomic(file, html);
  }
}
