import assert from "node:assert/strict";
import { collectRun, type RunEvent, runSkill } from "../../runtime/exec/interpreter.ts";
import { SkillLibrary } from "../../runtime/store/library.ts";
import { toyGrounder, toyProgram, toySetup } from "./_toy.ts";
import type { SkillInput } from "../../dsl/graph/schema.ts";
import type { Program } from "../../runtime/exec/program.ts";

// take_color(c): pick a box of color c, open it if closed, take it.
const takeColor: SkillInput = {
  name: "take_color",
  vocabulary: "toy",
  params: [{ name: "c", type: "Color" }],
  doc: { summary: "Take a box of a color, opening it first if needed." },
  entry: "pick",
  nodes: [
    { id: "pick", kind: "data", var: "b", expr: "select_one(x: Box, color(x, c))" },
    { id: "closed", kind: "check", cond: "not is_open(b)" },
    { id: "open", kind: "primitive", action: "open", args: { b: "b" } },
    { id: "take", kind: "primitive", action: "take", args: { b: "b" } },
    { id: "ok", kind: "terminal", outcome: "success" },
  ],
  edges: [
    { from: "pick", to: "closed", label: "next" },
    { from: "closed", to: "open", label: "yes" },
    { from: "closed", to: "take", label: "no" },
    { from: "open", to: "take", label: "next" },
    { from: "take", to: "ok", label: "next" },
  ],
};

async function run(
  skill: SkillInput,
  args: Record<string, string | number>,
  boxes: Parameters<typeof toySetup>[0],
  options: { budgets?: { maxSteps?: number; maxVisits?: number }; library?: SkillLibrary } = {},
) {
  const { env, facts } = await toySetup(boxes);
  const { events, result } = await collectRun(
    runSkill(toyProgram(skill, options.library?.programs()), args, {
      env,
      grounder: toyGrounder,
      facts,
      budgets: options.budgets,
      library: options.library,
    }),
  );
  return { env, facts, events, result };
}

const kinds = (events: RunEvent[]) => events.map((e) => e.type);

Deno.test("runSkill() takes the open branch only when the box is closed", async () => {
  const closed = await run(takeColor, { c: "red" }, [{ id: "b1", color: "red", open: false }]);
  assert.deepEqual(closed.env.actions, ["open b1", "take b1"]);
  assert.equal(closed.result.outcome, "success");
  const open = await run(takeColor, { c: "red" }, [{ id: "b1", color: "red", open: true }]);
  assert.deepEqual(open.env.actions, ["take b1"]);
  assert.equal(open.result.actions, 1);
});

Deno.test("runSkill() emits think events for data and check nodes and no action", async () => {
  const { events } = await run(takeColor, { c: "red" }, [{ id: "b1", color: "red", open: true }]);
  assert.deepEqual(kinds(events), ["start", "think", "think", "act", "observe", "end"]);
  const first = events[1];
  assert.ok(first.type === "think" && first.text === "b := 'b1'");
});

Deno.test("runSkill() fails with a diagnosis naming the node when select_one finds nothing", async () => {
  const { result, env } = await run(takeColor, { c: "blue" }, [{
    id: "b1",
    color: "red",
    open: false,
  }]);
  assert.equal(result.outcome, "failure");
  assert.equal(result.diagnosis?.node, "pick");
  assert.match(result.diagnosis!.message, /select_one found no x: Box/);
  assert.deepEqual(env.actions, []);
});

Deno.test("runSkill() rejects bad arguments before acting", async () => {
  const { result } = await run(takeColor, { c: "red", extra: 1 }, [{
    id: "b1",
    color: "red",
    open: true,
  }]);
  assert.equal(result.outcome, "failure");
  assert.match(result.diagnosis!.message, /Unknown argument "extra"/);
  const missing = await run(takeColor, {}, [{ id: "b1", color: "red", open: true }]);
  assert.match(missing.result.diagnosis!.message, /Missing argument "c"/);
});

// open_all: for each closed box, open it; then finish.
const openAll: SkillInput = {
  name: "open_all",
  vocabulary: "toy",
  params: [],
  doc: { summary: "Open every closed box." },
  entry: "each",
  nodes: [
    { id: "each", kind: "loop", var: "b", over: "select_all(x: Box, not is_open(x))" },
    { id: "open", kind: "primitive", action: "open", args: { b: "b" } },
    { id: "ok", kind: "terminal", outcome: "success" },
  ],
  edges: [
    { from: "each", to: "open", label: "body" },
    { from: "each", to: "ok", label: "done" },
    { from: "open", to: "each", label: "next" },
  ],
};

