import { dataTest } from "../_data.ts";
import assert from "node:assert/strict";
import { goalPattern, learnTemplates } from "../../compiler/templates.ts";
import { writeLibrary } from "../../compiler/write_library.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import { evalExpr } from "../../dsl/expr/eval.ts";
import type { Trace } from "../../dsl/trace.ts";
import { alfworldKit } from "../../environments/alfworld/mod.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { loadTemplates, readLibraryIndex } from "../../runtime/store/library.ts";
import { DirectoryStore } from "../../runtime/store/directory_store.ts";
import type { TaskTemplate } from "../../runtime/store/task_template.ts";
import { withValueDomains } from "../../runtime/exec/value_domains.ts";
import { alfworldTraces, handWrittenAlfworld } from "../runtime/_agent_fixtures.ts";

const vocab = alfworldKit.vocabulary;

function evalOn(text: string, facts: FactStore): unknown {
  const parsed = parseExpr(text);
  assert.ok(parsed.ok, text);
  const view = withValueDomains(vocab, facts);
  const r = evalExpr(parsed.value, { vocab: view.vocab, facts: view.facts, scope: {} });
  assert.ok(r.ok, `${text}: ${!r.ok && r.error.message}`);
  return r.value;
}

dataTest(
  "learnTemplates() gives every ALFWorld task type the skill sequence of its demonstrations",
  async () => {
    const templates = learnTemplates(await alfworldTraces(), alfworldKit);
    const sequences = Object.fromEntries(
      templates.map((t) => [t.type, t.steps.map((s) => s.skill).join(", ")]),
    );
    assert.deepEqual(sequences, {
      pick_and_place_simple: "find_and_take, place",
      pick_clean_then_place_in_recep: "find_and_take, clean_item, place",
      pick_heat_then_place_in_recep: "find_and_take, heat_item, place",
      pick_cool_then_place_in_recep: "find_and_take, cool_item, place",
      pick_two_obj_and_place: "find_and_take, place, find_and_take, place",
      look_at_obj_in_light: "find_and_take, use_lamp",
    });
    for (const t of templates) {
      // Two demonstrations per type, each as a ReAct and an Act transcript, all alike.
      assert.equal(t.traces, 4, t.type);
      assert.equal(t.support, 4, t.type);
      assert.deepEqual(t.alternatives, [], t.type);
    }
  },
);

dataTest(
  "task programs read their arguments off the goal facts and the state at the call",
  async () => {
    const templates = learnTemplates(await alfworldTraces(), alfworldKit);
    const clean = templates.find((t) => t.type === "pick_clean_then_place_in_recep")!;
    assert.ok(clean.program, "a task program");
    const program = clean.program!;
    // The calls in order, following the graph from its entry.
    const calls: string[] = [];
    const next = new Map(program.edges.map((e) => [e.from, e.to]));
    for (let id: string | undefined = program.entry; id !== undefined; id = next.get(id)) {
      const node = program.nodes.find((n) => n.id === id)!;
      if (node.kind === "primitive") calls.push(node.action);
    }
    assert.deepEqual(calls, ["find_and_take", "clean_item", "place"]);
    // place acts on the very object cleaned (the one held), into a receptacle of the goal's class.
    const place = program.nodes.find((n) => n.kind === "primitive" && n.action === "place")!;
    assert.ok(place.kind === "primitive");
    assert.deepEqual(Object.keys(place.args).sort(), ["item", "target_type"]);
    const binding = (v: string) => {
      const node = program.nodes.find((n) => n.kind === "data" && n.var === place.args[v])!;
      return node.kind === "data" ? node.expr : "";
    };
    assert.equal(binding("item"), "select_one(x: Item, holds(x))");
    // Evaluated on a task the demonstrations never saw, they give its goal's classes.
    const env = alfworldKit.create();
    const task = alfworldKit.tasks!({ split: "unseen" }).find((t) =>
      t.id!.includes("pick_clean_then_place_in_recep")
    )!;
    const reset = await env.reset(task);
    const facts = new FactStore();
    facts.apply(alfworldKit.grounder().initial(reset.observation, reset.goal).delta);
    const goalReceptacle = facts.query("goal_receptacle", [null])[0].args[0];
    assert.equal(evalOn(binding("target_type"), facts), goalReceptacle);
    // The fixed sequences stay as the fallback of libraries without programs.
    assert.deepEqual(clean.steps[2].args.map((a) => [a.name, a.type]), [
      ["target_type", "ReceptacleType"],
      ["item", "Item"],
    ]);
    const look = templates.find((t) => t.type === "look_at_obj_in_light")!;
    assert.equal(look.steps[1].args[0].expr, "select_one(x: ItemType, goal_lamp(x))");
  },
);

