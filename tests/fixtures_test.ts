// The checked-in libraries (tests/fixtures/) are what induction gives now.
import assert from "node:assert/strict";
import { dataTest } from "./_data.ts";
import { fixturePath, FIXTURES, induceFixture } from "./fixtures/_libraries.ts";

for (const [name, spec] of Object.entries(FIXTURES)) {
  dataTest(`the fixture ${name} is the library induction gives from ${spec.source}`, async () => {
    const fresh = await induceFixture(spec);
    const stored = JSON.parse(await Deno.readTextFile(fixturePath(name)));
    assert.deepEqual(
      stored,
      fresh,
      `tests/fixtures/${name} is out of date: run "deno task regenerate" and review the change`,
    );
  });
}
