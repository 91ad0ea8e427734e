// End to end (issue 57, item 8): the projector of a night of 24 teams in play, at 1920×1080 and
// on a phone. A Swiss of 24 teams played online has round 1 in play (twelve live matches, game 1
// of six tables decided by the director). The wall (`?projector=ID&page=2`, a page every two
// seconds) shows one page at a time, each whole on the screen (nothing scrolls, nothing cut) in
// large type: a live match's two boards, then the standings with the crosstable of all 24 teams,
// then the round's twelve tables; then the next live match. A phone (390×844) opening the same
// address gets the page as it flows: nothing wider than the screen, the crosstable scrolled
// sideways inside itself.
//
//   node web/e2e/projector.mjs --url http://127.0.0.1:HTTPPORT/ --transport websocket --out DIR \
//     --tournament ID

import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { fail, launch, openPlayer, run, until } from "./browser.mjs";
import { script } from "./script.mjs";

const { args, step, shot } = script("projector.mjs", { tournament: { type: "string" } });
const id = Number(args.tournament);
let browser;
const pages = new Map();

/** Waits for the wall's page `name`, then measures it: fitted, its type, what is off the screen. */
async function onPage(wall, name, timeout = 20000) {
  await until(wall, `the wall shows its ${name} page`, (name) => document.body.dataset.wall === name, name,
    { timeout, seen: () => document.body.dataset.wall });
  // The fit runs in the frame after the page is drawn.
  await wall.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return wall.evaluate(() => {
    const d = document.documentElement;
    const off = (sel) => [...document.querySelectorAll(sel)].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && (r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5);
    }).length;
    return {
      page: document.body.dataset.wall,
      px: Number.parseFloat(getComputedStyle(document.body).fontSize),
      fits: d.scrollHeight <= innerHeight && d.scrollWidth <= innerWidth,
      size: [d.scrollWidth, d.scrollHeight],
      standingsRows: [...document.querySelectorAll("#t-standings tbody tr")].filter((r) => r.getBoundingClientRect().height > 0).length,
      crossRows: [...document.querySelectorAll("#t-cross tbody tr")].filter((r) => r.getBoundingClientRect().height > 0).length,
      roundRows: [...document.querySelectorAll("#t-round tbody tr")].filter((r) => r.getBoundingClientRect().height > 0).length,
      offScreen: off("#t-standings tr, #t-cross tr, #t-round tr, #t-wall-boards .board, #t-wall-boards .clock"),
      boards: [...document.querySelectorAll("#t-wall-boards .board")].map((b) => Math.round(b.getBoundingClientRect().width)),
      // What would pass the screen's edge in type two pixels larger (what stopped the fit).
      edge: (() => {
        const px = getComputedStyle(document.body).fontSize;
        document.body.style.fontSize = `${Number.parseFloat(px) + 2}px`;
        const out = (el) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && (r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5);
        };
        const all = [...document.querySelectorAll("body *")].filter(out);
        const over = all.filter((el) => !all.some((o) => o !== el && el.contains(o))).slice(0, 4)
          .map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className} ${JSON.stringify(el.getBoundingClientRect())}`);
        document.body.style.fontSize = px;
        return over;
      })(),
    };
  });
}

async function main() {
  browser = await launch();
  const p = await openPlayer(browser, "wall", { viewport: { width: 1920, height: 1080 } });
  pages.set("wall", { ...p, name: "wall" });
  const wall = p.page;
  await wall.goto(`${args.url}?transport=${args.transport}&projector=${id}&page=2`, { timeout: 15000 });
  await until(wall, "the wall lists the 24 teams and the live matches", () => document.querySelectorAll("#t-standings tbody tr").length === 24
    && document.querySelectorAll("#t-cross tbody tr").length === 24 && /of 12 live/.test(document.getElementById("t-wall-title").textContent), null,
    { timeout: 30000, seen: () => [document.querySelectorAll("#t-standings tbody tr").length, document.querySelectorAll("#t-cross tbody tr").length, document.getElementById("t-wall-title")?.textContent] });
  const seen = [];
  const match = await onPage(wall, "match");
  await until(wall, "the live match's boards are drawn", () => document.querySelectorAll("#t-wall [data-wall-square] .piece").length >= 60, null, { timeout: 15000 });
  await shot(wall, "projector-match.png", "the wall at 1920×1080: a live match of round 1, its two boards as large as the screen's height allows");
  seen.push(match);
  const standings = await onPage(wall, "standings");
  await shot(wall, "projector-standings.png", "the wall at 1920×1080: the standings and the whole crosstable of 24 teams, one screen");
  seen.push(standings);
  const round = await onPage(wall, "round");
  await shot(wall, "projector-round.png", "the wall at 1920×1080: round 1's twelve tables, both games each, one screen");
  seen.push(round);
  await onPage(wall, "match");
  const title = await wall.locator("#t-wall-title").textContent();
  writeFileSync(join(String(args.out), "projector.json"), `${JSON.stringify(seen, null, 1)}\n`);
  for (const s of seen) {
    if (!s.fits || s.offScreen) fail(`the ${s.page} page fits 1920×1080 whole`, "no scrolling, nothing off the screen", s);
    if (s.px < 18) fail(`the ${s.page} page's type is large`, ">= 18 px", s.px);
  }
  if (standings.standingsRows !== 24 || standings.crossRows !== 24) fail("the standings page shows every team in both tables", [24, 24], [standings.standingsRows, standings.crossRows]);
  if (round.roundRows !== 24) fail("the round page shows both games of all twelve tables", 24, round.roundRows);
  if (Math.min(...match.boards) < 400) fail("the match page's boards are large", ">= 400 px each", match.boards);
  step(`1920×1080: match ${match.px}px (boards ${match.boards.join(" and ")} px), standings and crosstable ${standings.px}px, round ${round.px}px; each whole on the screen; then the next match: ${title}`);

  // A phone opens the wall's address: the page flows and scrolls, nothing wider than the screen.
  const phone = await openPlayer(browser, "phone", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: "ru-RU" });
  pages.set("phone", { ...phone, name: "phone" });
  await phone.page.goto(`${args.url}?transport=${args.transport}&projector=${id}`, { timeout: 15000 });
  await until(phone.page, "the phone shows the tournament", () => document.querySelectorAll("#t-cross tbody tr").length === 24, null, { timeout: 30000 });
  await shot(phone.page, "projector-phone.png", "the wall's address on a phone (Russian): the page flows and scrolls, nothing wider than the screen");
  const wide = await phone.page.evaluate(() => [document.documentElement.scrollWidth, document.body.dataset.wall ?? null,
    [...document.querySelectorAll("#tournament *")].filter((el) => el.getBoundingClientRect().right > 391).slice(0, 3).map((el) => `${el.tagName}#${el.id}.${el.className}`)]);
  if (wide[0] > 390 || wide[1] !== null) fail("the phone's page flows within its width, without wall pages", [390, null], wide);
  step("a phone at the wall's address: the page flows within 390 px");
  for (const q of pages.values()) if (q.errors.length) fail("no console errors", [], q.errors);
}

await run(main, args.out, () => ({ browser, players: pages }));
