// End to end (issue 17): a page registers the account alice from the login form and plays
// (creating a match seats her; level-1 bots fill the other seats; she says ready and moves),
// reloads and is resumed in her seat as alice, logs out (back to the login form, the session
// gone from the tab), is refused a wrong password, and logs in again with the right one. Then a
// Russian student's phone (360 px) registers boris: its header, a seek and the lobby in Russian
// (issue 31), nothing cut off, no English word.
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

  await russianPhone();

  // alice's desktop switches to Russian and back: the lobby's lists are drawn again in the new
  // words at once (nothing asked of the server), the tab's title too.
  const phase = () => [...document.querySelectorAll("#matches td.meta")].map((td) => td.textContent);
  // Her list must hold boris's waiting match before the switch (a list drawn before he made it
  // would not; the switch itself asks nothing of the server).
  await page.locator("#refresh").click();
  await until(page, "alice's list shows boris's waiting match", () => [...document.querySelectorAll("#matches td.meta")].some((td) => td.textContent === "forming"), null,
    { timeout: 5000, seen: phase });
  await page.locator("#lang").selectOption("ru");
  await until(page, "alice's lobby in Russian", () => document.title === "shvedka — шведские шахматы" && document.getElementById("refresh").textContent === "Обновить"
    && [...document.querySelectorAll("#matches td.meta")].some((td) => td.textContent === "ждёт игроков") && /^на связи · /.test(document.getElementById("link").textContent), null,
    { timeout: 3000, seen: () => ({ title: document.title, phases: [...document.querySelectorAll("#matches td.meta")].map((td) => td.textContent), link: document.getElementById("link").textContent }) });
  await shot(page, "desktop-ru.png", "alice's desktop switched to Russian: the header, the list (boris's match «ждёт игроков»), her recent matches");
  await page.locator("#lang").selectOption("en");
  await until(page, "and back to English", () => document.title === "shvedka — bughouse" && [...document.querySelectorAll("#matches td.meta")].some((td) => td.textContent === "forming"), null,
    { timeout: 3000, seen: phase });
  step("alice's desktop switched to Russian and back");
  for (const p of players.values()) if (p.errors.length) fail("no console errors", [], p.errors);
}

/** English words a Russian page must not show (player names and the brand aside). */
const ENGLISH = /\b(the|and|of|to|in|is|no|yet|match|matches|game|games|open|new|create|refresh|quick|pairing|rated|casual|seek|seeking|waiting|sit|watch|review|recent|ratings?|show|profile|bullet|blitz|rapid|leaderboard|nobody|connected|connecting|log|out|sound|on|off|language|rules|clock|phase|players|forming|running|ended|annulled|tournaments?|cancel|accept|decline|left|white|black|number|invitation|code|listed|name|password|enter|back)\b/gi;

/**
 * Issue 31: a Russian student's phone (360 px, the narrowest) logged in to an account: the
 * header keeps every control whole within the screen, and the header, the seek bar and the lobby
 * (the quick pools, his new match waiting for players with «Сесть» on its free seats, his recent
 * matches, a leaderboard) show no English word.
 */
