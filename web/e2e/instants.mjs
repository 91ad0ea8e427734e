// End to end: three readers of one match agree (issue 55, "Shown by"; RULES.md A2, A4, K5).
// Four players play a match with a capture on each board; an arbiter page (?arbiter, the secret
// typed in the lobby's field) watches it, stops the clocks for a few seconds and restarts them,
// takes back the last move on board B and sets a corrected position there; play goes on, a pawn
// is dropped, and White-A resigns. The arbiter downloads the match's record (the Record button)
// and reviews the stored match; a clerk pastes the same record into the lobby's "Review a
// record". At three instants of match time — before the take-back with the move still on the
// board, during the pause, and near the end after the take-back and the correction — both boards
// (pieces, reserves, who is to move), the four clocks (and which of them run) and the moves made
// must be what `shvedka arbiter show FILE --at T` prints. A Russian phone reviews the stored
// match at the pause.
//
//   node web/e2e/instants.mjs --url http://127.0.0.1:HTTPPORT/ --transport webtransport|websocket \
//        --token ARBITER_SECRET --out DIR [--shvedka PATH]
//
// `shvedka arbiter show` is run with `--shvedka PATH` (the binary); without it, the script asks
// its launcher (tests/tests/browser.rs, which links the command line): it writes
// `DIR/show-ask.json` ({ file, at: [ms…] }) and waits for `DIR/show-done.json` ([{ at, ok, text }…]).
// The server must run with that `arbiter_token`. Exit 0 only if everything held.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

import { fail, launch, openPlayer, report, run, until } from "./browser.mjs";
import { script } from "./script.mjs";
import { openPlayers, seatAndStart } from "./table.mjs";
import { clickMove, reservePiece, sq } from "./ui.mjs";

const { args, step, shot } = script("instants.mjs", { token: { type: "string" }, shvedka: { type: "string" } });
if (!args.token) {
  console.error("usage: node web/e2e/instants.mjs --url http://127.0.0.1:PORT/ --transport webtransport|websocket --token SECRET --out DIR [--shvedka PATH]");
  process.exit(2);
}
const out = resolve(String(args.out));
let browser;
let players = new Map();
const SEATS = ["WhiteA", "BlackA", "WhiteB", "BlackB"];
/** `show`'s seat names, in the same order. */
const SHOW_SEATS = ["white-A", "black-A", "white-B", "black-B"];
/** How far apart two readers' clocks may be: the web shows tenths of a second; both readers
 * should compute the same milliseconds from the same record, so 100 ms only absorbs rounding. */
const CLOCK_TOLERANCE_MS = 100;

/** Every page following the match has seen `n` moves (a move taken back stays listed). */
async function allSeeMoves(n) {
  for (const p of players.values()) {
    await until(p.page, `${p.name} sees ${n} moves`, (k) => window.shvedka.moves.length >= k, n,
      { expected: n, seen: () => window.shvedka.moves });
  }
}

/** Every page following the match: `fn(arg)` holds. */
async function allSee(what, fn, arg, seen) {
  for (const p of players.values()) {
    await until(p.page, `${p.name}: ${what}`, fn, arg, { seen });
  }
}

// ---- reading the record and `shvedka arbiter show` ----------------------------------------------

/** Seconds as written in a record (`12.345`, `-0.250`) → ms. */
const ms = (s) => Math.round(Number(s) * 1000);

/**
 * The record's times: each move's match time (`[%mt]`) in order, and each act's verb and time
 * (`[%act VERB t=…]`; a move taken back, `played`, at its own `mt=`).
 * @param {string} text
 */
