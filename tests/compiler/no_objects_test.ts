// No object of a demonstration appears in an induced skill or task program
// of the built-in environments (the example domains: generalise_test.ts).
import { dataTest } from "../_data.ts";
import assert from "node:assert/strict";
import { induceLibrary } from "../../cli/_variants.ts";
import { checkPostcondition } from "../../runtime/exec/postcondition.ts";
import { alfworldKit } from "../../environments/alfworld/mod.ts";
import { textcraftKit } from "../../environments/textcraft/kit.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { alfworldLibrary, breadAtCountertop, RECIPES } from "../runtime/_agent_fixtures.ts";
import { noDemonstrationObjects } from "./_no_objects.ts";

dataTest("ALFWorld: no object of the demonstrations appears in the induced library", async () => {
  // The checked-in library is what induction gives (fixtures_test.ts).
  const { traces, library, templates } = await alfworldLibrary();
  const skills = library.names().map((n) => library.get(n)!.skill);
  noDemonstrationObjects(alfworldKit, traces, { skills, templates });
});

for (const depth of [1, 2]) {
  dataTest(
    `TextCraft: no object of depth-${depth} demonstrations appears in the induced library`,
    async () => {
      const traces = await generateExpertTraces(
        textcraftKit,
        textcraftKit.tasks!({ depths: [depth], count: 10, seed: 1 }),
        { envOptions: { recipes: RECIPES } },
      );
      noDemonstrationObjects(textcraftKit, traces, induceLibrary(traces, textcraftKit));
    },
  );
}

dataTest("the check names a skill that bakes in a demonstration object", async () => {
  const traces = await generateExpertTraces(
    textcraftKit,
    textcraftKit.tasks!({ depths: [1], count: 2, seed: 1 }),
    { envOptions: { recipes: RECIPES } },
  );
  const library = induceLibrary(traces, textcraftKit);
  const item = library.templates[0].program!.nodes.find((n) => n.kind === "data")!;
  const baked = {
    ...library,
    skills: [{
      ...library.skills[0],
      nodes: [...library.skills[0].nodes, {
        ...item,
        id: "baked",
        expr: `'${traces[0].goal.replace(/^craft /, "")}'`,
      }],
    }],
  };
  assert.throws(
    () => noDemonstrationObjects(textcraftKit, traces, baked),
    /names the demonstration object/,
  );
});

dataTest(
  "ALFWorld: place binds the object it places, so another of its class at the target does not satisfy it",
  async () => {
    const { library } = await alfworldLibrary();
    const place = library.get("place")!;
    const params = Object.fromEntries(place.skill.params.map((p) => [p.name, p.type]));
    assert.deepEqual(params, { target_type: "ReceptacleType", item: "Item" });
    // A cooled bread 2 is to go on the countertop where bread 1 already lies.
    const facts = breadAtCountertop();
    const args = { target_type: "countertop", item: "bread 2" };
    assert.equal(checkPostcondition(place, args, facts).holds, false);
    facts.apply({
      add: [{ pred: "contains", args: ["countertop 1", "bread 2"] }],
      remove: [{ pred: "holds", args: ["bread 2"] }],
    });
    assert.equal(checkPostcondition(place, args, facts).holds, true);
  },
);
