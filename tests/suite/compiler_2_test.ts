// The tests of tests/compiler/, shard 2 of 3 (see _import.ts).
import { importTests } from "./_import.ts";

await importTests("compiler", [2, 3]);
