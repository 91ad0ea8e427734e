// End to end: four players in headless Chromium play a whole bughouse match through the web
// client's UI, by real gestures: mouse drag-and-drop, mouse click-to-move, touch taps on a
// phone-sized page, a drop from the reserve, a promotion by removal (MGIMO R1) picked on the
// other board, a draw offer declined, a team signal; it ends by mate on board (E1). Vera and Gleb
// read their pages in Russian (their browsers speak it, issue 31): no English left on Gleb's phone,
// nothing cut off; a signal crosses from one language to the other; Gleb switches to English and
// back at the end.
//
//   node web/e2e/match.mjs --url http://127.0.0.1:HTTPPORT/ --transport webtransport|websocket \
//        --out DIR [--resume] [--url2 http://127.0.0.1:OTHERPORT/]
//
// With --url2 (a cluster's second node), Vera's and Gleb's pages are served by that node: the
// match runs on the first, and their every move and event crosses between the nodes.
// With --resume, White-A's page drops its link mid-match (window.shvedka.dropConnection()),
// must show "connection lost — reconnecting", then "resumed", must still receive the next move
// and then makes its own. Writes PNG screenshots to DIR and prints one line per screenshot.
// Exit 0 only if everything held; otherwise prints what was expected and what was seen.

import { fail, launch, report, run, until } from "./browser.mjs";
import { script } from "./script.mjs";
import { openPlayers, seatAndStart } from "./table.mjs";
import { clickMove, drag, expectTarget, reservePiece, smallestBox, sq, tapMove } from "./ui.mjs";
import { expectRussian } from "./russian.mjs";

const { args, step, shot: screenshot } = script("match.mjs", {
  resume: { type: "boolean", default: false },
  url2: { type: "string" },
});
let shots = 0;
async function shot(page, name, what) {
  await screenshot(page, name, what);
  shots += 1;
}

// The four players. Gleb plays on a phone: 390×844, touch. Vera's and Gleb's browsers speak Russian.
const PLAYERS = [
  { name: "anna", seat: "WhiteA" },
  { name: "boris", seat: "BlackA" },
  { name: "vera", seat: "WhiteB", url: args.url2, locale: "ru-RU" },
  { name: "gleb", seat: "BlackB", phone: true, url: args.url2, locale: "ru-RU" },
];
const NAMES = PLAYERS.map((p) => p.name);

// The match: [player, board, gesture, from (or reserve role), to, SAN the server records].
// Board B's captures feed Black-A's reserve (the drop); Vera's pawn promotes on a8 taking
// White-A's knight from b1 of board A; Black-A mates on board A with a contact check (a
// distant check could be blocked by a drop and would not be mate on board, M1).
const PLAN = [
  ["vera", "B", "drag", "e2", "e4", "e4"],
  ["gleb", "B", "tap", "d7", "d5", "d5"],
  ["vera", "B", "click", "e4", "d5", "exd5"],
  ["anna", "A", "drag", "a2", "a3", "a3"],
  ["boris", "A", "drop", "P", "a6", "P@a6"],
  ["gleb", "B", "tap", "c7", "c6", "c6"],
  ["vera", "B", "drag", "d5", "c6", "dxc6"],
  ["gleb", "B", "tap", "g8", "f6", "Nf6"],
  ["vera", "B", "drag", "c6", "b7", "cxb7"],
  ["gleb", "B", "tap", "b8", "d7", "Nbd7"],
  ["vera", "B", "removal", "b7", "a8", "bxa8=Nb1", "b1"],
  ["anna", "A", "click", "b2", "b3", "b3"],
  ["boris", "A", "drag", "e7", "e5", "e5"],
  ["anna", "A", "drag", "c2", "c3", "c3"],
  ["boris", "A", "click", "f8", "c5", "Bc5"],
  ["anna", "A", "drag", "h2", "h3", "h3"],
  ["boris", "A", "drag", "d8", "h4", "Qh4"],
  ["anna", "A", "click", "a3", "a4", "a4"],
  ["boris", "A", "drag", "h4", "f2", "Qxf2#"],
];
// With --resume, Anna's link drops just before this move of Boris's.
const RESUME_BEFORE = 12;

