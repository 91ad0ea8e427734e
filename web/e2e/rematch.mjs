// End to end: a rematch. Four pages play a match (gleb on a 390x844 phone); White-A resigns and
// every page shows the result with a Rematch button. Three accept one after the other: each
// page shows how many want it and who; the fourth accepts, and all four pages are seated in the
// new match with the other colour on the same board (White-A plays Black-A, and so on), which
// starts by itself; the new match's first move is played.
//
//   node web/e2e/rematch.mjs --url http://127.0.0.1:HTTPPORT/ --transport webtransport|websocket --out DIR
//
// Exit 0 only if everything held; prints one line per screenshot.

import { fail, launch, report, run, until } from "./browser.mjs";
import { script } from "./script.mjs";
import { openPlayers, seatAndStart } from "./table.mjs";
import { clickMove, sq } from "./ui.mjs";

const { args, step, shot } = script("rematch.mjs");
let browser;
let players = new Map();

const SWAPPED = { WhiteA: "BlackA", BlackA: "WhiteA", WhiteB: "BlackB", BlackB: "WhiteB" };

async function main() {
  browser = await launch();
  players = await openPlayers(browser, args.url, args.transport, [
    { name: "anna", seat: "WhiteA" },
    { name: "boris", seat: "BlackA" },
    { name: "vera", seat: "WhiteB" },
    { name: "gleb", seat: "BlackB", phone: true },
  ]);
  const first = await seatAndStart(players);
  const anna = players.get("anna").page;
  await clickMove(anna, sq("A", "e2"), "A", "e4");
  // Resigning is asked twice.
  await anna.locator("#resign").click();
  await anna.locator("#resign").click();
  for (const p of players.values()) {
    await until(p.page, `${p.name} sees the result and the rematch button`,
      () => window.shvedka.phase === "Ended" && !document.getElementById("rematch-bar").hidden, null,
      { seen: () => ({ phase: window.shvedka.phase, bar: !document.getElementById("rematch-bar").hidden }) });
  }
  const head = await anna.locator("#result").textContent();
  if (!/white-A resigned/.test(head ?? "")) fail("the result names the seat as everywhere", "white-A resigned", head);
  await shot(anna, "result-rematch.png", "White-A resigned: the result with its rule, and Rematch / No rematch under it");

  const order = ["anna", "boris", "vera"];
  for (const [k, name] of order.entries()) {
    await players.get(name).page.locator("#rematch").click();
    for (const p of players.values()) {
      await until(p.page, `${p.name} sees ${k + 1} of 4 want a rematch`,
        (n) => document.getElementById("rematch-bar").dataset.accepted === String(n), k + 1,
        { expected: k + 1, seen: () => ({ accepted: document.getElementById("rematch-bar").dataset.accepted, text: document.getElementById("rematch-text").textContent }) });
    }
  }
  const text = await players.get("gleb").page.locator("#rematch-text").textContent();
  const want = "3 of 4 want a rematch (anna (guest), boris (guest), vera (guest))";
  if (!(text ?? "").includes(want)) fail("gleb reads who wants a rematch, marked as guests", want, text);
  await shot(players.get("gleb").page, "phone-rematch-offered.png", "gleb's phone: three of four want a rematch, his Rematch button");
  step("three accepted, each page told");

  await players.get("gleb").page.locator("#rematch").click();
  for (const p of players.values()) {
    await until(p.page, `${p.name} plays the rematch with the other colour`,
      (a) => window.shvedka.matchId !== a.first && window.shvedka.seat === a.seat && window.shvedka.phase === "Running",
      { first, seat: SWAPPED[p.seat] },
      { timeout: 20000, expected: { seat: SWAPPED[p.seat], phase: "Running" }, seen: () => ({ match: window.shvedka.matchId, seat: window.shvedka.seat, phase: window.shvedka.phase }) });
  }
  const second = (await report(anna)).matchId;
  // Boris now has White on board A: his board is drawn with White at the bottom.
  const boris = players.get("boris").page;
  await clickMove(boris, sq("A", "d2"), "A", "d4");
  await until(anna, "anna (now Black-A) sees the rematch's first move", () => window.shvedka.moves.includes("d4"), null,
    { seen: () => window.shvedka.moves });
  const moves = (await report(anna)).moves;
  if (moves.length !== 1) fail("the rematch starts with a clean move list", ["d4"], moves);
  await shot(anna, "rematch-started.png", `match ${second}: anna now plays Black-A (board A from Black's side), boris opened d4`);
  await shot(players.get("gleb").page, "phone-rematch-started.png", "gleb's phone in the rematch: now White-B");
  step(`rematch ${second} of match ${first} started with the colours swapped`);
}

await run(main, args.out, () => ({ browser, players }));
