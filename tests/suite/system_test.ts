// The tests of environments, the runtime, the commands, the example domains and the
// project (tests/environments/, tests/runtime/, tests/cli/, tests/examples/, tests/; see
// _import.ts).
import { importTests } from "./_import.ts";

await importTests("environments");
await importTests("runtime");
await importTests("cli");
await importTests("examples");
await importTests(".");
