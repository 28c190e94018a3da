// The library's tests: tests/compiler/, tests/dsl/, tests/llm/ (see _import.ts).
import { importTests } from "./_import.ts";

await importTests("compiler");
await importTests("dsl");
await importTests("llm");