let browser;
const players = new Map();

async function main() {
  browser = await launch();
  step(`chromium ${browser.version()}, transport ${args.transport}`);
  for (const [name, p] of await openPlayers(browser, args.url, args.transport, PLAYERS)) players.set(name, p);
  step("all four connected");
  // Anna creates the match and sits from the match screen; the others sit from the lobby.
  const matchId = await seatAndStart(players, formingInRussian);
  step(`match ${matchId}: four seated, clocks running`);

  for (let i = 0; i < PLAN.length; i++) {
    if (args.resume && i === RESUME_BEFORE) await resumeDuring(PLAN[i], i);
    else await play(PLAN[i], i);
    if (args.resume && i === RESUME_BEFORE + 1) await reloadResumes(i + 1);
    if (i === 0) await drawOfferDeclined();
    if (i === 1) await refusalShown();
    if (i === 3) await teamSignal();
    if (i === 7) await phoneChecks();
  }

  // Everyone sees the result: team 2 wins by mate on board (E1).
  for (const p of players.values()) {
    await until(p.page, `${p.name} sees the result`, () => window.shvedka.result !== null && !document.getElementById("result").hidden, null,
      { expected: "a result", seen: () => window.shvedka.result });
    const r = await report(p.page);
    const text = await p.page.locator("#result").innerText();
    if (r.result.winner !== "Two" || r.result.rule !== "E1" || !/mate on board/.test(r.result.reason)) {
      fail(`${p.name}'s result`, { winner: "Two", rule: "E1", reason: "…mate on board…" }, r.result);
    }
    if (p.locale === "ru-RU") {
      // Vera (team 2) won, Gleb (team 1) lost: said in Russian, the rules' terms.
      const head = p.name === "vera" ? "Победила команда 2 — вы выиграли" : "Победила команда 2 — вы проиграли";
      if (!text.includes(head) || !/E1/.test(text) || !/чёрные A поставили мат на доске/.test(text)) {
        fail(`${p.name}'s result banner, in Russian`, `${head} … чёрные A поставили мат на доске … E1`, text);
      }
    } else if (!/team 2 wins/i.test(text) || !/E1/.test(text) || !/mate on board/.test(text)) {
      fail(`${p.name}'s result banner`, "Team 2 wins … mate on board … E1", text);
    }
    if (r.phase !== "Ended") fail(`${p.name}'s phase`, "Ended", r.phase);
    if (r.link !== args.transport) fail(`${p.name}'s link`, args.transport, r.link);
    const want = PLAN.map((m) => m[5]);
    if (JSON.stringify(r.moves) !== JSON.stringify(want)) fail(`${p.name}'s move list`, want, r.moves);
  }
  step("every page shows: team 2 wins, mate on board, E1");
  // The mated king (White-A's, e1) is marked as in check on every page, the partner's board too;
  // no other square is.
  for (const p of players.values()) {
    const checked = await p.page.$$eval(".sq.check", (els) => els.map((e) => `${e.getAttribute("data-board")}${e.getAttribute("data-square")}`));
    if (JSON.stringify(checked) !== JSON.stringify(["Ae1"])) fail(`${p.name}: the king in check marked`, ["Ae1"], checked);
  }
  step("every page marks White-A's king on e1 as in check");
  await shot(players.get("boris").page, "result-desktop.png", "Black-A's page at the end: the result banner (team 2 wins, mate on board, rule E1), the last move Qxf2# highlighted, White-A's king on e1 marked in check, the move list");
  await shot(players.get("gleb").page, "result-phone.png", "Black-B's phone (390×844) in Russian at the end: result banner above the stacked boards");
  await languageSwitch();

  const errors = [...players.values()].flatMap((p) => p.errors);
  if (errors.length) fail("no console errors", [], errors);
  console.log(`PASS: a whole match over ${args.transport}${args.resume ? " with a dropped and resumed link" : ""}; ${shots} screenshots in ${args.out}`);
}

