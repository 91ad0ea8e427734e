// End to end (issue 17): a private match joined by its invitation code. A page creates a private
// match (not listed) and is shown its code; another page does not find it in the lobby, is
// refused a wrong code with a clear message, joins with the right one and sits. Guests are marked
// as such beside their names.
//
//   node web/e2e/private.mjs --url http://127.0.0.1:HTTPPORT/ --transport webtransport|websocket --out DIR --listed ID
//
// `--listed ID`: a listed match the server already has; the lobby's list must show it (so the
// list has loaded) and not the private match.
//
// Exit 0 only if everything held; prints one line per screenshot.

import { fail, launch, openPlayer, run, until } from "./browser.mjs";
import { script } from "./script.mjs";

const { args, step, shot } = script("private.mjs", { listed: { type: "string" } });
let browser;
const players = new Map();

/** Opens a page and enters as the guest `name` (no password). */
async function guest(name) {
  const p = { name, ...(await openPlayer(browser, name)) };
  players.set(name, p);
  await p.page.goto(`${args.url}?transport=${args.transport}`, { timeout: 15000 });
  await p.page.locator("#name").fill(name);
  await p.page.locator("#password").fill("");
  await p.page.locator("#enter").click();
  await until(p.page, `${name} enters as a guest`, () => window.shvedka?.connected && !document.getElementById("lobby").hidden, null);
  return p;
}

const CODE = /^(\d+)\.[0-9a-f]{32}$/;

async function main() {
  browser = await launch();
  const alice = await guest("alice");
  await alice.page.locator("#tc").fill("1+0");
  await alice.page.locator("#listed").setChecked(false);
  await alice.page.locator("#create").click();
  await until(alice.page, "creating the private match seats alice at white-A", () => window.shvedka.seat === "WhiteA", null,
    { expected: "WhiteA", seen: () => ({ seat: window.shvedka.seat, error: window.shvedka.lastError }) });
  await until(alice.page, "the creator is shown the invitation code", () => !document.getElementById("invite").hidden, null);
  const code = (await alice.page.locator("#invite-code").textContent())?.trim() ?? "";
  const matchId = (await alice.page.evaluate(() => window.shvedka.matchId));
  const m = CODE.exec(code);
  if (!m || Number(m[1]) !== matchId) fail("the code names the match and carries 128 random bits", `${matchId}.<32 hex>`, code);
  await shot(alice.page, "private-code.png", "alice created a private match and is shown its invitation code");
  step(`created private match ${matchId}, code shown`);

  const bob = await guest("bob");
  const listedId = Number(args.listed);
  if (!Number.isSafeInteger(listedId) || listedId <= 0) fail("--listed names the server's listed match", "a match number", args.listed);
  // The list as drawn after the click: emptied first, so an old drawing cannot pass for it.
  await bob.page.evaluate(() => document.querySelector("#matches tbody")?.replaceChildren());
  await bob.page.locator("#refresh").click();
  await until(bob.page, "the lobby's list has loaded (it shows the listed match)",
    (id) => document.querySelector(`#matches tbody tr[data-match="${id}"]`) !== null, listedId,
    { expected: `match ${listedId} listed`, seen: () => [...document.querySelectorAll("#matches tbody tr")].map((r) => r.dataset.match) });
  const rows = await bob.page.evaluate(() => [...document.querySelectorAll("#matches tbody tr")].map((r) => Number(r.dataset.match)));
  if (rows.includes(matchId)) fail("a private match is not listed", `not ${matchId}`, rows);

  // A wrong code of the right shape (the id is right, the 128 bits are not): refused, said so.
  const wrong = `${matchId}.${"0".repeat(32)}`;
  await bob.page.locator("#join-id").fill(wrong);
  await bob.page.locator("#join-watch").click();
  await until(bob.page, "a wrong code is refused with a clear message",
    () => /^refused: no match has this invitation code$/.test(window.shvedka?.lastError ?? ""), null,
    { expected: "refused: no match has this invitation code", seen: () => ({ error: window.shvedka?.lastError, matchId: window.shvedka?.matchId }) });
  if ((await bob.page.evaluate(() => window.shvedka.matchId)) !== null) fail("a wrong code opens nothing", null, "a match");
  await shot(bob.page, "private-wrong-code.png", "bob's wrong invitation code is refused");
  step("wrong code refused");

  await bob.page.locator("#join-id").fill(code);
  await bob.page.locator("#join-watch").click();
  await until(bob.page, "the right code opens the match", (id) => window.shvedka?.matchId === id, matchId,
    { expected: matchId, seen: () => ({ matchId: window.shvedka?.matchId, error: window.shvedka?.lastError }) });
  await bob.page.locator("#sit-BlackA").click();
  await until(bob.page, "bob sits at black-A", () => window.shvedka.seat === "BlackA", null,
    { expected: "BlackA", seen: () => ({ seat: window.shvedka.seat, error: window.shvedka.lastError }) });
  for (const p of [alice, bob]) {
    await until(p.page, `${p.name} sees both guests marked as guests`,
      () => /alice \(guest\)/.test(document.getElementById("boards").textContent ?? "") && /bob \(guest\)/.test(document.getElementById("boards").textContent ?? ""), null,
      { expected: "alice (guest), bob (guest)", seen: () => document.getElementById("boards").textContent });
  }
  if (await bob.page.locator("#invite").isVisible()) fail("only the creator's page shows the code", false, true);
  await shot(bob.page, "private-joined.png", "bob joined alice's private match by its code and sat at black-A");
  await shot(alice.page, "private-creator.png", "alice sees bob sit in her private match");
  step("joined by the code and seated");
  for (const p of players.values()) if (p.errors.length) fail("no console errors", [], p.errors);
}

await run(main, args.out, () => ({ browser, players }));
