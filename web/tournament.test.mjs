// A tournament's words in the page (tournament.js): scores in quarter points written as
// crosstables write them, and each game of a pairing as it stands (RULES.md S3: who chooses what,
// the match, the result and who entered it).

import { test } from "node:test";
import assert from "node:assert/strict";
import { countdown, crosstable, formatText, gameText, myGame, ordinal, points, roundOver } from "./tournament.js";
import { setLanguage } from "./i18n.js";

test("quarter points are written as halves, and Sonneborn–Berger's quarters as decimals in the page's language", () => {
  assert.deepEqual([0, 2, 4, 6, 8, 3, 9].map(points), ["0", "½", "1", "1½", "2", "0.75", "2.25"]);
  setLanguage("ru");
  try {
    assert.deepEqual([3, 9, 2].map(points), ["0,75", "2,25", "½"], "a decimal comma in Russian");
  } finally {
    setLanguage("en");
  }
});

test("the format says round robin or the Swiss's rounds", () => {
  assert.equal(formatText({ format: "RoundRobin" }), "round robin");
  assert.equal(formatText({ format: { Swiss: { rounds: 5 } } }), "Swiss, 5 rounds");
});

const names = { 1: "Ладьи", 2: "Кони" };
const name = (team) => names[team];
const pairing = { first: 1, second: 2 };
const game = {
  game: 1, seating_team: 1, colour_team: 2, seating: null, colours: null, seats: null,
  choices_due_ms: 0, match_id: null, result: null,
};

test("S3: a game waits for the seating team and the colour team, each named", () => {
  assert.equal(gameText(game, name, pairing), "Ладьи to choose the seating; Кони to choose the colours");
  assert.equal(gameText({ ...game, seating: "Crossed" }, name, pairing), "crossed; Кони to choose the colours");
  assert.equal(gameText({ ...game, seating: "Straight", colours: "WhiteOnB", match_id: 12 }, name, pairing), "in play: match 12");
});

test("a result names the winner, where it came from and the director who entered it", () => {
  const online = { outcome: "SecondWins", source: "Online", director: null, note: "" };
  assert.equal(gameText({ ...game, result: online }, name, pairing), "Кони won");
  const board = { outcome: "Draw", source: "OverTheBoard", director: "Secret", note: "над доской" };
  assert.equal(gameText({ ...game, result: board }, name, pairing), "draw (over the board) — the director: над доской");
  const forfeit = { outcome: "FirstWins", source: "Forfeit", director: { Account: "maria" }, note: "" };
  assert.equal(gameText({ ...game, result: forfeit }, name, pairing), "Ладьи won (forfeit) — maria");
});

test("a player's game is his team's pairing, game 1 until it has a result, then game 2; a bye is said", () => {
  const g1 = { ...game, game: 1 };
  const g2 = { ...game, game: 2, seating_team: 2, colour_team: 1 };
  const view = {
    teams: [
      { team: 1, name: "Ладьи", players: ["anna", "boris"], withdrawn: false },
      { team: 2, name: "Кони", players: ["vera", "gleb"], withdrawn: false },
      { team: 3, name: "Слоны", players: ["dina", "egor"], withdrawn: false },
    ],
    round: {
      round: 1,
      repeats_allowed: false,
      tables: [
        { Pairing: { table: 1, first: 1, second: 2, repeat: false, games: [g1, g2] } },
        { Bye: { table: 2, team: 3 } },
      ],
    },
  };
  assert.equal(myGame(view, "gleb")?.game?.game, 1);
  assert.equal(myGame(view, "gleb")?.team, 2);
  const decided = { ...g1, result: { outcome: "Draw", source: "Online", director: null, note: "" } };
  const later = { ...view, round: { ...view.round, tables: [{ Pairing: { table: 1, first: 1, second: 2, repeat: false, games: [decided, g2] } }, view.round.tables[1]] } };
  assert.equal(myGame(later, "anna")?.game?.game, 2, "game 2 once game 1 has its result");
  assert.deepEqual(myGame(view, "egor"), { team: 3, bye: true });
  assert.equal(myGame(view, "nobody"), null);
  assert.equal(myGame({ ...view, round: null }, "anna"), null);
});

