// The phone's check (static/js/check.js) against the cases the engine's tests
// run (tests/cases/entry_checks.json): the same tally, problems, scores and moon.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { check, wholeNumber } = require("../../static/js/check.js");
const data = JSON.parse(readFileSync(new URL("../cases/entry_checks.json", import.meta.url), "utf8"));

for (const item of data.cases) {
  test(item.name, () => {
    const config = data.tables[item.table];
    assert.deepEqual(check(config, item.mode, item.fields), item.expect);
  });
}

test("a whole number is read as the server reads it", () => {
  assert.equal(wholeNumber(" -10 "), -10);
  assert.equal(wholeNumber("−3"), -3);
  assert.equal(wholeNumber("²"), null);
  assert.equal(wholeNumber("1.5"), null);
  assert.equal(wholeNumber("1".repeat(10)), null);
  assert.equal(wholeNumber("7", 1), 7);
  assert.equal(wholeNumber("12", 1), null);
});

test("the check changes nothing it is given", () => {
  const item = data.cases.find((c) => c.mode === "points");
  const fields = { ...item.fields };
  check(data.tables[item.table], item.mode, fields);
  assert.deepEqual(fields, item.fields);
});
