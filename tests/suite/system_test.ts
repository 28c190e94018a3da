// The tests of environments, the runtime, the commands, the viewer, the example domains
// and the project (tests/environments/, tests/runtime/, tests/cli/, tests/view/,
// tests/examples/, tests/; see _import.ts).
import { importTests } from "./_import.ts";

await importTests("environments");
await importTests("runtime");
await importTests("cli");
await importTests("view");
await importTests("examples");
await importTests(".");
