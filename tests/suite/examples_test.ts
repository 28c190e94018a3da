// The tests of tests/examples/ (see _import.ts).
import { importTests } from "./_import.ts";

await importTests("examples");
