// The kept deals' queue (its plain-data part in static/js/offline.js): the order
// deals go in, and the numbers they move to when one is recorded under another.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { inOrder, renumbered, shown } = require("../../static/js/offline.js");

const kept = (key, number, created, game = "7") => ({ key, game, number, created, status: "waiting" });

test("a game's deals go by number, then in the order they were kept", () => {
  const items = [kept("c", 5, 3), kept("x", 4, 9, "8"), kept("a", 4, 2), kept("b", 4, 1)];
  assert.deepEqual(inOrder(items, "7").map((i) => i.key), ["b", "a", "c"]);
});

test("recorded as its own number, nothing moves", () => {
  const items = [kept("a", 4, 1), kept("b", 5, 2)];
  assert.deepEqual(renumbered(items, items[0], 4), []);
  assert.deepEqual(renumbered(items, items[0], undefined), []);
});

test("recorded later on, the deals after it move on as far, in their order", () => {
  // Another phone entered deals 4 and 5 meanwhile: deal 4 kept here went in as 6.
  const items = [kept("a", 4, 1), kept("b", 5, 2), kept("c", 6, 3), kept("other", 9, 4, "8")];
  const moved = renumbered(items, items[0], 6);
  assert.deepEqual(moved.map((i) => [i.key, i.number]), [["b", 7], ["c", 8]]);
  assert.equal(items[1].number, 5, "what it is given stays as it was");
});

test("a deal kept with the same number but later moves too; one kept before it does not", () => {
  const items = [kept("early", 4, 1), kept("sent", 4, 2), kept("late", 4, 3)];
  const moved = renumbered(items, items[1], 5);
  assert.deepEqual(moved.map((i) => [i.key, i.number]), [["late", 5]]);
});

test("renumbering after a renumbering keeps every deal's place", () => {
  let items = [kept("a", 1, 1), kept("b", 2, 2), kept("c", 3, 3)];
  for (const number of [2, 4]) {
    const [sent, ...rest] = inOrder(items, "7");
    const moved = new Map(renumbered(items, sent, number).map((i) => [i.key, i]));
    items = rest.map((i) => moved.get(i.key) || i);
  }
  assert.deepEqual(items.map((i) => [i.key, i.number]), [["c", 5]]);
});

test("the list of kept deals is drawn again only when what it shows has changed", () => {
  const items = [kept("a", 4, 1), kept("b", 5, 2)];
  const again = items.map((i) => ({ ...i }));
  assert.equal(shown(again), shown(items), "read again from the phone's store: the same list");
  const conflict = { ...items[0], status: "conflict", answer: { by: "ann", version: 3 } };
  assert.notEqual(shown([conflict, items[1]]), shown(items));
  assert.notEqual(shown([{ ...items[0], number: 6 }, items[1]]), shown(items), "a deal moved on");
  assert.notEqual(shown(items.slice(1)), shown(items), "one sent");
});
