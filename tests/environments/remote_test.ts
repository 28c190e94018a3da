import assert from "node:assert/strict";
import {
  idToName,
  planTextCraft,
  TextCraft,
  TextCraftExpert,
  textcraftKit,
  textcraftTasks,
  textcraftVocabulary,
} from "../../environments/textcraft/mod.ts";
import {
  goalFromObservation,
  parseRemoteName,
  RemoteEnvironment,
  RemoteEnvironmentError,
  remoteKit,
  serveEnvironment,
} from "../../environments/remote/mod.ts";
import { environmentKit } from "../../environments/registry.ts";
import type { Environment, StepResult, TaskSpec } from "../../runtime/environment.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { collectRun, runSkill } from "../../runtime/exec/interpreter.ts";
import { loadSkillFile } from "../../runtime/store/library.ts";
import { startServe } from "../cli/_run.ts";
import { type EpisodeRecord, evaluate } from "../../runtime/eval/evaluate.ts";
import { expertRunner } from "../../runtime/eval/eval_runners.ts";

const root = new URL("../../", import.meta.url);
const STICK_SPEC = {
  goal: "stick",
  commands: ["craft 4 oak planks using 1 oak logs", "craft 4 stick using 2 planks"],
};

/** Runs `fn` against a TextCraft server on an ephemeral loopback port, then shuts it down. */
async function withServer(fn: (url: string) => Promise<void>): Promise<void> {
  const server = serveEnvironment(textcraftKit, { port: 0 });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

/** Runs `fn` against a stub server answering every request with `handler`. */
async function withStub(
  handler: (req: Request) => Response | Promise<Response>,
  fn: (url: string) => Promise<void>,
): Promise<void> {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, handler);
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

function remote(url: string, timeoutMs?: number): RemoteEnvironment {
  return new RemoteEnvironment(url, {
    envName: "textcraft",
    vocabulary: textcraftVocabulary,
    timeoutMs,
  });
}

/** The expert's plan with invalid and query actions mixed in, so failures are compared too. */
function actionsFor(env: TextCraft): string[] {
  const goal = idToName(env.goal!);
  const plan = planTextCraft(env.book, env.goal!);
  return [
    "inventory",
    `get 1 ${goal}`,
    "craft 1 nonsense using 1 dirt",
    "jump around",
    ...plan.slice(0, -1),
    "inventory",
    ...plan.slice(-1),
  ];
}

async function play(env: Environment, actions: string[]): Promise<StepResult[]> {
  const out: StepResult[] = [];
  for (const action of actions) out.push(await env.step(action));
  return out;
}

async function rejects(
  promise: Promise<unknown>,
  check: (e: RemoteEnvironmentError) => void,
): Promise<void> {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof RemoteEnvironmentError, `not a RemoteEnvironmentError: ${e}`);
    check(e);
    return true;
  });
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return port;
}

Deno.test("episodes served over loopback match in-process ones for several seeds", async () => {
  await withServer(async (url) => {
    const env = remote(url);
    try {
      const tasks = textcraftTasks({ depths: [1, 2, 3, 4], count: 2, seed: 40 });
      // By id and seed, by seed and depth, by seed alone, by id alone.
      const bySeed = tasks.map(({ seed, options }) => ({ seed, options }));
      for (
        const task of [...tasks, ...bySeed, { seed: 7 }, { id: "textcraft/d2/s3" }] as TaskSpec[]
      ) {
        const local = new TextCraft();
        const expected = await local.reset(task);
        assert.deepEqual(await env.reset(task), expected, JSON.stringify(task));
        const actions = actionsFor(local);
        const localSteps = await play(local, actions);
        assert.deepEqual(await play(env, actions), localSteps, JSON.stringify(task));
        assert.deepEqual([localSteps.at(-1)!.reward, localSteps.at(-1)!.done], [1, true]);
        assert.ok(localSteps.some((s) => s.observation.startsWith("Could not")));
        assert.equal(await env.observation(), localSteps.at(-1)!.observation);
      }
    } finally {
      await env.close();
    }
  });
});

