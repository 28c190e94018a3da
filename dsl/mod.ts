/**
 * The skill language: vocabularies, facts, first-order expressions, the
 * skill graph IR with validation and Mermaid exchange, action templates and
 * the trace format. Knows no environment and imports nothing outside `dsl/`.
 *
 * @module
 */
export * from "./result.ts";
export * from "./facts.ts";
export * from "./vocabulary.ts";
export * from "./action.ts";
export * from "./trace.ts";
export * from "./goal_predicates.ts";
export * from "./expr/mod.ts";
export * from "./graph/mod.ts";
