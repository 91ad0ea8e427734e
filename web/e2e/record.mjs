// End to end: an over-the-board record reviewed in the browser (issue 35; PROTOCOL.md item 24).
// An arbiter pastes a BPGN record of a game played on real boards into the lobby's "Review a
// record" form: the page steps through it as through a stored match — both boards, the clocks
// from the record's comments, on the records crate's one time axis — to its end, with the check
// of A1 beside the moves (an impossible drop of a pawn on its player's seventh rank, type 2, P2,
// shown as it was made: the arbiter sees the position he decides on). A Russian reader on a phone uploads the same record as a
// file and reads the check in Russian; the engine's analysis works on the record as on a match.
//
//   node web/e2e/record.mjs --url http://127.0.0.1:HTTPPORT/ --transport webtransport|websocket --out DIR
//
// Exit 0 only if everything held; prints one line per screenshot.

import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { fail, launch, openPlayer, run, until } from "./browser.mjs";
import { script } from "./script.mjs";
import { expectRussian } from "./russian.mjs";

const { args, step, shot } = script("record.mjs");
let browser;
const players = new Map();

/** Six moves played, the seventh Black-B's pawn (from 2A. exd5) dropped on his seventh rank
 * (MGIMO allows pawn drops up to the sixth: type 2, P2). */
const RECORD = `[Event "Autumn cup, round 2"]
[WhiteA "Anna"]
[BlackA "Boris"]
[WhiteB "Vera"]
[BlackB "Gleb"]
[TimeControl "180+0"]
[Rules "mgimo-2017"]
[Result "*"]

1A. e4 {178.000} 1a. d5 {177.000} 2A. exd5 {176.000} 1B. d4 {179.000}
1b. e5 {178.500} 2B. dxe5 {175.000} 2b. P@d2+ {170.000} *
`;

/** A second game: Black-B's flag falls, the players of board A agree a draw inside its grace
 * window, and White-A's mate there beats both (E1, E6, E9, K4) — the server explains it. */
const EXPLAINED = `[Event "explain: a draw agreed inside a flag's grace window, then a mate"]
[WhiteA "Anna"]
[BlackA "Boris"]
[WhiteB "Vera"]
[BlackB "Gleb"]
[TimeControl "30+0"]
[Rules "mgimo-2017"]
[Result "1-0"]
[Termination "team 1 wins: mate on board by white-A (E1)"]
[TerminationRule "E1"]

1A. e4 {29.000} {[%mt 1.000]} 1B. d4 {28.000} {[%mt 2.000]} 1a. e5 {28.000}
{[%mt 3.000]} 2A. Bc4 {27.000} {[%mt 5.000]} 2a. Nc6 {27.000} {[%mt 6.000]}
3A. Qh5 {26.000} {[%mt 7.000]} 3a. Nf6 {26.000} {[%mt 8.000]}
{[%act flag t=30.410 seat=black-B clocks=3.590,26.000,28.000,0.000]}
{[%act draw t=30.600 board=A reason=agreed clocks=3.400,26.000,28.000,0.000]}
4A. Qxf7# {3.157} {[%mt 30.843]} {[%act end t=30.843 clocks=3.157,26.000,28.000,0.000]} 1-0
`;

