// Four players at the table: their pages open on the server, one creates a match (which seats
// him), the others take their seats from the lobby, all say ready and the clocks
// start. Shared by the end-to-end scripts.

import { fail, openPlayer, report, until } from "./browser.mjs";

/**
 * Opens each player's page (`?name=…&transport=…`) and waits until it is connected over the
 * transport asked for. A player may be on a phone (`phone: true`) and speak a language of his
 * own (`locale`).
 * @returns {Promise<Map<string, any>>} the players by name, each with `page`, `errors`, `seat`
 */
export async function openPlayers(browser, url, transport, list, extra = "") {
  const players = new Map();
  for (const p of list) {
    const opts = p.phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {};
    // A browser speaking another language (`locale: "ru-RU"`): the page starts in it (issue 31).
    if (p.locale) Object.assign(opts, { locale: p.locale });
    const player = { ...p, ...(await openPlayer(browser, p.name, opts)) };
    players.set(p.name, player);
    // A player may be served by another node of a cluster (`p.url`).
    await player.page.goto(`${p.url ?? url}?name=${p.name}&transport=${transport}${p.query ?? extra}`, { timeout: 15000 });
  }
  for (const p of players.values()) {
    await until(p.page, `${p.name} connected over ${transport}`,
      (t) => window.shvedka?.connected && window.shvedka.link === t, transport,
      { expected: { connected: true, link: transport }, seen: () => ({ connected: window.shvedka?.connected, link: window.shvedka?.link, status: document.getElementById("link")?.textContent }) });
  }
  return players;
}

/**
 * The first seated player creates the match; all four sit and say ready; returns the match id
 * once every page shows the clocks running. `beforeReady` runs once all four sit, before any says
 * ready (to look at the pages then).
 */
export async function seatAndStart(players, beforeReady = async () => {}) {
  const seated = [...players.values()].filter((p) => p.seat);
  const [creator, ...others] = seated;
  await creator.page.locator("#create").click();
  await until(creator.page, `${creator.name} follows the new match`, () => window.shvedka.matchId !== null, null);
  const matchId = (await report(creator.page)).matchId;
  // Creating seats the creator at White-A; another seat is a leave and a sit away.
  await until(creator.page, `${creator.name} is seated by creating`, () => window.shvedka.seat === "WhiteA", null,
    { expected: "WhiteA", seen: () => window.shvedka.seat });
  if (creator.seat !== "WhiteA") {
    await creator.page.locator("#leave-seat").click();
    await creator.page.locator(`#sit-${creator.seat}`).click();
  }
  for (const p of others) {
    // Another node of a cluster lists the match within a second: ask again until it does.
    const seat = p.page.locator(`#seat-${matchId}-${p.seat}`);
    for (let tries = 0; ; tries += 1) {
      await p.page.locator("#refresh").click();
      try {
        await seat.waitFor({ state: "visible", timeout: 500 });
        break;
      } catch (e) {
        if (tries >= 20) throw e;
      }
    }
    await seat.click({ timeout: 10000 });
  }
  for (const p of seated) {
    await until(p.page, `${p.name} sits as ${p.seat}`, (s) => window.shvedka.seat === s, p.seat,
      { expected: p.seat, seen: () => window.shvedka.seat });
  }
  const boardTop = (page) => page.evaluate(() => document.querySelector('.board[data-board="A"]').getBoundingClientRect().top);
  const before = await boardTop(creator.page);
  await beforeReady();
  for (const p of seated) await p.page.locator("#ready").click();
  for (const p of seated) {
    await until(p.page, `${p.name} sees the match start`, () => window.shvedka.phase === "Running", null,
      { timeout: 20000, expected: "Running", seen: () => window.shvedka.phase });
  }
  // The waiting banner goes at the start without moving the boards.
  const after = await boardTop(creator.page);
  if (Math.abs(after - before) > 1) fail("the boards stay put when play starts", before, after);
  if (typeof matchId !== "number") fail("a match id", "a number", matchId);
  return matchId;
}
