// End to end: quick pairing. Four pages (gleb on a 390x844 phone) open the lobby; anna clicks the
// 3+0 pool: the seek bar says she seeks, for how long, and her rating range, which widens while
// she waits. Gleb clicks and cancels; the pool's button counts who waits. Then boris, vera and
// gleb click 3+0 too: all four are seated in one match, each in his own seat, and it starts by
// itself. Anna resigns; she asks to play again with her partner: he sees the invitation on his
// page and accepts, and both see the pair seeking.
//
//   node web/e2e/quick.mjs --url http://127.0.0.1:HTTPPORT/ --transport webtransport|websocket --out DIR
//
// Exit 0 only if everything held; prints one line per screenshot.

import { fail, launch, report, run, until } from "./browser.mjs";
import { script } from "./script.mjs";
import { openPlayers } from "./table.mjs";

const { args, step, shot } = script("quick.mjs");
let browser;
let players = new Map();

const PARTNER = { WhiteA: "BlackB", BlackB: "WhiteA", BlackA: "WhiteB", WhiteB: "BlackA" };

const seekText = (page) => page.locator("#seek-text").textContent();

async function main() {
  browser = await launch();
  players = await openPlayers(browser, args.url, args.transport, [
    { name: "anna" },
    { name: "boris" },
    { name: "vera" },
    { name: "gleb", phone: true },
  ]);
  for (const p of players.values()) {
    await p.page.locator("#quick-3-0").waitFor({ state: "visible", timeout: 15000 });
  }
  const anna = players.get("anna").page;
  const gleb = players.get("gleb").page;
  const labels = await anna.locator("#quick-pools button b").allTextContents();
  for (const tc of ["1+0", "2+0", "3+0", "5+0"]) {
    if (!labels.includes(tc)) fail(`a quick pool for ${tc}`, tc, labels);
  }
  await anna.locator("#quick-3-0").click();
  await until(anna, "anna sees she seeks", () => !document.getElementById("seek-bar").hidden
    && /Seeking a 3\+0 casual game · waiting 0:0\d · rating ±\d+/.test(document.getElementById("seek-text").textContent), null,
  { seen: () => document.getElementById("seek-text").textContent });
  await until(anna, "her waiting time counts", () => /waiting 0:0[2-9]/.test(document.getElementById("seek-text").textContent), null,
    { seen: () => document.getElementById("seek-text").textContent });
  const text = await seekText(anna);
  const reach = Number(/±(\d+)/.exec(text ?? "")?.[1]);
  if (!(reach > 150)) fail("the rating range widens while she waits", "more than ±150", text);
  await shot(anna, "seeking.png", `anna seeks 3+0: "${text}", with Cancel`);
  step(`anna waits: ${text}`);

  // Gleb seeks and cancels; the pool's button counts who waits (anna).
  await gleb.locator("#quick-3-0").click();
  await until(gleb, "gleb sees he seeks", () => !document.getElementById("seek-bar").hidden, null);
  await shot(gleb, "phone-seeking.png", "gleb's phone: the seek bar with his waiting time and Cancel");
  await gleb.locator("#seek-cancel").click();
  await until(gleb, "gleb's seek bar goes", () => document.getElementById("seek-bar").hidden, null);
  await gleb.locator("#refresh").click();
  await until(gleb, "the 3+0 pool counts anna waiting", () => /1 waiting/.test(document.getElementById("quick-3-0").textContent), null,
    { seen: () => document.getElementById("quick-3-0").textContent });
  step("gleb cancelled; the pool shows one waiting");

  for (const name of ["boris", "vera", "gleb"]) await players.get(name).page.locator("#quick-3-0").click();
  const seats = new Map();
  for (const p of players.values()) {
    await until(p.page, `${p.name} plays the match found`, () => window.shvedka.phase === "Running" && window.shvedka.seat !== null, null,
      { timeout: 20000, seen: () => ({ phase: window.shvedka.phase, seat: window.shvedka.seat, bar: document.getElementById("seek-text").textContent }) });
    const r = await report(p.page);
    seats.set(p.name, r);
    if (!(await p.page.locator("#seek-bar").isHidden())) fail(`${p.name}'s seek bar goes once the match is found`, "hidden", "shown");
  }
  const ids = new Set([...seats.values()].map((r) => r.matchId));
  const taken = new Set([...seats.values()].map((r) => r.seat));
  if (ids.size !== 1 || taken.size !== 4) fail("one match, four seats", { matches: 1, seats: 4 }, [...seats.entries()]);
  const matchId = [...ids][0];
  await shot(anna, "match-found.png", `match ${matchId} found by quick pairing: anna plays ${seats.get("anna").seat}`);
  await shot(gleb, "phone-match-found.png", `gleb's phone in match ${matchId}: ${seats.get("gleb").seat}`);
  step(`match ${matchId}: ${[...seats.entries()].map(([n, r]) => `${n} ${r.seat}`).join(", ")}`);

  // Anna resigns, then asks to play again with her partner, who accepts on his page.
  await anna.locator("#resign").click();
  await anna.locator("#resign").click();
  for (const p of players.values()) {
    await until(p.page, `${p.name} sees the match over`, () => window.shvedka.phase === "Ended", null);
  }
  const partnerSeat = PARTNER[seats.get("anna").seat];
  const partnerName = [...seats.entries()].find(([, r]) => r.seat === partnerSeat)[0];
  const partner = players.get(partnerName).page;
  await anna.locator("#play-partner").click();
  await until(anna, "anna waits for her partner's answer", (n) => document.getElementById("seek-text").textContent.includes(`Waiting for ${n} to accept`), partnerName,
    { seen: () => document.getElementById("seek-text").textContent });
  await until(partner, `${partnerName} sees anna's invitation`, () => !document.getElementById("seek-accept").hidden
    && /anna invites you to play a 3\+0 casual game as partners/.test(document.getElementById("seek-text").textContent), null,
  { seen: () => document.getElementById("seek-text").textContent });
  await shot(partner, "partner-invited.png", `${partnerName} is invited by anna to play again as partners: Accept / Decline`);
  await partner.locator("#seek-accept").click();
  for (const page of [anna, partner]) {
    await until(page, "the pair seeks", (n) => document.getElementById("seek-text").textContent.includes(`(anna & ${n})`), partnerName,
      { seen: () => document.getElementById("seek-text").textContent });
  }
  await shot(anna, "pair-seeking.png", `anna and ${partnerName} seek again together: "${await seekText(anna)}"`);
  step(`anna and ${partnerName} seek again together`);
}

await run(main, args.out, () => ({ browser, players }));
