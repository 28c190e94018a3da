// The honing scenario on ALFWorld itself: a skill induced without ever seeing
// a closed receptacle fails on one, recovers by opening it, the graft becomes
// permanent after two successful uses, and the next run needs no recovery.
import { dataPath, dataTest } from "../_data.ts";
import assert from "node:assert/strict";
import { readTraces } from "../../compiler/trace_io.ts";
import { induceSkills } from "../../compiler/induce.ts";
import { learnTemplates } from "../../compiler/templates.ts";
import { alfworldKit } from "../../environments/alfworld/mod.ts";
import { runAgent } from "../../runtime/agent/mod.ts";
import { Honer } from "../../runtime/hone/hone.ts";
import { HoningSession } from "../../runtime/hone/honing_session.ts";

const DEMOS = dataPath("alfworld/react_demos_2per_type.json");

/** A room: the apple on a countertop, the target fridge closed. */
function scene(n: number) {
  return {
    spec: {
      id: `closed-fridge-${n}`,
      goal: "put some apple in fridge.",
      receptacles: [
        { id: "countertop 1", contents: [`apple ${n}`] },
        { id: `fridge ${n}`, open: false },
        { id: "sidetable 1" },
      ],
    },
  };
}

dataTest("scenario: place, induced without a closed receptacle, learns to open one", async () => {
  const traces = (await readTraces(DEMOS, alfworldKit)).filter((t) => t.source!.includes("#act_"));
  // Without Crossover, no skill borrows "open if closed" from the search skill.
  const skills = induceSkills(traces, alfworldKit, { crossover: false }).skills.map((s) => s.skill);
  const place = skills.find((s) => s.name === "place")!;
  assert.ok(!place.nodes.some((n) => n.kind === "primitive" && n.action === "open"));
  const templates = learnTemplates(traces, alfworldKit, { skills: skills.map((s) => s.name) });
  const session = new HoningSession(
    new Honer(skills, alfworldKit.vocabulary),
    alfworldKit.vocabulary,
  );

  const episode = async (n: number) => {
    const recoveries: boolean[] = [];
    const run = runAgent({
      env: alfworldKit.create(),
      kit: alfworldKit,
      library: session.library(),
      templates,
      task: scene(n),
      onFailure: (f) => session.onFailure(f),
    });
    let r = await run.next();
    for (; !r.done; r = await run.next()) {
      session.observe(r.value);
      if (r.value.type === "recover") recoveries.push(r.value.recovered);
    }
    const changes = await session.endEpisode();
    const graft = session.library().get("place")!.skill.grafts?.[0];
    return { result: r.value, recoveries, changes, graft };
  };

  const first = await episode(1);
  assert.equal(first.result.success, true);
  assert.deepEqual(first.recoveries, [true]);
  assert.deepEqual(first.changes.map((c) => c.kind), ["graft"]);
  assert.equal(first.graft?.status, "tentative");
  const check = session.library().get("place")!.skill.nodes.find((n) =>
    n.id === first.graft!.nodes[0]
  );
  assert.ok(check?.kind === "check");
  // The facts the opening changed about the receptacle guard the new branch.
  assert.match(check.cond, /^is_closed\((\w+)\)( and \w+\(\1\))*$/);

  const second = await episode(2);
  assert.equal(second.result.success, true);
  assert.deepEqual(second.recoveries, []);
  assert.equal(second.graft?.status, "tentative");

  const third = await episode(3);
  assert.equal(third.result.success, true);
  assert.deepEqual(third.recoveries, []);
  assert.deepEqual(third.changes.map((c) => c.kind), ["solidify"]);
  assert.equal(third.graft?.status, "permanent");

  const fourth = await episode(4);
  assert.equal(fourth.result.success, true);
  assert.deepEqual(fourth.recoveries, []);
  assert.equal(fourth.result.invalidActions, 0);
});