Deno.test("runSkill() loops over every element and continues from the body", async () => {
  const { env, result } = await run(openAll, {}, [
    { id: "b1", color: "red", open: false },
    { id: "b2", color: "red", open: true },
    { id: "b3", color: "blue", open: false },
  ]);
  assert.deepEqual(env.actions, ["open b1", "open b3"]);
  assert.equal(result.outcome, "success");
});

Deno.test("runSkill() goes straight to done on an empty loop list", async () => {
  const { env, events, result } = await run(openAll, {}, [{ id: "b1", color: "red", open: true }]);
  assert.deepEqual(env.actions, []);
  assert.equal(result.outcome, "success");
  assert.ok(
    events.some((e) => e.type === "think" && e.node === "each" && /done after 0/.test(e.text)),
  );
});

// find_heavy: loop over boxes, exit early at the first one heavier than 5.
const findHeavy: SkillInput = {
  name: "find_heavy",
  vocabulary: "toy",
  params: [],
  doc: { summary: "Open boxes until a heavy one is open." },
  entry: "each",
  nodes: [
    { id: "each", kind: "loop", var: "b", over: "select_all(x: Box, true)" },
    { id: "open", kind: "primitive", action: "open", args: { b: "b" } },
    { id: "heavy", kind: "check", cond: "weight(b) > 5" },
    { id: "found", kind: "terminal", outcome: "success" },
    {
      id: "none",
      kind: "terminal",
      outcome: "failure",
      message: "No heavy box",
      diagnosis: "not exists(x: Box, weight(x) > 5)",
    },
  ],
  edges: [
    { from: "each", to: "open", label: "body" },
    { from: "each", to: "none", label: "done" },
    { from: "open", to: "heavy", label: "next" },
    { from: "heavy", to: "found", label: "yes" },
    { from: "heavy", to: "each", label: "no" },
  ],
};

Deno.test("runSkill() leaves a loop early through a check", async () => {
  const { env, result } = await run(findHeavy, {}, [
    { id: "b1", color: "red", open: false, weight: 1 },
    { id: "b2", color: "red", open: false, weight: 9 },
    { id: "b3", color: "red", open: false, weight: 9 },
  ]);
  assert.deepEqual(env.actions, ["open b1", "open b2"]);
  assert.equal(result.outcome, "success");
  assert.equal(result.diagnosis, undefined);
});

Deno.test("runSkill() reports a failure terminal's condition with values and truth", async () => {
  const { result } = await run(findHeavy, {}, [{ id: "b1", color: "red", open: false, weight: 1 }]);
  assert.equal(result.outcome, "failure");
  assert.deepEqual(result.diagnosis, {
    node: "none",
    message: "No heavy box",
    condition: "not exists(x: Box, weight(x) > 5)",
    holds: true,
  });
});

// pairs: nested loops; the inner loop is re-entered from outside once per outer element.
const pairs: SkillInput = {
  name: "pairs",
  vocabulary: "toy",
  params: [],
  doc: { summary: "Wait once per ordered pair of boxes." },
  entry: "outer",
  nodes: [
    { id: "outer", kind: "loop", var: "a", over: "select_all(x: Box, true)" },
    { id: "inner", kind: "loop", var: "b", over: "select_all(y: Box, true)" },
    { id: "wait", kind: "primitive", action: "wait", args: {} },
    { id: "ok", kind: "terminal", outcome: "success" },
  ],
  edges: [
    { from: "outer", to: "inner", label: "body" },
    { from: "outer", to: "ok", label: "done" },
    { from: "inner", to: "wait", label: "body" },
    { from: "inner", to: "outer", label: "done" },
    { from: "wait", to: "inner", label: "next" },
  ],
};

Deno.test("runSkill() restarts an inner loop each time it is entered from outside", async () => {
  const { env, events, result } = await run(pairs, {}, [
    { id: "b1", color: "red", open: true },
    { id: "b2", color: "red", open: true },
    { id: "b3", color: "red", open: true },
  ]);
  assert.equal(env.actions.length, 9);
  assert.equal(result.outcome, "success");
  const innerFirsts = events.filter((e) =>
    e.type === "think" && e.node === "inner" && e.text.startsWith("b := 'b1'")
  );
  assert.equal(innerFirsts.length, 3);
});

// spin: a cycle that never acts; only the budgets can end it.
const spin: SkillInput = {
  name: "spin",
  vocabulary: "toy",
  params: [],
  doc: { summary: "Never finishes." },
  entry: "a",
  nodes: [
    { id: "a", kind: "data", var: "n", expr: "1" },
    { id: "again", kind: "check", cond: "n > 0" },
    { id: "ok", kind: "terminal", outcome: "success" },
  ],
  edges: [
    { from: "a", to: "again", label: "next" },
    { from: "again", to: "a", label: "yes" },
    { from: "again", to: "ok", label: "no" },
  ],
};

