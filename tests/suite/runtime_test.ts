// The tests of tests/runtime/ (see _import.ts).
import { importTests } from "./_import.ts";

await importTests("runtime");
