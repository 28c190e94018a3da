/**
 * Control-flow views of a skill graph: labelled successors, reachability,
 * loop bodies, a breadth-first order and the definite-assignment dataflow.
 *
 * @module
 */
import type { Edge, EdgeLabel, Node, Skill } from "./schema.ts";

/**
 * The target of `nodeId`'s out-edge labelled `label`, if there is one.
 *
 * @example Usage
 * ```ts
 * import { outEdge } from "./_control_flow.ts";
 * const skill = {
 *   format: "skillc/skill@1" as const, name: "s", vocabulary: "v", params: [], doc: { summary: "" },
 *   entry: "c",
 *   nodes: [
 *     { id: "c", kind: "check" as const, cond: "true" },
 *     { id: "t", kind: "terminal" as const, outcome: "success" as const },
 *   ],
 *   edges: [{ from: "c", to: "t", label: "yes" as const }, { from: "c", to: "t", label: "no" as const }],
 * };
 * console.log(outEdge(skill, "c", "yes")); // t
 * ```
 */
export function outEdge(skill: Skill, nodeId: string, label: EdgeLabel): string | undefined {
  return skill.edges.find((e) => e.from === nodeId && e.label === label)?.to;
}

/** The first node of each id (a duplicate id is reported by the structure check). */
export function nodesById(skill: Skill): Map<string, Node> {
  const byId = new Map<string, Node>();
  for (const n of skill.nodes) if (!byId.has(n.id)) byId.set(n.id, n);
  return byId;
}

/** The edges of the skill grouped by their source (`from`) or their target (`to`), in edge order. */
export function edgesBy(skill: Skill, end: "from" | "to"): Map<string, Edge[]> {
  const out = new Map<string, Edge[]>();
  for (const e of skill.edges) {
    const list = out.get(e[end]);
    if (list) list.push(e);
    else out.set(e[end], [e]);
  }
  return out;
}

/**
 * The successors of each node id, each once, in edge order (a `Map`: node
 * ids are data, and `__proto__` is as good an id as any).
 */
function successorMap(skill: Skill): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const n of skill.nodes) out.set(n.id, []);
  for (const [from, edges] of edgesBy(skill, "from")) {
    out.set(from, [...new Set(edges.map((e) => e.to))]);
  }
  for (const e of skill.edges) if (!out.has(e.to)) out.set(e.to, []);
  return out;
}

/**
 * Depth-first preorder from `start` over `next`, never entering `skip`.
 * Iterative: a chain of thousands of nodes must not exhaust the stack.
 */
function preorder(next: ReadonlyMap<string, string[]>, start: string, skip?: string): string[] {
  if (!next.has(start) || start === skip) return [];
  const order = [start];
  const seen = new Set<string>([start]);
  // Frames of (node, index of the next successor to try): recursion made explicit.
  const stack: [string, number][] = [[start, 0]];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const succ = next.get(frame[0]) ?? [];
    if (frame[1] >= succ.length) {
      stack.pop();
      continue;
    }
    const to = succ[frame[1]++];
    if (to === skip || seen.has(to)) continue;
    seen.add(to);
    order.push(to);
    stack.push([to, 0]);
  }
  return order;
}

/** Node ids reachable from `start` (itself included), in depth-first preorder. */
export function reachableFrom(skill: Skill, start: string): string[] {
  return preorder(successorMap(skill), start);
}

/**
 * For each loop node id, the ids of the nodes reachable from its `body`
 * successor without passing through the loop node. An edge into a loop from
 * one of these continues the enumeration; any other edge restarts it.
 *
 * @example Usage
 * ```ts
 * import { loopBodies } from "./_control_flow.ts";
 * const skill = {
 *   format: "skillc/skill@1" as const, name: "s", vocabulary: "v", params: [], doc: { summary: "" },
 *   entry: "l",
 *   nodes: [
 *     { id: "l", kind: "loop" as const, var: "x", over: "[1, 2]" },
 *     { id: "a", kind: "data" as const, var: "y", expr: "x" },
 *     { id: "t", kind: "terminal" as const, outcome: "success" as const },
 *   ],
 *   edges: [
 *     { from: "l", to: "a", label: "body" as const },
 *     { from: "a", to: "l", label: "next" as const },
 *     { from: "l", to: "t", label: "done" as const },
 *   ],
 * };
 * console.log(loopBodies(skill).get("l")); // Set(1) { "a" }
 * ```
 */
export function loopBodies(skill: Skill): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const next = successorMap(skill);
  for (const n of skill.nodes) {
    if (n.kind !== "loop") continue;
    const body = outEdge(skill, n.id, "body");
    out.set(n.id, new Set(body !== undefined ? preorder(next, body, n.id) : []));
  }
  return out;
}

