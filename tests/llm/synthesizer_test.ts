// The synthesizer role against a loopback OpenAI-compatible server, on the
// garden example: the model proposes, the consistency check decides.
import assert from "node:assert/strict";
import { gardenKit } from "../../examples/garden/kit.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { LlmClient } from "../../llm/client.ts";
import { llmConfigFrom } from "../../llm/config.ts";
import { fakeOpenAI } from "./_server.ts";
import { proposeSkill, synthesizeWithLlm } from "../../llm/synthesizer.ts";
import { segmentGroups } from "../../compiler/induce.ts";

const client = (url: string) =>
  new LlmClient({ ...llmConfigFrom({ llm: url, model: "m" }, {})!, timeoutMs: 5_000 });

async function setup() {
  const traces = await generateExpertTraces(
    gardenKit,
    gardenKit.tasks!({ split: "train", count: 6 }),
    {},
  );
  // Linear scripts reproduce few segments: the role has something to improve.
  const linear = compileTraces(traces, gardenKit, { linear: true });
  const full = compileTraces(traces, gardenKit);
  const { groups, vocab } = segmentGroups(traces, gardenKit);
  const index = linear.induction.skills.findIndex((s) => s.covered < s.segments);
  assert.ok(index >= 0, "some linear script leaves segments unreproduced");
  const current = linear.induction.skills[index];
  const better = full.skills.find((s) => s.name === current.skill.name)!;
  return { traces, linear, full, group: groups[index], vocab, current, better };
}

Deno.test("a synthesizer proposal that does not validate goes back with the reason, and the next is accepted", async () => {
  const { group, vocab, current, better } = await setup();
  const unknownPredicate = JSON.stringify({
    ...better,
    nodes: better.nodes.map((n) =>
      n.kind === "check" ? { ...n, cond: `sunny(${better.params[0].name})` } : n
    ),
  });
  const server = fakeOpenAI((_, call) => call === 1 ? unknownPredicate : JSON.stringify(better));
  try {
    const outcome = await proposeSkill(client(server.url), group, vocab, current);
    assert.equal(outcome.rejected.length, 1);
    assert.match(outcome.rejected[0], /does not validate: .*sunny/);
    assert.match(server.seen[1], /Your answer was rejected: it does not validate/);
    assert.ok(outcome.accepted);
    assert.ok(outcome.accepted.covered > current.covered);
    assert.deepEqual(outcome.accepted.skill, better);
    // The prompt shows the vocabulary, the current skill and the segments' actions.
    assert.match(server.seen[0], /predicate .*\n[\s\S]*reproduces \d+ of \d+ segments/);
    assert.match(server.seen[0], new RegExp(`Write the skill ${better.name}\\(`));
  } finally {
    await server.close();
  }
});

Deno.test("a synthesizer proposal that reproduces no more, or renames the skill, is rejected", async () => {
  const { group, vocab, current, better } = await setup();
  const renamed = JSON.stringify({ ...better, name: "something_else" });
  const server = fakeOpenAI((_, call) => call === 1 ? JSON.stringify(current.skill) : renamed);
  try {
    const outcome = await proposeSkill(client(server.url), group, vocab, current);
    assert.equal(outcome.accepted, undefined);
    assert.equal(outcome.rejected.length, 2);
    assert.match(outcome.rejected[0], /reproduces \d+ of \d+ segments, no more than the current/);
    assert.match(outcome.rejected[1], /must be named/);
    assert.match(outcome.error!, /synthesizer/);
  } finally {
    await server.close();
  }
});

Deno.test("synthesizeWithLlm() puts accepted proposals in the library like induced skills", async () => {
  const { traces, linear, full } = await setup();
  // The server answers each request with the induced skill of the name asked for.
  const server = fakeOpenAI((request) => {
    const name = /Write the skill (\w+)\(/.exec(request.messages.at(-1)!.content)?.[1];
    return JSON.stringify(full.skills.find((s) => s.name === name) ?? {});
  });
  try {
    const { compiled, outcomes } = await synthesizeWithLlm(
      traces,
      gardenKit,
      linear,
      client(server.url),
    );
    const asked = linear.induction.skills.filter((s) => s.covered < s.segments);
    assert.equal(outcomes.length, asked.length);
    for (const o of outcomes) {
      assert.ok(o.accepted, JSON.stringify(o));
      assert.deepEqual(compiled.skills.find((s) => s.name === o.skill), o.accepted.skill);
      assert.ok(compiled.library.get(o.skill));
      assert.equal(
        compiled.induction.skills.find((s) => s.skill.name === o.skill)!.covered,
        o.accepted.covered,
      );
    }
    // Fully reproduced groups are not asked about.
    assert.equal(server.seen.length, asked.length);
  } finally {
    await server.close();
  }
});