async function russianPhone() {
  const ru = { name: "ru-phone", ...(await openPlayer(browser, "ru-phone", { viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: "ru-RU" })) };
  players.set(ru.name, ru);
  const phone = ru.page;
  await phone.goto(`${args.url}?transport=${args.transport}`, { timeout: 15000 });
  await phone.locator("#name").waitFor({ state: "visible" });
  await enter(phone, "boris", "boris-password", true);
  await until(phone, "boris's Russian phone is in the lobby, logged in, with the quick pools and his recent matches",
    () => window.shvedka?.connected && !document.getElementById("logout").hidden && !document.getElementById("lobby").hidden
      && document.querySelectorAll("#quick-pools button").length > 0 && !document.getElementById("no-recent").hidden, null,
    { seen: () => ({ connected: window.shvedka?.connected, error: window.shvedka?.lastError, pools: document.querySelectorAll("#quick-pools button").length }) });
  const header = await phone.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    out: [...document.querySelectorAll("#top > *")].filter((e) => e.offsetParent && e.getBoundingClientRect().right > innerWidth).map((e) => e.id || e.className),
    cut: [...document.querySelectorAll("#top button, #top select, #top a")].filter((e) => e.offsetParent && e.scrollWidth > e.clientWidth + 1).map((e) => e.id),
    small: [...document.querySelectorAll("#top button, #top select, #top a")].filter((e) => e.offsetParent && Math.min(e.offsetWidth, e.offsetHeight) < 40).map((e) => e.id),
    named: [...document.querySelectorAll("#top button, #top select, #top a")].filter((e) => e.offsetParent).map((e) => e.getAttribute("aria-label") ?? e.textContent),
    status: document.getElementById("link").title,
  }));
  if (header.page > 360 || header.out.length || header.cut.length || header.small.length) {
    fail("the Russian phone's header fits 360 px: every control whole, inside the screen, at least 40 px", { page: 360, out: [], cut: [], small: [] }, header);
  }
  if (!header.named.includes("выйти") || !header.named.includes("звук вкл.") || !header.named.includes("язык") || !/^на связи · web(socket|transport)/.test(header.status)) {
    fail("the header's signs keep their Russian names (log out, sound, language) and the status its words in its title", ["выйти", "звук вкл.", "язык", "на связи · …"], header);
  }
  const english = () => {
    const text = [document.getElementById("top").innerText, document.getElementById("seek-bar").innerText, document.getElementById("lobby").innerText].join("\n");
    // A player's name is his own (alice, boris, the server's bots).
    const names = [...document.querySelectorAll("#matches td[data-label]")].map((td) => td.textContent).concat(["alice", "boris"]);
    let rest = text;
    for (const n of names) if (n) rest = rest.split(n).join(" ");
    return rest;
  };
  const words = (text) => [...text.matchAll(ENGLISH)].map((m) => m[0]);

  // A seek from the quick pools: the bar under the header says it in Russian, and fits.
  await phone.locator("#quick-3-0").tap();
  await until(phone, "the seek bar in Russian", () => /^Ищем партию 3\+0 без рейтинга · ждём 0:0\d · рейтинг ±\d+$/.test(document.getElementById("seek-text").textContent)
    && document.getElementById("seek-cancel").textContent === "Отмена", null,
    { seen: () => [document.getElementById("seek-text").textContent, document.getElementById("seek-cancel").textContent] });
  const bar = await phone.evaluate(() => ({ page: document.documentElement.scrollWidth, right: Math.round(document.getElementById("seek-cancel").getBoundingClientRect().right) }));
  if (bar.page > 360 || bar.right > 360) fail("the Russian seek bar fits the phone", { page: 360, right: "≤ 360" }, bar);
  const seekWords = words(await phone.evaluate(english));
  if (seekWords.length) fail("no English word while seeking", [], seekWords);
  await shot(phone, "ru-phone-seeking.png", "boris's Russian phone (360 px) seeks 3+0: «Ищем партию 3+0 без рейтинга · ждём 0:0N · рейтинг ±N» with «Отмена» under the whole header");
  await phone.locator("#seek-cancel").tap();
  await until(phone, "the seek cancelled", () => document.getElementById("seek-bar").hidden, null);

  // His own match, waiting for players: back in the lobby it is listed with «Сесть» on its free seats.
  await phone.locator("#create").tap();
  await until(phone, "creating seats boris at White-A", () => window.shvedka.seat === "WhiteA", null, { seen: () => window.shvedka.seat });
  const id = await phone.evaluate(() => window.shvedka.matchId);
  await phone.locator("#to-lobby").tap();
  await until(phone, "his match in the Russian list, three seats free", (n) => document.querySelectorAll(`#matches tr[data-match="${n}"] button[id^="seat-"]`).length === 3, id,
    { seen: () => document.getElementById("matches").innerText });
  const row = await phone.locator(`#matches tr[data-match="${id}"]`).innerText();
  // The seats' names are drawn beside them (data-label) on a phone.
  const seats = await phone.evaluate((n) => [...document.querySelectorAll(`#matches tr[data-match="${n}"] td[data-label]`)].map((td) => `${td.dataset.label}: ${td.innerText}`), id);
  if (!row.includes(`Партия ${id} · МГИМО-2017 (со снятием) · 3+0 · ждёт игроков`) || !/Смотреть/.test(row)
    || seats.join(", ") !== "белые A: boris, чёрные A: Сесть, белые B: Сесть, чёрные B: Сесть") {
    fail("boris's match in the Russian list", `Партия ${id} · МГИМО-2017 (со снятием) · 3+0 · ждёт игроков; белые A: boris, чёрные A: Сесть, белые B: Сесть, чёрные B: Сесть; Смотреть`, { row, seats });
  }
  await phone.locator("#board-blitz").tap();
  await until(phone, "the blitz leaderboard in Russian", () => /Таблица рейтинга · блиц/.test(document.getElementById("ratings-out").textContent)
    && /В категории «блиц» пока никого нет/.test(document.getElementById("ratings-out").textContent), null,
    { seen: () => document.getElementById("ratings-out").textContent });
  const lobbyWords = words(await phone.evaluate(english));
  if (lobbyWords.length) fail("no English word in the Russian phone's header and lobby", [], lobbyWords);
  await phone.evaluate(() => window.scrollTo(0, 0));
  await shot(phone, "ru-phone-lobby.png", `boris's Russian phone (360 px), logged in: the header whole (a green dot, выйти, a speaker, RU, ?), the quick pools, «Партия ${id}» waiting for players with «Сесть»`);
  await phone.screenshot({ path: `${args.out}/ru-phone-lobby-full.png`, fullPage: true });
  console.log(`screenshot ${args.out}/ru-phone-lobby-full.png: the whole Russian lobby on the phone: pools, the list, a new match, tournaments, recent matches, the blitz leaderboard`);
  step("a Russian phone (360 px) logged in: the header whole; a seek, the lobby and a leaderboard without an English word");
}

await run(main, args.out, () => ({ browser, players }));