Deno.test("an explicit {commands, goal} task gives the same episode as in-process", async () => {
  await withServer(async (url) => {
    const env = remote(url);
    try {
      const asText = { goal: "minecraft:stick", commands: STICK_SPEC.commands.join("\n") };
      for (const spec of [STICK_SPEC, asText]) {
        const local = new TextCraft();
        const expected = await local.reset({ spec });
        const got = await env.reset({ spec });
        assert.deepEqual(got, expected);
        assert.match(got.observation, /^Crafting commands:\ncraft 4 oak planks using 1 oak logs\n/);
        const actions = [
          "get 1 oak logs",
          "craft 4 oak planks using 1 oak logs",
          "craft 4 stick using 2 planks",
          "craft 4 stick using 2 oak planks",
        ];
        const steps = await play(env, actions);
        assert.deepEqual(steps, await play(local, actions));
        assert.deepEqual(steps.map((s) => [s.reward, s.done]), [[0, false], [0, false], [
          0,
          false,
        ], [1, true]]);
      }
    } finally {
      await env.close();
    }
  });
});

Deno.test("the TextCraft expert solves tasks through the remote environment", async () => {
  await withServer(async (url) => {
    const kit = remoteKit(`agentgym:textcraft@${url}`, textcraftKit);
    const env = kit.create();
    try {
      for (const task of textcraftTasks({ depths: [2, 4], count: 2, seed: 11 })) {
        const trace = await kit.expert!().solve(env, task);
        const local = await new TextCraftExpert().solve(new TextCraft(), task);
        assert.equal(trace.success, true, task.id);
        assert.deepEqual(trace.steps, local.steps);
        assert.deepEqual([trace.initial, trace.goal, trace.task], [
          local.initial,
          local.goal,
          local.task,
        ]);
        assert.deepEqual([trace.steps.at(-1)!.reward, trace.steps.at(-1)!.done], [1, true]);
      }
    } finally {
      await env.close?.();
    }
  });
});

Deno.test("a skill run through the remote environment matches the in-process run", async () => {
  await withServer(async (url) => {
    const skill = new URL("examples/textcraft/craft_from_gettable.json", root).pathname;
    const program = await loadSkillFile(skill, textcraftVocabulary);
    const task: TaskSpec = { seed: 7, options: { depth: 1 } };
    const runs = [];
    for (const env of [new TextCraft(), remote(url)] as Environment[]) {
      const reset = await env.reset(task);
      const grounder = textcraftKit.grounder();
      const facts = new FactStore();
      facts.apply(grounder.initial(reset.observation, reset.goal).delta);
      const target = reset.goal.replace(/^craft /, "");
      runs.push(await collectRun(runSkill(program, { target }, { env, grounder, facts })));
      await env.close?.();
    }
    assert.deepEqual(runs[1], runs[0]);
    assert.equal(runs[1].result.outcome, "success");
    assert.equal(runs[1].result.reward, 1);
  });
});

