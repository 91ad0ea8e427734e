// End to end: the engine's analysis in the review (issue 35). Four pages play a short classic
// match in which White-A leaves her queen to be taken (1A. e4 d5 2A. Qg4?? Bxg4), and on board B
// Black-B has opened his king to a drop of that queen (1B. d4 f6 2B. Nf3 g5: Q@h5+); White-A
// resigns. Anna reviews it with the Analysis switch on: an evaluation bar beside each board
// (growing from White's side of the board as drawn: the bottom of her board A, the top of her
// partner's board B, which she sees from Black's side), the best move's arrow — or a drop's
// ringed target — on the square the engine names on each board, the line under each board, and
// in the background every position of the match analysed ("analysed 8 of 8 moves") with 2A. Qg4
// marked "??" in the move list. The switch is remembered when the review is opened
// again. Gleb reviews on a 390 px phone in Russian: the analysis' words are Russian and nothing
// sticks out of the screen.
//
//   node web/e2e/analysis.mjs --url http://127.0.0.1:HTTPPORT/ --transport webtransport|websocket --out DIR
//
// Exit 0 only if everything held; prints one line per screenshot.

import { fail, launch, report, run, until } from "./browser.mjs";
import { script } from "./script.mjs";
import { openPlayers, seatAndStart } from "./table.mjs";
import { clickMove, sq } from "./ui.mjs";
import { expectRussian } from "./russian.mjs";

const { args, step, shot } = script("analysis.mjs");
let browser;
let players = new Map();

/** Every seated page has seen `n` moves. */
async function allSeeMoves(n) {
  for (const p of players.values()) {
    await until(p.page, `${p.name} sees ${n} moves`, (k) => window.shvedka.moves.length >= k, n,
      { expected: n, seen: () => window.shvedka.moves });
  }
}

/** The analysis shown is the position reviewed now. */
async function analysisShown(page, what) {
  await until(page, `the analysis of the position shown (${what})`,
    () => window.shvedka.analysis?.shown !== null && window.shvedka.analysis.shown.bfen === window.shvedka.review?.bfen, null,
    { timeout: 60000, seen: () => ({ analysis: window.shvedka.analysis, review: window.shvedka.review?.bfen, line: [...document.querySelectorAll(".an-line")].map((e) => e.textContent) }) });
}

/**
 * Where each board's arrow points: the square under the tip of its arrow (or the centre of a
 * drop's ring), found by the page itself from the drawn SVG (the layer lets the pointer through).
 */
const arrowTargets = (page) => page.evaluate(() => {
  const out = {};
  for (const layer of document.querySelectorAll("svg.arrows")) {
    const board = layer.getAttribute("data-arrows");
    const poly = layer.querySelector(".arrow");
    const ring = layer.querySelector(".drop-ring");
    let x, y;
    if (poly) [x, y] = poly.getAttribute("points").split(" ")[3].split(",").map(Number);
    else if (ring) [x, y] = [Number(ring.getAttribute("cx")), Number(ring.getAttribute("cy"))];
    else continue;
    // A point off the screen is under nothing: the board first comes into view.
    layer.parentElement.scrollIntoView({ block: "nearest" });
    const m = layer.getScreenCTM();
    const pt = new DOMPoint(x, y).matrixTransform(m);
    const under = document.elementFromPoint(pt.x, pt.y)?.closest("[data-square]");
    out[board] = under ? `${under.getAttribute("data-board")}:${under.getAttribute("data-square")}` : null;
  }
  return out;
});

/** The bars: visible, their fill's end, White's share. */
const bars = (page) => page.$$eval(".evalbar", (els) => els.map((e) => ({
  board: e.getAttribute("data-evalbar"),
  visible: e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().height > 0,
  from: e.getAttribute("data-from"),
  white: Number(e.getAttribute("data-white")),
  title: e.getAttribute("title"),
})));

/** Checks the bars and both arrows of the position shown. */
async function expectDrawn(page, who, whiteBottom) {
  const r = await report(page);
  const seen = await bars(page);
  for (const b of ["A", "B"]) {
    const bar = seen.find((x) => x.board === b);
    const from = whiteBottom[b] ? "bottom" : "top";
    if (!bar?.visible || bar.from !== from || !(bar.white >= 0 && bar.white <= 1) || !bar.title) {
      fail(`${who}: board ${b}'s evaluation bar, White's share from the ${from}`, { visible: true, from }, bar);
    }
  }
  const targets = await arrowTargets(page);
  for (const b of r.analysis.shown.boards) {
    if (!b.best) continue;
    if (targets[b.board] !== `${b.board}:${b.to}`) fail(`${who}: board ${b.board}'s arrow ends on ${b.to} (${b.best})`, `${b.board}:${b.to}`, targets);
  }
  if (!r.analysis.shown.boards.some((b) => b.best)) fail(`${who}: a best move on a board`, "a SAN", r.analysis.shown);
  return r.analysis.shown;
}

