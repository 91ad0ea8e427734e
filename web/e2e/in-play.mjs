// End to end (issue 57, item 1): a director's result for a game in play, from the desk in
// Russian. Game 1 of table 1 is being played (four Rust clients seated, the clocks running). The
// director's first click on «Внести» is a stray one: the page asks, naming the table, the game and
// its match and saying the match will end; he declines and nothing is sent (the game has no
// result). The second time he confirms: the match ends with his result and words (the Rust test
// checks that its players are told), the desk shows the result as the director's («решение
// директора», not «за доской»), it offers no «Снять» for a game played online, and its «Матч N»
// opens the decided match's review.
//
//   node web/e2e/in-play.mjs --url http://127.0.0.1:HTTPPORT/ --transport websocket --out DIR \
//     --director boss --tournament ID --match M --player NAME --partner NAME
//
// The account `--director` (password NAME-password) holds the director role; `--player` plays
// game 1: his page is seated in it and, at its end, taken to game 2's card; `--partner` opens
// the tournament's own address on another page.

import { readFileSync } from "node:fs";
import { join } from "node:path";

import { fail, launch, openPlayer, run, until } from "./browser.mjs";
import { script } from "./script.mjs";

const { args, step, shot } = script("in-play.mjs", {
  director: { type: "string" },
  tournament: { type: "string" },
  match: { type: "string" },
  player: { type: "string" },
  partner: { type: "string" },
});
const id = Number(args.tournament);
const matchId = Number(args.match);
let browser;
const pages = new Map();

/**
 * A page of its own, logged in to account `name` (password NAME-password) from `address`.
 * @param {string} label
 * @param {string} name
 * @param {string} address
 * @param {object} [options]  the browser context's
 */
async function logIn(label, name, address, options = {}) {
  const p = await openPlayer(browser, label, options);
  pages.set(label, { ...p, name: label });
  await p.page.goto(address, { timeout: 15000 });
  await p.page.locator("#name").fill(name);
  await p.page.locator("#password").fill(`${name}-password`);
  await p.page.locator("#enter").click();
  return p.page;
}

