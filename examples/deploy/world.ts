/**
 * The deploy simulator: its state, the seeded generator of a task's
 * cluster, the rules of every operation with their deterministic replies,
 * and the true facts of a state.
 *
 * @module
 */
import { type Atom, matchAction } from "../../mod.ts";
import { deployVocabulary } from "./vocabulary.ts";
import { idNumbers, mixSeed, mulberry32, pick, randomInt, sample } from "./random.ts";

/** The task types: deploy the wanted services, or deploy and test them. */
export const DEPLOY_TASK_TYPES = ["deploy", "deploy_and_test"] as const;
/** One of {@linkcode DEPLOY_TASK_TYPES}. */
export type DeployTaskType = typeof DEPLOY_TASK_TYPES[number];

/** A server. */
export interface DeployServer {
  id: string;
  up: boolean;
  /** Free slots; for a server that is down, the slots it will have once booted. */
  free: number;
}

/** A service. */
export interface DeployService {
  id: string;
  /** The name part of the id: `web`, `db`, ... */
  kind: string;
  built: boolean;
  /** The server it runs on, once deployed. */
  server?: string;
  tested: boolean;
}

/** The whole state of one cluster. */
export interface DeployState {
  type: DeployTaskType;
  /** Servers in listing order. */
  servers: DeployServer[];
  /** Services in listing order. */
  services: DeployService[];
  /** The wanted services in goal order. */
  wanted: string[];
}

const KINDS = ["web", "db", "cache", "queue", "auth", "search", "mail", "api"];

/**
 * Generates the cluster of a task: `size` wanted services (about half
 * built), 2-4 distractor services (some already deployed, taking slots),
 * and servers that are up or down with 1-3 slots each, with enough slots
 * in total for the wanted services. Which server has a free slot, and
 * whether one must be booted, varies per seed; ids are numbered at random.
 *
 * @param seed Generator seed.
 * @param size Number of wanted services (1-10).
 * @param type Task type.
 */
export function generateDeploy(seed: number, size: number, type: DeployTaskType): DeployState {
  const random = mulberry32(mixSeed(seed, size));
  const distractors = 2 + randomInt(random, 3);
  const kindCounts = new Map<string, number>();
  for (let i = 0; i < size + distractors; i++) {
    const k = pick(random, KINDS);
    kindCounts.set(k, (kindCounts.get(k) ?? 0) + 1);
  }
  const services: DeployService[] = [];
  for (const [kind, count] of kindCounts) {
    for (const n of idNumbers(random, count)) {
      services.push({ id: `${kind} ${n}`, kind, built: false, tested: false });
    }
  }
  services.sort((a, b) => compareIds(a.id, b.id));
  const wanted = sample(random, services.map((s) => s.id), size);
  const servers: DeployServer[] = idNumbers(random, 2 + Math.ceil(size / 3) + randomInt(random, 2))
    .map((n) => ({ id: `server ${n}`, up: random() < 0.5, free: 1 + randomInt(random, 2) }));
  for (const s of services) {
    if (wanted.includes(s.id)) {
      s.built = random() < 0.5;
      continue;
    }
    // Distractors: some built, some of those already running and taking a slot.
    s.built = random() < 0.7;
    const hosts = servers.filter((v) => v.up && v.free > 0);
    if (s.built && hosts.length > 0 && random() < 0.8) {
      const host = pick(random, hosts);
      host.free--;
      s.server = host.id;
      s.tested = random() < 0.5;
    }
  }
  // Enough slots for every wanted service once all servers are up.
  while (servers.reduce((n, v) => n + v.free, 0) < size) pick(random, servers).free++;
  return { type, servers, services, wanted };
}

/** Orders ids by name, then by number (`web 2` before `web 10`). */
export function compareIds(a: string, b: string): number {
  const [na, xa] = splitId(a);
  const [nb, xb] = splitId(b);
  return na < nb ? -1 : na > nb ? 1 : xa - xb;
}

function splitId(id: string): [string, number] {
  const m = /^(.*) (\d+)$/.exec(id);
  return m ? [m[1], Number(m[2])] : [id, 0];
}