Deno.test("runSkill() ends a loop without progress at the node-visit budget", async () => {
  const { result } = await run(spin, {}, [], { budgets: { maxVisits: 10 } });
  assert.equal(result.outcome, "failure");
  assert.match(result.diagnosis!.message, /visited more than 10 times/);
});

Deno.test("runSkill() ends at the step budget", async () => {
  const { result } = await run(spin, {}, [], { budgets: { maxSteps: 7, maxVisits: 100 } });
  assert.equal(result.outcome, "failure");
  assert.equal(result.steps, 8);
  assert.match(result.diagnosis!.message, /Step budget of 7 exhausted/);
});

Deno.test("runSkill() fails on a rejected action and names it", async () => {
  const takeOnly: SkillInput = {
    ...takeColor,
    name: "take_only",
    nodes: takeColor.nodes.filter((n) => n.id !== "closed" && n.id !== "open"),
    edges: [
      { from: "pick", to: "take", label: "next" },
      { from: "take", to: "ok", label: "next" },
    ],
  };
  const { result } = await run(takeOnly, { c: "red" }, [{ id: "b1", color: "red", open: false }]);
  assert.equal(result.outcome, "failure");
  assert.equal(result.diagnosis?.node, "take");
  assert.equal(result.diagnosis?.message, 'Action "take b1" failed: Nothing happens.');
});

Deno.test("runSkill() follows a failed edge when the action is rejected", async () => {
  const recover: SkillInput = {
    ...takeColor,
    name: "take_or_open",
    nodes: [
      ...takeColor.nodes.filter((n) => n.id !== "closed"),
      { id: "take_again", kind: "primitive", action: "take", args: { b: "b" } },
    ],
    edges: [
      { from: "pick", to: "take", label: "next" },
      { from: "take", to: "ok", label: "next" },
      { from: "take", to: "open", label: "failed" },
      { from: "open", to: "take_again", label: "next" },
      { from: "take_again", to: "ok", label: "next" },
    ],
  };
  const { env, result } = await run(recover, { c: "red" }, [{
    id: "b1",
    color: "red",
    open: false,
  }]);
  assert.deepEqual(env.actions, ["take b1", "open b1", "take b1"]);
  assert.equal(result.outcome, "success");
});

Deno.test("runSkill() does not send an action the driver refuses where the node has a failed edge", async () => {
  // take: a red box; the driver refuses "take b1" (it went round a cycle there).
  const careful: SkillInput = {
    ...takeColor,
    name: "take_or_give_up",
    nodes: [
      ...takeColor.nodes.filter((n) => n.id !== "closed" && n.id !== "open"),
      { id: "gave_up", kind: "terminal", outcome: "failure", message: "Gave up" },
    ],
    edges: [
      { from: "pick", to: "take", label: "next" },
      { from: "take", to: "ok", label: "next" },
      { from: "take", to: "gave_up", label: "failed" },
    ],
  };
  const refusing = async (skill: SkillInput, boxes: Parameters<typeof toySetup>[0]) => {
    const { env, facts } = await toySetup(boxes);
    const refused: string[] = [];
    const { events, result } = await collectRun(
      runSkill(toyProgram(skill), { c: "red" }, {
        env,
        grounder: toyGrounder,
        facts,
        refuse: (_facts, action) => {
          refused.push(action);
          return action === "take b1" ? "sent twice from here" : undefined;
        },
      }),
    );
    return { env, events, result, refused };
  };
  const red = (id: string) => ({ id, color: "red", open: true });
  // Another red box is taken instead.
  const two = await refusing(careful, [red("b1"), red("b2")]);
  assert.deepEqual(two.env.actions, ["take b2"]);
  assert.equal(two.result.outcome, "success");
  assert.ok(two.events.some((e) => e.type === "think" && /^Refused: sent twice/.test(e.text)));
  // None left: the failed edge, without sending.
  const one = await refusing(careful, [red("b1")]);
  assert.deepEqual(one.env.actions, []);
  assert.equal(one.result.diagnosis?.message, "Gave up");
  // Without a failed edge the action goes to the driver, which refuses it itself.
  const plain = await refusing(takeColor, [red("b1")]);
  assert.deepEqual(plain.refused, []);
  assert.deepEqual(plain.env.actions, ["take b1"]);
});

