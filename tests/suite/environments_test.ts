// The tests of tests/environments/ (see _import.ts).
import { importTests } from "./_import.ts";

await importTests("environments");
