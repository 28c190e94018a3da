import assert from "node:assert/strict";

const root = new URL("../", import.meta.url);

Deno.test("without the benchmark data, the tests that need it are skipped with a message naming it", async () => {
  const missing = "/nonexistent/skillc-data";
  const files = ["tests/environments/pddl_test.ts", "tests/compiler/induce_alfworld_test.ts"];
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--no-check", "-A", ...files],
    cwd: root.pathname,
    env: { NO_COLOR: "1", SKILLC_DATA: missing, SKILLC_REQUIRE_DATA: "0" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, text);
  assert.match(
    text,
    new RegExp(`Skipping the tests that need the benchmark data: ${missing}/ is missing`),
  );
  assert.match(
    text,
    new RegExp(
      `the planner solves all 60 benchmark problems with valid plans \\(needs ${missing}/\\) \\.\\.\\. ignored`,
    ),
  );
  // A test of the same file that needs no data still runs.
  assert.match(
    text,
    /PDDL outside the supported subset is an error with file, line and column \.\.\. ok/,
  );
  // And where the data is required (as in CI), its absence fails the run.
  const required = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--no-check", "-A", files[0]],
    cwd: root.pathname,
    env: { NO_COLOR: "1", SKILLC_DATA: missing, SKILLC_REQUIRE_DATA: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.notEqual(required.code, 0);
  const said = new TextDecoder().decode(required.stdout) +
    new TextDecoder().decode(required.stderr);
  assert.match(
    said,
    /SKILLC_REQUIRE_DATA=1 but the benchmark data \/nonexistent\/skillc-data\/ is missing/,
  );
});
