// OpenAI-compatible servers on loopback that play the LLM roles for tests:
// the oracle answers what the symbolic components would; the noisy one
// spoils a share of its answers; faults are the tests' own `reply`.
import { type Atom, FactDeltaSchema } from "../../dsl/facts.ts";
import { parseExpr } from "../../dsl/expr/parse.ts";
import { isObjectType } from "../../dsl/vocabulary.ts";
import type { Expr } from "../../dsl/expr/ast.ts";
import type { EnvironmentKit, Grounding } from "../../runtime/environment.ts";
import { FactStore } from "../../runtime/fact_store.ts";
import { fakeOpenAI, type FakeRequest } from "./_server.ts";

/** A grounder request read back: the first observation, or a step with the facts before it. */
type GrounderRequest =
  | { kind: "initial"; goal: string; observation: string }
  | { kind: "step"; facts: FactStore; action: string; observation: string };

/** Reads the user message `LlmGrounder` sends (see llm/grounder.ts). */
export function readGrounderRequest(content: string): GrounderRequest {
  const initial = /^Goal: (.*)\nFirst observation:\n([\s\S]*)\n\nWhich facts hold now\?$/.exec(
    content,
  );
  if (initial) return { kind: "initial", goal: initial[1], observation: initial[2] };
  const step =
    /^Known objects \(id: type\): (.*)\nFacts:\n([\s\S]*?)Action: (.*)\nObservation:\n([\s\S]*)\n\nWhat changed\?$/
      .exec(content);
  if (!step) throw new Error(`not a grounder request: ${content.slice(0, 80)}`);
  const objects = JSON.parse(step[1]) as Record<string, string>;
  const atoms = step[2].split("\n").filter((l) => l !== "").map(parseAtom);
  return {
    kind: "step",
    facts: new FactStore(atoms, objects),
    action: step[3],
    observation: step[4],
  };
}

function parseAtom(text: string): Atom {
  const parsed = parseExpr(text);
  if (!parsed.ok || parsed.value.kind !== "call") throw new Error(`not an atom: ${text}`);
  return {
    pred: parsed.value.name,
    args: parsed.value.args.map((a: Expr) => {
      if (a.kind === "num" || a.kind === "str") return a.value;
      throw new Error(`not a ground argument in ${text}`);
    }),
  };
}

/** What the kit's own grounder answers to a grounder request, as the role's JSON. */
export function oracleGrounding(kit: EnvironmentKit, content: string): string {
  const r = readGrounderRequest(content);
  const g: Grounding = r.kind === "initial"
    ? kit.grounder().initial(r.observation, r.goal)
    : kit.grounder().step(r.facts, r.action, r.observation);
  const delta = FactDeltaSchema.parse(g.delta);
  return JSON.stringify({
    add: delta.add,
    remove: delta.remove,
    objects: delta.objects ?? {},
    rejected: g.rejected ?? null,
    unknown: g.unknown ?? [],
  });
}

/** The role a request is for, from its system message. */
export function roleOf(request: FakeRequest): string {
  const system = request.messages[0]?.content ?? "";
  if (system.startsWith("You ground observations")) return "grounder";
  if (system.startsWith("You plan for an agent")) return "planner";
  if (system.startsWith("An agent in the")) return "knowledge";
  return "unknown";
}

/** The user message a request is about (the first one: a re-ask repeats it). */
export function firstUserMessage(request: FakeRequest): string {
  return request.messages.find((m) => m.role === "user")?.content ?? "";
}

/** A server answering every grounder request as `kit`'s grounder would. */
export function oracleServer(kit: EnvironmentKit) {
  return fakeOpenAI((request) => {
    if (roleOf(request) !== "grounder") return new Response("unknown role", { status: 400 });
    return oracleGrounding(kit, firstUserMessage(request));
  });
}

/**
 * A server that spoils about `share` of the oracle's answers (seeded):
 * a made-up predicate, a made-up object, or a dropped fact (wrong but
 * valid). `invalid` counts the answers no check can accept.
 */
export function noisyServer(kit: EnvironmentKit, share: number, seed = 7) {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const counts = { invalid: 0, dropped: 0 };
  const server = fakeOpenAI((request) => {
    const answer = JSON.parse(oracleGrounding(kit, firstUserMessage(request)));
    if (random() >= share) return JSON.stringify(answer);
    const kind = Math.floor(random() * 3);
    if (kind === 0) {
      answer.add.push({ pred: "glows_faintly", args: [] });
      counts.invalid++;
    } else if (kind === 1) {
      const pred = Object.entries(kit.vocabulary.predicates).find(([, d]) =>
        d.params.length === 1 && isObjectType(kit.vocabulary, d.params[0])
      );
      answer.add.push({ pred: pred?.[0] ?? "glows_faintly", args: ["phantom 99"] });
      counts.invalid++;
    } else if (answer.add.length > 0) {
      answer.add.pop();
      counts.dropped++;
    }
    return JSON.stringify(answer);
  });
  return Object.assign(server, { counts });
}

/** A knowledge request read back: what it is about and the facts (see llm/knowledge.ts). */
export function readKnowledgeRequest(content: string): { objects: string[]; facts: FactStore } {
  const m =
    /\nAbout: (.*)\nKnown objects \(id: type\): (.*)\nFacts:\n([\s\S]*?)\n\nWhat facts would give a way\?$/
      .exec(content);
  if (!m) throw new Error(`not a knowledge request: ${content.slice(0, 80)}`);
  const atoms = m[3].split("\n").filter((l) => l !== "").map(parseAtom);
  return {
    objects: m[1].split(", ").filter((o) => o !== ""),
    facts: new FactStore(atoms, JSON.parse(m[2]) as Record<string, string>),
  };
}
