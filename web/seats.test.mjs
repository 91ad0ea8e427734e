// Seats, teams and orientation (RULES.md S1, S2).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  SEAT_ORDER, boardOf, boardOrder, marked, opponentOf, otherBoard, partnerOf, seatAt, seatIndex, seatLabel, teamLabel, teamOf,
  whiteAtBottom,
} from "./seats.js";

test("s1_partners_and_teams", () => {
  assert.equal(partnerOf("WhiteA"), "BlackB");
  assert.equal(partnerOf("BlackB"), "WhiteA");
  assert.equal(partnerOf("BlackA"), "WhiteB");
  assert.equal(partnerOf("WhiteB"), "BlackA");
  assert.deepEqual(SEAT_ORDER.map(teamOf), ["One", "Two", "Two", "One"]);
  for (const s of SEAT_ORDER) assert.equal(teamOf(partnerOf(s)), teamOf(s), s);
  for (const s of SEAT_ORDER) assert.notEqual(teamOf(opponentOf(s)), teamOf(s), s);
  assert.equal(teamLabel("Two"), "team 2");
});

test("seats_boards_and_labels", () => {
  assert.deepEqual(SEAT_ORDER.map(boardOf), ["A", "A", "B", "B"]);
  assert.deepEqual(SEAT_ORDER.map(seatIndex), [0, 1, 2, 3]);
  assert.deepEqual(SEAT_ORDER.map(seatLabel), ["white-A", "black-A", "white-B", "black-B"]);
  assert.equal(seatAt("B", false), "BlackB");
  assert.equal(otherBoard("A"), "B");
});

test("own_board_from_own_side_partners_board_from_partners_side", () => {
  // White-A: board A White at the bottom; board B seen as Black-B (his partner) sits: Black below.
  assert.equal(whiteAtBottom("A", "WhiteA"), true);
  assert.equal(whiteAtBottom("B", "WhiteA"), false);
  assert.equal(whiteAtBottom("A", "BlackA"), false);
  assert.equal(whiteAtBottom("B", "BlackA"), true);
  assert.equal(whiteAtBottom("B", "WhiteB"), true);
  assert.equal(whiteAtBottom("A", "WhiteB"), false);
  assert.equal(whiteAtBottom("B", "BlackB"), false);
  assert.equal(whiteAtBottom("A", "BlackB"), true);
  // A spectator sees the players as they sit: A with White below, B with Black below.
  assert.equal(whiteAtBottom("A", null), true);
  assert.equal(whiteAtBottom("B", null), false);
  assert.deepEqual(boardOrder("BlackB"), ["B", "A"]);
  assert.deepEqual(boardOrder("BlackA"), ["A", "B"]);
  assert.deepEqual(boardOrder(null), ["A", "B"]);
});

test("guests and bots are marked beside their names; an account's name stands alone (issue 17)", () => {
  assert.equal(marked("anna", "Guest"), "anna (guest)");
  assert.equal(marked("sputnik", "Bot"), "sputnik (bot)");
  assert.equal(marked("alice", "Account"), "alice");
  assert.equal(marked("old", null), "old", "a view without a kind shows the name alone");
});
