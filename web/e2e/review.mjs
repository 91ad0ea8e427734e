// End to end: review. Four pages play a short match (gleb on a 390x844 phone) with captures on
// both boards and a drop, noting the position after every move; a spectator reviews it while
// it is in play. White-A resigns. Anna clicks the third move in the move list and steps through
// the match by the buttons and the arrow keys: both boards (reserves included) are, move by
// move, what they were in play. She scrubs the time between two moves: the clock of the player
// to move stands lower by the time between. Gleb reviews on his phone; a page that never saw the
// match finds it among anna's recent matches in the lobby and reviews it, and by its number.
// Gleb's browser speaks Russian (issue 31): his review's controls and words are Russian, nothing
// cut off on his phone.
//
//   node web/e2e/review.mjs --url http://127.0.0.1:HTTPPORT/ --transport webtransport|websocket --out DIR
//
// Exit 0 only if everything held; prints one line per screenshot.

import { fail, launch, openPlayer, report, run, until } from "./browser.mjs";
import { script } from "./script.mjs";
import { openPlayers, seatAndStart } from "./table.mjs";
import { clickMove, reservePiece, sq } from "./ui.mjs";
import { expectRussian } from "./russian.mjs";

const { args, step, shot } = script("review.mjs");
let browser;
let players = new Map();
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

/** Every page has seen `n` moves. */
async function allSeeMoves(n) {
  for (const p of players.values()) {
    if (!p.seat) continue;
    await until(p.page, `${p.name} sees ${n} moves`, (k) => window.shvedka.moves.length >= k, n,
      { expected: n, seen: () => window.shvedka.moves });
  }
}

/** The review shown on a page: move, time, position. */
const shown = (page) => report(page).then((r) => r.review);

async function expectMove(page, k, bfen, how) {
  await until(page, `the review at move ${k} (${how})`, (a) => window.shvedka.review?.move === a.k && window.shvedka.review?.bfen === a.bfen, { k, bfen },
    { expected: { move: k, bfen }, seen: () => window.shvedka.review });
}

