/**
 * The compiler: traces in and out, grounding of whole traces, subgoal
 * segmentation, the consistency check, the consolidation operators
 * (Branching, Crossover, Lifting, LoopFold), binding synthesis, predicate
 * invention, skill induction and the written library and package.
 *
 * @module
 */
export {
  formatTracesJsonl,
  parseTracesJsonl,
  readTraces,
  TraceFileError,
  type TraceProblem,
  writeTracesJsonl,
} from "./trace_io.ts";
export { acceptedSteps, type GroundedStep, type GroundedTrace, groundTrace } from "./ground.ts";
export {
  classOf,
  deriveLandmarks,
  groupSegments,
  landmarkAt,
  type LandmarkHit,
  liftedLandmark,
  type Segment,
  type SegmentGroup,
  type SegmentOptions,
  type SegmentParam,
  segmentParams,
  segmentTrace,
  segmentTraces,
  staticPredicates,
} from "./segment.ts";
export {
  consistencyRegion,
  type OpenDecision,
  REGION_STARTS,
  regionSize,
  type ReplayOptions,
  type ReplayResult,
  type ReplaySegment,
  replaySegment,
} from "./consistency.ts";
export {
  type Instance,
  instanceOf,
  type Item,
  type LoopItem,
  replaySegmentOf,
  type StepRef,
  stepsOf,
} from "./instances.ts";
export { exprSize, type Stmt, treeSize, type TreeSkill, treeToSkill } from "./program_tree.ts";
export type { Example, SynthesisContext } from "./synth_types.ts";
export { type Binding, type BindingOptions, synthesizeBinding } from "./bind.ts";
export { type InventOptions, inventPredicate } from "./invent.ts";
export {
  type AlignInput,
  alignSequences,
  type Block,
  type Column,
  toBlocks,
} from "./operators/branching.ts";
export { foldInstance, type LoopPlan, planLoop, splitIterations } from "./operators/loop_fold.ts";
export { liftAction, type LiftedAction, type Occurrence, type Scope } from "./operators/lifting.ts";
export { type ActionRelation, type ActionRelations, actionRelations } from "./action_relations.ts";
export {
  applyTransplant,
  crossover,
  findTransplants,
  type Transplant,
} from "./operators/crossover.ts";
export { type Synthesis, synthesizeProgram } from "./synthesize.ts";
export {
  induceBest,
  type InducedSkill,
  induceGroup,
  type InduceOptions,
  induceSkills,
  type Induction,
  measure,
  skillSize,
} from "./induce.ts";
export { generatePackage, packageFiles, type PackageOptions, skillIdentifiers } from "./package.ts";
export { writeLibrary, type WriteLibraryOptions } from "./write_library.ts";
export { goalPattern, learnTemplates, type LearnTemplatesOptions } from "./templates.ts";
export {
  describeProgram,
  induceTaskProgram,
  type TaskDemo,
  type TaskProgram,
  taskTrace,
  taskVocabulary,
} from "./task_program.ts";
export { callActions, skillAction, type SkillHead } from "./skill_action.ts";
export { nestGroups, nestSegments } from "./nest.ts";
export {
  type CompiledLibrary,
  type CompileOptions,
  compileTraces,
  writeCompiledLibrary,
} from "./compile.ts";
export { type OpenedLibrary, openLibrary, type OpenLibraryOptions } from "./open_library.ts";
export { generatePackageOf, refreshPackage } from "./write_library.ts";
