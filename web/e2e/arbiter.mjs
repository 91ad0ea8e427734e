// End to end: the arbiter's panel (RULES.md A2, K5). Four players start a match; an arbiter
// page (?arbiter, the secret typed in the lobby's field, never in the address) finds it among the
// live matches and watches it; a player calls the
// arbiter (the clocks stop); the arbiter adds a minute to a clock, restarts the clocks, takes
// back a move, pauses and resumes, and declares the result. Every page must follow each act.
// An arbiter who opens the match only after the call reads who called and why (issue 55); a
// result corrected after the end reaches every page still on the match, with the reason.
// The arbiter's browser speaks Russian (issue 31): his list of live matches, his panel and the
// acts in the move list are in Russian, nothing cut off; the players read the result in English.
//
//   node web/e2e/arbiter.mjs --url http://127.0.0.1:HTTPPORT/ --transport webtransport|websocket \
//        --token ARBITER_SECRET --out DIR
//
// The server must run with that `arbiter_token`. Exit 0 only if everything held.

import { fail, launch, openPlayer, report, run, until } from "./browser.mjs";
import { script } from "./script.mjs";
import { openPlayers, seatAndStart } from "./table.mjs";
import { clickMove, sq } from "./ui.mjs";
import { expectRussian } from "./russian.mjs";

const { args, step, shot } = script("arbiter.mjs", { token: { type: "string" } });
if (!args.token) {
  console.error("usage: node web/e2e/arbiter.mjs --url http://127.0.0.1:PORT/ --transport webtransport|websocket --token SECRET --out DIR");
  process.exit(2);
}
let browser;
let players = new Map();
const NAMES = ["anna", "boris", "vera", "gleb", "judge"];

/** Every page (players and arbiter) reaches `phase`. */
async function allSee(what, fn, arg, seen) {
  for (const p of players.values()) {
    await until(p.page, `${p.name}: ${what}`, fn, arg, { seen });
  }
}

