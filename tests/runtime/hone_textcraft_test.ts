// Honing that grows structure (the paper's TextCraft setting, on the full
// recipe set): the craft skill induced from three depth-1
// demonstrations only fetches ingredients; on depth-2 tasks the agent's
// regression crafts an ingredient the environment refused to give, and the
// honer grafts that repair into the skill as a guarded, repeating call of
// the skill itself; a family it could not fetch gets a member crafted
// instead. The honed skill then crafts ingredients on its own.
import assert from "node:assert/strict";
import { textcraftKit as builtin } from "../../environments/textcraft/mod.ts";
import { withEnvOptions } from "../../runtime/environment.ts";
import { dataPath, dataTest } from "../_data.ts";
import { generateExpertTraces } from "../../runtime/eval/expert_traces.ts";
import { compileTraces } from "../../compiler/compile.ts";
import { runAgent } from "../../runtime/agent/mod.ts";
import { Honer } from "../../runtime/hone/hone.ts";
import { HoningSession } from "../../runtime/hone/honing_session.ts";
import type { TaskSpec } from "../../runtime/environment.ts";
import type { SkillLibrary } from "../../runtime/store/library.ts";

const recipes = dataPath("textcraft/recipes");
const textcraftKit = withEnvOptions(builtin, { recipes });

async function play(
  compiled: ReturnType<typeof compileTraces>,
  library: SkillLibrary,
  tasks: TaskSpec[],
  session?: HoningSession,
) {
  let actions = 0, calls = 0, rejected = 0, solved = 0;
  for (const task of tasks) {
    const run = runAgent({
      env: textcraftKit.create({ recipes }),
      kit: textcraftKit,
      library: session ? session.library() : library,
      templates: compiled.templates,
      actionModel: compiled.actionModel,
      task,
      ...(session ? { onTransition: (t) => session.onTransition(t) } : {}),
    });
    let r = await run.next();
    for (; !r.done; r = await run.next()) session?.observe(r.value);
    await session?.endEpisode();
    actions += r.value.actions;
    calls += r.value.skillCalls;
    rejected += r.value.invalidActions;
    if (r.value.success) solved++;
  }
  return { solved, perCall: actions / calls, rejectedShare: rejected / actions };
}

dataTest(
  "honing grafts the repair regression found: craft a craftable ingredient, else fetch it",
  async () => {
    const traces = await generateExpertTraces(textcraftKit, textcraftKit.demonstrationTasks!(3), {
      envOptions: { recipes },
    });
    const compiled = compileTraces(traces, textcraftKit);
    const craft = compiled.skills.find((s) => s.name === "craft_item")!;
    assert.ok(!craft.nodes.some((n) => n.kind === "primitive" && n.action === "craft_item"));
    const unseen = textcraftKit.taskList!({ split: "unseen", n: 30 });
    const before = await play(compiled, compiled.library, unseen);

    const session = new HoningSession(
      new Honer(compiled.skills, textcraftKit.vocabulary),
      textcraftKit.vocabulary,
    );
    await play(
      compiled,
      compiled.library,
      textcraftKit.taskList!({ split: "train", n: 20, depths: [2, 3] }),
      session,
    );
    const honed = session.library().get("craft_item")!.skill;
    const graft = honed.grafts?.[0];
    assert.ok(graft, "a graft");
    assert.equal(graft.status, "permanent");
    const guard = honed.nodes.find((n) => n.id === graft.nodes[0]);
    assert.ok(guard?.kind === "check");
    assert.match(
      guard.cond,
      /^craftable\(item_i\) and \(count\(item_i\) < need\(recipe, item_i\)\)$/,
    );
    const call = honed.nodes.find((n) => n.id === graft.nodes[1]);
    assert.ok(call?.kind === "primitive" && call.action === "craft_item");
    // The call repeats while the guard holds: its next edge goes back to the guard.
    assert.ok(honed.edges.some((e) => e.from === call.id && e.to === guard.id));
    // A family (`planks`) is not fetched: a member is crafted instead of the `get`.
    const family = honed.grafts?.find((g) =>
      honed.nodes.some((n) =>
        n.id === g.nodes[0] && n.kind === "check" && n.cond === "is_tag(item_i)"
      )
    );
    assert.ok(family, "a graft for families");
    const member = honed.nodes.find((n) => n.id === family.nodes[1]);
    assert.ok(member?.kind === "primitive" && member.action === "craft_item");
    assert.equal(member.args.item, "select_one(x: Item, member(x, item_i))");

    const after = await play(compiled, session.library(), unseen);
    assert.ok(after.solved >= before.solved, `${after.solved} >= ${before.solved}`);
    assert.ok(after.rejectedShare < before.rejectedShare / 2, JSON.stringify({ before, after }));
    assert.ok(after.perCall > 2 * before.perCall, JSON.stringify({ before, after }));
  },
);
