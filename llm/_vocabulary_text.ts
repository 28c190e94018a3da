// The vocabulary as the roles' prompts show it: one line per type,
// predicate and action, with its documentation.
import type { Vocabulary } from "../dsl/vocabulary.ts";

/** Which parts of the vocabulary to show. @default all of them */
export interface VocabularyParts {
  types?: boolean;
  predicates?: boolean;
  actions?: boolean;
}

/** The lines: `Vocabulary "<name>":`, then the parts asked for. */
export function describeVocabulary(
  vocab: Vocabulary,
  parts: VocabularyParts = { types: true, predicates: true, actions: true },
): string[] {
  const lines = [`Vocabulary "${vocab.name}":`];
  const doc = (text: string | undefined) => text ? `: ${text}` : "";
  if (parts.types) {
    for (const [name, t] of Object.entries(vocab.types)) {
      const kind = t.kind === "object"
        ? `object type${t.parent ? `, a kind of ${t.parent}` : ""}`
        : "value type";
      lines.push(`  type ${name} (${kind})${doc(t.doc)}`);
    }
  }
  if (parts.predicates) {
    for (const [name, p] of Object.entries(vocab.predicates)) {
      lines.push(`  predicate ${name}(${p.params.join(", ")})${doc(p.doc)}`);
    }
  }
  if (parts.actions) {
    for (const [name, a] of Object.entries(vocab.actions)) {
      const params = a.params.map((x) => `${x.name}: ${x.type}`).join(", ");
      lines.push(`  action "${a.template}" (${name}${params ? `; ${params}` : ""})${doc(a.doc)}`);
    }
  }
  return lines;
}
