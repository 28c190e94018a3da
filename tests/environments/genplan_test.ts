// The generalised-planning domains (../shared/data/genplan): libraries move
// from the training problems to the test problems.
import assert from "node:assert/strict";
import { dataPath, dataTest } from "../_data.ts";
import { loadPddlKit } from "../../environments/pddl/load.ts";
import { genplanDomains } from "../../cli/_bench_genplan.ts";
import { withEnvOptions } from "../../runtime/environment.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { compileSkills } from "../../runtime/store/library.ts";
import { runAgent } from "../../runtime/agent/mod.ts";
import { ActionModel } from "../../runtime/learn/action_model.ts";
import { drainAgent } from "../runtime/_agent_fixtures.ts";

const DATA = dataPath("").replace(/\/$/, "");

dataTest(
  "every genplan domain has one vocabulary for its training and its test problems",
  async () => {
    const domains = genplanDomains(DATA);
    assert.equal(domains.length, 24);
    for (const d of domains) {
      const dir = `${DATA}/genplan/${d}`;
      const train = await loadPddlKit(`pddl:${dir}/domain.pddl+${dir}/train`);
      const test = await loadPddlKit(`pddl:${dir}/domain.pddl+${dir}/test`);
      assert.deepEqual(test.vocabulary, train.vocabulary, d);
    }
  },
);

dataTest(
  "a library induced on a domain's training problems loads and solves its test problems",
  async () => {
    // Carrying, a walled maze (distances), a lift fetching whoever waits,
    // a tour by walks, drives and single-use flights (a flight to a town
    // the goal names, a drive through a town already visited).
    const domains = {
      "pg3/manygripper": 3,
      "pddlgym/ferry": 3,
      "pddlgym/maze": 1,
      "pg3/manymiconic": 2,
      "pddlgym/travel": 4,
    };
    for (const [d, n] of Object.entries(domains)) {
      const dir = `${DATA}/genplan/${d}`;
      const options = { rules: "learned", observe: "changing" };
      const train = await loadPddlKit(`pddl:${dir}/domain.pddl+${dir}/train`);
      const test = await loadPddlKit(`pddl:${dir}/domain.pddl+${dir}/test`);
      const traces = await generateExpertTraces(train, train.demonstrationTasks!(3), {
        envOptions: options,
      });
      const compiled = compileTraces(traces, withEnvOptions(train, options), { policy: true });
      // Learned from observation alone: the domain's rules were withheld.
      assert.equal(compiled.actionModel.stated, false);
      const library = compileSkills(
        compiled.skills.map((s) => ({ data: s, source: s.name })),
        test.vocabulary,
      );
      const actionModel = ActionModel.fromJSON(compiled.actionModel.toJSON(), test.vocabulary);
      for (const task of test.taskList!({ split: "unseen", n })) {
        const { result } = await drainAgent(runAgent({
          env: test.create(options),
          kit: withEnvOptions(test, options),
          library,
          templates: compiled.templates,
          actionModel,
          task,
          maxActions: 3000,
        }));
        assert.ok(result.success, `${d} ${task.id}: ${result.stop}`);
        assert.equal(result.plannedActions, 0, `${d} ${task.id}: look-ahead planned actions`);
      }
    }
  },
);