/** `a`, `a and b`, `a, b and c`. */
function listText(items: readonly string[]): string {
  return items.length <= 1
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** The goal sentence of a state's task. */
export function deployGoal(state: DeployState): string {
  const verb = state.type === "deploy" ? "deploy" : "deploy and test";
  return `${verb} ${listText(state.wanted)}`;
}

/** `no free slots`, `1 free slot`, `3 free slots`. */
export function slotsText(n: number): string {
  return n === 0 ? "no free slots" : n === 1 ? "1 free slot" : `${n} free slots`;
}

/** What an action would do: a rejection reason, or the change with its reply. */
type Outcome = { reason: string } | { run: () => string };

/**
 * A cluster being operated: applies actions to its state. Rejected actions
 * change nothing and reply `You can't do that: <reason>.` (or
 * `Nothing happens.` when the text is no action at all).
 */
export class DeployWorld {
  readonly #s: DeployState;

  /** Plays `state` (a private copy is kept). */
  constructor(state: DeployState) {
    this.#s = structuredClone(state);
  }

  /** A copy of the current state (privileged: the expert and tests read it). */
  get state(): DeployState {
    return structuredClone(this.#s);
  }

  /** The goal sentence. */
  goal(): string {
    return deployGoal(this.#s);
  }

  /** The listing: servers (a down server's slots are not shown) and services. */
  listing(): string {
    const lines = ["Servers:"];
    for (const v of this.#s.servers) {
      lines.push(`  ${v.id}: ${v.up ? `up, ${slotsText(v.free)}` : "down"}`);
    }
    lines.push("Services:");
    for (const s of this.#s.services) {
      const where = s.server !== undefined ? `, deployed on ${s.server}` : "";
      lines.push(
        `  ${s.id}: ${s.built ? "built" : "not built"}${where}${s.tested ? ", tested" : ""}`,
      );
    }
    return lines.join("\n");
  }

  /** The first observation: the listing and the goal. */
  firstObservation(): string {
    return `${this.listing()}\nGoal: ${this.goal()}.`;
  }

  /** Whether every wanted service is deployed (and tested, when asked). */
  goalMet(): boolean {
    return this.#s.wanted.every((id) => {
      const s = this.#service(id)!;
      return s.server !== undefined && (this.#s.type === "deploy" || s.tested);
    });
  }

  /** Why `action` would be rejected now, or `undefined` when it would be accepted. */
  rejection(action: string): string | undefined {
    const o = this.#outcome(action);
    return "reason" in o ? o.reason : undefined;
  }

  /** Applies `action`; returns the reply and whether it was accepted. */
  apply(action: string): { observation: string; accepted: boolean } {
    const o = this.#outcome(action);
    if ("reason" in o) return { observation: o.reason, accepted: false };
    return { observation: o.run(), accepted: true };
  }

  /** Every action text over the cluster's objects (accepted or not). */
  candidateActions(): string[] {
    const s = this.#s;
    const out = s.servers.map((v) => `boot ${v.id}`);
    for (const x of s.services) {
      out.push(`build ${x.id}`, `test ${x.id}`);
      for (const v of s.servers) out.push(`deploy ${x.id} to ${v.id}`);
    }
    out.push("status");
    return out;
  }

  /**
   * The true facts of the state in the deploy vocabulary; a down server's
   * slots are not among them (nobody can see them before it is booted).
   */
  trueFacts(): Atom[] {
    const s = this.#s;
    const atoms: Atom[] = [];
    for (const v of s.servers) {
      if (v.up) {
        atoms.push({ pred: "up", args: [v.id] }, { pred: "free_slots", args: [v.id, v.free] });
      } else atoms.push({ pred: "down", args: [v.id] });
    }
    for (const x of s.services) {
      atoms.push({ pred: "service_kind", args: [x.id, x.kind] });
      if (x.built) atoms.push({ pred: "built", args: [x.id] });
      if (x.server !== undefined) atoms.push({ pred: "deployed", args: [x.id, x.server] });
      if (x.tested) atoms.push({ pred: "tested", args: [x.id] });
    }
    for (const id of s.wanted) {
      atoms.push({ pred: "wanted", args: [id] });
      if (s.type === "deploy_and_test") atoms.push({ pred: "wanted_tested", args: [id] });
    }
    return atoms;
  }

  #outcome(action: string): Outcome {
    const m = matchAction(deployVocabulary, action);
    if (!m) return { reason: "Nothing happens." };
    const a = m.args as Record<string, string>;
    switch (m.action) {
      case "boot":
        return this.#boot(a.server);
      case "build":
        return this.#build(a.service);
      case "deploy":
        return this.#deploy(a.service, a.server);
      case "test":
        return this.#test(a.service);
      case "status":
        return { run: () => this.listing() };
      default:
        return { reason: "Nothing happens." };
    }
  }

  #boot(id: string): Outcome {
    const v = this.#server(id);
    if (!v) return no(this.#service(id) ? `${id} is not a server` : `there is no server ${id}`);
    if (v.up) return no(`${id} is already up`);
    return {
      run: () => {
        v.up = true;
        return `You boot ${id}. It is up with ${slotsText(v.free)}.`;
      },
    };
  }

  #build(id: string): Outcome {
    const x = this.#service(id);
    if (!x) return no(this.#server(id) ? `${id} is not a service` : `there is no service ${id}`);
    if (x.built) return no(`${id} is already built`);
    return {
      run: () => {
        x.built = true;
        return `You build ${id}.`;
      },
    };
  }

  #deploy(serviceId: string, serverId: string): Outcome {
    const x = this.#service(serviceId);
    if (!x) return no(`there is no service ${serviceId}`);
    const v = this.#server(serverId);
    if (!v) return no(`there is no server ${serverId}`);
    if (!x.built) return no(`${serviceId} is not built`);
    if (x.server !== undefined) return no(`${serviceId} is already deployed on ${x.server}`);
    if (!v.up) return no(`${serverId} is down`);
    if (v.free <= 0) return no(`${serverId} has no free slots`);
    return {
      run: () => {
        x.server = serverId;
        v.free--;
        return `You deploy ${serviceId} to ${serverId}, which now has ${slotsText(v.free)}.`;
      },
    };
  }

  #test(id: string): Outcome {
    const x = this.#service(id);
    if (!x) return no(`there is no service ${id}`);
    if (x.server === undefined) return no(`${id} is not deployed`);
    if (x.tested) return no(`${id} is already tested`);
    return {
      run: () => {
        x.tested = true;
        return `You test ${id}. All checks pass.`;
      },
    };
  }

  #server(id: string): DeployServer | undefined {
    return this.#s.servers.find((v) => v.id === id);
  }

  #service(id: string): DeployService | undefined {
    return this.#s.services.find((x) => x.id === id);
  }
}

function no(reason: string): Outcome {
  return { reason: `You can't do that: ${reason}.` };
}
