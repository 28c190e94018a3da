import assert from "node:assert/strict";
import {
  assertVocabulary,
  type Vocabulary,
  vocabularyProblems,
  VocabularySchema,
} from "../../dsl/vocabulary.ts";
import { textcraftVocabulary } from "../../environments/textcraft/vocabulary.ts";
import { alfworldVocabulary } from "../../environments/alfworld/vocabulary.ts";
import { induceSkills } from "../../compiler/induce.ts";

function vocab(extra: Partial<Vocabulary>): Vocabulary {
  return {
    name: "v",
    types: { Thing: { kind: "object" } },
    predicates: { near: { params: ["Thing"] } },
    functions: {},
    actions: { poke: { template: "poke {t}", params: [{ name: "t", type: "Thing" }] } },
    ...extra,
  };
}

Deno.test("vocabularyProblems() accepts the built-in vocabularies", () => {
  assert.deepEqual(vocabularyProblems(textcraftVocabulary), []);
  assert.deepEqual(vocabularyProblems(alfworldVocabulary), []);
  assert.deepEqual(vocabularyProblems(vocab({})), []);
});

Deno.test("vocabularyProblems() rejects names that clash with expression keywords and built-ins", () => {
  for (const name of ["in", "and", "not", "exists", "select_one", "len", "true"]) {
    const asPredicate = vocabularyProblems(vocab({ predicates: { [name]: { params: [] } } }));
    assert.deepEqual(asPredicate, [
      `predicate "${name}": the name is reserved by the expression language (a keyword or built-in)`,
    ]);
    const asAction = vocabularyProblems(
      vocab({ actions: { [name]: { template: "do it", params: [] } } }),
    );
    assert.match(asAction.join("\n"), new RegExp(`action "${name}": the name is reserved`));
  }
});

Deno.test("vocabularyProblems() names bad signatures: unknown types, template slots, functions", () => {
  const problems = vocabularyProblems(vocab({
    types: { Thing: { kind: "object" }, Num: { kind: "value" } },
    predicates: { near: { params: ["Thng"] }, "two words": { params: [] } },
    functions: { weight: { params: ["Thing"], returns: "Num", predicate: "weighs" } },
    actions: { poke: { template: "poke {t} with {tool}", params: [{ name: "t", type: "Thing" }] } },
  }));
  assert.deepEqual(problems, [
    'type "Num": the name is a built-in type',
    'predicate "near" parameter 1: unknown type "Thng"',
    'predicate "two words": a name must be an identifier (letters, digits, _)',
    'function "weight": its predicate "weighs" is not declared',
    'action "poke": template slot {tool} is not a declared parameter',
  ]);
});

Deno.test("VocabularySchema and assertVocabulary() report the problems", () => {
  const bad = vocab({ predicates: { in: { params: ["Thing", "Thing"] } } });
  const parsed = VocabularySchema.safeParse(bad);
  assert(!parsed.success);
  assert.match(JSON.stringify(parsed.error.issues), /predicate \\"in\\": the name is reserved/);
  assert.throws(() => assertVocabulary(bad), /Vocabulary "v" is invalid:\n {2}- predicate "in"/);
});

Deno.test("induction refuses a vocabulary with a keyword-named predicate before any work", () => {
  const bad = vocab({ predicates: { not: { params: ["Thing"] } } });
  const kit = {
    name: "v",
    vocabulary: bad,
    create: () => {
      throw new Error("unused");
    },
    grounder: () => ({
      initial: () => ({ delta: { add: [], remove: [] } }),
      step: () => ({ delta: { add: [], remove: [] } }),
    }),
  };
  assert.throws(() => induceSkills([], kit), TypeError);
});
