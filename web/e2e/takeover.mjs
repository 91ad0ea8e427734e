// End to end (issue 56): a seat belongs to its account. Anna, logged in, plays white-A; her page
// dies mid-match (its browser context closed, nothing stored kept). She opens the site on a
// Russian phone — a fresh browser, no storage — and logs in: the lobby offers her match back
// («Ваша партия … идёт»), she goes back to it, sits at her seat with her clock, and plays on;
// the other three see her move. A page of hers still open elsewhere would be told its seat was
// taken over (tested through the protocol in tests/tests/seat_takeover.rs).
//
//   node web/e2e/takeover.mjs --url http://127.0.0.1:HTTPPORT/ --transport webtransport|websocket --out DIR
//
// Exit 0 only if everything held; prints one line per screenshot.

import { fail, launch, openPlayer, run, until } from "./browser.mjs";
import { script } from "./script.mjs";
import { openPlayers, seatAndStart } from "./table.mjs";
import { clickMove, sq, tapMove } from "./ui.mjs";
import { expectRussian } from "./russian.mjs";

const { args, step, shot } = script("takeover.mjs");
let browser;
let players = new Map();
const PASSWORD = "anna's long password";

/** Fills the login form and enters. */
async function enter(page, name, register) {
  await page.locator("#name").fill(name);
  await page.locator("#password").fill(PASSWORD);
  await page.locator("#register").setChecked(register);
  await page.locator("#enter").click();
  await until(page, `${name} logged in`, (n) => window.shvedka?.connected && document.getElementById("whoami").textContent === n, name,
    { seen: () => ({ whoami: document.getElementById("whoami").textContent, error: window.shvedka?.lastError }) });
}

/** Waits until every page of `list` has seen `n` moves. */
async function moves(list, n) {
  for (const p of list) {
    await until(p.page, `${p.name} sees ${n} moves`, (k) => window.shvedka.moves.length >= k, n,
      { seen: () => window.shvedka.moves });
  }
}

async function main() {
  browser = await launch();
  // Boris creates the match; vera and gleb are guests too; anna registers from the login form.
  players = await openPlayers(browser, args.url, args.transport, [
    { name: "boris", seat: "BlackA" },
    { name: "vera", seat: "WhiteB" },
    { name: "gleb", seat: "BlackB" },
  ]);
  const anna = { name: "anna", seat: "WhiteA", ...(await openPlayer(browser, "anna")) };
  await anna.page.goto(`${args.url}?transport=${args.transport}`);
  await enter(anna.page, "anna", true);
  players = new Map([["boris", players.get("boris")], ["anna", anna], ["vera", players.get("vera")], ["gleb", players.get("gleb")]]);
  const id = await seatAndStart(players);
  await clickMove(anna.page, sq("A", "e2"), "A", "e4");
  await moves([...players.values()], 1);
  step(`match ${id} started; anna (an account) played 1A. e4`);

  // Her page dies: the context is closed, its storage with it.
  await anna.context.close();
  players.delete("anna");
  const boris = players.get("boris");
  await clickMove(boris.page, sq("A", "e7"), "A", "e5");

  // A fresh phone, in Russian: she logs in and is offered her match.
  const phone = { name: "anna-phone", ...(await openPlayer(browser, "anna-phone", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: "ru-RU" })) };
  players.set("anna-phone", phone);
  await phone.page.goto(`${args.url}?transport=${args.transport}`);
  await enter(phone.page, "anna", false);
  await until(phone.page, "the lobby offers her match back", () => !document.getElementById("your-match").hidden, null,
    { seen: () => document.getElementById("your-match").outerHTML });
  const offer = await phone.page.locator("#your-match").innerText();
  if (!offer.includes(`Ваша партия ${id} идёт: вы — белые A.`) || !offer.includes("Вернуться к ней")) {
    fail("the offer in Russian", `Ваша партия ${id} идёт: вы — белые A. … Вернуться к ней`, offer);
  }
  await expectRussian(phone.page, "the lobby with her match offered", "#your-match", []);
  await shot(phone.page, "takeover-offer-phone.png", "anna on a fresh phone, logged in: the lobby offers her match in play, in Russian");
  step("a fresh device, logged in: the lobby offers the match in play");

  await phone.page.locator("#your-match-go").click();
  await until(phone.page, "she sits at her seat again, the match running", (m) => window.shvedka.matchId === m && window.shvedka.seat === "WhiteA"
    && window.shvedka.phase === "Running" && window.shvedka.moves.length === 2, id,
  { seen: () => ({ match: window.shvedka.matchId, seat: window.shvedka.seat, phase: window.shvedka.phase, moves: window.shvedka.moves }) });
  await tapMove(phone.page, sq("A", "g1"), "A", "f3");
  await moves([...players.values()], 3);
  const last = await boris.page.evaluate(() => window.shvedka.moves.at(-1));
  if (!JSON.stringify(last).includes("Nf3")) fail("the others see her move", "2A. Nf3", last);
  await expectRussian(phone.page, "her match on the phone", "#match", ["anna", "boris", "vera", "gleb"]);
  await phone.page.evaluate(() => window.scrollTo(0, 0));
  await shot(phone.page, "takeover-playing-phone.png", "anna back in her seat on the phone, after 2A. Nf3: her clock, her board");
  step("she took her seat over and played 2A. Nf3; the other three saw it");
  const errors = [...players.values()].flatMap((p) => p.errors);
  if (errors.length) fail("no console errors", [], errors);
  console.log(`PASS: a seat taken over by a new device of its account over ${args.transport}`);
}

await run(main, args.out, () => ({ browser, players }));
