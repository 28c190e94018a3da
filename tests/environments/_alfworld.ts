/**
 * Shared fixtures of the ALFWorld tests: the class rules, a small kitchen
 * scene spec, and the two ReAct demonstration files.
 *
 * @module
 */
import { dataUrl } from "../_data.ts";
import { loadAlfredData } from "../../environments/alfworld/catalog.ts";
import { stepWorld } from "../../environments/alfworld/dynamics.ts";
import { type ClassRules, classRules } from "../../environments/alfworld/rules.ts";
import { buildWorld, type SceneSpecInput } from "../../environments/alfworld/scene_spec.ts";
import { importTranscripts } from "../../environments/alfworld/transcript.ts";
import type { World } from "../../environments/alfworld/world.ts";
import type { Trace } from "../../dsl/trace.ts";

/** The class rules of the shared data. */
export const RULES: ClassRules = classRules(loadAlfredData());

/** A small kitchen: every kind of receptacle the actions need. */
export const KITCHEN: SceneSpecInput = {
  goal: "put a hot apple in fridge.",
  receptacles: [
    { id: "countertop 1", contents: ["apple 1", "knife 1", "mug 1", "houseplant 1"] },
    { id: "fridge 1", contents: ["egg 1"] },
    { id: "microwave 1" },
    { id: "sinkbasin 1", contents: ["tomato 1"] },
    { id: "cabinet 1", contents: ["plate 1"] },
    { id: "cabinet 2", location: "corner" },
    { id: "cabinet 3", location: "corner", openable: false },
    { id: "sidetable 1", contents: ["desklamp 1", "pen 1"] },
    { id: "garbagecan 1" },
  ],
};

/** A world of a spec (default: {@linkcode KITCHEN}). */
export function world(spec: SceneSpecInput = KITCHEN): World {
  return buildWorld(spec, RULES);
}

/** Runs actions and returns the last observation. */
export function run(w: World, ...actions: string[]): string {
  let last = "";
  for (const a of actions) last = stepWorld(w, a, RULES).observation;
  return last;
}

/** The ReAct demonstration files. */
export const DEMO_FILES = ["react_demos_2per_type.json", "react_demos_3per_type.json"] as const;

/** All transcripts of a demonstration file as traces. */
export function demoTraces(file: string): Trace[] {
  const url = dataUrl(`alfworld/${file}`);
  return importTranscripts(Deno.readTextFileSync(url), file);
}