function recordTimes(text) {
  const moves = [...text.matchAll(/(\d+)([AaBb])\.\s+(\S+)\s+\{[\d.]+\}\s+\{\[%mt\s+(-?[\d.]+)/g)]
    .map((m) => ({ label: `${m[1]}${m[2]}. ${m[3]}`, at: ms(m[4]) }));
  // A quoted value (a position's BFEN) may hold `]`.
  const acts = [...text.matchAll(/\{\[%act (\w+)((?:[^\]"]|"(?:[^"\\]|\\.)*")*)\]\}/g)].map((m) => {
    const t = /\bmt=(-?[\d.]+)/.exec(m[2]) ?? /\bt=(-?[\d.]+)/.exec(m[2]);
    return { verb: m[1], at: t ? ms(t[1]) : null, keys: m[2].trim() };
  });
  return { moves, acts };
}

/** A multiple of 100 ms (the review slider's step) well inside (a, b): the one nearest its middle. */
function inside(what, a, b) {
  const lo = Math.ceil((a + 50) / 100) * 100;
  const hi = Math.floor((b - 50) / 100) * 100;
  if (!(lo <= hi)) fail(`an instant of 100 ms steps inside ${what}`, `${a} < t < ${b}`, { lo, hi });
  return Math.min(hi, Math.max(lo, Math.round((a + b) / 200) * 100));
}

/**
 * `shvedka arbiter show FILE --at T` for each instant (ms): its text.
 * @param {string} file
 * @param {number[]} instants
 * @returns {Promise<string[]>}
 */
async function showAll(file, instants) {
  const argv = (t) => ["arbiter", "--lang", "en", "show", file, "--at", (t / 1000).toFixed(3)];
  if (args.shvedka) return instants.map((t) => execFileSync(String(args.shvedka), argv(t), { encoding: "utf8" }));
  // The launcher runs the command line in its process and answers in a file.
  const ask = join(out, "show-ask.json");
  const done = join(out, "show-done.json");
  writeFileSync(`${ask}.part`, JSON.stringify({ file, at: instants }));
  renameSync(`${ask}.part`, ask);
  for (let i = 0; i < 600 && !existsSync(done); i += 1) await new Promise((r) => setTimeout(r, 100));
  if (!existsSync(done)) fail("the launcher runs `shvedka arbiter show`", done, "no answer in 60 s");
  const answers = JSON.parse(readFileSync(done, "utf8"));
  return instants.map((t, k) => {
    const a = answers[k];
    if (!a || a.at !== t || !a.ok) fail(`shvedka arbiter show --at ${t / 1000}`, "its output", a);
    return a.text;
  });
}

/** A board's placement, reserve (sorted) and side to move from one side of a BFEN. */
function boardOf(side) {
  const m = /^(\S+?)\[([^\]]*)\] ([wb])\b/.exec(side.trim());
  if (!m) fail("a board of a BFEN", "placement[reserve] w|b …", side);
  return { placement: m[1], reserve: [...m[2]].sort().join(""), turn: m[3] };
}

/** Both boards of a BFEN `A | B`. */
const boardsOf = (bfen) => bfen.split("|").map(boardOf);

/**
 * What `show` printed: both boards read from their diagrams (ranks 8 to 1, `.` empty), who is
 * to move, the reserves from the seat lines, the four clocks (ms) and which run, the moves made;
 * its `bfen:` line must say the same boards.
 * @param {string} text
 */
function parseShow(text) {
  const lines = text.split("\n");
  const boards = [];
  for (const board of ["A", "B"]) {
    const at = lines.findIndex((l) => l.startsWith(`board ${board}: `));
    const head = /^board [AB]: (white|black)-[AB] to move/.exec(lines[at] ?? "");
    if (!head) fail(`show's board ${board}`, `board ${board}: … to move`, text);
    const ranks = [];
    for (let r = 0; r < 8; r += 1) {
      const row = lines[at + 1 + r] ?? "";
      const m = new RegExp(`^${8 - r} ((?:[.pnbrqkPNBRQK] ){7}[.pnbrqkPNBRQK])$`).exec(row);
      if (!m) fail(`rank ${8 - r} of show's board ${board}`, "8 r n b q k b n r", row);
      // `.` squares → FEN's counts of empty squares.
      ranks.push(m[1].split(" ").join("").replace(/\.+/g, (e) => String(e.length)));
    }
    boards.push({ placement: ranks.join("/"), reserve: "", turn: head[1][0] });
  }
  const clocks = [];
  const running = [];
  for (const [k, seat] of SHOW_SEATS.entries()) {
    const line = lines.find((l) => l.startsWith(`${seat} `) || l.startsWith(`${seat}:`)) ?? "";
    const m = /: clock (\d+):(\d\d)\.(\d{3})( running)?(?:, flag fell)?, reserve (.+)$/.exec(line);
    if (!m) fail(`show's line for ${seat}`, `${seat} (name): clock m:ss.mmm[ running], reserve …`, line);
    clocks.push(Number(m[1]) * 60000 + Number(m[2]) * 1000 + Number(m[3]));
    running.push(Boolean(m[4]));
    // `P2 n1`: White's pieces upper case, Black's lower case; a seat's reserve is on its board.
    const items = m[5] === "-" ? [] : m[5].split(" ").map((x) => x[0].repeat(Number(x.slice(1))));
    boards[k < 2 ? 0 : 1].reserve += items.join("");
  }
  for (const b of boards) b.reserve = [...b.reserve].sort().join("");
  const made = /^moves made: (\d+) of (\d+)/m.exec(text);
  const bfen = /^bfen: (.+)$/m.exec(text)?.[1];
  if (!made || !bfen) fail("show's moves made and bfen", "moves made: N of M … bfen: …", text);
  // The diagrams and the BFEN line say the same.
  const fromBfen = boardsOf(bfen);
  if (JSON.stringify(fromBfen) !== JSON.stringify(boards)) fail("show's diagrams read as its bfen line", fromBfen, boards);
  return { boards, clocks, running, move: Number(made[1]), total: Number(made[2]), paused: /paused, K5/.test(text), bfen };
}

/** What a review page shows at its instant (`window.shvedka.review`). */
function fromReview(r) {
  return { boards: boardsOf(r.bfen), clocks: r.clocks, running: r.running, move: r.move, t: r.t, bfen: r.bfen };
}

/**
 * Sets a review's time slider to `t` as a person dragging it does (the page listens to `input`)
 * and reads what the review shows then.
 */
async function reviewAt(page, who, t) {
  await page.locator("#review-time").evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }, t);
  await until(page, `${who} at ${t} ms of match time`, (v) => window.shvedka.review?.t === v, t,
    { expected: t, seen: () => ({ review: window.shvedka.review, max: document.getElementById("review-time").max }) });
  return fromReview((await report(page)).review);
}

/** The ways `got` (one reader) differs from `want` (`show`): a line each. */
function differences(instant, reader, want, got) {
  const said = [];
  for (const [k, board] of ["A", "B"].entries()) {
    for (const key of ["placement", "reserve", "turn"]) {
      if (want.boards[k][key] !== got.boards[k][key]) {
        said.push(`${instant}: ${reader} board ${board} ${key} ${JSON.stringify(got.boards[k][key])}, show ${JSON.stringify(want.boards[k][key])}`);
      }
    }
  }
  for (const [k, seat] of SHOW_SEATS.entries()) {
    if (Math.abs(want.clocks[k] - got.clocks[k]) > CLOCK_TOLERANCE_MS) {
      said.push(`${instant}: ${reader} ${seat}'s clock ${got.clocks[k]} ms, show ${want.clocks[k]} ms`);
    }
    if (want.running[k] !== got.running[k]) {
      said.push(`${instant}: ${reader} ${seat}'s clock ${got.running[k] ? "running" : "stopped"}, show ${want.running[k] ? "running" : "stopped"}`);
    }
  }
  if (want.move !== got.move) said.push(`${instant}: ${reader} at move ${got.move}, show ${want.move} moves made`);
  return said;
}

const clockText = (c) => `${Math.floor(c / 60000)}:${String(Math.floor(c / 1000) % 60).padStart(2, "0")}.${String(c % 1000).padStart(3, "0")}`;
/** One reader's reading, in one line. */
const line = (r) => `move ${r.move}; ${r.boards.map((b, k) => `${"AB"[k]} ${b.placement}[${b.reserve}] ${b.turn}`).join(" | ")}; `
  + `clocks ${r.clocks.map((c, k) => `${clockText(c)}${r.running[k] ? "*" : ""}`).join(" ")}`;

async function main() {
  browser = await launch();
  players = await openPlayers(browser, args.url, args.transport, [
    { name: "anna", seat: "WhiteA" },
    { name: "boris", seat: "BlackA" },
    { name: "vera", seat: "WhiteB" },
    { name: "gleb", seat: "BlackB" },
    { name: "judge", query: "&arbiter" },
  ]);
  const page = (name) => players.get(name).page;
  const judge = page("judge");
  await judge.locator("#arbiter-secret").fill(args.token);
  await judge.locator("#arbiter-become").click();
  const matchId = await seatAndStart(players);
  await judge.locator("#arbiter-lobby").waitFor({ state: "visible", timeout: 10000 });
  await judge.locator("#arb-refresh").click();
  await judge.locator(`#arb-watch-${matchId}`).click({ timeout: 10000 });
  await until(judge, "the arbiter follows the match", (id) => window.shvedka.matchId === id, matchId);
  await judge.locator("#arbiter-panel").waitFor({ state: "visible", timeout: 10000 });
  step(`match ${matchId} running, the arbiter watching`);

  // Captures on board A give Black-B a pawn; the sixth move, 3B. Bg5, is taken back later.
  const opening = [
    ["anna", sq("A", "e2"), "A", "e4"],
    ["vera", sq("B", "d2"), "B", "d4"],
    ["boris", sq("A", "d7"), "A", "d5"],
    ["gleb", sq("B", "g8"), "B", "f6"],
    ["anna", sq("A", "e4"), "A", "d5"], // 2A. exd5: a pawn for Black-B
    ["vera", sq("B", "c1"), "B", "g5"], // 2B. Bg5: taken back by the arbiter
  ];
  let played = 0;
  for (const [who, from, board, to] of opening) {
    await clickMove(page(who), from, board, to);
    played += 1;
    await allSeeMoves(played);
  }
  step(`played ${(await report(page("anna"))).moves.join(" ")}`);

  // A second of play with 2B. Bg5 on the board (the first instant is in it), then the arbiter
  // stops the clocks for a few seconds (the second instant), and restarts them.
  await judge.waitForTimeout(1200);
  await judge.locator("#arb-pause").click();
  await allSee("paused by the arbiter", () => window.shvedka.phase === "Paused", null, () => window.shvedka.phase);
  await judge.waitForTimeout(2500);
  await judge.locator("#arb-resume").click();
  await allSee("clocks running again", () => window.shvedka.phase === "Running", null, () => window.shvedka.phase);
  step("the arbiter paused the clocks for 2.5 s and restarted them");

  // He takes back 2B. Bg5, then corrects board B: Black-B's knight stood on g8 all along.
  await judge.locator("#arb-takeback-board").selectOption("B");
  await judge.locator("#arb-takeback").click();
  await allSee("2B. Bg5 taken back", () => /^rnbqkb1r\/pppppppp\/5n2\/8\/3P4\/8\/PPP1PPPP\/RNBQKBNR\[p\] w/.test(window.shvedka.bfen.split("|")[1].trim()), null,
    () => window.shvedka.bfen);
  const before = (await report(judge)).bfen;
  const [a, b] = before.split("|").map((s) => s.trim());
  const corrected = `${a} | ${b.replace(/^rnbqkb1r\/pppppppp\/5n2\//, "rnbqkbnr/pppppppp/8/")}`;
  if (corrected === before) fail("a corrected position to set", "board B's knight back on g8", before);
  await judge.locator("#arb-bfen").fill(corrected);
  await judge.locator("#arb-position").click();
  await allSee("the corrected position on board B", () => /^rnbqkbnr\/pppppppp\/8\/8\/3P4\//.test(window.shvedka.bfen.split("|")[1].trim()), null,
    () => window.shvedka.bfen);
  step(`the arbiter took back 2B. Bg5 and set board B's knight back on g8: ${corrected}`);

  // Play goes on: a capture on board A (a pawn for White-B), a drop on board B; a moment before
  // the last move (the third instant is in it); then White-A resigns.
  const rest = [
    ["vera", sq("B", "e2"), "B", "e4"],
    ["boris", sq("A", "d8"), "A", "d5"], // 2a. Qxd5: a pawn for White-B
    ["gleb", reservePiece("BlackB", "P"), "B", "d6"], // 2b. P@d6
    ["anna", sq("A", "b1"), "A", "c3"],
  ];
  for (const [k, [who, from, board, to]] of rest.entries()) {
    if (k === rest.length - 1) await judge.waitForTimeout(1200);
    await clickMove(page(who), from, board, to);
    played += 1;
    await allSeeMoves(played);
  }
  const anna = page("anna");
  await anna.locator("#resign").click();
  await anna.locator("#resign").click();
  await allSee("the match is over", () => window.shvedka.phase === "Ended", null, () => window.shvedka.phase);
  step(`played on to ${(await report(anna)).moves.join(" ")}; white-A resigned`);

  // The arbiter downloads the record with the Record button.
  const [download] = await Promise.all([judge.waitForEvent("download", { timeout: 15000 }), judge.locator("#record").click()]);
  const file = join(out, "instants.bpgn");
  await download.saveAs(file);
  const bpgn = readFileSync(file, "utf8");
  const { moves, acts } = recordTimes(bpgn);
  const act = (verb) => acts.find((x) => x.verb === verb) ?? fail(`the record's ${verb} act`, `[%act ${verb} …]`, bpgn);
  for (const verb of ["played", "pause", "resume", "takeback", "position", "resign", "end"]) act(verb);
  if (moves.length !== 9) fail("the record's nine moves (2B. Bg5 an act)", 9, moves.map((m) => m.label));
  if (!/move="2B\. Bg5"/.test(act("played").keys)) fail("the move taken back, as played", 'move="2B. Bg5"', act("played"));
  step(`downloaded ${download.suggestedFilename()}: ${moves.length} moves; acts ${acts.map((x) => `${x.verb}@${x.at}`).join(" ")}`);

  // Three instants of match time, each well between two happenings of the record.
  const instants = [
    { name: "before the take-back (2B. Bg5 on the board, clocks running)", t: inside("2B. Bg5 and the pause", act("played").at, act("pause").at) },
    { name: "during the pause", t: inside("the pause", act("pause").at, act("resume").at) },
    { name: "near the end, after the take-back and the correction", t: inside("2b. P@d6 and 3A. Nc3", moves[7].at, moves[8].at) },
  ];
  step(`instants: ${instants.map((i) => `${i.t} ms (${i.name})`).join("; ")}`);

  // (a) `shvedka arbiter show FILE --at T`.
  const texts = await showAll(file, instants.map((i) => i.t));
  const shown = texts.map(parseShow);
  for (const [k, s] of shown.entries()) {
    writeFileSync(join(out, `show-${instants[k].t}.txt`), texts[k]);
    step(`show --at ${instants[k].t / 1000}: ${line(s)}${s.paused ? " (paused)" : ""}`);
  }
  if (!shown[1].paused || shown[1].running.some(Boolean)) fail("show says the clocks stand during the pause", "paused, none running", shown[1]);

  // (b) The stored match reviewed on the arbiter's page; (c) the record pasted on a clerk's.
  await judge.locator("#review-open").click();
  await until(judge, "the stored match reviewed", (id) => window.shvedka.review?.matchId === id, matchId, { seen: () => window.shvedka.review });
  const clerk = { name: "clerk", ...(await openPlayer(browser, "clerk")) };
  players.set("clerk", clerk);
  await clerk.page.goto(`${args.url}?name=clerk&transport=${args.transport}`);
  await until(clerk.page, "clerk connected", () => window.shvedka?.connected, null);
  await clerk.page.locator("#record-text").fill(bpgn);
  await clerk.page.locator("#record-review").click();
  await until(clerk.page, "the record reviewed", () => window.shvedka.review?.matchId === 0 && !document.getElementById("match").hidden, null,
    { seen: () => window.shvedka.review });

  const disagree = [];
  const readings = [];
  for (const [k, instant] of instants.entries()) {
    const s = shown[k];
    const stored = await reviewAt(judge, "the stored review", instant.t);
    const record = await reviewAt(clerk.page, "the record review", instant.t);
    readings.push({ instant, show: s, stored, record });
    step(`${instant.t} ms, stored review: ${line(stored)}`);
    step(`${instant.t} ms, record review: ${line(record)}`);
    disagree.push(...differences(`${instant.t} ms (${instant.name})`, "the stored review", s, stored));
    disagree.push(...differences(`${instant.t} ms (${instant.name})`, "the record review", s, record));
    if (k === 1) {
      await judge.evaluate(() => window.scrollTo(0, 0));
      await shot(judge, "instants-stored-pause.png", `the arbiter reviews the stored match at ${instant.t} ms, during the pause: 2B. Bg5 still on board B, the clocks standing`);
      await shot(clerk.page, "instants-record-pause.png", `the clerk reviews the pasted record at ${instant.t} ms, during the pause`);
    }
  }
  writeFileSync(join(out, "instants.json"), JSON.stringify(readings, null, 2));

  // A Russian phone reviews the stored match at the pause, by its number.
  const lena = { name: "lena", ...(await openPlayer(browser, "lena", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: "ru-RU" })) };
  players.set("lena", lena);
  await lena.page.goto(`${args.url}?name=lena&transport=${args.transport}`);
  await until(lena.page, "lena connected", () => window.shvedka?.connected, null);
  await lena.page.locator("#join-id").fill(String(matchId));
  await lena.page.locator("#join-review").click();
  await until(lena.page, "lena reviews the stored match", (id) => window.shvedka.review?.matchId === id && !document.getElementById("match").hidden, matchId,
    { seen: () => window.shvedka.review });
  const onPhone = await reviewAt(lena.page, "the phone's review", instants[1].t);
  disagree.push(...differences(`${instants[1].t} ms (${instants[1].name})`, "the Russian phone's stored review", shown[1], onPhone));
  const at = await lena.page.locator("#review-at").innerText();
  if (!/^(ход \d+ из \d+|начало[^·]*) · \d+:\d\d,\d{3}$/.test(at)) fail("the phone's review says the move and time in Russian", "ход N из M · m:ss,mmm", at);
  await lena.page.evaluate(() => window.scrollTo(0, 0));
  await shot(lena.page, "instants-phone-pause.png", `a Russian phone reviews the stored match at ${instants[1].t} ms, during the pause (${at})`);
  await lena.page.locator("#review-bar").scrollIntoViewIfNeeded();
  await shot(lena.page, "instants-phone-controls.png", `the phone's review controls, in Russian, at ${instants[1].t} ms`);
  step(`the Russian phone at ${instants[1].t} ms: ${line(onPhone)} (${at})`);

  // Where each review's time slider ends, beside the record's end (said, not judged).
  const ends = await Promise.all([judge, clerk.page].map((p) => p.locator("#review-time").getAttribute("max")));
  step(`the sliders end at ${ends[0]} ms (stored review) and ${ends[1]} ms (record review); the record ends at ${act("end").at} ms`);
  for (const d of disagree) console.log(`✗ ${d}`);
  if (disagree.length) fail("the reviews show what `shvedka arbiter show` prints at each instant", "no difference", `${disagree.length} differences (the lines ✗ above)`);
  const errors = [...players.values()].flatMap((p) => p.errors);
  if (errors.length) fail("no console errors", [], errors);
  console.log(`PASS: the stored review and the record review agree with shvedka arbiter show at ${instants.map((i) => `${i.t} ms`).join(", ")} over ${args.transport}`);
}

await run(main, args.out, () => ({ browser, players }));
