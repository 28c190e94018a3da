// WebShop behind an env-server that speaks AgentGym's WebShop protocol
// (env_idx): our `serve` answers as AgentGym's server does, and
// `agentgym:webshop@<url>` plays through it, on loopback.
import assert from "node:assert/strict";
import { webshopKit } from "../../environments/webshop/kit.ts";
import { serveEnvironment } from "../../environments/remote/server.ts";
import { remoteKit } from "../../environments/remote/kit.ts";
import { GOALS, shopFolder } from "./_webshop_shop.ts";

Deno.test("serve speaks AgentGym's WebShop protocol, and the remote kit plays through it", async () => {
  const data = await shopFolder();
  const server = serveEnvironment(webshopKit, { port: 0, envOptions: { data } });
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    const post = async (path: string, body: unknown) =>
      await (await fetch(base + path, { method: "POST", body: JSON.stringify(body) })).json();
    const get = async (path: string) => await (await fetch(base + path)).json();
    // The requests AgentGym's own WebShop client sends.
    const idx = await post("/create", {});
    assert.equal(typeof idx, "number");
    const [first, info] = await post("/reset", { env_idx: idx, session_id: 2 });
    assert.equal(info, null);
    assert.match(first, /^WebShop \[SEP\] Instruction: \[SEP\] Find me a ceramic coffee mug/);
    assert.equal(await get(`/instruction_text?env_idx=${idx}`), GOALS[2].instruction_text);
    assert.deepEqual(await get(`/available_actions?env_idx=${idx}`), {
      has_search_bar: true,
      clickables: ["search"],
    });
    const stepped = await post("/step", { env_idx: idx, action: "search[ceramic coffee mug]" });
    assert.deepEqual(Object.keys(stepped).sort(), ["done", "info", "reward", "state"]);
    assert.match(stepped.state, /Page 1 \(Total results: \d+\)/);
    assert.equal(await get(`/observation?env_idx=${idx}`), stepped.state);
    const bad = await post("/step", { env_idx: idx, action: "click[nothing there]" });
    assert.equal(bad.state, stepped.state, "an invalid click leaves the page as it was");
    assert.equal(bad.reward, 0);
    assert.deepEqual(await get("/list_envs"), [idx]);

    // The remote kit: the expert's purchase, played against the server, earns the reward.
    const kit = remoteKit(`agentgym:webshop@${base}`, webshopKit);
    const env = kit.create();
    const reset = await env.reset({ seed: 0 });
    assert.equal(reset.goal, GOALS[0].instruction_text);
    assert.equal(reset.taskId, "webshop/0");
    await env.step(`search[${reset.goal}]`);
    assert.ok((await env.admissibleActions!()).includes("click[b00shirt02]"));
    await env.step("click[B00SHIRT02]");
    await env.step("click[navy]");
    await env.step("click[large]");
    const end = await env.step("click[Buy Now]");
    assert.equal(end.done, true);
    assert.equal(end.reward, 1);
    assert.equal(kit.successReward, 1);
    await env.close?.();
  } finally {
    await server.shutdown();
    await Deno.remove(data, { recursive: true });
  }
});
