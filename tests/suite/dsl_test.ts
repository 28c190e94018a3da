// The tests of tests/dsl/ (see _import.ts).
import { importTests } from "./_import.ts";

await importTests("dsl");
