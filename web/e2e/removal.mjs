// End to end: the analysis' marks that only a chosen position shows (issue 35), on a BPGN record
// reviewed in the browser. The record starts (its BFEN tag) where White-A promotes on a8 and, under
// MGIMO's R1, removes White-B's only piece but the king, the queen on c7, while Black-B, his king
// on a8 shut in by that queen and nothing in reserve, has no move: he waits for a piece (M3,
// `Waiting`). At the start the engine's best move on board A is the promotion, so board B shows
// the removal crossed out on c7, and board B's bar carries the striped "waiting" mark with the
// words that say it; after 1A. a8=Qc7 both are gone. A desktop pastes the record; a phone, in
// Russian, sees the same marks on its small second board. (`Drawn` needs a preset whose
// stalemate draws; no built-in preset has one, so no record reaches it.)
//
//   node web/e2e/removal.mjs --url http://127.0.0.1:HTTPPORT/ --transport webtransport|websocket --out DIR
//
// Exit 0 only if everything held; prints one line per screenshot.

import { join } from "node:path";

import { fail, launch, openPlayer, report, run, until } from "./browser.mjs";
import { script } from "./script.mjs";
import { expectRussian } from "./russian.mjs";

const { args, step, shot } = script("removal.mjs");
let browser;
const players = new Map();

/** Board A: White-A's pawn on a7 promotes. Board B: Black-B to move, stalemated by the queen
 * a promotion on board A may remove. Then the promotion, and Black-B's freed king. */
const RECORD = `[Event "Removal study"]
[WhiteA "Anna"]
[BlackA "Boris"]
[WhiteB "Vera"]
[BlackB "Gleb"]
[TimeControl "180+0"]
[Rules "mgimo-2017"]
[SetUp "1"]
[BFEN "8/P7/7k/8/8/8/8/6K1[] w - - 0 1 | k7/2Q5/8/8/8/8/8/4K3[] b - - 0 1"]
[Result "*"]

1A. a8=Qc7 1b. Kb7 *
`;

/** The analysis shown is that of the position reviewed now. */
async function analysisShown(page, what) {
  await until(page, `the analysis of the position shown (${what})`,
    () => window.shvedka.analysis?.shown != null && window.shvedka.analysis.shown.bfen === window.shvedka.review?.bfen, null,
    { timeout: 60000, seen: () => ({ analysis: window.shvedka.analysis, review: window.shvedka.review?.bfen }) });
}

/**
 * What the analysis draws on each board, read from the page: the square under the middle of the
 * removal's cross (found by the page itself, as a player's eye would: the layer lets the pointer
 * through), the bar's mark, words and stripe, and the line's removal sign.
 */
const marks = (page) => page.evaluate(() => {
  const out = {};
  for (const b of ["A", "B"]) {
    const layer = document.querySelector(`svg[data-arrows="${b}"]`);
    const cross = layer.querySelector("g.removal");
    let under = null;
    if (cross) {
      const lines = [...cross.querySelectorAll("line")];
      const [x1, y1, x2, y2] = ["x1", "y1", "x2", "y2"].map((a) => Number(lines[0].getAttribute(a)));
      const [x, y] = [(x1 + x2) / 2, (y1 + y2) / 2];
      layer.parentElement.scrollIntoView({ block: "nearest" });
      const pt = new DOMPoint(x, y).matrixTransform(layer.getScreenCTM());
      const sq = document.elementFromPoint(pt.x, pt.y)?.closest("[data-square]");
      const box = cross.getBoundingClientRect();
      under = { lines: lines.length, square: sq ? `${sq.getAttribute("data-board")}:${sq.getAttribute("data-square")}` : null, size: Math.round(box.width) };
    }
    const bar = document.querySelector(`.evalbar[data-evalbar="${b}"]`);
    const stripe = getComputedStyle(bar, "::before").backgroundImage;
    const fill = bar.querySelector(".evalbar-white").getBoundingClientRect().height / bar.getBoundingClientRect().height;
    const removal = document.querySelector(`[data-an-line="${b}"] .an-removal`);
    out[b] = {
      cross: under,
      mark: bar.getAttribute("data-mark"),
      white: bar.getAttribute("data-white"),
      fill: Math.round(fill * 100) / 100,
      title: bar.getAttribute("title"),
      striped: stripe.startsWith("repeating-linear-gradient"),
      removal: removal ? { text: removal.textContent, title: removal.getAttribute("title") } : null,
      eval: document.querySelector(`[data-an-line="${b}"] .an-eval`)?.textContent ?? null,
    };
  }
  return out;
});

/** Waits until the bars' fills have stopped moving (they ease to a new share), so that a
 * screenshot and a measure show where they come to rest. */
async function settled(page) {
  await until(page, "the bars at rest", () => document.getAnimations().every((a) => a.playState !== "running"), null,
    { seen: () => document.getAnimations().map((a) => a.playState) });
}

/**
 * Checks the start: board A's best move is the promotion removing c7; board B shows the cross on
 * c7 and the waiting bar; board A neither.
 */