/** Waits until `p` has seen `n` moves. */
async function seenMoves(p, n) {
  await until(p.page, `${p.name} has seen ${n} moves`, (k) => window.shvedka.moves.length >= k, n,
    { expected: n, seen: () => window.shvedka.moves });
}

/** One move of the plan, by its gesture; then every page must show it. */
async function play([who, board, gesture, from, to, san, removal], i) {
  const p = players.get(who);
  const page = p.page;
  await seenMoves(p, i);
  await until(page, `${who}'s turn on board ${board}`, (b) => {
    const s = window.shvedka;
    const side = s.bfen.split("|")[b === "A" ? 0 : 1].trim().split(/\s+/)[1];
    return s.phase === "Running" && side === (s.seat.startsWith("White") ? "w" : "b");
  }, board);
  if (gesture === "drag") {
    const middle = i === 16
      ? () => shot(page, "targets-drag.png", "Black-A dragging his queen from d8: legal targets (from Legal) marked on board A, the piece under the pointer")
      : undefined;
    await drag(page, sq(board, from), sq(board, to), { board, to, middle });
  } else if (gesture === "click") {
    await clickMove(page, sq(board, from), board, to);
  } else if (gesture === "tap") {
    await tapMove(page, sq(board, from), board, to);
  } else if (gesture === "drop") {
    const middle = () => shot(page, "targets-drop.png", "Black-A dragging a pawn from his reserve: the squares it may be dropped on (P2: ranks 2–6) marked");
    await drag(page, reservePiece(p.seat, from), sq(board, to), { board, to, middle });
  } else if (gesture === "removal") {
    await drag(page, sq(board, from), sq(board, to), { board, to });
    const other = board === "A" ? "B" : "A";
    await page.locator('#choice[data-kind="removal"]').waitFor({ timeout: 10000 });
    await page.locator(`${sq(other, removal)}.removable`).waitFor({ timeout: 10000 });
    const choice = await page.locator("#choice").innerText();
    if (!choice.includes(`Превращение ${from}–${to}: снятие`)) fail("vera's choice bar, in Russian", `Превращение ${from}–${to}: снятие …`, choice);
    await shot(page, "removal-choice.png", `White-B (in Russian) promoting ${from}–${to}: the pieces of White-A he may take (R1, R3) highlighted on board ${other}, the choice bar below`);
    await page.locator(sq(other, removal)).click();
  } else {
    throw new Error(`unknown gesture ${gesture}`);
  }
  for (const q of players.values()) {
    await seenMoves(q, i + 1);
    const moves = (await report(q.page)).moves;
    if (moves[i] !== san) fail(`${q.name}: move ${i + 1}`, san, moves[i]);
  }
  step(`${who} ${gesture} ${from}${to ? `→${to}` : ""}: ${san}`);
}

/** Anna's link drops; Boris moves meanwhile; Anna must reconnect, resume, see it, and play on. */
async function resumeDuring(move, i) {
  const anna = players.get("anna");
  await seenMoves(anna, i);
  await anna.page.evaluate(() => {
    window.__statuses = [];
    const el = document.getElementById("link");
    new MutationObserver(() => window.__statuses.push(el.textContent)).observe(el, { childList: true, characterData: true, subtree: true });
  });
  const before = (await report(anna.page)).losses;
  await anna.page.evaluate(() => window.shvedka.dropConnection());
  step("anna's link dropped");
  await play(move, i); // Boris moves while Anna is away; every page, Anna's too, must show it
  await until(anna.page, "anna shows that she reconnects", () => window.__statuses.some((s) => /connection lost — reconnecting/.test(s)), null,
    { expected: "connection lost — reconnecting…", seen: () => window.__statuses });
  await until(anna.page, "anna resumed", (n) => window.shvedka.connected && window.shvedka.resumed && window.shvedka.losses > n, before,
    { expected: { connected: true, resumed: true }, seen: () => ({ ...window.shvedka, statuses: window.__statuses }) });
  const text = await anna.page.locator("#link").innerText();
  if (!/resumed/.test(text)) fail("anna's status after the resume", "resumed …", text);
  const r = await report(anna.page);
  if (r.link !== args.transport) fail("anna's link after the resume", args.transport, r.link);
  step(`anna: "${(await anna.page.evaluate(() => window.__statuses)).join('" → "')}"`);
  await shot(anna.page, "resumed.png", `White-A's page after its link was dropped: "${text}", Boris's e5 received, her turn`);
}

