// A small Chrome DevTools Protocol client for the viewer's browser tests:
// launches Debian's headless Chromium, opens pages, evaluates expressions in
// them and takes screenshots, over the DevTools WebSocket on loopback.

/** The Chromium binary: $CHROMIUM, else the first of the usual names on the PATH. */
export function chromiumPath(): string | undefined {
  const given = Deno.env.get("CHROMIUM");
  if (given) return given;
  for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
    try {
      const r = new Deno.Command("which", { args: [name], stdout: "piped", stderr: "null" })
        .outputSync();
      if (r.success) return new TextDecoder().decode(r.stdout).trim();
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** One CDP connection (the browser's or a page's). */
class Connection {
  #ws: WebSocket;
  #next = 1;
  #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  #listeners = new Map<string, ((params: unknown) => void)[]>();
  ready: Promise<void>;

  constructor(url: string) {
    this.#ws = new WebSocket(url);
    this.ready = new Promise((resolve, reject) => {
      this.#ws.onopen = () => resolve();
      this.#ws.onerror = (e) =>
        reject(new Error(`CDP connection failed: ${(e as ErrorEvent).message}`));
    });
    this.#ws.onmessage = (m) => {
      const msg = JSON.parse(String(m.data));
      if (msg.id !== undefined) {
        const p = this.#pending.get(msg.id);
        this.#pending.delete(msg.id);
        if (msg.error) p?.reject(new Error(`CDP ${msg.error.message}`));
        else p?.resolve(msg.result);
      } else if (msg.method) {
        for (const f of this.#listeners.get(msg.method) ?? []) f(msg.params);
      }
    };
  }

  send<T = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
  ): Promise<T> {
    const id = this.#next++;
    this.#ws.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) =>
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
    );
  }

  once(method: string): Promise<unknown> {
    return new Promise((resolve) => {
      const list = this.#listeners.get(method) ?? [];
      const f = (p: unknown) => {
        this.#listeners.set(method, (this.#listeners.get(method) ?? []).filter((x) => x !== f));
        resolve(p);
      };
      this.#listeners.set(method, [...list, f]);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.#ws.readyState === WebSocket.CLOSED) return resolve();
      this.#ws.onclose = () => resolve();
      this.#ws.close();
    });
  }
}

/** A page of the browser. */
export class Page {
  readonly #cdp: Connection;
  constructor(cdp: Connection) {
    this.#cdp = cdp;
  }

  /** Loads `url` and waits for its load event. */
  async goto(url: string, size = { width: 1280, height: 900 }): Promise<void> {
    await this.#cdp.send("Page.enable");
    await this.#cdp.send("Emulation.setDeviceMetricsOverride", {
      ...size,
      deviceScaleFactor: 1,
      mobile: false,
    });
    const loaded = this.#cdp.once("Page.loadEventFired");
    await this.#cdp.send("Page.navigate", { url });
    await loaded;
  }

  /** Runs `expression` (which navigates, e.g. submits a form) and waits for the next page's load. */
  async navigateBy(expression: string): Promise<void> {
    const loaded = this.#cdp.once("Page.loadEventFired");
    await this.evaluate(expression);
    await loaded;
  }

  /** The value of a JavaScript expression evaluated in the page. */
  async evaluate<T>(expression: string): Promise<T> {
    const r = await this.#cdp.send<{
      result: { value?: unknown };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    }>("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) {
      throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
    }
    return r.result.value as T;
  }

  /** A PNG of the whole page (or of `clip`). */
  async screenshot(
    path: string,
    clip?: { x: number; y: number; width: number; height: number },
  ): Promise<void> {
    const r = await this.#cdp.send<{ data: string }>("Page.captureScreenshot", {
      format: "png",
      captureBeyondViewport: true,
      ...(clip ? { clip: { ...clip, scale: 1 } } : {}),
    });
    await Deno.writeFile(path, Uint8Array.from(atob(r.data), (c) => c.charCodeAt(0)));
  }

  close(): Promise<void> {
    return this.#cdp.close();
  }
}

/** A headless Chromium. */
export class Browser {
  readonly #process: Deno.ChildProcess;
  readonly #port: number;
  readonly #cdp: Connection;
  readonly #profile: string;

  private constructor(process: Deno.ChildProcess, port: number, cdp: Connection, profile: string) {
    this.#process = process;
    this.#port = port;
    this.#cdp = cdp;
    this.#profile = profile;
  }

  /** Launches Chromium headless with a fresh profile. */
  static async launch(binary: string): Promise<Browser> {
    const profile = await Deno.makeTempDir({ prefix: "skillc-chromium-" });
    const process = new Deno.Command(binary, {
      args: [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--remote-debugging-address=127.0.0.1",
        "--remote-debugging-port=0",
        `--user-data-dir=${profile}`,
        "about:blank",
      ],
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const reader = process.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    let url: string | undefined;
    while (!url) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`Chromium exited before listening: ${text.slice(-500)}`);
      text += value;
      url = /DevTools listening on (ws:\/\/\S+)/.exec(text)?.[1];
    }
    // Keep draining stderr so Chromium never blocks on a full pipe.
    (async () => {
      try {
        while (!(await reader.read()).done) { /* drain */ }
      } catch { /* closed */ }
    })();
    const port = Number(new URL(url).port);
    const cdp = new Connection(url);
    await cdp.ready;
    return new Browser(process, port, cdp, profile);
  }

  /** A new page (tab). */
  async page(): Promise<Page> {
    const { targetId } = await this.#cdp.send<{ targetId: string }>("Target.createTarget", {
      url: "about:blank",
    });
    const cdp = new Connection(`ws://127.0.0.1:${this.#port}/devtools/page/${targetId}`);
    await cdp.ready;
    return new Page(cdp);
  }

  /** Closes the browser and removes its profile. */
  async close(): Promise<void> {
    try {
      await this.#cdp.send("Browser.close");
    } catch { /* already gone */ }
    await this.#cdp.close();
    try {
      this.#process.kill("SIGKILL");
    } catch { /* exited */ }
    await this.#process.status;
    await Deno.remove(this.#profile, { recursive: true }).catch(() => {});
  }
}