/**
 * The ids of the nodes on a cycle (a loop and its body, or any other edge
 * back): the only nodes a run can visit more than once. Tarjan's strongly
 * connected components, iterative so that long chains do not exhaust the
 * stack.
 */
export function cyclicNodes(skill: Skill): Set<string> {
  const next = successorMap(skill);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out = new Set<string>();
  let counter = 0;
  for (const root of next.keys()) {
    if (index.has(root)) continue;
    const work: { id: string; i: number }[] = [{ id: root, i: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const succ = next.get(top.id) ?? [];
      if (top.i < succ.length) {
        const w = succ[top.i++];
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ id: w, i: 0 });
        } else if (onStack.has(w)) {
          low.set(top.id, Math.min(low.get(top.id)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].id;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.id)!));
      }
      if (low.get(top.id) !== index.get(top.id)) continue;
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== top.id);
      if (component.length > 1 || succ.includes(top.id)) { for (const c of component) out.add(c); }
    }
  }
  return out;
}

/** Node ids in breadth-first order from the entry, then the unreachable ones in array order. */
export function breadthFirstOrder(skill: Skill): string[] {
  const seen = new Set<string>();
  const order: string[] = [];
  const ids = new Set(skill.nodes.map((n) => n.id));
  const next = edgesBy(skill, "from");
  const queue = ids.has(skill.entry) ? [skill.entry] : [];
  seen.add(skill.entry);
  // An index instead of shift(): shifting is linear, and graphs may be large.
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head];
    order.push(id);
    for (const { to } of next.get(id) ?? []) {
      if (ids.has(to) && !seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  for (const id of ids) if (!seen.has(id)) order.push(id);
  return order;
}

/** The variable a node assigns along its out-edge `label`, if any. */
export function assignedOn(node: Node, label: EdgeLabel): string | undefined {
  if (node.kind === "data") return node.var;
  if (node.kind === "loop" && label === "body") return node.var;
  return undefined;
}

/**
 * Definite assignment, a must-dataflow fixpoint: for each reachable node, the
 * variables assigned on every path from the entry to it. Parameters are
 * assigned at the entry; a data node assigns its variable on its out-edge, a
 * loop its variable on its `body` edge only.
 */
export function definitelyAssigned(skill: Skill, params: string[]): Map<string, Set<string>> {
  const byId = nodesById(skill);
  const reachable = new Set(reachableFrom(skill, skill.entry));
  const universe = new Set(params);
  for (const n of byId.values()) if (n.kind === "data" || n.kind === "loop") universe.add(n.var);
  const into = new Map<string, Set<string>>();
  for (const id of reachable) {
    into.set(id, id === skill.entry ? new Set(params) : new Set(universe));
  }
  const order = breadthFirstOrder(skill).filter((id) => reachable.has(id));
  const incoming = edgesBy(skill, "to");
  for (let changed = true; changed;) {
    changed = false;
    for (const id of order) {
      if (id === skill.entry) continue; // only the parameters are assigned on the empty path
      let acc: Set<string> | undefined;
      for (const e of incoming.get(id) ?? []) {
        const from = byId.get(e.from);
        if (!from || !reachable.has(e.from)) continue;
        const out = new Set(into.get(e.from));
        const v = assignedOn(from, e.label);
        if (v !== undefined) out.add(v);
        acc = acc === undefined ? out : new Set([...acc].filter((x) => out.has(x)));
      }
      const cur = into.get(id) as Set<string>;
      const next = acc ?? new Set(params);
      if (next.size !== cur.size || [...next].some((x) => !cur.has(x))) {
        into.set(id, next);
        changed = true;
      }
    }
  }
  return into;
}

/**
 * A shortest path from the entry to `target` on which `variable` is never
 * assigned, as node ids; `undefined` when every path assigns it.
 */
export function unassignedPath(
  skill: Skill,
  variable: string,
  target: string,
): string[] | undefined {
  const byId = nodesById(skill);
  const outgoing = edgesBy(skill, "from");
  const parent = new Map<string, string | undefined>([[skill.entry, undefined]]);
  const queue = [skill.entry];
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head];
    if (id === target) {
      const path: string[] = [];
      for (let cur: string | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        path.unshift(cur);
      }
      return path;
    }
    const node = byId.get(id);
    if (!node) continue;
    for (const e of outgoing.get(id) ?? []) {
      if (parent.has(e.to) || assignedOn(node, e.label) === variable) continue;
      parent.set(e.to, id);
      queue.push(e.to);
    }
  }
  return undefined;
}
