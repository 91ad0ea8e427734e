// End to end: one person and three of the server's bots. Anna creates a 1+0 match (which seats
// her at White-A), fills the empty seats with level-1 bots from the match screen, says ready and
// plays beside them: the bots' moves on board B come at a human pace (never closer than the
// server's bot_pace_ms, 1 s by default), so board B has not raced to its end before she moves;
// the bot opposite her answers her moves; she resigns and sees the result.
//
//   node web/e2e/bots.mjs --url http://127.0.0.1:HTTPPORT/ --transport webtransport|websocket --out DIR
//
// Exit 0 only if everything held; prints one line per screenshot.

import { fail, launch, report, run, until } from "./browser.mjs";
import { script } from "./script.mjs";
import { openPlayers } from "./table.mjs";
import { clickMove, sq } from "./ui.mjs";

const { args, step, shot } = script("bots.mjs");
/** The server's least time a bot takes per move (config/default.toml bot_pace_ms). */
const PACE_MS = 1000;
let browser;
let players = new Map();

/** Board B's part of the page's position. */
const boardB = (page) => page.evaluate(() => window.shvedka.bfen?.split(" | ")[1] ?? null);

async function main() {
  browser = await launch();
  players = await openPlayers(browser, args.url, args.transport, [{ name: "anna", seat: "WhiteA" }]);
  const anna = players.get("anna").page;
  await anna.locator("#tc").fill("1+0");
  await anna.locator("#create").click();
  await until(anna, "creating seats anna at White-A", () => window.shvedka.seat === "WhiteA", null,
    { expected: "WhiteA", seen: () => window.shvedka.seat });
  await anna.locator("#bots-bar").waitFor({ state: "visible", timeout: 10000 });
  await anna.locator("#bot-level").selectOption("1");
  await anna.locator("#fill-bots").click();
  await until(anna, "three bots sit beside anna", () => (document.getElementById("boards").textContent.match(/bot-\d+ ★(?!★)/g) ?? []).length >= 3, null,
    { expected: "three 'bot-N ★' names (level 1)", seen: () => document.getElementById("boards").textContent });
  await until(anna, "the bots bar goes once the seats are full", () => document.getElementById("bots-bar").hidden, null);
  await shot(anna, "bots-seated.png", "anna at White-A, three level-1 bots in the other seats, waiting for her ready");
  step("three bots seated");

  await anna.locator("#ready").click();
  await until(anna, "the match starts", () => window.shvedka.phase === "Running", null,
    { timeout: 20000, expected: "Running", seen: () => window.shvedka.phase });
  // Watch board B for a while before anna moves: each change of its position is one bot move.
  const changes = [];
  let last = await boardB(anna);
  const watchUntil = Date.now() + 6000;
  while (Date.now() < watchUntil) {
    const now = await boardB(anna);
    if (now !== last) {
      changes.push(Date.now());
      last = now;
    }
    await new Promise((r) => setTimeout(r, 40));
  }
  const gaps = changes.slice(1).map((t, i) => t - changes[i]);
  step(`board B in 6 s: ${changes.length} moves, gaps ${gaps.join(", ")} ms`);
  if (changes.length < 2) fail("the bots on board B play", "at least 2 moves in 6 s", changes.length);
  if (changes.length > 6000 / PACE_MS + 1) fail("bots at a human pace", `at most ${6000 / PACE_MS + 1} moves in 6 s`, changes.length);
  // 150 ms of slack for the page's polling and the network.
  if (gaps.some((g) => g < PACE_MS - 150)) fail("no two bot moves closer than the pace", `every gap ≥ ${PACE_MS - 150} ms`, gaps);
  await shot(anna, "bots-playing.png", `board B played by two bots at a human pace (${changes.length} moves in 6 s); anna to move on board A`);

  // Anna plays two quiet moves; the bot opposite answers each.
  for (const [from, to, n] of [["a2", "a3", 1], ["h2", "h3", 2]]) {
    await clickMove(anna, sq("A", from), "A", to);
    await until(anna, `black-A answers anna's move ${n}`, (k) => window.shvedka.bfen?.split(" | ")[0].split(" ")[1] === "w" && Number(window.shvedka.bfen?.split(" | ")[0].match(/ (\d+)$/)?.[1] ?? 0) > k, n,
      { timeout: 20000, seen: () => window.shvedka.bfen });
  }
  await shot(anna, "bots-answered.png", "anna has played a3 and h3 on board A; the bot at Black-A answered both");
  step("anna played two moves, black-A answered both");

  await anna.locator("#move-input").fill("Nf3");
  await anna.locator("#resign").click();
  await anna.locator("#resign").click();
  await until(anna, "anna sees the result", () => window.shvedka.phase === "Ended" && window.shvedka.result !== null, null,
    { timeout: 15000, seen: () => window.shvedka.result });
  const r = await report(anna);
  if (r.result.winner !== "Two") fail("anna's team loses by her resignation", "Two", r.result);
  if (!r.sounds.includes("end")) fail("the end of the match sounds", "end", r.sounds);
  await shot(anna, "bots-resigned.png", `anna resigned: ${r.result.reason} (${r.result.rule}); "Nf3" left in her move box`);
  step(`result: ${r.result.reason}`);

  // The next match starts clean: no line of the last one in the log, an empty move box.
  await anna.locator("#to-lobby").click();
  await anna.locator("#create").click();
  await until(anna, "anna sits in her next match", (id) => window.shvedka.matchId !== id && window.shvedka.seat === "WhiteA", r.matchId,
    { seen: () => window.shvedka });
  const log = await anna.locator("#log").innerText();
  const box = await anna.locator("#move-input").inputValue();
  if (/resign|clocks started/.test(log)) fail("the last match's lines are gone from the log", "no 'resigned'", log);
  if (box !== "") fail("the move box is empty in the next match", "", box);
  await shot(anna, "next-match-clean.png", "anna's next match: an empty log and move box, the bots offer again");
  step("the next match starts with an empty log and move box");

  // The mute switch is remembered across a reload.
  await anna.locator("#mute").click();
  if (!(await report(anna)).muted) fail("the mute switch mutes", true, false);
  await anna.reload({ timeout: 15000 });
  await until(anna, "anna's page is back", () => window.shvedka?.connected, null);
  const again = await report(anna);
  if (!again.muted || (await anna.locator("#mute").getAttribute("aria-pressed")) !== "true") fail("muted after a reload", true, again.muted);
  await shot(anna, "muted-after-reload.png", "after a reload the header's switch still says sound off");
  step("the mute switch survived a reload");
}

await run(main, args.out, () => ({ browser, players }));