async function expectAtStart(page, who, words) {
  await settled(page);
  const r = await report(page);
  const [a, b] = r.analysis.shown.boards;
  if (!/^a8=Qc7/.test(a.best ?? "") || a.to !== "a8") fail(`${who}: board A's best move is the promotion removing c7`, { best: "a8=Qc7", to: "a8" }, a);
  if (b.best !== null || b.evaluation !== "…") fail(`${who}: Black-B has no move`, { best: null, evaluation: "…" }, b);
  const m = await marks(page);
  if (m.B.cross?.square !== "B:c7" || m.B.cross.lines !== 2 || !(m.B.cross.size > 5)) fail(`${who}: the removal crossed out on board B's c7`, { square: "B:c7", lines: 2, size: "> 5 px" }, m.B.cross);
  if (m.A.cross) fail(`${who}: no cross on board A`, null, m.A.cross);
  const crossed = await page.locator('[data-board="B"][data-square="c7"] [data-piece]').getAttribute("data-piece");
  if (crossed !== "wQ") fail(`${who}: the piece crossed out is White-B's queen`, "wQ", crossed);
  if (m.B.removal?.text !== "✕" || m.B.removal.title !== words.removal) fail(`${who}: board B's line says the removal`, { text: "✕", title: words.removal }, m.B.removal);
  if (m.B.mark !== "waiting" || !m.B.striped || m.B.title !== words.waiting || m.B.white !== "0.500" || Math.abs(m.B.fill - 0.5) > 0.02 || m.B.eval !== "…") {
    fail(`${who}: board B's bar striped as waiting, filled to its middle`, { mark: "waiting", striped: true, title: words.waiting, white: "0.500", fill: 0.5, eval: "…" }, m.B);
  }
  if (m.A.mark !== "" || m.A.striped) fail(`${who}: board A's bar unmarked`, { mark: "", striped: false }, m.A);
  return { a, m };
}

/** Pastes the record into the lobby's form, reviews it from its start with the analysis on. */
async function reviewFromStart(page) {
  await page.locator("#record-text").fill(RECORD);
  await page.locator("#record-review").click();
  await until(page, "the record is reviewed at its end", () => window.shvedka.review?.matchId === 0 && window.shvedka.review?.move === 2, null,
    { seen: () => window.shvedka.review });
  await page.locator("#review-analysis").click();
  await page.locator("#review-first").click();
  await until(page, "the record at its start", () => window.shvedka.review?.move === 0, null, { seen: () => window.shvedka.review });
  await analysisShown(page, "the start");
}

async function main() {
  browser = await launch();
  const judge = { name: "judge", ...(await openPlayer(browser, "judge")) };
  players.set("judge", judge);
  const page = judge.page;
  await page.goto(`${args.url}?name=judge&transport=${args.transport}`);
  await until(page, "judge connected", () => window.shvedka?.connected, null);
  await reviewFromStart(page);
  const en = {
    removal: "the promotion on the other board removes this piece",
    waiting: "the side to move has no move: it waits for a piece from its partner",
  };
  const { a } = await expectAtStart(page, "judge at the start", en);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, "removal-desktop.png", `the record's start: board A's arrow a7–a8 (${a.best}, ${a.evaluation}); on board B the queen on c7 crossed out, ✕ in its line, its bar striped: Black-B waits (…)`);
  step(`at the start: A ${a.evaluation} ${a.best}; B waits, c7 crossed out`);

  // After the promotion the queen is gone from c7, Black-B has moves: no cross, no stripe.
  await page.keyboard.press("ArrowRight");
  await until(page, "the record after 1A. a8=Qc7", () => window.shvedka.review?.move === 1, null, { seen: () => window.shvedka.review });
  await analysisShown(page, "move 1");
  await settled(page);
  const after = await marks(page);
  if (after.A.cross || after.B.cross || after.B.removal || after.B.mark !== "" || after.B.striped) {
    fail("after 1A. a8=Qc7: no cross, board B's bar unmarked", { cross: null, mark: "", striped: false }, after.B);
  }
  const piece = await page.locator('[data-board="B"][data-square="c7"] [data-piece]').count();
  if (piece) fail("the queen on board B's c7 is removed", 0, piece);
  await shot(page, "removal-after.png", "after 1A. a8=Qc7: the queen gone from board B's c7, no cross, board B's bar plain");
  step("after the promotion: the cross and the stripe are gone");

  // A phone, in Russian: the same marks on the small second board.
  const ru = { name: "gleb", ...(await openPlayer(browser, "gleb", { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true, locale: "ru-RU" })) };
  players.set("gleb", ru);
  await ru.page.goto(`${args.url}?name=gleb&transport=${args.transport}`);
  await until(ru.page, "gleb connected", () => window.shvedka?.connected, null);
  await reviewFromStart(ru.page);
  await expectAtStart(ru.page, "gleb's phone at the start", {
    removal: "превращение на другой доске снимает эту фигуру",
    waiting: "у стороны, чей ход, нет ходов: она ждёт фигуру от партнёра",
  });
  await expectRussian(ru.page, "the record's review with the analysis on a phone", "#match", ["Anna", "Boris", "Vera", "Gleb", "gleb"]);
  await ru.page.evaluate(() => window.scrollTo(0, 0));
  await shot(ru.page, "removal-phone.png", "gleb's phone in Russian at the record's start: board B's c7 crossed out, its bar striped");
  const boardB = ru.page.locator('svg[data-arrows="B"]').locator("xpath=..");
  const close = join(String(args.out), "removal-phone-board-b.png");
  await boardB.screenshot({ path: close });
  console.log(`screenshot ${close}: gleb's small board B, close: the queen on c7 crossed out, the striped bar`);
  step("gleb's phone: the cross on c7 and the waiting stripe, in Russian");

  const errors = [...players.values()].flatMap((p) => p.errors);
  if (errors.length) fail("no console errors", [], errors);
  console.log(`PASS: the removal cross and the waiting stripe over ${args.transport}`);
}

await run(main, args.out, () => ({ browser, players }));
