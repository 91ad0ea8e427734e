// End to end (issue 17): a page registers the account alice from the login form and plays
// (creating a match seats her; level-1 bots fill the other seats; she says ready and moves),
// reloads and is resumed in her seat as alice, logs out (back to the login form, the session
// gone from the tab), is refused a wrong password, and logs in again with the right one.
//
//   node web/e2e/account.mjs --url http://127.0.0.1:HTTPPORT/ --transport webtransport|websocket --out DIR
//
// Exit 0 only if everything held; prints one line per screenshot.

import { fail, launch, openPlayer, report, run, until } from "./browser.mjs";
import { script } from "./script.mjs";

const { args, step, shot } = script("account.mjs");
let browser;
const players = new Map();

/** Fills the login form and enters. */
async function enter(page, name, password, register) {
  await page.locator("#name").fill(name);
  await page.locator("#password").fill(password);
  await page.locator("#register").setChecked(register);
  await page.locator("#enter").click();
}

const loggedIn = (page, what) =>
  until(page, what, () => window.shvedka?.connected && document.getElementById("whoami").textContent === "alice"
    && !document.getElementById("logout").hidden, null,
  { expected: "connected as alice, log out shown", seen: () => ({ connected: window.shvedka?.connected, whoami: document.getElementById("whoami").textContent, error: window.shvedka?.lastError }) });

async function main() {
  browser = await launch();
  const alice = { name: "alice", ...(await openPlayer(browser, "alice")) };
  players.set("alice", alice);
  const page = alice.page;
  // The arbiter's secret is for arbiters: its opener shows only with ?arbiter in the address.
  await page.goto(`${args.url}?transport=${args.transport}&arbiter`, { timeout: 15000 });
  if (!(await page.locator("#arbiter-login").isVisible())) fail("the arbiter opener with ?arbiter", "visible", "hidden");
  await page.goto(`${args.url}?transport=${args.transport}`, { timeout: 15000 });
  await page.locator("#name").waitFor({ state: "visible" });
  if (await page.locator("#arbiter-login").isVisible()) fail("no arbiter opener on the login page for everyone", "hidden", "visible");
  await shot(page, "login.png", "the login form: name, password, new account; no arbiter opener");
  step("the arbiter opener only with ?arbiter");

  await enter(page, "alice", "correct horse", true);
  await loggedIn(page, "registered and logged in as alice");
  step("registered");

  await page.locator("#tc").fill("1+0");
  await page.locator("#create").click();
  await until(page, "creating seats alice at White-A", () => window.shvedka.seat === "WhiteA", null,
    { expected: "WhiteA", seen: () => window.shvedka.seat });
  await page.locator("#bot-level").selectOption("1");
  await page.locator("#fill-bots").click();
  await until(page, "three bots sit beside alice", () => (document.getElementById("boards").textContent.match(/bot-\d+ ★(?!★)/g) ?? []).length >= 3, null);
  await page.locator("#ready").click();
  await until(page, "the match starts", () => window.shvedka.phase === "Running", null,
    { timeout: 20000, expected: "Running", seen: () => window.shvedka.phase });
  await page.locator("#move-input").fill("e4");
  await page.locator("#move-input").press("Enter");
  await until(page, "alice's e4 is played", () => window.shvedka.moves.includes("e4"), null,
    { expected: "e4 among the moves", seen: () => ({ moves: window.shvedka.moves, error: window.shvedka.lastError }) });
  await shot(page, "account-playing.png", "alice, logged in, playing White-A beside three bots");
  step("playing");

  await page.reload();
  await until(page, "after a reload alice's session resumes in her seat",
    () => window.shvedka?.connected && window.shvedka.resumed && window.shvedka.seat === "WhiteA", null,
    { expected: { resumed: true, seat: "WhiteA" }, seen: () => ({ connected: window.shvedka?.connected, resumed: window.shvedka?.resumed, seat: window.shvedka?.seat }) });
  await loggedIn(page, "still alice after the reload");
  await shot(page, "account-resumed.png", "after a reload: alice resumed in her seat");
  step("resumed after a reload");

  await page.locator("#logout").click();
  await until(page, "logging out shows the login form", () => !document.getElementById("login").hidden, null);
  const stored = await page.evaluate(() => sessionStorage.getItem("shvedka.session"));
  if (stored !== null) fail("the tab forgets the logged-out session", null, stored);
  step("logged out");

  await enter(page, "alice", "wrong password", false);
  await until(page, "a wrong password is refused, back at the login form",
    () => !document.getElementById("login").hidden && /wrong name or password/.test(window.shvedka?.lastError ?? ""), null,
    { expected: "the login form and 'wrong name or password'", seen: () => ({ error: window.shvedka?.lastError, login: !document.getElementById("login").hidden }) });
  step("wrong password refused");

  await enter(page, "alice", "correct horse", false);
  await loggedIn(page, "logged in again with the right password");
  const r = await report(page);
  if (r.resumed) fail("a log-in is a new session, not a resumed one", false, r.resumed);
  await shot(page, "account-again.png", "alice logged in again");
  step("logged in again");
  if (alice.errors.length) fail("no console errors", [], alice.errors);
}

await run(main, args.out, () => ({ browser, players }));