Deno.test("the registry resolves agentgym:textcraft@http://127.0.0.1:PORT names", async () => {
  await withServer(async (url) => {
    const kit = environmentKit(`agentgym:textcraft@${url}/`);
    assert.equal(kit.name, `agentgym:textcraft@${url}`);
    assert.equal(kit.vocabulary, textcraftVocabulary);
    const env = kit.create({ timeoutMs: 2000 });
    assert.ok(env instanceof RemoteEnvironment);
    assert.equal(env.name, "textcraft");
    try {
      const reset = await env.reset({ spec: STICK_SPEC });
      const grounding = kit.grounder().initial(reset.observation, reset.goal);
      const local = new TextCraft();
      const l = await local.reset({ spec: STICK_SPEC });
      assert.deepEqual(grounding, textcraftKit.grounder().initial(l.observation, l.goal));
      assert.ok(grounding.delta.add.length > 0);
    } finally {
      await env.close?.();
    }
  });
  assert.throws(() => environmentKit("agentgym:textcraft"), TypeError);
  assert.throws(() => environmentKit("agentgym:textcraft@ftp://x"), /not an http\(s\) URL/);
  assert.throws(
    () => environmentKit("agentgym:nosuch@http://127.0.0.1:1"),
    /Unknown environment "nosuch"; known: "textcraft"/,
  );
  assert.throws(() => environmentKit("nosuch"), /Unknown environment "nosuch"; known: "textcraft"/);
  assert.deepEqual(parseRemoteName("agentgym:textcraft@http://h:1/"), {
    env: "textcraft",
    url: "http://h:1",
    urls: ["http://h:1"],
  });
  assert.deepEqual(parseRemoteName("agentgym:textcraft@http://h:1/,http://h:2").urls, [
    "http://h:1",
    "http://h:2",
  ]);
  assert.throws(
    () => parseRemoteName("agentgym:textcraft@http://h:1,"),
    /Invalid remote environment/,
  );
  assert.throws(
    () => parseRemoteName("agentgym:textcraft@http://h:1,ftp://h:2"),
    /"ftp:\/\/h:2" is not an http\(s\) URL/,
  );
});

Deno.test("a refused connection is a clear error naming the URL and endpoint", async () => {
  const port = freePort();
  const env = remote(`http://127.0.0.1:${port}`);
  await rejects(env.reset({ seed: 1 }), (e) => {
    assert.equal(e.kind, "refused");
    assert.equal(e.message, `POST http://127.0.0.1:${port}/create: connection refused`);
    assert.equal(e.endpoint, "POST /create");
  });
});

Deno.test("a server that never answers times out within the limit", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn); // read nothing, answer nothing
  })();
  try {
    const env = remote(`http://127.0.0.1:${listener.addr.port}`, 150);
    const start = performance.now();
    await rejects(env.reset({ seed: 1 }), (e) => {
      assert.equal(e.kind, "timeout");
      assert.match(e.message, /^POST http:\/\/127\.0\.0\.1:\d+\/create: no reply within 150 ms$/);
    });
    assert.ok(performance.now() - start < 5000);
  } finally {
    listener.close();
    await accepting.catch(() => {});
    for (const conn of held) conn.close();
  }
});

Deno.test("a 500 status, malformed JSON and AgentGym error replies are clear errors", async () => {
  const replies: Record<string, () => Response> = {
    "/create": () => Response.json({ id: 0, observation: "hi", reward: 0, done: false }),
    "/reset": () => Response.json({ detail: "boom: env crashed" }, { status: 500 }),
  };
  await withStub((req) => replies[new URL(req.url).pathname](), async (url) => {
    await rejects(remote(url).reset({ seed: 2 }), (e) => {
      assert.equal(e.kind, "status");
      assert.equal(e.status, 500);
      assert.equal(
        e.message,
        `POST ${url}/reset: HTTP 500 Internal Server Error: boom: env crashed`,
      );
    });
    replies["/reset"] = () => new Response("<html>oops</html>", { status: 200 });
    await rejects(remote(url).reset({ seed: 2 }), (e) => {
      assert.equal(e.kind, "malformed");
      assert.equal(e.message, `POST ${url}/reset: malformed JSON reply "<html>oops</html>"`);
    });
    replies["/reset"] = () => Response.json({ error: "The id 0 is not valid." });
    await rejects(remote(url).reset({ seed: 2 }), (e) => {
      assert.equal(e.kind, "server");
      assert.equal(e.message, `POST ${url}/reset: server error: The id 0 is not valid.`);
    });
    replies["/reset"] = () => Response.json({ id: 0, observation: "Goal: craft stick." });
    const env = remote(url);
    const reset = await env.reset({ seed: 2 });
    assert.deepEqual(reset, {
      observation: "Goal: craft stick.",
      goal: "craft stick",
      taskId: "textcraft/s2",
    });
    replies["/step"] = () => Response.json({ observation: 3, reward: 0, done: false });
    await rejects(env.step("inventory"), (e) => {
      assert.equal(e.kind, "malformed");
      assert.match(
        e.message,
        /^POST .*\/step: malformed reply: "observation" must be a string, got 3/,
      );
    });
  });
});