async function main() {
  browser = await launch();
  players = await openPlayers(browser, args.url, args.transport, [
    { name: "anna", seat: "WhiteA" },
    { name: "boris", seat: "BlackA" },
    { name: "vera", seat: "WhiteB" },
    { name: "gleb", seat: "BlackB", phone: true, locale: "ru-RU" },
  ]);
  // Classic rules: a drop may mate (MGIMO's P3 forbids it).
  await players.get("anna").page.locator("#rules").selectOption("classic");
  await seatAndStart(players);
  const page = (name) => players.get(name).page;
  const plan = [
    ["vera", "B", "d2", "d4"],
    ["gleb", "B", "f7", "f6"],
    ["anna", "A", "e2", "e4"],
    ["boris", "A", "d7", "d5"],
    ["vera", "B", "g1", "f3"],
    ["gleb", "B", "g7", "g5"],
    ["anna", "A", "d1", "g4"], // 2A. Qg4??: leaves the queen to the bishop on c8
    ["boris", "A", "c8", "g4"], // takes it: a queen for White-B, to drop on h5
  ];
  for (const [k, [who, board, from, to]] of plan.entries()) {
    await clickMove(page(who), sq(board, from), board, to);
    await allSeeMoves(k + 1);
  }
  const anna = page("anna");
  step(`played ${(await report(anna)).moves.join(" ")}`);
  await anna.locator("#resign").click();
  await anna.locator("#resign").click();
  await until(anna, "the match is over", () => window.shvedka.phase === "Ended", null);

  // Anna reviews with the analysis on: the last position first.
  await anna.locator("#review-open").click();
  await until(anna, "anna reviews", () => window.shvedka.review?.move === 8, null, { seen: () => window.shvedka.review });
  if ((await report(anna)).analysis.on) fail("the analysis is off until switched on", false, true);
  if (await anna.locator(".evalbar:visible").count()) fail("no bar while the analysis is off", 0, await anna.locator(".evalbar:visible").count());
  await anna.locator("#review-analysis").click();
  if ((await anna.locator("#review-analysis").getAttribute("aria-pressed")) !== "true") fail("the switch shows it is on", "true", "false");
  await analysisShown(anna, "the end");
  const atEnd = await expectDrawn(anna, "anna at the end", { A: true, B: false });
  step(`at the end: A ${atEnd.boards[0].evaluation} ${atEnd.boards[0].best}, B ${atEnd.boards[1].evaluation} ${atEnd.boards[1].best}`);
  // White-B holds the queen: the engine drops it (Q@h5 checks; a drop may be blocked in bughouse, so no mate).
  if (!/^Q@/.test(atEnd.boards[1].best ?? "") || !atEnd.boards[1].evaluation.startsWith("+")) fail("at the end White-B drops the queen, winning", { best: "Q@…", evaluation: "+…" }, atEnd.boards[1]);
  const drop = await anna.locator('svg[data-arrows="B"] image.drop-piece').getAttribute("href");
  if (drop !== "/pieces/wQ.svg") fail("the drop's target shows a white queen", "/pieces/wQ.svg", drop);
  const bLine = await anna.locator('[data-an-line="B"]').innerText();
  if (!bLine.startsWith(atEnd.boards[1].evaluation) || !bLine.includes(`best: ${atEnd.boards[1].best}`)) fail("board B's line: the number and the drop", `${atEnd.boards[1].evaluation} best: ${atEnd.boards[1].best}`, bLine);
  await shot(anna, "analysis-drop.png", `anna at the end (move 8): board B's best move is the drop ${atEnd.boards[1].best}, its target ringed with a white queen; ${atEnd.boards[1].evaluation} under the board, wish ${atEnd.boards[1].wish}`);

  // Every position of the match, in the background; the queen left to be taken is a blunder.
  await until(anna, "every move analysed", () => {
    const a = window.shvedka.analysis;
    return a.count === 8 && a.done === 8;
  }, null, { timeout: 90000, seen: () => ({ analysis: window.shvedka.analysis, status: document.getElementById("analysis-status")?.textContent }) });
  const status = await anna.locator("#analysis-status").innerText();
  if (status !== "analysed 8 of 8 moves") fail("the progress in the review bar", "analysed 8 of 8 moves", status);
  const swings = (await report(anna)).analysis.swings;
  const qg4 = swings.find((s) => s.k === 7);
  if (!qg4 || qg4.board !== "A" || qg4.mover !== "White" || qg4.mark !== "??") fail("2A. Qg4 is a blunder", { k: 7, board: "A", mover: "White", mark: "??" }, swings);
  const li = anna.locator('#moves li[data-k="7"]');
  const mark = { mark: await li.getAttribute("data-mark"), title: await li.getAttribute("title") };
  if (mark.mark !== "??" || !/^blunder: White's chances fell from \d+% to \d+%$/.test(mark.title ?? "")) {
    fail("the move list marks 2A. Qg4", { mark: "??", title: "blunder: White's chances fell from …% to …%" }, mark);
  }
  if (await anna.locator('#moves li[data-k="3"][data-mark]').count()) fail("1A. e4 is not marked", "no mark", await anna.locator('#moves li[data-k="3"]').getAttribute("data-mark"));
  step(`turning points: ${swings.map((s) => `${s.k}${s.mark} (${s.board}, ${s.mover})`).join(", ")}; ${mark.title}`);

  // At the blunder: after 2A. Qg4 the engine takes the queen.
  await anna.locator('#moves li[data-k="7"]').click();
  await until(anna, "the review at move 7", () => window.shvedka.review?.move === 7, null);
  await analysisShown(anna, "move 7");
  const at4 = await expectDrawn(anna, "anna at move 7", { A: true, B: false });
  if (at4.boards[0].best !== "Bxg4" || !at4.boards[0].evaluation.startsWith("\u2212")) fail("after 2A. Qg4 Black is better and takes the queen", { best: "Bxg4", evaluation: "−…" }, at4.boards[0]);
  const line = await anna.locator('[data-an-line="A"]').innerText();
  if (!line.includes("best: Bxg4")) fail("board A's line says the best move", "best: Bxg4", line);
  await shot(anna, "analysis-desktop.png", `anna reviews move 7 (2A. Qg4??) with the analysis on: board A ${at4.boards[0].evaluation}, an arrow c8–g4 (Bxg4); board B ${at4.boards[1].evaluation} with its arrow; bars beside both boards (B's White share from the top); Qg4 marked ?? in the list`);

  // Stepping back: the arrows follow the position shown.
  await anna.keyboard.press("ArrowLeft");
  await until(anna, "the review at move 6", () => window.shvedka.review?.move === 6, null);
  await analysisShown(anna, "move 6");
  const at6 = await expectDrawn(anna, "anna at move 6", { A: true, B: false });
  step(`move 6: A ${at6.boards[0].evaluation} ${at6.boards[0].best}, B ${at6.boards[1].evaluation} ${at6.boards[1].best}`);

  // The switch is remembered: closing and opening the review again keeps it on.
  await anna.locator("#review-exit").click();
  await anna.locator("#review-open").click();
  await until(anna, "the analysis is on again", () => window.shvedka.analysis.on && window.shvedka.review !== null, null);
  await analysisShown(anna, "the review opened again");
  if (await anna.evaluate(() => localStorage.getItem("shvedka.analysis")) !== "1") fail("the switch is stored", "1", null);
  step("the switch stays on when the review is opened again");

  // Gleb on his phone, in Russian.
  const gleb = page("gleb");
  await until(gleb, "gleb sees the end", () => window.shvedka.phase === "Ended", null);
  await gleb.locator("#review-open").click();
  await until(gleb, "gleb reviews", () => window.shvedka.review !== null, null);
  await gleb.locator("#review-analysis").click();
  await gleb.locator('#moves li[data-k="7"]').click();
  await until(gleb, "gleb at move 7", () => window.shvedka.review?.move === 7, null);
  await analysisShown(gleb, "gleb at move 7");
  // Gleb (Black-B) sees board B from Black's side at the top of his screen, board A from White's.
  await expectDrawn(gleb, "gleb at move 7", { A: true, B: false });
  const ruLine = await gleb.locator('[data-an-line="A"]').innerText();
  if (!ruLine.includes("лучший ход: Bxg4")) fail("gleb's line in Russian", "лучший ход: Bxg4", ruLine);
  await until(gleb, "the turning points on gleb's page", () => window.shvedka.analysis.done === 8, null, { timeout: 60000, seen: () => window.shvedka.analysis });
  const ruTitle = await gleb.locator('#moves li[data-k="7"]').getAttribute("title");
  if (!/^ошибка: шансы белых упали с \d+\s?% до \d+\s?%$/.test(ruTitle ?? "")) fail("gleb's blunder mark in Russian", "ошибка: шансы белых упали с …% до …%", ruTitle);
  const ruStatus = await gleb.locator("#analysis-status").innerText();
  if (ruStatus !== "проанализировано 8 из 8 ходов") fail("gleb's progress in Russian", "проанализировано 8 из 8 ходов", ruStatus);
  await expectRussian(gleb, "gleb's review with the analysis", "#match", ["anna", "boris", "vera", "gleb"]);
  await gleb.evaluate(() => window.scrollTo(0, 0));
  await shot(gleb, "analysis-phone.png", "gleb's phone in Russian at move 7: both boards with their bars (B from Black's side), arrows, the lines under the boards");
  await gleb.locator("#moves").scrollIntoViewIfNeeded();
  await shot(gleb, "analysis-phone-list.png", "gleb's phone: the review bar with the switch and the progress, the move list with 2A. Qg4 marked ??");
  step("gleb's phone: Russian words, nothing cut off");
}

await run(main, args.out, () => ({ browser, players }));
