// End to end: premoves and pre-drops in the web client. Four pages start a match. White-A (anna)
// moves, then, while Black-A thinks, premoves h2–h4 by clicks: it is drawn on the board and sent
// the instant Black-A has moved. She premoves g1–f3 and cancels it with a right-click: nothing is
// sent. On her turn she pre-drops a pawn she does not hold yet on e3 (her dimmed reserve pawn):
// it waits, drawn, until her partner Black-B takes a pawn on board B, and is played the moment
// the pawn arrives.
//
//   node web/e2e/premove.mjs --url http://127.0.0.1:HTTPPORT/ --transport webtransport|websocket --out DIR
//
// Exit 0 only if everything held; prints one line per screenshot.

import { fail, launch, report, run, until } from "./browser.mjs";
import { script } from "./script.mjs";
import { openPlayers, seatAndStart } from "./table.mjs";
import { clickMove, reservePiece, sq } from "./ui.mjs";

const { args, step, shot } = script("premove.mjs");
let browser;
let players = new Map();

/** Every page has seen `n` moves. */
async function allSeeMoves(n) {
  for (const p of players.values()) {
    await until(p.page, `${p.name} sees ${n} moves`, (k) => window.shvedka.moves.length >= k, n,
      { expected: n, seen: () => window.shvedka.moves });
  }
}

/** The squares of board A marked as a premove on a page. */
const premoveMarks = (page) => page.$$eval('.sq.premove[data-board="A"]', (els) => els.map((e) => e.getAttribute("data-square")).sort());

async function main() {
  browser = await launch();
  players = await openPlayers(browser, args.url, args.transport, [
    { name: "anna", seat: "WhiteA" },
    { name: "boris", seat: "BlackA" },
    { name: "vera", seat: "WhiteB" },
    { name: "gleb", seat: "BlackB" },
  ]);
  await seatAndStart(players);
  const anna = players.get("anna").page;
  const boris = players.get("boris").page;
  const vera = players.get("vera").page;
  const gleb = players.get("gleb").page;

  // 1. A premove made while Black-A thinks is sent the instant he has moved.
  await clickMove(anna, sq("A", "a2"), "A", "a3");
  await allSeeMoves(1);
  await anna.locator(sq("A", "h2")).click();
  await anna.locator(sq("A", "h4")).click();
  await until(anna, "anna's premove is queued", () => window.shvedka.premove === "h2h4", null, { seen: () => window.shvedka.premove });
  const marks = await premoveMarks(anna);
  if (JSON.stringify(marks) !== JSON.stringify(["h2", "h4"])) fail("the premove drawn on board A", ["h2", "h4"], marks);
  if ((await report(anna)).moves.length !== 1) fail("nothing sent before the turn", 1, (await report(anna)).moves);
  await shot(anna, "premove-queued.png", "White-A has played a3 and premoved h2–h4 (marked blue) while Black-A thinks");
  await clickMove(boris, sq("A", "a7"), "A", "a6");
  await allSeeMoves(3);
  const after = await report(boris);
  if (JSON.stringify(after.moves) !== JSON.stringify(["a3", "a6", "h4"])) fail("the premove played at once", ["a3", "a6", "h4"], after.moves);
  if ((await report(anna)).premove !== null) fail("the premove is gone once sent", null, (await report(anna)).premove);
  step("premove h2–h4 sent the instant Black-A moved");

  // 2. A right-click cancels a premove: nothing is sent.
  await anna.locator(sq("A", "g1")).click();
  await anna.locator(sq("A", "f3")).click();
  await until(anna, "anna's second premove is queued", () => window.shvedka.premove === "g1f3", null, { seen: () => window.shvedka.premove });
  await anna.locator(sq("A", "e5")).click({ button: "right" });
  await until(anna, "the right-click cancels it", () => window.shvedka.premove === null && !document.querySelector(".sq.premove"), null,
    { seen: () => window.shvedka.premove });
  await shot(anna, "premove-cancelled.png", "White-A's premove g1–f3 cancelled by a right-click: no marks left");
  await clickMove(boris, sq("A", "b7"), "A", "b6");
  await allSeeMoves(4);
  await new Promise((r) => setTimeout(r, 1500));
  const still = await report(anna);
  if (still.moves.length !== 4) fail("a cancelled premove is not sent", 4, still.moves);
  step("premove g1–f3 cancelled by a right-click; nothing sent");

  // 3. A pre-drop of a pawn anna does not hold waits until her partner's capture brings one.
  await anna.locator(reservePiece("WhiteA", "P")).click();
  await anna.locator(sq("A", "e3")).click();
  await until(anna, "anna's pre-drop waits", () => window.shvedka.premove === "P@e3", null, { seen: () => window.shvedka.premove });
  await shot(anna, "predrop-waiting.png", "White-A, on her turn with an empty reserve, pre-dropped a pawn on e3 (marked): it waits for a pawn");
  await clickMove(vera, sq("B", "e2"), "B", "e4");
  await clickMove(gleb, sq("B", "d7"), "B", "d5");
  await clickMove(vera, sq("B", "a2"), "B", "a3");
  await allSeeMoves(7);
  if ((await report(anna)).premove !== "P@e3") fail("the pre-drop still waits without a pawn", "P@e3", (await report(anna)).premove);
  await clickMove(gleb, sq("B", "d5"), "B", "e4");
  await until(anna, "the pre-drop is played when the pawn arrives", () => window.shvedka.moves.includes("P@e3") && window.shvedka.premove === null, null,
    { seen: () => ({ moves: window.shvedka.moves, premove: window.shvedka.premove }) });
  await allSeeMoves(9);
  const last = await report(boris);
  if (last.moves[8] !== "P@e3") fail("Black-A sees the dropped pawn", "P@e3 as the 9th move", last.moves);
  // Sounds on anna's page: moves, the capture on board B, her drop; her partner's signal.
  await gleb.locator("#sig-need-n").click();
  await until(anna, "anna hears her partner's signal", () => window.shvedka.sounds.includes("partner"), null, { seen: () => window.shvedka.sounds });
  const heard = (await report(anna)).sounds;
  for (const s of ["move", "capture", "drop", "partner"]) if (!heard.includes(s)) fail(`anna's page sounds a ${s}`, s, heard);
  step(`anna's sounds: ${heard.join(", ")}`);
  await shot(anna, "predrop-played.png", "the pawn Black-B took on e4 reached White-A and her pre-drop P@e3 was played at once");
  step("pre-drop P@e3 waited for the pawn and was played when it arrived");
}

await run(main, args.out, () => ({ browser, players }));
