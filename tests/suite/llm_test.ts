// The tests of tests/llm/ (see _import.ts).
import { importTests } from "./_import.ts";

await importTests("llm");
