// The director's desk and a player's entry, as pure functions (desk.js, entry.js): the field of
// the next round, the computer's proposal as a plan and whether the director changed it, a plan's
// mistakes caught before sending, the warning of a Swiss too long for its teams, and where a
// player stands in entering a tournament (invitations, check-in, absent), and the live games the
// wall shows.

import { test } from "node:test";
import assert from "node:assert/strict";
import { fieldOf, planOf, planProblem, roundsWarning, samePlan } from "./desk.js";
import { entryState, roundsLeft } from "./entry.js";
import { liveGames } from "./wall.js";

const team = (n, players, withdrawn = false) => ({ team: n, name: `T${n}`, players, withdrawn });
const view = (over = {}) => ({
  summary: { id: 1, name: "night", phase: "Registering", format: { Swiss: { rounds: 3 } }, rules: "mgimo-2017", time_control: "3+2", online: false, teams: 4, rounds_paired: 0 },
  teams: [team(1, ["anna", "boris"]), team(2, ["vera", "gleb"]), team(3, ["dina", "egor"], true), team(4, ["zhenya", "ilya"])],
  round: null, standings: [], registration_open: true, check_in: false, checked_in: [], invitations: [], most_rounds: 3,
  ...over,
});
const game = (result = null) => ({ game: 1, seating_team: 1, colour_team: 2, seating: null, colours: null, seats: null, choices_due_ms: 0, match_id: null, result });
const round = (tables, absent = []) => ({ round: 1, tables, repeats_allowed: false, absent, by_hand: null });

test("the next round's field: active teams, and only those checked in when check-in is asked", () => {
  assert.deepEqual(fieldOf(view()), [1, 2, 4]);
  assert.deepEqual(fieldOf(view({ check_in: true, checked_in: [2, 3, 4] })), [2, 4]);
});

test("a proposal as a plan; a swap is a change, naming the other team first is not", () => {
  const r = round([{ Pairing: { table: 1, first: 1, second: 4, repeat: false, games: [] } }, { Bye: { table: 2, team: 2 } }]);
  const plan = planOf(r);
  assert.deepEqual(plan, { tables: [[1, 4]], byes: [2] });
  assert.ok(samePlan(plan, { tables: [[4, 1]], byes: [2] }));
  assert.ok(!samePlan(plan, { tables: [[1, 2]], byes: [4] }));
});

test("a plan's mistakes are caught before it is sent: a team twice, a table half empty", () => {
  assert.deepEqual(planProblem({ tables: [[1, 2], [2, 4]], byes: [] }), { twice: 2 });
  assert.deepEqual(planProblem({ tables: [[1, 2]], byes: [1] }), { twice: 1 });
  assert.deepEqual(planProblem({ tables: [[1, 0]], byes: [] }), { empty: 1 });
  assert.equal(planProblem({ tables: [[1, 2]], byes: [4] }), null);
});

test("a Swiss longer than its teams can play without repeats is warned of before the start", () => {
  assert.equal(roundsWarning(view()), "");
  assert.match(roundsWarning(view({ summary: { ...view().summary, format: { Swiss: { rounds: 5 } } } })), /at most 3 rounds.*this Swiss has 5/);
  assert.equal(roundsWarning(view({ summary: { ...view().summary, phase: "Running", format: { Swiss: { rounds: 5 } } } })), "");
});

test("entry: invite while open, wait, be invited, or find registration closed", () => {
  assert.deepEqual(entryState(view(), "anna"), { kind: "none" });
  assert.deepEqual(entryState(view(), "olga"), { kind: "invite" });
  assert.deepEqual(entryState(view({ registration_open: false }), "olga"), { kind: "closed" });
  const invitations = [{ team: "Ферзи", from: "olga", to: "pavel" }];
  assert.deepEqual(entryState(view({ invitations }), "Olga"), { kind: "waiting", to: "pavel", team: "Ферзи" });
  assert.deepEqual(entryState(view({ invitations }), "pavel"), { kind: "invited", from: "olga", team: "Ферзи" });
  // A withdrawn team's player is in no team.
  assert.deepEqual(entryState(view(), "dina"), { kind: "invite" });
});

test("check-in: before a round is called, then checked in; a team not paired is told so", () => {
  const running = { ...view().summary, phase: "Running", rounds_paired: 1 };
  assert.deepEqual(entryState(view({ check_in: true }), "anna"), { kind: "check-in" });
  assert.deepEqual(entryState(view({ check_in: true, checked_in: [1] }), "anna"), { kind: "checked-in", team: 1, round: 1 });
  const open = round([{ Pairing: { table: 1, first: 2, second: 4, repeat: false, games: [game()] } }], [1]);
  assert.deepEqual(entryState(view({ summary: running, check_in: true, round: open }), "anna"), { kind: "absent", team: 1, round: 1 });
  // Once round 1 is complete, team 1 checks in for round 2.
  const done = round([{ Pairing: { table: 1, first: 2, second: 4, repeat: false, games: [game({ outcome: "Draw" })] } }], [1]);
  assert.deepEqual(entryState(view({ summary: running, check_in: true, round: done }), "anna"), { kind: "check-in" });
  // No check-in after the last round.
  const last = { ...running, format: { Swiss: { rounds: 1 } } };
  assert.deepEqual(entryState(view({ summary: last, check_in: true, round: done }), "anna"), { kind: "absent", team: 1, round: 1 });
});

test("rounds left to check in for: before the start, while rounds remain to be paired, never after the last", () => {
  assert.equal(roundsLeft(view()), true, "registering");
  const running = (over) => view({ summary: { ...view().summary, phase: "Running", ...over } });
  assert.equal(roundsLeft(running({ rounds_paired: 2 })), true, "a Swiss of 3 after round 2");
  assert.equal(roundsLeft(running({ rounds_paired: 3 })), false, "its last round is paired");
  assert.equal(roundsLeft(running({ format: "RoundRobin", rounds_paired: 2 })), true, "a round robin of most_rounds 3");
  assert.equal(roundsLeft(running({ format: "RoundRobin", rounds_paired: 3 })), false);
  assert.equal(roundsLeft(view({ summary: { ...view().summary, phase: "Finished", rounds_paired: 1 } })), false, "finished");
});

test("the wall's live games: a match made and no result, in table order", () => {
  const g = (n, match_id, result = null) => ({ ...game(result), game: n, match_id });
  const v = view({ round: round([
    { Pairing: { table: 1, first: 1, second: 2, repeat: false, games: [g(1, 7, { outcome: "Draw" }), g(2, 9)] } },
    { Pairing: { table: 2, first: 4, second: 3, repeat: false, games: [g(1, 8), g(2, null)] } },
    { Bye: { table: 3, team: 5 } },
  ]) });
  assert.deepEqual(liveGames(v), [
    { table: 1, game: 2, match: 9, first: 1, second: 2 },
    { table: 2, game: 1, match: 8, first: 4, second: 3 },
  ]);
});
