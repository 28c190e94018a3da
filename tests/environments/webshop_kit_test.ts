// The WebShop kit on a small shop of our own (written to a temporary data
// folder, so no benchmark data is needed): the instruction's constraints,
// the grounder's facts, the expert's purchases, and a library induced from
// one demonstration buying what other goals ask for, with 0 to 3 options.
import assert from "node:assert/strict";
import { webshopKit } from "../../environments/webshop/kit.ts";
import { readInstruction } from "../../environments/webshop/instruction.ts";
import { WebShopGrounder } from "../../environments/webshop/grounder.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { checkEnvOptions, withEnvOptions } from "../../runtime/environment.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { GOALS, playGoal, shopFolder } from "./_webshop_shop.ts";

Deno.test("an instruction's options, budget and wanted words are read", () => {
  const i = readInstruction(
    'Find me double sided decorative pillows with printing technology with size: 28" x 28", and fit type: youth, and price lower than 50.00 dollars',
  );
  assert.deepEqual(i.options, { size: '28" x 28"', "fit type": "youth" });
  assert.equal(i.priceUpper, 50);
  assert.equal(i.wants, "double sided decorative pillows with printing technology");
  const free = readInstruction(
    "i need a long clip-in hair extension, and price lower than 40.00 dollars",
  );
  assert.deepEqual(free.options, {});
  assert.equal(free.priceUpper, 40);
});

Deno.test("the grounder reads results, the open product and what the shopper did", async () => {
  const data = await shopFolder();
  const env = webshopKit.create({ data });
  const grounder = new WebShopGrounder();
  const reset = await env.reset({ seed: 0 });
  const facts = new FactStore();
  facts.apply(grounder.initial(reset.observation, reset.goal).delta);
  assert.ok(facts.has({ pred: "on_search", args: [] }));
  const send = async (action: string) => {
    const { observation } = await env.step(action);
    const g = grounder.step(facts, action, observation);
    facts.apply(g.delta);
    return g;
  };
  await send(`search[${reset.goal}]`);
  assert.ok(facts.has({ pred: "on_results", args: [] }));
  const results = facts.query("result", [null]).map((a) => a.args[0]);
  assert.ok(results.includes("B00SHIRT01") && results.includes("B00SHIRT02"));
  assert.ok(facts.has({ pred: "match", args: ["B00SHIRT02"] }));
  assert.ok(facts.has({ pred: "price_match", args: ["B00SHIRT02"] }));
  // A click on what the page does not show is rejected, and nothing changes.
  const refused = await send("click[B00NOTHERE]");
  assert.match(refused.rejected ?? "", /no "B00NOTHERE"/);
  assert.ok(facts.has({ pred: "on_results", args: [] }));
  await send("click[B00SHIRT02]");
  assert.ok(facts.has({ pred: "on_item", args: [] }));
  assert.ok(facts.has({ pred: "visited", args: ["B00SHIRT02"] }));
  assert.ok(!facts.has({ pred: "result", args: ["B00SHIRT02"] }));
  assert.deepEqual(facts.query("opt_match", [null]).map((a) => a.args[0]).sort(), [
    "large",
    "navy",
  ]);
  assert.ok(facts.has({ pred: "option", args: ["black"] }));
  assert.ok(!facts.has({ pred: "option", args: ["color"] }), "an option's name is no value");
  assert.ok(facts.has({ pred: "curr_match", args: [] }));
  assert.ok(facts.has({ pred: "curr_price", args: [] }));
  await send("click[navy]");
  assert.ok(facts.has({ pred: "opt_clicked", args: ["navy"] }));
  await send("click[< Prev]");
  assert.ok(facts.has({ pred: "on_results", args: [] }));
  assert.ok(facts.has({ pred: "visited", args: ["B00SHIRT02"] }), "visits are remembered");
  await Deno.remove(data, { recursive: true });
});

Deno.test("the expert buys what earns the full reward; an unknown option is refused", async () => {
  const data = await shopFolder();
  const kit = withEnvOptions(webshopKit, { data });
  const traces = await generateExpertTraces(kit, GOALS.map((g) => ({ seed: g.index })), {
    envOptions: { data },
  });
  assert.deepEqual(traces.map((t) => t.steps.at(-1)?.reward), [1, 1, 1, 1]);
  // What the expert opens and leaves (`< Prev`) is never what it buys.
  for (const t of traces) {
    const bought = t.steps.findLast((s) => /^click\[B00/.test(s.action))?.action;
    t.steps.forEach((step, i) => {
      if (step.action === "click[< Prev]") assert.notEqual(t.steps[i - 1].action, bought);
    });
  }
  assert.match(checkEnvOptions(webshopKit, { rules: "learned" }) ?? "", /its options: data/);
  await Deno.remove(data, { recursive: true });
});

Deno.test("a library induced from one purchase chooses every option asked for, none to three", async () => {
  const data = await shopFolder();
  const kit = withEnvOptions(webshopKit, { data });
  const [demo] = await generateExpertTraces(kit, [{ seed: 0 }], { envOptions: { data } });
  const compiled = compileTraces([demo], kit);
  const skill = compiled.skills.find((s) => s.name.startsWith("solve_"))!;
  assert.ok(skill.nodes.some((n) => n.kind === "loop"), "the option clicks fold into a loop");
  for (const seed of [1, 2, 3]) {
    const result = await playGoal(kit, data, compiled, seed);
    assert.equal(result.reward, 1, `goal ${seed}: ${result.stop}`);
  }
  await Deno.remove(data, { recursive: true });
});
