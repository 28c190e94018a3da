// The tests of tests/compiler/, shard 3 of 3 (see _import.ts).
import { importTests } from "./_import.ts";

await importTests("compiler", [3, 3]);
