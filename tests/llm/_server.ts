// A fake OpenAI-compatible server on loopback for the LLM tests.

/** The chat-completion response of one answer, with its token usage. */
export function chatCompletion(content: string, tokens = 10, completion = 5): Response {
  return Response.json({
    id: "c",
    object: "chat.completion",
    created: 0,
    model: "m",
    choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }],
    usage: {
      prompt_tokens: tokens,
      completion_tokens: completion,
      total_tokens: tokens + completion,
    },
  });
}

/** A request as the fake server sees it. */
export interface FakeRequest {
  messages: { role: string; content: string }[];
}

/**
 * A server whose answer to the n-th request (1-based) `reply` gives: a
 * content string, or a whole response. It records each request's last
 * message.
 */
export function fakeOpenAI(
  reply: (request: FakeRequest, call: number) => string | Response | Promise<string | Response>,
) {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json() as FakeRequest;
    seen.push(body.messages.at(-1)?.content ?? "");
    const r = await reply(body, seen.length);
    return typeof r === "string" ? chatCompletion(r) : r;
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    /** The last message of each request so far. */
    seen,
    get calls(): number {
      return seen.length;
    },
    close: () => server.shutdown(),
  };
}