Deno.test("the server answers unknown ids, closed ids, bad bodies and methods with JSON errors", async () => {
  await withServer(async (url) => {
    const post = async (path: string, body: string) => {
      const r = await fetch(url + path, { method: "POST", body });
      return { status: r.status, body: await r.json() };
    };
    assert.deepEqual(await post("/step", '{"id": 99, "action": "inventory"}'), {
      status: 404,
      body: { error: "Unknown environment id 99: create one with POST /create" },
    });
    assert.equal((await post("/step", "{not json")).status, 400);
    assert.match((await post("/step", "[1]")).body.error, /must be a JSON object/);
    assert.match((await post("/step", '{"id": 0}')).body.error, /"action" must be a string/);
    const created = await post("/create", "");
    assert.equal(created.status, 200);
    const id = created.body.id;
    assert.deepEqual(Object.keys(created.body).sort(), [
      "done",
      "goal",
      "id",
      "observation",
      "reward",
      "task_id",
      "task_type",
    ]);
    assert.equal((await post("/reset", `{"id": ${id}, "spec": {"goal": "nothing"}}`)).status, 400);
    const step = await post("/step", JSON.stringify({ id, action: "inventory" }));
    assert.deepEqual(step, {
      status: 200,
      body: { observation: "Inventory: You are not carrying anything.", reward: 0, done: false },
    });
    const obs = await fetch(`${url}/observation?id=${id}`);
    assert.equal(await obs.json(), "Inventory: You are not carrying anything.");
    assert.deepEqual(await post("/close", JSON.stringify({ id })), { status: 200, body: true });
    assert.deepEqual(await post("/step", JSON.stringify({ id, action: "inventory" })), {
      status: 404,
      body: { error: `Environment ${id} has been closed` },
    });
    const get = await fetch(`${url}/step`);
    assert.equal(get.status, 405);
    await get.body?.cancel();
    const home = await fetch(url);
    assert.equal(await home.json(), "This is environment textcraft.");
  });
});

Deno.test("an error mid-episode rejects step instead of being swallowed", async () => {
  const server = serveEnvironment(textcraftKit, { port: 0 });
  const url = `http://127.0.0.1:${server.addr.port}`;
  const env = remote(url, 2000);
  try {
    await env.reset({ seed: 5, options: { depth: 2 } });
    assert.equal((await env.step("inventory")).reward, 0);
    // The server forgets the instance: the next step is an unknown id.
    const r = await fetch(`${url}/close`, {
      method: "POST",
      body: JSON.stringify({ id: env.envId }),
    });
    await r.body?.cancel();
    await rejects(env.step("inventory"), (e) => {
      assert.equal(e.status, 404);
      assert.match(
        e.message,
        /^POST http:\/\/127\.0\.0\.1:\d+\/step: HTTP 404 Not Found: Environment \d+ has been closed$/,
      );
    });
  } finally {
    await server.shutdown();
  }
  // The server is gone: the episode's next step fails loudly.
  await rejects(env.step("inventory"), (e) => assert.equal(e.kind, "refused"));
});

Deno.test("goalFromObservation reads TextCraft and ALFWorld goal lines", () => {
  assert.equal(
    goalFromObservation("Crafting commands:\ncraft 1 a using 1 b\n\nGoal: craft a."),
    "craft a",
  );
  assert.equal(
    goalFromObservation("You are in a room.\nYour task is to: put a cloth in bin."),
    "put a cloth in bin",
  );
  assert.equal(goalFromObservation("nothing here"), "");
});

const canRun = (await Deno.permissions.query({ name: "run" })).state === "granted";