/** A refused request is shown with its rule: Anna claims a repetition that is not there (E4). */
async function refusalShown() {
  const anna = players.get("anna").page;
  const boardTop = () => anna.evaluate(() => document.querySelector('.board[data-board="A"]').getBoundingClientRect().top);
  const before = await boardTop();
  await anna.locator("#claim-repetition").click();
  await until(anna, "anna sees the refusal with its rule", () => !document.getElementById("notice").hidden && /^refused \(E4\): the position on board A has occurred once; 3 times are needed$/.test(document.getElementById("notice-text").textContent), null,
    { expected: "refused (E4): the position on board A has occurred once; 3 times are needed", seen: () => document.getElementById("notice-text").textContent });
  const r = await report(anna);
  if (!/^refused \(E4\)/.test(r.lastError)) fail("window.shvedka.lastError", "refused (E4): …", r.lastError);
  const during = await boardTop();
  if (Math.abs(during - before) > 1) fail("the notice does not move the boards", before, during);
  step(`anna's bogus claim: "${r.lastError}"`);
}

/** Vera reloads her page mid-match: the tab's stored session resumes, with seat and moves (the move list from the state). */
async function reloadResumes(n) {
  const vera = players.get("vera");
  await vera.page.reload({ timeout: 15000 });
  await until(vera.page, "vera's reloaded page resumes her session", (k) => {
    const s = window.shvedka;
    return s && s.connected && s.resumed && s.seat === "WhiteB" && s.phase === "Running" && s.moves.length >= k;
  }, n, { expected: { connected: true, resumed: true, seat: "WhiteB", moves: n }, seen: () => window.shvedka });
  const r = await report(vera.page);
  const want = PLAN.slice(0, n).map((m) => m[5]);
  if (JSON.stringify(r.moves.slice(0, n)) !== JSON.stringify(want)) fail("vera's moves after the reload (from the record)", want, r.moves);
  if (r.link !== args.transport) fail("vera's link after the reload", args.transport, r.link);
  step("vera reloaded her page: same session, seat and move list");
}

/** Vera offers a draw after her first move; Gleb, her opponent on board B, declines it. */
async function drawOfferDeclined() {
  const vera = players.get("vera").page;
  const gleb = players.get("gleb").page;
  await vera.locator("#draw-offer").click();
  await gleb.locator("#draw-bar").waitFor({ state: "visible", timeout: 10000 });
  const offer = await gleb.locator("#draw-text").innerText();
  if (!/^vera \(гость\) \(белые B\) предлагает ничью$/.test(offer)) fail("the draw offer Gleb sees, in Russian", "vera (гость) (белые B) предлагает ничью", offer);
  await gleb.locator("#draw-decline").click();
  await gleb.locator("#draw-bar").waitFor({ state: "hidden", timeout: 10000 });
  step("vera offered a draw, gleb declined");
}

/**
 * Anna (White-A) asks her partner Gleb (Black-B) for a knight with the quick signal; Gleb reads it
 * in Russian, and asks her for a bishop from his folded signals: she reads it in English.
 */
