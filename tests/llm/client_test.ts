import assert from "node:assert/strict";
import { z } from "zod";
import { LlmCache } from "../../llm/cache.ts";
import { LlmClient } from "../../llm/client.ts";
import { type LlmConfig, llmConfigFrom } from "../../llm/config.ts";
import { chatCompletion } from "./_server.ts";

/** An OpenAI-compatible server on loopback whose answers `reply` decides, call by call. */
function fakeServer(
  reply: (call: number, body: { messages: { content: string }[] }) => Response | Promise<Response>,
) {
  let calls = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    return reply(++calls, body);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    get calls() {
      return calls;
    },
    close: () => server.shutdown(),
  };
}

const answer = (content: string, tokens = 5) => chatCompletion(content, tokens, 2);

const config = (url: string, extra: Partial<LlmConfig> = {}): LlmConfig => ({
  ...llmConfigFrom({ llm: url, model: "m" }, {})!,
  timeoutMs: 2_000,
  maxRetries: 2,
  ...extra,
});

const Facts = z.object({ add: z.array(z.string()) });
const ask = (client: LlmClient, text = "ground: you see a box") =>
  client.ask({ role: "grounder", messages: [{ role: "user", content: text }], schema: Facts });

Deno.test("llmConfigFrom() reads flags, then OPENAI_* variables, and names what is wrong", () => {
  assert.equal(llmConfigFrom({}, {}), undefined);
  const c = llmConfigFrom({}, {
    OPENAI_BASE_URL: "http://h:1/v1/",
    OPENAI_MODEL: "q",
    OPENAI_API_KEY: "k",
  })!;
  assert.deepEqual([c.baseUrl, c.model, c.apiKey, c.maxRetries], ["http://h:1/v1", "q", "k", 3]);
  assert.throws(
    () => llmConfigFrom({ llm: "nope" }, {}),
    /--llm must be an http\(s\) URL, got "nope"/,
  );
  assert.throws(() => llmConfigFrom({ llm: "http://h/v1" }, {}), /--llm needs --model/);
  assert.throws(() => llmConfigFrom({ model: "q" }, {}), /--model needs --llm/);
  assert.throws(
    () => llmConfigFrom({ llm: "http://h/v1", model: "q", "llm-retries": "-1" }, {}),
    /--llm-retries must be an integer of at least 0, got "-1"/,
  );
});

Deno.test("a valid JSON answer is parsed and validated, a fenced one too; usage is counted", async () => {
  const server = fakeServer((n) =>
    answer(n === 1 ? '{"add": ["box(b1)"]}' : '```json\n{"add": []}\n```')
  );
  try {
    const client = new LlmClient(config(server.url));
    client.startEpisode();
    const first = await ask(client);
    assert.ok(first.ok);
    assert.deepEqual(first.value, { add: ["box(b1)"] });
    const second = await ask(client, "again");
    assert.ok(second.ok && second.value.add.length === 0);
    assert.deepEqual(client.episodeUsage(), {
      calls: 2,
      promptTokens: 10,
      completionTokens: 4,
      cached: 0,
    });
  } finally {
    await server.close();
  }
});

Deno.test("a rejected answer goes back once with its reason; a second rejection is an error naming the role", async () => {
  const seen: string[] = [];
  const server = fakeServer((n, body) => {
    seen.push(body.messages.at(-1)!.content);
    return answer(n === 1 ? "not json" : n === 2 ? '{"add": "box"}' : '{"add": ["x"]}');
  });
  try {
    const client = new LlmClient(config(server.url));
    const r = await ask(client);
    assert.ok(!r.ok);
    assert.deepEqual(r.rejected, [
      "it is not JSON",
      'Invalid input: expected array, received string at "add"',
    ]);
    assert.match(
      r.error.message,
      /^LLM grounder: answer rejected 2 times; last: .* \(request: "ground: you see a box"\)$/,
    );
    assert.match(seen[1], /Your answer was rejected: it is not JSON/);
    // A check beyond the schema rejects too, and a fixed answer is accepted.
    const checked = await client.ask({
      role: "grounder",
      messages: [{ role: "user", content: "q" }],
      schema: Facts,
      check: (v) => v.add.includes("x") ? undefined : "unknown predicate",
    });
    assert.ok(checked.ok);
  } finally {
    await server.close();
  }
});

Deno.test("429 and 500 are retried with backoff; a server that keeps failing or hangs is a clear error", async () => {
  const flaky = fakeServer((n) =>
    n === 1
      ? new Response("slow down", { status: 429, headers: { "retry-after-ms": "10" } })
      : answer('{"add": []}')
  );
  const broken = fakeServer(() =>
    new Response("boom", { status: 500, headers: { "retry-after-ms": "10" } })
  );
  const hung = fakeServer(() => new Promise<Response>(() => {}));
  try {
    const ok = await ask(new LlmClient(config(flaky.url)));
    assert.ok(ok.ok);
    assert.equal(flaky.calls, 2);
    const failed = await ask(new LlmClient(config(broken.url, { maxRetries: 1 })));
    assert.ok(!failed.ok);
    assert.match(
      failed.error.message,
      /^LLM grounder: the server answered 500 \(after 1 retries\)/,
    );
    assert.equal(broken.calls, 2);
    const timedOut = await ask(new LlmClient(config(hung.url, { timeoutMs: 200, maxRetries: 0 })));
    assert.ok(!timedOut.ok);
    assert.match(timedOut.error.message, /no answer within 200 ms/);
  } finally {
    await flaky.close();
    await broken.close();
    // The hanging handler never answers: shut down without waiting for it.
    hung.close().catch(() => {});
  }
});

Deno.test("the per-episode call budget is enforced and restarts with the episode", async () => {
  const server = fakeServer(() => answer('{"add": []}'));
  try {
    const client = new LlmClient(config(server.url, { callsPerEpisode: 2 }));
    client.startEpisode();
    assert.ok((await ask(client, "1")).ok);
    assert.ok((await ask(client, "2")).ok);
    const over = await ask(client, "3");
    assert.ok(!over.ok && /call budget of 2 per episode exhausted/.test(over.error.message));
    client.startEpisode();
    assert.ok((await ask(client, "3")).ok);
    assert.equal(client.totalUsage().calls, 3);
  } finally {
    await server.close();
  }
});

Deno.test("answers are recorded, then replayed with the server stopped; a miss names the cache", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/llm.jsonl`;
  const server = fakeServer((n) => answer(`{"add": ["fact${n}"]}`));
  try {
    const live = new LlmClient(config(server.url), { cache: await LlmCache.open(path) });
    const a = await ask(live, "one");
    const b = await ask(live, "two");
    await server.close();
    const replay = new LlmClient(undefined, { cache: await LlmCache.open(path) });
    assert.deepEqual(await ask(replay, "one"), a);
    assert.deepEqual(await ask(replay, "two"), b);
    assert.equal(replay.totalUsage().cached, 2);
    const miss = await ask(replay, "three");
    assert.ok(!miss.ok);
    assert.match(
      miss.error.message,
      new RegExp(`no LLM configured and the request \\([0-9a-f]{12}\\) is not in ${path}`),
    );
    // A torn last line is dropped (and cut from the file); a bad complete line is named.
    await Deno.writeTextFile(path, '{"key": "tor', { append: true });
    assert.equal((await LlmCache.open(path)).size, 2);
    assert.ok((await Deno.readTextFile(path)).endsWith("}\n"));
    await Deno.writeTextFile(path, "{}\n", { append: true });
    await assert.rejects(
      () => LlmCache.open(path),
      /llm\.jsonl:3.*Invalid LLM cache line at "key"/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
