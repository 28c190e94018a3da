// The generalised-planning domains (../shared/data/genplan): libraries move
// from the training problems to the test problems.
import assert from "node:assert/strict";
import { dataPath, dataTest } from "../_data.ts";
import { loadPddlKit } from "../../environments/pddl/load.ts";
import { genplanDomains } from "../../cli/_bench_genplan.ts";
import { induceAndSolveOn } from "./_induce_and_solve.ts";

const DATA = dataPath("").replace(/\/$/, "");

dataTest(
  "every genplan domain has one vocabulary for its training problems, its test problems and each test problem alone",
  async () => {
    const domains = genplanDomains(DATA);
    assert.equal(domains.length, 24);
    for (const d of domains) {
      const dir = `${DATA}/genplan/${d}`;
      const train = await loadPddlKit(`pddl:${dir}/domain.pddl+${dir}/train`);
      const test = await loadPddlKit(`pddl:${dir}/domain.pddl+${dir}/test`);
      assert.deepEqual(test.vocabulary, train.vocabulary, d);
      // One test problem named alone is typed as its folder.
      const first = [...Deno.readDirSync(`${dir}/test`)].map((e) => e.name).sort()[0];
      const one = await loadPddlKit(`pddl:${dir}/domain.pddl+${dir}/test/${first}`);
      assert.deepEqual(one.vocabulary, train.vocabulary, `${d}: test/${first} alone`);
    }
  },
);

/**
 * Induces a library from the expert's plans of domain `d`'s three smallest
 * training problems (the domain's rules withheld) and runs it on the test
 * problems `pick` takes; returns the decision list and each run's result.
 */
function induceAndSolve(
  d: string,
  pick: (tasks: { id: string }[]) => { id: string }[],
) {
  const dir = `${DATA}/genplan/${d}`;
  return induceAndSolveOn(
    `pddl:${dir}/domain.pddl+${dir}/train`,
    `pddl:${dir}/domain.pddl+${dir}/test`,
    pick,
  );
}

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
      const { results } = await induceAndSolve(d, (tasks) => tasks.slice(0, n));
      for (const { id, result } of results) {
        assert.ok(result.success, `${d} ${id}: ${result.stop}`);
        assert.equal(result.plannedActions, 0, `${d} ${id}: look-ahead planned actions`);
      }
    }
  },
);

dataTest(
  "depot: crates are lifted off crates at a depot, unloaded only where their goal surface is settled, and a drive round a cycle gives the next rule its turn",
  async () => {
    // The demonstrations lift a crate off another only at distributors;
    // pfile13 and pfile15 need it at a depot as well. In pfile14 the rules
    // that drive anywhere send a truck to and fro until the drive is refused
    // as a cycle; the rules after them then act.
    const wanted = ["depot/pfile13", "depot/pfile14", "depot/pfile15"];
    const { results, policy } = await induceAndSolve(
      "pddlgym/depot",
      (tasks) => tasks.filter((t) => wanted.includes(t.id)),
    );
    assert.equal(results.length, 3);
    for (const { id, result } of results) {
      assert.ok(result.success, `${id}: ${result.stop}`);
      assert.equal(result.plannedActions, 0, `${id}: look-ahead planned actions`);
      // The decision list is called once: it never ends stuck for the agent to repair.
      assert.equal(result.skillCalls, 1, `${id}: skill calls`);
    }
    // Each rule's action, when rejected or refused, goes on to the next rule.
    assert.match(policy, /\{"from":"r1_[a-z_]+","to":"rule_2","label":"failed"\}/);
    // The rule that unloads a crate where the goal wants it asks that
    // nothing below that surface must move first.
    assert.match(
      policy,
      /"Rule \d+: unload\(x, y, z, p\) if [^"]*goal_on\(y, x1\) and clear\(x1\) and at\(x1, p\) and not exists\(k: crate, k == x1 /,
    );
  },
);

dataTest(
  "tyreworld (AgentBoard): the pump is fetched while a wheel the goal wants inflated is not",
  async () => {
    // No fact relates the pump to the wheels: the rule's reason is the goal
    // alone (and the boot it lies in open, as at every use). Without it the
    // pump was never fetched (3 of 10 solved).
    const dir = `${DATA}/pddl/tyreworld`;
    const spec = `pddl:${dir}/domain.pddl+${dir}/problems`;
    const one = ["tyreworld/p06", "tyreworld/p09", "tyreworld/p10"];
    const { results, policy } = await induceAndSolveOn(
      spec,
      spec,
      (tasks) => tasks.filter((t) => one.includes(t.id)),
    );
    assert.match(
      policy,
      /"Rule \d+: fetch\(x, y\) if not have\(x\) and in_\(x, y\) and goal_inflated\(x1\) and not inflated\(x1\)( and isopen\(y\))?"/,
    );
    assert.equal(results.length, 3);
    for (const { id, result } of results) {
      assert.ok(result.success, `${id}: ${result.stop}`);
      assert.equal(result.plannedActions, 0, `${id}: look-ahead planned actions`);
    }
  },
);
