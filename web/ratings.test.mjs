// The rating lines the page shows (ratings.js): a change with its sign and the provisional mark,
// a history oldest first.
import { test } from "node:test";
import assert from "node:assert/strict";
import { changeLine, historyLine, ratingText } from "./ratings.js";

test("a_rating_change_reads_with_its_sign_seat_and_provisional_mark", () => {
  const up = { seat: "BlackA", name: "boris", category: "blitz", before: 1500, after: 1612, deviation: 290, provisional: true };
  assert.equal(changeLine(up), "boris (black-A) 1500 → 1612? (+112)");
  const down = { ...up, seat: "WhiteA", name: "anna", after: 1388, provisional: false };
  assert.equal(changeLine(down), "anna (white-A) 1500 → 1388 (−112)");
  assert.equal(ratingText({ rating: 1687, provisional: false }), "1687");
});

test("a_history_reads_oldest_first", () => {
  const newestFirst = [
    { match_id: 3, at_ms: 3, before: 1560, after: 1590 },
    { match_id: 2, at_ms: 2, before: 1612, after: 1560 },
    { match_id: 1, at_ms: 1, before: 1500, after: 1612 },
  ];
  assert.equal(historyLine(newestFirst), "1612 → 1560 → 1590");
});