async function teamSignal() {
  const anna = players.get("anna").page;
  const gleb = players.get("gleb").page;
  await anna.locator("#sig-need-n").click();
  await until(gleb, "gleb sees his partner's signal, in Russian", () => document.getElementById("partner-says").textContent === "anna: нужен конь", null,
    { expected: "anna: нужен конь", seen: () => document.getElementById("partner-says").textContent });
  const boris = players.get("boris").page;
  const leaked = await boris.locator("#chat-log").innerText();
  if (/need a knight/.test(leaked)) fail("team chat stays in the team (A3)", "nothing at Black-A", leaked);
  await gleb.locator("#signals-toggle").click();
  await gleb.locator("#sig-need-b").click();
  await until(anna, "anna sees her partner's signal, in English", () => document.getElementById("partner-says").textContent === "gleb: need a bishop", null,
    { expected: "gleb: need a bishop", seen: () => document.getElementById("partner-says").textContent });
  // Gleb's own line comes back to his page on its own way, not with Anna's copy: wait for it.
  await until(gleb, "gleb's chat log, in Russian", () => {
    const log = document.getElementById("chat-log").innerText;
    return /anna \(гость\) \(белые A\): нужен конь/.test(log) && /gleb \(гость\) \(чёрные B\): нужен слон/.test(log);
  }, null, { expected: "партнёр anna (гость) (белые A): нужен конь … gleb (гость) (чёрные B): нужен слон", seen: () => document.getElementById("chat-log").innerText });
  step("anna signalled 'need a knight' to gleb (and only to him), read 'нужен конь'; gleb's 'нужен слон' reached her as 'need a bishop'");
}

/** Gleb's phone while the four sit, before anyone says ready: in Russian, nothing cut off. */
async function formingInRussian() {
  const gleb = players.get("gleb").page;
  await until(gleb, "gleb's phone waits for everyone to say ready, in Russian", () => document.getElementById("banner").textContent === "Ждём, когда все будут готовы."
    && document.getElementById("ready").textContent === "Готов" && document.getElementById("phase").textContent === "сбор игроков", null,
    { seen: () => ["banner", "ready", "phase"].map((id) => document.getElementById(id).textContent) });
  await expectRussian(gleb, "gleb's phone before the start", "#match", NAMES);
  await gleb.evaluate(() => window.scrollTo(0, 0));
  await shot(gleb, "phone-forming.png", "Black-B's phone in Russian while the four sit: the phase, the waiting banner, the boards");
  await gleb.locator("#controls").scrollIntoViewIfNeeded();
  await shot(gleb, "phone-forming-controls.png", "Black-B's phone in Russian before the start: Ready, Leave seat and the other controls");
  await gleb.evaluate(() => window.scrollTo(0, 0));
}

/** Gleb's finished match in English and back in Russian, without a reload (the header's menu). */
async function languageSwitch() {
  const gleb = players.get("gleb").page;
  await gleb.locator("#lang").selectOption("en");
  await until(gleb, "gleb's match speaks English", () => document.getElementById("result-head").textContent === "Team 2 wins — you lose"
    && document.getElementById("phase").textContent === "over" && /^Board B — yours$/.test(document.querySelector(".board-panel.first .board-title").textContent)
    && document.getElementById("chat-log").innerText.includes("need a knight"), null,
    { seen: () => [document.getElementById("result-head").textContent, document.getElementById("phase").textContent, document.getElementById("chat-log").innerText] });
  await gleb.locator("#lang").selectOption("ru");
  await until(gleb, "and Russian again", () => document.getElementById("result-head").textContent === "Победила команда 2 — вы проиграли"
    && document.getElementById("phase").textContent === "окончена" && document.getElementById("chat-log").innerText.includes("нужен конь"), null,
    { seen: () => [document.getElementById("result-head").textContent, document.getElementById("phase").textContent] });
  await expectRussian(gleb, "gleb's phone at the end", "#match", NAMES);
  step("gleb switched his finished match to English and back to Russian");
}

