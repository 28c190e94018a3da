/**
 * The problem report of skill validation, shared by the validator and its
 * helpers (a file of its own so that they need not import the validator).
 *
 * @module
 */

/** One validation problem. */
export interface SkillIssue {
  /** The node concerned, if any. */
  node?: string;
  /** The field path, e.g. `nodes[2].kind` or `doc.pre`. */
  field?: string;
  /** A sentence naming the node and the problem. */
  message: string;
  /** 1-based line (in the expression, or in a Mermaid text). */
  line?: number;
  /** 1-based column in the expression. */
  column?: number;
}