async function serveCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-check",
      "--allow-read",
      "--allow-net",
      new URL("cli/serve.ts", root).pathname,
      ...args,
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test({
  name: "serve --help prints usage; bad flags exit 2 with a clear message",
  ignore: !canRun,
  fn: async () => {
    const help = await serveCli(["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: deno task serve --env <env> --port <port>/);
    for (
      const [args, message] of [
        [["--env", "textcraft"], /Missing --port/],
        [["--env", "textcraft", "--port", "abc"], /--port must be an integer, got "abc"/],
        [["--env", "textcraft", "--port", "70000"], /--port must be 0-65535/],
        [["--env", "nosuch", "--port", "0"], /Unknown environment "nosuch"/],
        [["--port", "0", "--bogus"], /bogus/],
        [["--env", "textcraft", "--port", "0", "--env-options", "[1]"], /must be a JSON object/],
      ] as const
    ) {
      const r = await serveCli([...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
    }
  },
});

Deno.test({
  name: "serve prints its URL, serves episodes and stops on SIGINT",
  ignore: !canRun,
  fn: async () => {
    const server = await startServe(["--env", "textcraft", "--port", "0"]);
    try {
      assert.equal(server.env, "textcraft");
      const env = remote(server.url, 5000);
      const local = new TextCraft();
      assert.deepEqual(await env.reset({ seed: 3 }), await local.reset({ seed: 3 }));
      assert.deepEqual(await env.step("inventory"), await local.step("inventory"));
      await env.close();
    } finally {
      assert.equal(await server.stop(), 0);
    }
  },
});

Deno.test("the server accepts AgentGym's own TextCraft client requests", async () => {
  await withServer(async (url) => {
    const post = async (path: string, body: unknown) =>
      await (await fetch(url + path, { method: "POST", body: JSON.stringify(body) })).json();
    // AgentGym's client sends its server-side recipe directory and null task fields.
    const created = await post("/create", {
      minecraft_dir: "agentenv_textcraft/",
      commands: null,
      goal: null,
    });
    assert.equal(typeof created.id, "number");
    assert.match(created.observation, /^Crafting commands:\n/);
    const reset = await post("/reset", { id: created.id, data_idx: 12 });
    assert.equal(reset.observation, (await new TextCraft().reset({ seed: 12 })).observation);
    const explicit = await post("/create", {
      minecraft_dir: "agentenv_textcraft/",
      commands: STICK_SPEC.commands.join("\n"),
      goal: "minecraft:stick",
    });
    assert.equal(
      explicit.observation,
      (await new TextCraft().reset({ spec: STICK_SPEC })).observation,
    );
    assert.notEqual(explicit.id, created.id);
    for (const id of [created.id, explicit.id]) assert.equal(await post("/close", { id }), true);
  });
});

Deno.test("episodes spread over several servers, several at a time, as a sequential run", async () => {
  const a = serveEnvironment(textcraftKit, { port: 0 });
  const b = serveEnvironment(textcraftKit, { port: 0 });
  const urls = [a, b].map((s) => `http://127.0.0.1:${s.addr.port}`);
  try {
    const kit = remoteKit(`agentgym:textcraft@${urls.join(",")}`, textcraftKit);
    const created = [kit.create(), kit.create(), kit.create()] as RemoteEnvironment[];
    assert.deepEqual(created.map((e) => e.baseUrl), [urls[0], urls[1], urls[0]]);
    const tasks = textcraftTasks({ depths: [1, 2], count: 6, seed: 3 });
    const run = (concurrency: number) =>
      evaluate({
        env: kit.name,
        createEnv: () => kit.create(),
        tasks,
        runner: expertRunner(kit),
        concurrency,
      });
    const sequential = await run(1);
    const parallel = await run(3);
    const strip = (r: EpisodeRecord) => ({ ...r, seconds: 0 });
    assert.deepEqual(parallel.records.map(strip), sequential.records.map(strip));
    assert.equal(parallel.report.success_rate, 1);
  } finally {
    await a.shutdown();
    await b.shutdown();
  }
});