async function main() {
  browser = await launch();
  players = await openPlayers(browser, args.url, args.transport, [
    { name: "anna", seat: "WhiteA" },
    { name: "boris", seat: "BlackA" },
    { name: "vera", seat: "WhiteB" },
    { name: "gleb", seat: "BlackB" },
    { name: "judge", query: "&arbiter", locale: "ru-RU" },
    { name: "careless", query: `&arbiter=${encodeURIComponent(args.token)}` },
  ]);
  const judge = players.get("judge").page;
  // A secret put in the address is wiped from it and not used (addresses are kept in histories
  // and logs): that page is no arbiter.
  const careless = players.get("careless").page;
  await careless.locator("#arbiter-form").waitFor({ state: "visible", timeout: 10000 });
  if (careless.url().includes(args.token)) fail("the secret stays in the address bar", "no secret", careless.url());
  if (await careless.locator("#arbiter-lobby").isVisible()) fail("a secret in the address made an arbiter", "hidden", "visible");
  await careless.close();
  players.delete("careless");
  step("a secret in the address is wiped and not used");
  await judge.locator("#arbiter-form").waitFor({ state: "visible", timeout: 10000 });
  await shot(judge, "arbiter-secret-field.png", "the lobby of a page opened with ?arbiter: the arbiter's secret field, typed, never in the address");
  await judge.locator("#arbiter-secret").fill("not the secret");
  await judge.locator("#arbiter-become").click();
  await until(judge, "a wrong secret is refused (in Russian)", () => /^отказано/.test(window.shvedka.lastError ?? ""), null,
    { seen: () => window.shvedka.lastError });
  await judge.locator("#arbiter-secret").fill(args.token);
  await judge.locator("#arbiter-become").click();
  const matchId = await seatAndStart(players);
  step(`match ${matchId} running`);
  await clickMove(players.get("vera").page, sq("B", "e2"), "B", "e4");
  await allSee("sees 1B. e4", () => window.shvedka?.moves?.[0] === "e4" || window.shvedka?.matchId === null, null);

  // The arbiter finds the match among the live ones and watches it.
  await judge.locator("#arbiter-lobby").waitFor({ state: "visible", timeout: 10000 });
  await judge.locator("#arb-refresh").click();
  await judge.locator(`#arb-watch-${matchId}`).waitFor({ timeout: 10000 });
  const row = await judge.locator("#live").innerText();
  if (!/Смотреть/.test(row) || !/идёт игра/.test(row) || !/правила/.test(row)) fail("the arbiter's live list, in Russian", "правила … идёт игра … Смотреть", row);
  await expectRussian(judge, "the arbiter's lobby", "#arbiter-lobby", NAMES);
  await judge.locator(`#arb-watch-${matchId}`).click({ timeout: 10000 });
  await until(judge, "the arbiter follows the match", (id) => window.shvedka.matchId === id, matchId);
  await judge.locator("#arbiter-panel").waitFor({ state: "visible", timeout: 10000 });
  step("arbiter watches the match from the live list (ListPage, live)");

  // A player stops the clocks and calls the arbiter (K5): two presses, to be sure.
  const anna = players.get("anna").page;
  // She says why: a hint from outside (A6), so she asks for the game to be played again.
  await anna.locator("#call-reason").selectOption("OutsideHint");
  await anna.locator("#call-arbiter").click();
  await anna.locator("#call-arbiter").click();
  await allSee("clocks stopped for the arbiter", () => window.shvedka.phase === "Paused", null, () => window.shvedka.phase);
  await until(judge, "the arbiter reads the call's reason (in Russian)",
    () => /судью просят о переигровке: подсказка со стороны \(A6\)/.test(document.querySelector("#log").innerText), null,
    { seen: () => document.querySelector("#log").innerText.slice(0, 400) });
  step("anna called the arbiter for a replay (a hint from outside, A6): paused everywhere, the reason in the arbiter's log");

  // A second arbiter opens the match only now: its state says who called and why (K5).
  const late = { name: "late", ...(await openPlayer(browser, "late")) };
  await late.page.goto(`${args.url}?name=late&transport=${args.transport}&arbiter`);
  await until(late.page, "late connected", () => window.shvedka?.connected, null);
  await late.page.locator("#arbiter-secret").fill(args.token);
  await late.page.locator("#arbiter-become").click();
  await late.page.locator("#arbiter-lobby").waitFor({ state: "visible", timeout: 10000 });
  await late.page.locator("#arb-refresh").click();
  await late.page.locator(`#arb-watch-${matchId}`).click({ timeout: 10000 });
  await until(late.page, "the late arbiter reads the call and its reason",
    () => /stopped the clocks and asks the arbiter for a replay: a hint from outside \(A6\)/.test(document.querySelector("#log").innerText), null,
    { seen: () => document.querySelector("#log").innerText.slice(0, 400) });
  await shot(late.page, "arbiter-late.png", "an arbiter who opened the match after the call: who called and why, in his log");
  late.errors.length && fail("no console errors on the late arbiter's page", [], late.errors);
  await late.context.close();
  step("an arbiter who opens the match after the call reads who called and why");

  // A minute more for Black-A, then the clocks restart.
  await judge.locator("#arb-clock-seat").selectOption("BlackA");
  await judge.locator("#arb-clock-seconds").fill("60");
  await judge.locator("#arb-clock").click();
  for (const p of players.values()) {
    await until(p.page, `${p.name} sees 4:00 on Black-A's clock`, () => document.querySelector('[data-clock="BlackA"]').textContent === "4:00", null,
      { expected: "4:00", seen: () => document.querySelector('[data-clock="BlackA"]').textContent });
  }
  step("arbiter added 60 s on black-A's clock");
  await judge.locator("#arb-resume").click();
  await allSee("clocks running again", () => window.shvedka.phase === "Running", null, () => window.shvedka.phase);
  step("arbiter restarted the clocks");

  // Take back 1B. e4.
  await judge.locator("#arb-takeback-board").selectOption("B");
  await judge.locator("#arb-takeback").click();
  await allSee("board B back at the start", () => /^rnbqkbnr\/pppppppp\/8\/8\/8\/8\/PPPPPPPP\/RNBQKBNR\[\] w/.test(window.shvedka.bfen.split("|")[1].trim()), null, () => window.shvedka.bfen);
  // The move taken back stays in the list as played, struck through, and is no longer counted.
  await until(players.get("anna").page, "1B. e4 struck through in anna's move list",
    () => [...document.querySelectorAll("#moves li.taken-back")].some((li) => li.textContent === "1B. e4")
      && document.querySelectorAll("#moves li[data-k]").length === 0, null,
    { seen: () => document.querySelector("#moves").innerHTML.slice(0, 400) });
  step("arbiter took back the last move on board B: struck through in the list, not counted");

  await judge.locator("#arb-pause").click();
  await allSee("paused by the arbiter", () => window.shvedka.phase === "Paused", null, () => window.shvedka.phase);
  // His acts in the move list, in Russian, said from their codes.
  const notes = await judge.locator("#moves").innerText();
  for (const note of ["судья: добавил 60 с на часы чёрных A", "судья: пустил часы", "судья: вернул последний ход на доске B", "судья: остановил часы"]) {
    if (!notes.includes(note)) fail("the arbiter's acts in his move list, in Russian", note, notes);
  }
  const annaNotes = await anna.locator("#moves").innerText();
  if (!annaNotes.includes("arbiter: took back the last move on board B")) fail("the acts in anna's move list, in English", "arbiter: took back the last move on board B", annaNotes);
  await expectRussian(judge, "the arbiter's page", "#match", NAMES);
  await shot(judge, "arbiter-panel.png", `the arbiter's page (in Russian) on a paused match: the acts in the move list, the panel (pause, resume, clock, take back, position, result, annul)`);

  // The arbiter grants the replay (A6): the same match starts afresh for all four.
  await judge.locator("#arb-replay-reason").selectOption("OutsideHint");
  await judge.locator("#arb-replay-note").fill("подсказка из зала");
  await judge.locator("#arb-replay").click();
  await allSee("the game starts again: both boards at the start, no moves, four full clocks", () =>
    window.shvedka.moves.length === 0
      && window.shvedka.bfen.split("|").every((b) => /^rnbqkbnr\/pppppppp\/8\/8\/8\/8\/PPPPPPPP\/RNBQKBNR\[\] w/.test(b.trim()))
      && ["Running", "Countdown"].includes(window.shvedka.phase)
      && document.querySelector('[data-clock="BlackA"]').textContent === "3:00", null,
    () => ({ moves: window.shvedka.moves, bfen: window.shvedka.bfen, phase: window.shvedka.phase, clock: document.querySelector('[data-clock="BlackA"]').textContent }));
  await until(judge, "the replay is in the arbiter's log, in Russian",
    () => /назначил переигровку: подсказка со стороны \(A6\) \(подсказка из зала\)/.test(document.querySelector("#log").innerText), null,
    { seen: () => document.querySelector("#log").innerText.slice(0, 400) });
  await allSee("the replayed game is running", () => window.shvedka.phase === "Running", null, () => window.shvedka.phase);
  step("arbiter replayed the game (A6): the same seats, both boards and all four clocks afresh");
  await shot(judge, "arbiter-replayed.png", "the arbiter's page after the replay: both boards at the start, four full clocks");

  // The result, with a reason.
  await judge.locator("#arb-winner").selectOption("One");
  await judge.locator("#arb-result-reason").fill("team 2 left the hall");
  await judge.locator("#arb-declare").click();
  for (const p of players.values()) {
    await until(p.page, `${p.name} sees the declared result`, () => window.shvedka.result !== null, null, { seen: () => window.shvedka.result });
    const r = (await report(p.page)).result;
    if (r.winner !== "One" || r.rule !== "A2" || !/declared by the arbiter/.test(r.reason)) {
      fail(`${p.name}'s result`, { winner: "One", rule: "A2", reason: "…declared by the arbiter…" }, r);
    }
    const text = await p.page.locator("#result").innerText();
    if (p.name === "judge") {
      if (!/Победила команда 1/.test(text) || !/A2/.test(text) || !/решение судьи — «team 2 left the hall»/.test(text)) {
        fail("the arbiter's result banner, in Russian", "Победила команда 1 … решение судьи — «team 2 left the hall» … A2", text);
      }
    } else if (!/Team 1 wins/.test(text) || !/A2/.test(text) || !/team 2 left the hall/.test(text)) {
      fail(`${p.name}'s result banner`, "Team 1 wins … “team 2 left the hall” … A2", text);
    }
  }
  step("arbiter declared: team 1 wins (A2), with his reason, shown everywhere");
  await shot(judge, "arbiter-result.png", `the arbiter's page after declaring the result: banner with the reason and rule A2`);

  // Later he corrects it (A2): every page still on the match shows the draw and its reason.
  await judge.locator("#arb-winner").selectOption("");
  await judge.locator("#arb-result-reason").fill("a flag missed");
  await judge.locator("#arb-declare").click();
  for (const p of players.values()) {
    await until(p.page, `${p.name} sees the corrected result`,
      () => window.shvedka.result?.winner === null && /a flag missed/.test(document.querySelector("#result").innerText), null,
      { seen: () => ({ result: window.shvedka.result, banner: document.querySelector("#result").innerText }) });
  }
  await shot(players.get("anna").page, "arbiter-corrected.png", "a player's page after the arbiter corrected the result: the draw with his reason");
  step("the arbiter corrected the result after the end: every open page shows the draw and his reason");
  const errors = [...players.values()].flatMap((p) => p.errors);
  if (errors.length) fail("no console errors", [], errors);
  console.log(`PASS: the arbiter's panel over ${args.transport}`);
}

await run(main, args.out, () => ({ browser, players }));
