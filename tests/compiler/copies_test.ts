import assert from "node:assert/strict";
import gardenKit from "../../examples/garden/kit.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { demonstrationTasksOf } from "../../runtime/eval/task_lists.ts";
import { copyClasses, induceSkills, segmentGroups } from "../../compiler/induce.ts";

// A demonstration recorded twice (the same episode in two files) gives
// segments that copy each other: they share their states, are recognised as
// copies, and are replayed once while still counting as segments.
const traces = await generateExpertTraces(gardenKit, demonstrationTasksOf(gardenKit).slice(0, 3));

Deno.test("a demonstration recorded twice shares its states and its segments are copies", () => {
  const twice = [...traces, ...structuredClone(traces)];
  const { groups, grounded } = segmentGroups(twice, gardenKit);
  for (let i = 0; i < traces.length; i++) {
    const a = grounded[i].states;
    const b = grounded[i + traces.length].states;
    assert.equal(a.length, b.length);
    assert.ok(a.every((s, k) => s === b[k]), `trace ${i + 1}: states not shared with its copy`);
  }
  for (const group of groups) {
    const classes = copyClasses(group.segments);
    const n = group.segments.length;
    assert.equal(n % 2, 0, group.name);
    // The first recording's segments are originals, the second's copy them.
    for (let i = 0; i < n; i++) {
      const s = group.segments[i];
      const original = group.segments[classes[i]];
      if (s.traceIndex < traces.length) assert.equal(classes[i], i, `${group.name} ${i}`);
      else {
        assert.notEqual(classes[i], i, `${group.name} ${i}`);
        assert.equal(original.traceIndex, s.traceIndex - traces.length);
        assert.equal(original.start, s.start);
      }
    }
  }
});

Deno.test("copies count as segments and are covered, and induction says it replayed them once", () => {
  const lines: string[] = [];
  const twice = induceSkills([...traces, ...structuredClone(traces)], gardenKit, {
    explain: (l) => lines.push(l),
  });
  const once = induceSkills(traces, gardenKit);
  assert.equal(twice.segments, 2 * once.segments);
  for (const s of twice.skills) {
    const single = once.skills.find((o) => o.skill.name === s.skill.name)!;
    assert.equal(s.segments, 2 * single.segments, s.skill.name);
    assert.equal(s.covered, 2 * single.covered, s.skill.name);
  }
  assert.ok(
    lines.some((l) => /\d+ of \d+ segments copy others: each replayed once/.test(l)),
    lines.join("\n"),
  );
});

Deno.test("segments of different demonstrations are no copies", () => {
  const { groups } = segmentGroups(traces, gardenKit);
  for (const group of groups) {
    assert.deepEqual(copyClasses(group.segments), group.segments.map((_, i) => i), group.name);
  }
});
