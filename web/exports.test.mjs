// The director's exports (exports.js) as pure functions: a file's name from the tournament's
// name, and a night's games gathered page by page as the server pages them.

import { test } from "node:test";
import assert from "node:assert/strict";
import { MOST_GAME_PAGES, allGames, fileName } from "./exports.js";

test("a file's name keeps the tournament's Cyrillic name and drops what a file system refuses", () => {
  assert.equal(fileName("Осенний кубок", "тур 2, партии", "bpgn"), "Осенний кубок — тур 2, партии.bpgn");
  assert.equal(fileName('a/b:c*"d"?', "standings", "csv"), "a_b_c_d_ — standings.csv");
  assert.equal(fileName("  ", "games", "bpgn"), "tournament — games.bpgn");
});

test("the games of a round are gathered page by page from each page's next", async () => {
  const pages = new Map([
    [0, { bpgn: "[Round \"2\"]\n\n*\n\n[Round \"2\"]\n\n*\n\n", games: 2, next: 2 }],
    [2, { bpgn: "[Round \"2\"]\n\n*\n\n", games: 1, next: null }],
  ]);
  /** @type {any[]} */
  const asked = [];
  const publish = async (/** @type {any} */ what) => {
    asked.push(what);
    return { ok: { Games: pages.get(what.GamesPage.from) } };
  };
  const got = await allGames(publish, 2);
  assert.deepEqual(asked, [{ GamesPage: { round: 2, from: 0 } }, { GamesPage: { round: 2, from: 2 } }]);
  assert.equal(got?.games, 3);
  assert.equal(got?.complete, true);
  assert.equal(got?.bpgn, pages.get(0).bpgn + pages.get(2).bpgn);
});

test("a refused page gives nothing, and a server that never ends is not followed for ever", async () => {
  assert.equal(await allGames(async () => ({ err: { code: "Unauthorized", rule: null, message: "" } }), 0), null);
  let asked = 0;
  const endless = async (/** @type {any} */ what) => {
    asked += 1;
    return { ok: { Games: { bpgn: "*\n", games: 1, next: what.GamesPage.from + 1 } } };
  };
  const got = await allGames(endless, 0);
  assert.equal(asked, MOST_GAME_PAGES);
  assert.equal(got?.games, MOST_GAME_PAGES);
  assert.equal(got?.complete, false, "a file cut short is not saved as if whole");
  let stuck = 0;
  const same = async () => {
    stuck += 1;
    return { ok: { Games: { bpgn: "*\n", games: 1, next: 0 } } };
  };
  assert.equal((await allGames(same, 0))?.complete, false);
  assert.equal(stuck, 1, "a next that does not move on ends the gathering");
});
