// The tests of tests/cli/, shard 1 of 2 (see _import.ts).
import { importTests } from "./_import.ts";

await importTests("cli", [1, 2]);
