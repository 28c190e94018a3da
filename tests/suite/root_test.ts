// The tests directly in tests/ (see _import.ts).
import { importTests } from "./_import.ts";

await importTests(".");