async function main() {
  browser = await launch();
  const judge = { name: "judge", ...(await openPlayer(browser, "judge")) };
  players.set("judge", judge);
  await judge.page.goto(`${args.url}?name=judge&transport=${args.transport}`);
  await until(judge.page, "judge connected", () => window.shvedka?.connected, null);
  await judge.page.locator("#record-text").fill(RECORD);
  await judge.page.locator("#record-review").click();
  await until(judge.page, "the record is reviewed at its end, the impossible move as it was made",
    () => window.shvedka.review?.matchId === 0 && window.shvedka.review?.move === 7 && !document.getElementById("match").hidden, null,
    { seen: () => window.shvedka.review });
  const list = await judge.page.locator("#moves").innerText();
  for (const want of [
    "record check (A1): 1 impossible move",
    "2b. P@d2+: impossible move, type 2 (P2): taken back, and the other team gets a minute on both clocks",
  ]) {
    if (!list.includes(want)) fail("the check beside the moves", want, list);
  }
  // The position at the end, and Black-B's clock as the record has it.
  const r = await judge.page.evaluate(() => window.shvedka.review);
  // Board A after 2A. exd5, Black-A holding the pawn White-B took on e5 (C1).
  if (!/^rnbqkbnr\/ppp1pppp\/8\/3P4\/8\/8\/PPPP1PPP\/RNBQKBNR\[p\] b/.test(r.bfen.split("|")[0].trim())) fail("board A at the end", "…/3P4/…[p] b", r.bfen);
  // Board B with the impossible drop as it was made: Black-B's pawn on d2.
  if (!/\/PPPpPPPP\//.test(r.bfen.split("|")[1])) fail("board B as the drop was made", "…/PPPpPPPP/…", r.bfen);
  // The last move's match time as `shvedka arbiter show` places it (the records crate's one time
  // axis: thinking times board by board, never before the move written before it): 21 s.
  if (r.t !== 21000) fail("the last move's match time", 21000, r.t);
  const clock = await judge.page.locator('[data-clock="BlackB"]').textContent();
  if (clock !== "2:50") fail("Black-B's clock from the record", "2:50", clock);
  // Back to the first move, then the engine on the record.
  await judge.page.locator("#review-first").click();
  await judge.page.keyboard.press("ArrowRight");
  await until(judge.page, "the record at its first move", () => window.shvedka.review?.move === 1, null, { seen: () => window.shvedka.review });
  await shot(judge.page, "record-review.png", "an over-the-board record pasted into the lobby, reviewed at its first move: the A1 check beside the moves");
  step("a pasted record reviewed move by move, the A1 finding beside its move, clocks from the record");

  // A file of two games: the first is reviewed, the second chosen from the review; the server
  // explains why it ended as it did (E1 over a flag and over a draw in one window).
  await judge.page.locator("#review-exit").click();
  await judge.page.locator("#record-text").fill(`${RECORD}\n${EXPLAINED}`);
  await judge.page.locator("#record-review").click();
  await until(judge.page, "game 1 of 2 is reviewed", () => window.shvedka.review?.move === 7
    && document.getElementById("review-game").value === "1" && !document.getElementById("review-game").hidden, null,
    { seen: () => ({ review: window.shvedka.review, pick: document.getElementById("review-game").outerHTML }) });
  await judge.page.locator("#review-game").selectOption("2");
  await until(judge.page, "game 2 is reviewed at its end, the mate", () => window.shvedka.review?.move === 8 && window.shvedka.review?.t === 30843
    && !document.getElementById("review-why").hidden, null, { seen: () => window.shvedka.review });
  await judge.page.locator("#review-why summary").click();
  const why = await judge.page.locator("#review-why").innerText();
  for (const want of [
    "result: team 1 wins (E1)",
    "0:30.410 the flag of black-B fell (K4) · inside the flag's grace window (K4)",
    "0:30.600 board A drew (the players agreed, E3); held in the flag's window, weighed at its close",
    "0:30.843 4A. Qxf7#: black-A is mated on board (M1)",
    "weighed: a mate on board beats a draw in the same window (E9)",
    "rules that decided it: E1 — Mate on board wins, K4 — ",
  ]) {
    if (!why.includes(want)) fail("the result explained", want, why);
  }
  const links = await judge.page.locator("#review-why-rules a").count();
  if (links !== 4) fail("each rule that decided it linked to the rules page", 4, links);
  await shot(judge.page, "record-explained.png", "the second game of a record file, explained: a flag, a draw held in its window, the mate that beat both (E1, E6, E9, K4)");
  step("the second game of a two-game file reviewed and its result explained, each rule linked");

  // On a phone, in Russian, from a file.
  const path = join(String(args.out), "cup-round-2.bpgn");
  writeFileSync(path, RECORD);
  const ru = { name: "рита", ...(await openPlayer(browser, "rita", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: "ru-RU" })) };
  players.set("rita", ru);
  await ru.page.goto(`${args.url}?name=rita&transport=${args.transport}`);
  await until(ru.page, "rita connected", () => window.shvedka?.connected, null);
  await ru.page.locator("#record-file").setInputFiles(path);
  await until(ru.page, "the file's text is in the form", () => document.getElementById("record-text").value.includes("P@d2"), null);
  await ru.page.locator("#record-review").click();
  await until(ru.page, "the uploaded record is reviewed", () => window.shvedka.review?.matchId === 0 && window.shvedka.review?.move === 7, null,
    { seen: () => window.shvedka.review });
  const ruList = await ru.page.locator("#moves").innerText();
  for (const want of ["проверка записи (A1): 1 невозможный ход", "2b. P@d2+: невозможный ход 2-го типа (P2): ход возвращается"]) {
    if (!ruList.includes(want)) fail("the check in Russian", want, ruList);
  }
  await expectRussian(ru.page, "the record's review on a phone", "#match", ["Anna", "Boris", "Vera", "Gleb", "rita"]);
  await ru.page.locator("#moves").scrollIntoViewIfNeeded();
  await shot(ru.page, "record-review-phone.png", "the same record uploaded as a file on a phone, the check in Russian");
  step("an uploaded record reviewed on a phone, the check in Russian");

  // The explained game on the phone, in Russian.
  await ru.page.locator("#review-exit").click();
  await ru.page.locator("#record-text").fill(EXPLAINED);
  await ru.page.locator("#record-review").click();
  await until(ru.page, "the explained record on the phone", () => window.shvedka.review?.move === 8 && !document.getElementById("review-why").hidden, null,
    { seen: () => window.shvedka.review });
  await ru.page.locator("#review-why summary").click();
  const ruWhy = await ru.page.locator("#review-why").innerText();
  for (const want of ["Почему такой результат", "результат: победила команда 1 (E1)", "0:30,600 на доске A ничья (по соглашению, E3)",
    "решение: мат на доске сильнее ничьей в том же окне (E9)", "что решило исход: E1 — "]) {
    if (!ruWhy.includes(want)) fail("the result explained in Russian", want, ruWhy);
  }
  await expectRussian(ru.page, "the explanation on a phone", "#review-why", ["Qxf7#"]);
  await ru.page.locator("#review-why").scrollIntoViewIfNeeded();
  await shot(ru.page, "record-explained-phone.png", "the explanation of the result on a phone, in Russian");
  step("the result explained on a phone in Russian");
  const errors = [...players.values()].flatMap((p) => p.errors);
  if (errors.length) fail("no console errors", [], errors);
  console.log(`PASS: a record reviewed in the browser over ${args.transport}`);
}

await run(main, args.out, () => ({ browser, players }));
