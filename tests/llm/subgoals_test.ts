// The subgoal-proposer role against a loopback server, on the garden
// example with its landmarks taken away: the model says where subgoals end.
import assert from "node:assert/strict";
import { gardenKit } from "../../examples/garden/kit.ts";
import { compileTraces } from "../../compiler/compile.ts";
import type { EnvironmentKit } from "../../runtime/environment.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { LlmClient } from "../../llm/client.ts";
import { llmConfigFrom } from "../../llm/config.ts";
import { fakeOpenAI } from "./_server.ts";
import { proposeLandmarks } from "../../llm/subgoals.ts";

/** A server answering the n-th request with `answers[n]` (the last one after that). */
const scripted = (answers: unknown[]) =>
  fakeOpenAI((_, call) => JSON.stringify(answers[Math.min(call, answers.length) - 1]));

const client = (url: string) =>
  new LlmClient({ ...llmConfigFrom({ llm: url, model: "m" }, {})!, timeoutMs: 5_000 });

/** The garden kit with no landmarks declared. */
const bare: EnvironmentKit = {
  ...gardenKit,
  vocabulary: { ...gardenKit.vocabulary, landmarks: undefined },
};

Deno.test("proposed landmarks are checked against the vocabulary and the traces, then cut them", async () => {
  const traces = await generateExpertTraces(bare, bare.tasks!({ split: "train", count: 4 }), {});
  const good = { landmarks: gardenKit.vocabulary.landmarks };
  const server = scripted([
    { landmarks: [{ pred: "sprinkled", on: "add" }] },
    { landmarks: [{ pred: "watered", on: "add", when: "a0 > 2" }] },
    good,
  ]);
  try {
    const first = await proposeLandmarks(client(server.url), traces, bare);
    assert.equal(first.landmarks, undefined);
    assert.match(first.rejected[0], /"sprinkled" is no predicate of the vocabulary/);
    assert.match(first.rejected[1], /condition "a0 > 2" over a0 does not type-check/);
    assert.match(first.error!, /subgoals/);
    assert.match(server.seen[0], /predicate watered\(Plant\)/);
    assert.match(server.seen[0], /\+watered\(/, "the prompt shows the steps' fact changes");
    const second = await proposeLandmarks(client(server.url), traces, bare);
    assert.deepEqual(second.landmarks, gardenKit.vocabulary.landmarks);
    // Induction with the proposal finds the skills the declared landmarks give.
    const kit = { ...bare, vocabulary: { ...bare.vocabulary, landmarks: second.landmarks } };
    const names = (k: EnvironmentKit) => compileTraces(traces, k).skills.map((s) => s.name).sort();
    assert.deepEqual(names(kit), names(gardenKit));
  } finally {
    await server.close();
  }
});

Deno.test("a proposal whose changes no step makes is rejected: it would cut nothing", async () => {
  const traces = await generateExpertTraces(bare, bare.tasks!({ split: "train", count: 2 }), {});
  const server = scripted([{ landmarks: [{ pred: "watered", on: "remove" }] }]);
  try {
    const r = await proposeLandmarks(client(server.url), traces, bare);
    assert.equal(r.landmarks, undefined);
    assert.equal(r.rejected.length, 2);
    assert.match(r.rejected[0], /they cut nothing/);
  } finally {
    await server.close();
  }
});