async function main() {
  browser = await launch();
  const home = `${args.url}?transport=${args.transport}`;
  const td = await logIn("director", String(args.director), home, { viewport: { width: 1400, height: 1000 }, locale: "ru-RU" });
  await until(td, "the director is in the lobby", (id) => document.getElementById(`t-open-${id}`) !== null, id);
  await td.locator(`#t-open-${id}`).click();
  await until(td, "the desk offers game 1 of table 1", () => document.getElementById("d-r1-1-enter") !== null, null);
  // The tournament's page has an address of its own (opened below on another page). Read on the
  // desk, which stays on the tournament (a player's page goes to his game's screen by itself).
  const address = td.url();
  if (!address.includes(`tournament=${id}`)) fail("the tournament's page has its address", `…tournament=${id}`, address);
  // A player of the game opens the tournament on a new device: the tournament's page seats him
  // in his game (the seat is his account's) and shows its screen.
  const pl = await logIn("player", String(args.player), home);
  await until(pl, "the player is in the lobby", (id) => document.getElementById(`t-open-${id}`) !== null, id);
  await pl.locator(`#t-open-${id}`).click();
  await until(pl, "the player is seated in his game 1 and sees it", (m) => window.shvedka?.matchId === m && !document.getElementById("match").hidden, matchId,
    { seen: () => [window.shvedka?.matchId, document.getElementById("match").hidden] });
  // The game's screen speaks the tournament: its name, round, table and game, a way back, and the
  // teams by their names (issue 57, item 6).
  await until(pl, "the game's title names the tournament, round, table and game", () => /^Evening: round 1, table 1, game 1 · /.test(document.getElementById("match-title").textContent ?? "")
    && /\((Team 1|Team 2)\)/.test(document.getElementById("match-title").textContent ?? "") && !document.getElementById("to-tournament").hidden, null,
    { seen: () => document.getElementById("match-title")?.textContent });
  await shot(pl, "in-play-player-game-one.png", "the player's game 1: the title names the tournament, round, table and game and his team by name");
  step(`${args.player} follows his game 1 (match ${matchId}) on its screen: «${await pl.locator("#match-title").textContent()}»`);
  await td.locator("#d-r1-1-outcome").selectOption("SecondWins");
  await td.locator("#d-r1-1-reason").fill("команда покинула зал");
  // The stray click: asked, declined, nothing sent.
  /** @type {string[]} */
  const asked = [];
  td.once("dialog", (d) => { asked.push(d.message()); void d.dismiss(); });
  await td.locator("#d-r1-1-enter").click();
  if (asked.length !== 1) fail("the director is asked before a game in play is ended", 1, asked.length);
  const want = [/Стол 1, партия 1 ещё идёт/, new RegExp(`матч ${matchId}`), /Закончить её сейчас этим результатом/, /Игрокам об этом сообщат/];
  for (const w of want) if (!w.test(asked[0])) fail("the question names the game, its match and what happens", String(w), asked[0]);
  // confirm() answered within the click's handler, which returns before sending anything.
  const points = await td.evaluate(() => (window.shvedka?.tournament?.standings ?? []).reduce((s, l) => s + l.points, 0));
  if (points !== 0) fail("declined, nothing is entered", 0, points);
  if ((await td.locator("#d-r1-1-enter").textContent()) !== "Внести") fail("the game still has no result", "Внести", await td.locator("#d-r1-1-enter").textContent());
  step(`a stray click is asked about and declined: «${asked[0]}»`);
  await shot(td, "in-play-desk-before.png", "the desk in Russian while game 1 of table 1 is in play, after the declined question");
  // Deliberately: confirmed.
  td.once("dialog", (d) => void d.accept());
  await td.locator("#d-r1-1-enter").click();
  await until(td, "the result is in, as the director's", () => document.getElementById("d-r1-1-enter")?.textContent === "Исправить", null,
    { seen: () => document.getElementById("d-r1-1-enter")?.textContent });
  const games = await td.locator("#t-round").innerText().catch(() => "");
  if (!/решение директора/.test(games)) fail("the round's table says the result is the director's", "решение директора", games);
  if (/за доской/.test(games)) fail("an online game's result is not called over the board", "no «за доской»", games);
  if (await td.locator("#d-r1-1-clear").count()) fail("a game played online offers no clearing", 0, 1);
  await shot(td, "in-play-desk-after.png", "the desk after the director ended game 1 with his result: «Исправить», the round says «решение директора»");
  step("confirmed: the result is the director's, the match ended with it");
  // The result names the team by its name, and the player is taken to the tournament's page,
  // to game 2's card.
  // His card for game 2, or already game 2's screen: with the choices defaulted at once, the
  // server may make game 2's match (and the card seat him there) before a look at the card.
  await until(pl, "the player is taken from game 1's end to game 2", () => (!document.getElementById("tournament").hidden
    && /game 2/.test(document.getElementById("t-mine")?.textContent ?? ""))
    || (!document.getElementById("match").hidden && /, game 2 · /.test(document.getElementById("match-title")?.textContent ?? "")), null,
    { seen: () => [document.getElementById("tournament").hidden, document.getElementById("t-mine")?.textContent, document.getElementById("match-title")?.textContent] });
  await shot(pl, "in-play-player-game-two.png", "the player, taken from game 1's end screen to game 2 (his card, or its screen once made)");
  step(`${args.player} was taken from game 1's end to game 2: ${await pl.locator(await pl.locator("#tournament").isVisible() ? "#t-mine" : "#match-title").innerText()}`);
  // The tournament's own address opens it straight after log-in.
  const shared = await logIn("shared", String(args.partner), address);
  await until(shared, "the shared address opens the tournament after log-in", (id) => !document.getElementById("tournament").hidden
    && window.shvedka?.tournament?.id === id, id, { seen: () => [document.getElementById("tournament").hidden, window.shvedka?.tournament] });
  step(`the address ${address} opens the tournament after log-in`);
  // The round's games from the desk (issue 57, item 9): game 1's record, its result the director's.
  const [file] = await Promise.all([td.waitForEvent("download", { timeout: 15000 }), td.locator("#d-x-round-games").click()]);
  const saved = join(String(args.out), "round-1-games.bpgn");
  await file.saveAs(saved);
  const bpgn = readFileSync(saved, "utf8");
  if (file.suggestedFilename() !== "Evening — тур 1, партии.bpgn") fail("the round's games are named in Russian", "Evening — тур 1, партии.bpgn", file.suggestedFilename());
  // Game 2's match may be made already (its choices defaulted at once): one or two records.
  const records = (bpgn.match(/\[Event "Evening"\]/g) ?? []).length;
  if (records < 1 || !["[Round \"1\"]", "[Table \"1\"]", "[Game \"1\"]"].every((tag) => bpgn.includes(tag)) || !/director boss: tournament result/.test(bpgn)) fail("round 1's records, named by the tournament and table, game 1's result the director's", "[Event \"Evening\"], Round/Table/Game, director boss", bpgn.slice(0, 700));
  await until(td, "the desk says what it saved", (n) => new RegExp(`сохранено: .*\\(${n} парти[яи]\\)`).test(document.body.innerText), records);
  step(`round 1's games saved from the desk: ${file.suggestedFilename()}, ${bpgn.length} bytes`);
  // The decided game's «Матч N» opens its review (it used to answer «такой партии нет»).
  if ((await td.locator("#d-r1-1-match").textContent()) !== `Матч ${matchId}`) fail("the desk's button names the match", `Матч ${matchId}`, await td.locator("#d-r1-1-match").textContent());
  await td.locator("#d-r1-1-match").click();
  await until(td, "the decided game's match is reviewed from the desk", (m) => window.shvedka?.review?.matchId === m && !document.getElementById("match").hidden, matchId,
    { seen: () => window.shvedka?.review });
  await shot(td, "in-play-review.png", "the decided game reviewed from the desk's «Матч N»");
  step("the decided game's match opens as a review from the desk");
  for (const p of pages.values()) if (p.errors.length) fail("no console errors", [], p.errors);
}

await run(main, args.out, () => ({ browser, players: pages }));