Deno.test("runSkill() runs a called skill and propagates its failure", async () => {
  const callee = toyProgram(takeColor);
  const caller: SkillInput = {
    name: "take_red_then_finish",
    vocabulary: "toy",
    params: [],
    doc: { summary: "Take a red box, then finish." },
    entry: "color",
    nodes: [
      { id: "color", kind: "data", var: "c", expr: "'red'" },
      { id: "call", kind: "primitive", action: "take_color", args: { c: "c" } },
      { id: "finish", kind: "primitive", action: "finish", args: {} },
      { id: "ok", kind: "terminal", outcome: "success" },
    ],
    edges: [
      { from: "color", to: "call", label: "next" },
      { from: "call", to: "finish", label: "next" },
      { from: "finish", to: "ok", label: "next" },
    ],
  };
  const library = new SkillLibrary([callee]);
  const good = await run(caller, {}, [{ id: "b1", color: "red", open: false }], { library });
  assert.deepEqual(good.env.actions, ["open b1", "take b1", "finish"]);
  assert.equal(good.result.outcome, "success");
  assert.equal(good.result.episodeDone, true);
  assert.ok(good.events.some((e) => e.type === "act" && e.depth === 1));

  const bad = await run(caller, {}, [{ id: "b1", color: "blue", open: false }], { library });
  assert.equal(bad.result.outcome, "failure");
  assert.equal(bad.result.diagnosis?.node, "call");
  assert.match(bad.result.diagnosis!.message, /skill "take_color" failed at node "pick"/);
});

Deno.test("runSkill() names unmet preconditions from an action model, and can block doomed actions", async () => {
  const model = {
    unmet: (facts: import("../../runtime/fact_store.ts").FactStore, action: string) => {
      const m = /^take (.+)$/.exec(action);
      return m && !facts.has({ pred: "is_open", args: [m[1]] }) ? [`is_open('${m[1]}')`] : [];
    },
  };
  const takeOnly: SkillInput = {
    ...takeColor,
    name: "take_only",
    nodes: takeColor.nodes.filter((n) => n.id !== "closed" && n.id !== "open"),
    edges: [
      { from: "pick", to: "take", label: "next" },
      { from: "take", to: "ok", label: "next" },
    ],
  };
  for (const blockDoomed of [false, true]) {
    const { env, facts } = await toySetup([{ id: "b1", color: "red", open: false }]);
    const { result } = await collectRun(
      runSkill(toyProgram(takeOnly), { c: "red" }, {
        env,
        grounder: toyGrounder,
        facts,
        actionModel: model,
        blockDoomed,
      }),
    );
    assert.equal(result.outcome, "failure");
    assert.match(result.diagnosis!.message, /unmet: is_open\('b1'\)/);
    assert.deepEqual(env.actions, blockDoomed ? [] : ["take b1"]);
  }
});

Deno.test("runSkill() lets the caller pick the order of a loop", async () => {
  const { env, facts } = await toySetup([
    { id: "b1", color: "red", open: false },
    { id: "b2", color: "red", open: false },
    { id: "b3", color: "blue", open: false },
  ]);
  const { result } = await collectRun(
    runSkill(toyProgram(openAll), {}, {
      env,
      grounder: toyGrounder,
      facts,
      // Blue boxes first.
      chooseNext: (_loop, items, from) => Math.max(from, items.indexOf("b3", from)),
    }),
  );
  assert.equal(result.outcome, "success");
  assert.deepEqual(env.actions, ["open b3", "open b1", "open b2"]);
});

Deno.test("runSkill() stops a call of a skill that a caller is already making, naming the cycle", async () => {
  const loop: SkillInput = {
    name: "loop_color",
    vocabulary: "toy",
    params: [{ name: "c", type: "Str" }],
    doc: { summary: "Calls itself on the same color: a cycle." },
    entry: "again",
    nodes: [
      { id: "again", kind: "primitive", action: "loop_color", args: { c: "c" } },
      { id: "ok", kind: "terminal", outcome: "success" },
    ],
    edges: [{ from: "again", to: "ok", label: "next" }],
  };
  // Compiled knowing its own signature, as a library compiles skills together.
  const self = { skill: { name: loop.name, params: loop.params } } as unknown as Program;
  const library = new SkillLibrary([toyProgram(loop, [self])]);
  const { env, result } = await run(loop, { c: "red" }, [{ id: "b1", color: "red", open: false }], {
    library,
  });
  assert.deepEqual(env.actions, []);
  assert.equal(result.outcome, "failure");
  assert.match(
    result.diagnosis!.message,
    /Cycle: loop_color\(c: "red"\) is already being achieved by a caller/,
  );
});

