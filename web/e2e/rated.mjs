// End to end (issue 18): a rated match in the browser. Four pages register accounts (gleb on a
// 390x844 phone); anna ticks "rated" and creates the match, the others sit from the lobby, all
// say ready; anna resigns, and every page shows under the result what the match made of the
// four ratings (the winners up, the losers down, provisional marks). Then anna opens boris's
// profile (his blitz rating, its history, his partner) and the blitz leaderboard (nobody ranked
// yet: provisional ratings are not).
//
//   node web/e2e/rated.mjs --url http://127.0.0.1:HTTPPORT/ --transport webtransport|websocket --out DIR
//
// Exit 0 only if everything held; prints one line per screenshot.

import { fail, launch, openPlayer, run, until } from "./browser.mjs";
import { script } from "./script.mjs";
import { seatAndStart } from "./table.mjs";

const { args, step, shot } = script("rated.mjs");
let browser;
const players = new Map();

async function main() {
  browser = await launch();
  for (const p of [
    { name: "anna", seat: "WhiteA" },
    { name: "boris", seat: "BlackA" },
    { name: "vera", seat: "WhiteB" },
    { name: "gleb", seat: "BlackB", phone: true },
  ]) {
    const opts = p.phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {};
    const player = { ...p, ...(await openPlayer(browser, p.name, opts)) };
    players.set(p.name, player);
    const page = player.page;
    await page.goto(`${args.url}?transport=${args.transport}`, { timeout: 15000 });
    await page.locator("#name").fill(p.name);
    await page.locator("#password").fill(`${p.name}-password`);
    await page.locator("#register").setChecked(true);
    await page.locator("#enter").click();
    await until(page, `${p.name} registered and logged in`,
      (n) => window.shvedka?.connected && document.getElementById("whoami").textContent === n, p.name,
      { seen: () => ({ whoami: document.getElementById("whoami").textContent, error: window.shvedka?.lastError }) });
  }
  const anna = players.get("anna").page;
  if (!(await anna.locator("#rated-label").isVisible())) fail("an account is offered a rated match", "visible", "hidden");
  await anna.locator("#rated").setChecked(true);
  step("four accounts; anna asks for a rated match");
  await seatAndStart(players);
  const lobbyRow = await players.get("boris").page.locator("#matches tbody tr").first().textContent();
  if (!/rated/.test(lobbyRow ?? "")) fail("the lobby says the match is rated", "rated", lobbyRow);

  await anna.locator("#resign").click();
  await anna.locator("#resign").click();
  for (const p of players.values()) {
    await until(p.page, `${p.name} sees the four rating changes`,
      () => !document.getElementById("rating-changes").hidden && document.querySelectorAll("#rating-changes span").length === 4, null,
      { seen: () => ({ phase: window.shvedka.phase, changes: document.getElementById("rating-changes").textContent }) });
  }
  const changes = await anna.locator("#rating-changes").textContent();
  for (const want of [/anna \(white-A\) 1500 → 13\d\d\? \(−1\d\d\)/, /boris \(black-A\) 1500 → 16\d\d\? \(\+1\d\d\)/]) {
    if (!want.test(changes ?? "")) fail("the changes read as players expect", String(want), changes);
  }
  await shot(anna, "result-rated.png", "anna resigned: the result, and under it the four ratings' changes (winners up, losers down, provisional)");
  await shot(players.get("gleb").page, "phone-result-rated.png", "gleb's phone: the result with the rating changes");
  step("every page shows the changes");

  await anna.locator("#to-lobby").click();
  await anna.locator("#profile-name").fill("boris");
  await anna.locator("#profile-show").click();
  await until(anna, "boris's profile shows his blitz rating and partner",
    () => document.getElementById("ratings-out").dataset.profile === "boris"
      && /blitz 16\d\d\?/.test(document.getElementById("ratings-out").textContent)
      && /with vera: pair/.test(document.getElementById("ratings-out").textContent), null,
    { seen: () => document.getElementById("ratings-out").textContent });
  await anna.locator("#ratings-out").scrollIntoViewIfNeeded();
  await shot(anna, "profile.png", "boris's profile: blitz rating with history, his partner vera and their pair rating");
  await anna.locator("#board-blitz").click();
  await until(anna, "the blitz leaderboard says nobody is ranked yet",
    () => /Nobody is ranked in blitz/.test(document.getElementById("ratings-out").textContent), null,
    { seen: () => document.getElementById("ratings-out").textContent });
  step("profile and leaderboard");
}

await run(main, args.out, () => ({ browser, players }));