test("a deadline counts down in minutes and seconds and stops at zero", () => {
  assert.equal(countdown(125_000, 0), "2:05");
  assert.equal(countdown(1_500, 1_000), "0:01");
  assert.equal(countdown(0, 5_000), "0:00");
});

test("a tournament's refusal is said from its code and parameters, with its rule", async () => {
  const { refusalText } = await import("./notice.js");
  const game = { round: 1, table: 2, game: 1 };
  const err = (code, rule = null) => ({ code: { Tournament: code }, rule, message: "the server's English, not shown" });
  assert.equal(refusalText(err({ NotYourChoice: { game, choice: "Seating" } }, "S3")),
    "refused (S3): the seating of round 1, table 2, game 1 is the other team's choice");
  assert.equal(refusalText(err({ AlreadyChosen: { game, choice: "Colours" } }, "S3")),
    "refused (S3): the colours of round 1, table 2, game 1 is chosen already; a choice is final");
  assert.equal(refusalText(err("NotAMember")), "refused: you play for no team of this tournament");
  assert.equal(refusalText(err({ UnknownRound: { round: 9 } })), "refused: there is no round 9");
  assert.match(refusalText(err({ DeadlinePassed: { game, due_ms: 0 } }, "S3")), /^refused \(S3\): the choices of round 1, table 2, game 1 were due at .+; the defaults apply$/);
});

test("the crosstable is the rounds' results in standings order, summed where teams met twice, with the byes", () => {
  const result = (outcome) => ({ outcome, source: "Online", director: null, note: "" });
  const g = (n, outcome) => ({ ...game, game: n, result: outcome ? result(outcome) : null });
  const pairing = (table, first, second, a, b) => ({ Pairing: { table, first, second, repeat: false, games: [g(1, a), g(2, b)] } });
  const view = { standings: [{ team: 2 }, { team: 1 }, { team: 3 }] };
  const rounds = [
    { round: 1, repeats_allowed: false, tables: [pairing(1, 1, 2, "SecondWins", "Draw"), { Bye: { table: 2, team: 3 } }] },
    { round: 2, repeats_allowed: false, tables: [pairing(1, 3, 1, "FirstWins", null), { Bye: { table: 2, team: 2 } }] },
  ];
  assert.deepEqual(crosstable(view, rounds), [
    { team: 2, cells: [null, 6, null], byes: 8 },
    { team: 1, cells: [2, null, 0], byes: 0 },
    { team: 3, cells: [null, 4, null], byes: 8 },
  ]);
});

test("a Swiss of one round is one round", () => {
  assert.equal(formatText({ format: { Swiss: { rounds: 1 } } }), "Swiss, 1 round");
  assert.equal(formatText({ format: "RoundRobin", chess960: true }), "round robin, Chess960");
});

test("after the round, where the player's team stands", () => {
  const decided = { ...game, result: { outcome: "Draw", source: "OverTheBoard", director: null, note: "" } };
  const v = {
    teams: [{ team: 1, name: "Ладьи", players: ["anna", "boris"], withdrawn: false }, { team: 2, name: "Кони", players: ["vera", "gleb"], withdrawn: false }],
    round: { round: 2, tables: [{ Pairing: { table: 1, first: 1, second: 2, repeat: false, games: [decided, { ...decided, game: 2 }] } }], repeats_allowed: false, absent: [], by_hand: null },
    standings: [{ rank: 1, team: 2, points: 10 }, { rank: 2, team: 1, points: 6 }],
  };
  assert.deepEqual(roundOver(v, "boris"), { team: 1, round: 2, rank: 2, of: 2, points: 6 });
  assert.equal(roundOver({ ...v, round: { ...v.round, tables: [{ Pairing: { table: 1, first: 1, second: 2, repeat: false, games: [decided, game] } }] } }, "boris"), null);
  assert.equal(roundOver(v, "stranger"), null);
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal), ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]);
});