dataTest(
  "learnTemplates() keeps the most frequent sequence and the others as alternatives",
  async () => {
    const traces = await alfworldTraces();
    const simple = traces.filter((t) => t.task.type === "pick_and_place_simple");
    // A demonstration that only takes the item (cut after the landmark) is another sequence.
    const short: Trace = { ...simple[0], steps: simple[0].steps.slice(0, -1), task: { type: "x" } };
    const retyped = simple.map((t) => ({ ...t, task: { type: "x" } }));
    const [template] = learnTemplates([short, ...retyped], alfworldKit);
    assert.equal(template.type, "x");
    assert.deepEqual(template.steps.map((s) => s.skill), ["find_and_take", "place"]);
    assert.equal(template.support, 4);
    assert.equal(template.traces, 5);
    assert.equal(template.alternatives.length, 1);
    assert.deepEqual(template.alternatives[0].steps.map((s) => s.skill), ["find_and_take"]);
    assert.equal(template.alternatives[0].support, 1);
  },
);

dataTest("traces without a task type are grouped by their goal predicates", async () => {
  const traces = await alfworldTraces();
  const untyped = traces.slice(0, 2).map((t) => ({ ...t, task: {} }));
  const [template] = learnTemplates(untyped, alfworldKit);
  assert.match(template.type, /^goal:.*goal_item.*goal_receptacle/);
  const facts = new FactStore([{ pred: "goal_item", args: ["apple"] }]);
  assert.equal(goalPattern(facts, vocab), "goal:goal_item");
  assert.equal(goalPattern(new FactStore(), vocab), "task");
});

dataTest(
  "templates are stored in the library index, kept by later commits, and validated on load",
  async () => {
    const { library, templates } = await handWrittenAlfworld();
    const skills = library.programs().map((p) => p.skill);
    const dir = await Deno.makeTempDir();
    await writeLibrary(dir, skills, vocab, { templates });
    assert.deepEqual(await loadTemplates(dir, vocab), templates);
    // A commit that does not mention templates keeps them.
    const store = await DirectoryStore.open(dir, vocab);
    await store.commit(store.skills(), [{ kind: "edit", detail: "no change" }]);
    assert.deepEqual((await readLibraryIndex(dir, vocab)).templates, templates);
    assert.deepEqual(store.templates(), templates);
    // An index written before templates existed loads with none.
    const index = JSON.parse(await Deno.readTextFile(`${dir}/index.json`));
    delete index.templates;
    await Deno.writeTextFile(`${dir}/index.json`, JSON.stringify(index));
    assert.deepEqual(await loadTemplates(dir, vocab), []);
    // A malformed template is rejected with the path of the problem.
    index.templates = [{ type: "t", traces: 1, steps: [{ skill: 3, args: [] }], support: 1 }];
    await Deno.writeTextFile(`${dir}/index.json`, JSON.stringify(index));
    await assert.rejects(() => loadTemplates(dir, vocab), /templates\.0\.steps\.0\.skill/);
    // Alternatives default to none.
    const minimal: Omit<TaskTemplate, "alternatives"> = {
      type: "t",
      traces: 1,
      steps: [],
      support: 1,
    };
    index.templates = [minimal];
    await Deno.writeTextFile(`${dir}/index.json`, JSON.stringify(index));
    assert.deepEqual(await loadTemplates(dir, vocab), [{ ...minimal, alternatives: [] }]);
  },
);