async function main() {
  browser = await launch();
  players = await openPlayers(browser, args.url, args.transport, [
    { name: "anna", seat: "WhiteA" },
    { name: "boris", seat: "BlackA" },
    { name: "vera", seat: "WhiteB" },
    { name: "gleb", seat: "BlackB", phone: true, locale: "ru-RU" },
  ]);
  const id = await seatAndStart(players);
  const page = (name) => players.get(name).page;
  const plan = [
    ["anna", sq("A", "e2"), "A", "e4"],
    ["vera", sq("B", "d2"), "B", "d4"],
    ["boris", sq("A", "d7"), "A", "d5"],
    ["gleb", sq("B", "e7"), "B", "e5"],
    ["anna", sq("A", "e4"), "A", "d5"], // takes: a pawn for Black-B
    ["vera", sq("B", "d4"), "B", "e5"], // takes: a pawn for Black-A
    ["gleb", reservePiece("BlackB", "P"), "B", "d6"], // drops the pawn anna took
  ];
  const bfens = [];
  for (const [k, [who, from, board, to]] of plan.entries()) {
    await clickMove(page(who), from, board, to);
    await allSeeMoves(k + 1);
    bfens.push((await report(page("anna"))).bfen);
  }
  step(`played ${(await report(page("anna"))).moves.join(" ")}`);

  // A spectator reviews the match in play.
  const zoe = { name: "zoe", ...(await openPlayer(browser, "zoe")) };
  players.set("zoe", zoe);
  await zoe.page.goto(`${args.url}?name=zoe&transport=${args.transport}`);
  await until(zoe.page, "zoe connected", () => window.shvedka?.connected, null);
  await zoe.page.locator("#join-id").fill(String(id));
  await zoe.page.locator("#join-watch").click();
  await until(zoe.page, "zoe watches", (m) => window.shvedka.matchId === m && window.shvedka.moves.length === 7, id);
  await zoe.page.locator("#review-open").click();
  await expectMove(zoe.page, 7, bfens[6], "a spectator, the match in play");
  await zoe.page.locator('#moves li[data-k="2"]').click();
  await expectMove(zoe.page, 2, bfens[1], "a spectator clicks the second move");
  step("a spectator reviews the match in play");

  // White-A resigns; anna reviews from the move list.
  const anna = page("anna");
  await anna.locator("#resign").click();
  await anna.locator("#resign").click();
  await until(anna, "the match is over", () => window.shvedka.phase === "Ended", null);
  await anna.locator('#moves li[data-k="3"]').click();
  await expectMove(anna, 3, bfens[2], "a click on the third move");
  if (!(await anna.locator('#moves li[data-k="3"].current').count())) fail("the move shown is marked in the list", "li.current", "none");
  await anna.locator("#review-next").click();
  await expectMove(anna, 4, bfens[3], "the next-move button");
  await anna.locator("#moves").focus().catch(() => {});
  await anna.keyboard.press("ArrowRight");
  await expectMove(anna, 5, bfens[4], "the right arrow");
  await shot(anna, "review-move-5.png", "anna reviews the finished match at move 5 (1A. exd5): the pawn she took shows in Black-B's reserve beside board B; move 5 marked in the list");
  await anna.keyboard.press("ArrowRight");
  await anna.keyboard.press("ArrowRight");
  await expectMove(anna, 7, bfens[6], "to the drop");
  await anna.keyboard.press("ArrowLeft");
  await expectMove(anna, 6, bfens[5], "the left arrow");
  await anna.locator("#review-prev").click();
  await expectMove(anna, 5, bfens[4], "the previous-move button");
  await anna.keyboard.press("Home");
  await expectMove(anna, 0, `${START} | ${START}`, "Home: the start");
  await anna.locator("#review-last").click();
  const end = await shown(anna);
  if (end.bfen !== bfens[6]) fail("the end of the review is the last position", bfens[6], end.bfen);
  if (!(await anna.locator("#result").isVisible())) fail("the result shown at the end of the review", "visible", "hidden");
  step("stepped through every move by clicks, buttons and arrows");

  // Scrubbing by time between move 2 and move 3: the player to move (Black-A) loses the time.
  await anna.locator('#moves li[data-k="2"]').click();
  const at2 = await shown(anna);
  await anna.locator('#moves li[data-k="3"]').click();
  const at3 = await shown(anna);
  const mid = Math.round((at2.t + at3.t) / 2);
  await anna.locator("#review-time").evaluate((el, t) => {
    el.value = String(t);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }, mid);
  const between = await shown(anna);
  if (between.move !== 2 || between.bfen !== bfens[1]) fail("the position between moves 2 and 3 is move 2's", { move: 2 }, between);
  const expected = at2.clocks.map((c, i) => (at2.running[i] ? Math.max(0, c - (between.t - at2.t)) : c));
  if (JSON.stringify(between.clocks) !== JSON.stringify(expected)) fail("the clocks at the instant between", expected, between.clocks);
  if (!at2.running[1]) fail("Black-A's clock runs after move 2", true, at2.running);
  await shot(anna, "review-scrubbed.png", `anna scrubbed to ${Math.round(between.t)} ms of match time, between move 2 and move 3: Black-A's clock lower by the time since move 2`);
  step(`scrubbed to ${between.t} ms: clocks ${between.clocks.join(", ")}`);

  // On the phone.
  const gleb = page("gleb");
  await until(gleb, "gleb sees the end", () => window.shvedka.phase === "Ended", null);
  await gleb.locator("#review-open").click();
  await expectMove(gleb, 7, bfens[6], "gleb's phone");
  await gleb.locator('#moves li[data-k="4"]').click();
  await expectMove(gleb, 4, bfens[3], "gleb taps the fourth move");
  const at = await gleb.locator("#review-at").innerText();
  if (!/^ход 4 из 7 · \d+:\d\d,\d{3}$/.test(at) || await gleb.locator("#phase").innerText() !== "разбор") {
    fail("gleb's review, in Russian", "разбор; ход 4 из 7 · m:ss,mmm", { at, phase: await gleb.locator("#phase").innerText() });
  }
  await expectRussian(gleb, "gleb's review on his phone", "#match", ["anna", "boris", "vera", "gleb"]);
  await gleb.evaluate(() => window.scrollTo(0, 0));
  await shot(gleb, "review-phone.png", "gleb reviews on his phone, in Russian, at move 4: both boards, four clocks");
  await gleb.locator("#review-bar").scrollIntoViewIfNeeded();
  await shot(gleb, "review-phone-controls.png", "gleb's review controls on his phone, in Russian: the steps, the move and time, the time slider");

  // From the lobby, by its number: a page that never saw the match.
  const late = { name: "late", ...(await openPlayer(browser, "late")) };
  players.set("late", late);
  await late.page.goto(`${args.url}?name=late&transport=${args.transport}`);
  await until(late.page, "late connected", () => window.shvedka?.connected, null);
  // Anna's recent matches link to it.
  await late.page.locator("#recent-name").fill("anna");
  await late.page.locator("#recent-show").click();
  await late.page.locator(`#recent-review-${id}`).waitFor({ state: "visible" });
  const row = await late.page.locator(`#recent tr[data-match="${id}"]`).textContent();
  if (!/anna \(white-A\).*boris \(black-A\).*white-A resigned/.test(row ?? "")) fail("anna's recent match with its players and result", "anna (white-A), boris (black-A), … white-A resigned", row);
  await shot(late.page, "recent-matches.png", `the lobby's list of anna's recent matches: match ${id} with its players, result and a Review link`);
  await late.page.locator(`#recent-review-${id}`).click();
  await until(late.page, "the stored match reviewed from anna's recent matches", (m) => window.shvedka.review?.matchId === m && window.shvedka.review?.bfen && !document.getElementById("match").hidden, id);
  // The server explains the stored match's result from its record (E10: white-A resigned).
  await until(late.page, "the stored match's result explained", () => !document.getElementById("review-why").hidden, null);
  await late.page.locator("#review-why summary").click();
  const why = await late.page.locator("#review-why").innerText();
  if (!why.includes("result: team 2 wins (E10)") || !/\d:\d\d\.\d{3} white-A resigned \(E10\)/.test(why) || !why.includes("rules that decided it: E10")) {
    fail("the stored match's result explained", "result: team 2 wins (E10) … white-A resigned (E10) … rules that decided it: E10", why);
  }
  await late.page.locator("#review-first").click();
  await expectMove(late.page, 0, `${START} | ${START}`, "the stored match from its start");
  await late.page.keyboard.press("ArrowRight");
  await expectMove(late.page, 1, bfens[0], "the stored match, its first move");
  await shot(late.page, "review-stored.png", `a page that never saw match ${id} reviews it from the lobby, at move 1`);
  await late.page.locator("#review-exit").click();
  await until(late.page, "closing the review goes back to the lobby", () => !document.getElementById("lobby").hidden, null);
  // And by its number.
  await late.page.locator("#join-id").fill(String(id));
  await late.page.locator("#join-review").click();
  await expectMove(late.page, 7, bfens[6], "the stored match by its number, at its end");
  step("the stored match reviewed from anna's recent matches and by its number");
}

await run(main, args.out, () => ({ browser, players }));