// fetch(c): a box of color c; a closed box is to be fetched "by fetching
// c", the call being made: the only way through it is a cycle.
const fetchColor: SkillInput = {
  name: "fetch",
  vocabulary: "toy",
  params: [{ name: "c", type: "Color" }],
  doc: { summary: "Take a box of a color; a closed one only through fetching the color." },
  entry: "pick",
  nodes: [
    { id: "pick", kind: "data", var: "b", expr: "select_one(x: Box, color(x, c))" },
    { id: "open", kind: "check", cond: "is_open(b)" },
    { id: "again", kind: "primitive", action: "fetch", args: { c: "c" } },
    { id: "take", kind: "primitive", action: "take", args: { b: "b" } },
    { id: "ok", kind: "terminal", outcome: "success" },
  ],
  edges: [
    { from: "pick", to: "open", label: "next" },
    { from: "open", to: "take", label: "yes" },
    { from: "open", to: "again", label: "no" },
    { from: "again", to: "take", label: "next" },
    { from: "take", to: "ok", label: "next" },
  ],
};

Deno.test("runSkill() takes another object where a cycle blocks the one chosen, else names the cycle", async () => {
  const self = {
    skill: { name: fetchColor.name, params: fetchColor.params },
  } as unknown as Program;
  const library = new SkillLibrary([toyProgram(fetchColor, [self])]);
  const fetch = { skill: fetchColor, args: { c: "red" }, options: { library } } as const;
  const two = await run(fetch.skill, fetch.args, [
    { id: "b1", color: "red", open: false },
    { id: "b2", color: "red", open: true },
  ], fetch.options);
  assert.equal(two.result.outcome, "success");
  // The call of fetch(red) within fetch(red) is the cycle: the run chooses b2 instead.
  assert.deepEqual(two.env.actions, ["take b2"]);
  assert.ok(
    two.events.some((e) =>
      e.type === "think" &&
      /^Cycle: fetch\(c: "red"\) .*another choice at "pick" than 'b1'$/.test(e.text)
    ),
  );
  const one = await run(
    fetch.skill,
    fetch.args,
    [{ id: "b1", color: "red", open: false }],
    fetch.options,
  );
  assert.equal(one.result.outcome, "failure");
  assert.deepEqual(one.env.actions, []);
  assert.match(one.result.diagnosis!.message, /Cycle: fetch\(c: "red"\) is already being achieved/);
});

Deno.test("runSkill() binds another object when a call on the chosen one fails without acting", async () => {
  const takeOpen: SkillInput = {
    name: "take_open",
    vocabulary: "toy",
    params: [{ name: "b", type: "Box" }],
    doc: { summary: "Take an open box; fail on a closed one." },
    entry: "open",
    nodes: [
      { id: "open", kind: "check", cond: "is_open(b)" },
      { id: "take", kind: "primitive", action: "take", args: { b: "b" } },
      { id: "ok", kind: "terminal", outcome: "success" },
      { id: "closed", kind: "terminal", outcome: "failure", message: "The box is closed" },
    ],
    edges: [
      { from: "open", to: "take", label: "yes" },
      { from: "open", to: "closed", label: "no" },
      { from: "take", to: "ok", label: "next" },
    ],
  };
  const takeColorOpen: SkillInput = {
    name: "take_color_open",
    vocabulary: "toy",
    params: [{ name: "c", type: "Color" }],
    doc: { summary: "Take an open box of a color." },
    entry: "pick",
    nodes: [
      { id: "pick", kind: "data", var: "b", expr: "select_one(x: Box, color(x, c))" },
      { id: "call", kind: "primitive", action: "take_open", args: { b: "b" } },
      { id: "ok", kind: "terminal", outcome: "success" },
    ],
    edges: [
      { from: "pick", to: "call", label: "next" },
      { from: "call", to: "ok", label: "next" },
    ],
  };
  const library = new SkillLibrary([toyProgram(takeOpen)]);
  const boxes = [
    { id: "b1", color: "red", open: false },
    { id: "b2", color: "blue", open: true },
    { id: "b3", color: "red", open: true },
  ];
  const { env, result } = await run(takeColorOpen, { c: "red" }, boxes, { library });
  assert.equal(result.outcome, "success");
  assert.deepEqual(env.actions, ["take b3"]);
  // No red box open: every choice fails, and the failure is the last call's.
  const { result: none } = await run(takeColorOpen, { c: "red" }, boxes.slice(0, 2), { library });
  assert.equal(none.outcome, "failure");
  assert.match(none.diagnosis!.message, /The box is closed/);
});