/** Gleb's phone: boards stacked (his own first), touch targets at least 40 px. */
async function phoneChecks() {
  const gleb = players.get("gleb").page;
  await gleb.evaluate(() => window.scrollTo(0, 0));
  const boxes = await gleb.evaluate(() => {
    const box = (b) => document.querySelector(`.board[data-board="${b}"]`).getBoundingClientRect();
    const a = box("A"), b = box("B");
    return { a: { x: a.x, y: a.y, w: a.width }, b: { x: b.x, y: b.y, w: b.width }, page: document.documentElement.scrollWidth };
  });
  if (!(boxes.b.y + boxes.b.w <= boxes.a.y + 1 && Math.abs(boxes.a.x - boxes.b.x) < 2 && boxes.a.w < boxes.b.w * 0.7)) {
    fail("the phone's boards stacked, board B (his own) above board A, the partner's smaller", "B above A, same x, A narrower", boxes);
  }
  if (boxes.page > 390) fail("nothing wider than the phone", "scrollWidth ≤ 390", boxes.page);
  // In Russian: no English left, no word cut off.
  await expectRussian(gleb, "gleb's phone mid-match", "#match", NAMES);
  // Both boards and all four clocks on one screen, without scrolling.
  const seen = await gleb.evaluate(() => {
    const inView = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight; };
    return {
      boards: [...document.querySelectorAll(".board")].map(inView),
      clocks: [...document.querySelectorAll(".clock[data-clock]")].map(inView),
      height: window.innerHeight,
      bottoms: [...document.querySelectorAll(".board, .clock[data-clock]")].map((e) => Math.round(e.getBoundingClientRect().bottom)),
    };
  });
  if (!seen.boards.every(Boolean) || seen.clocks.length !== 4 || !seen.clocks.every(Boolean)) {
    fail("both boards and four clocks within the phone's screen", "all in view", seen);
  }
  // Resign, the draw offer and the signals' control are reachable without scrolling too, and
  // each player's reserve sits beside its board, inside the screen.
  const reach = await gleb.evaluate(() => {
    const box = (el) => { const r = el.getBoundingClientRect(); return { top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right) }; };
    const inside = (b) => b.top >= 0 && b.left >= 0 && b.bottom <= window.innerHeight && b.right <= window.innerWidth;
    const out = {};
    for (const id of ["resign", "draw-offer", "signals-toggle"]) out[id] = box(document.getElementById(id));
    for (const el of document.querySelectorAll(".reserves")) out[`reserves-${el.closest("[data-panel]").dataset.panel}`] = box(el);
    return { boxes: out, all: Object.values(out).every(inside), height: window.innerHeight };
  });
  if (!reach.all) fail("resign, draw, the signals and both reserve columns on the phone's screen", "all inside 390x844", reach);
  // Touch targets: the squares of his own board (the partner's smaller board is only watched).
  const square = await smallestBox(gleb, ".board.own .sq");
  const buttons = await smallestBox(gleb, "#match button:not([hidden]):not(:disabled)");
  if (square.side < 40) fail("his own board's squares at least 40 px on the phone", "≥ 40", square);
  if (buttons.side < 40) fail("buttons at least 40 px on the phone", "≥ 40", buttons);
  // The signals fold into one control on the phone, and open from it.
  if (await gleb.locator("#sig-need-n").isVisible()) fail("the signals folded on the phone", "hidden", "visible");
  await shot(gleb, "phone-mid-match.png", `Black-B on a 390×844 phone mid-match: his board B first (black at the bottom), the folded signals, the partner's board A smaller with its players beside it; all four clocks on screen; squares ${square.side} px, smallest button ${buttons.side} px`);
  const partnerBoard = () => gleb.evaluate(() => {
    const r = document.querySelector('.board[data-board="A"]').getBoundingClientRect();
    return [r.x, r.y, r.width, r.height].map(Math.round);
  });
  const closedBox = await partnerBoard();
  await gleb.locator("#signals-toggle").click();
  if (!(await gleb.locator("#sig-need-n").isVisible())) fail("the signals open from their control", "visible", "hidden");
  const openBox = await partnerBoard();
  if (JSON.stringify(openBox) !== JSON.stringify(closedBox) || Math.abs(openBox[2] - openBox[3]) > 1) {
    fail("opening the signals moves and stretches nothing (the partner's board stays square, in place)", closedBox, openBox);
  }
  await shot(gleb, "phone-signals-open.png", "Black-B opened the signals on his phone");
  await gleb.locator("#signals-toggle").click();
  step(`phone: boards stacked, squares ${square.side} px, buttons ≥ ${buttons.side} px`);
}

await run(main, args.out, () => ({ browser, players }));
