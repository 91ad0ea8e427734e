// End to end (issue 30): an online round on the wall. The projector page (`?projector=ID`,
// 1920×1080, `&page=3`: a match every three seconds) shows the round's live matches, both boards
// and the four clocks, as they are played (bots play all seats but one), and turns to the next
// live match by itself; it stays on the tournament. A player opens the tournament on his page and
// is seated in his game's match by itself; back on the tournament, his card's "Take my seat" takes
// him back with one click; he says ready and the match runs with him.
//
//   node web/e2e/wall.mjs --url http://127.0.0.1:HTTPPORT/ --transport websocket --out DIR \
//     --tournament ID --player NAME

import { fail, launch, openPlayer, run, until } from "./browser.mjs";
import { script } from "./script.mjs";

const { args, step, shot } = script("wall.mjs", {
  tournament: { type: "string" },
  player: { type: "string" },
});
const id = Number(args.tournament);
const me = String(args.player);
let browser;
const pages = new Map();

async function main() {
  browser = await launch();
  const wall = await openPlayer(browser, "projector", { viewport: { width: 1920, height: 1080 } });
  pages.set("projector", { ...wall, name: "projector" });
  await wall.page.goto(`${args.url}?transport=${args.transport}&projector=${id}&page=3`, { timeout: 15000 });
  await until(wall.page, "the wall shows a live match of the round", () => !document.getElementById("t-wall").hidden
    && /of 2 live/.test(document.getElementById("t-wall-title").textContent), null,
    { timeout: 30000, seen: () => document.getElementById("t-wall-title")?.textContent });
  step("the wall shows the round's live matches");

  // The player takes his seat from his card, and says ready.
  const p = await openPlayer(browser, me);
  pages.set(me, { ...p, name: me });
  await p.page.goto(`${args.url}?transport=${args.transport}`, { timeout: 15000 });
  await p.page.locator("#name").fill(me);
  await p.page.locator("#password").fill(`${me}-password`);
  await p.page.locator("#enter").click();
  await until(p.page, `${me}'s lobby lists the tournament`, (id) => document.getElementById(`t-open-${id}`) !== null, id);
  await p.page.locator(`#t-open-${id}`).click();
  // His game's match exists: on the tournament's page he is seated by himself.
  await until(p.page, `${me} is seated in his match by his page`, () => window.shvedka.seat !== null && !document.getElementById("match").hidden, null,
    { seen: () => ({ seat: window.shvedka.seat, match: window.shvedka.matchId, card: document.getElementById("t-mine")?.textContent }) });
  // Back to the tournament, his card takes him back to his seat with one click.
  await p.page.locator("#to-lobby").click();
  await p.page.locator(`#t-open-${id}`).click();
  await until(p.page, `${me}'s card offers his seat`, () => document.getElementById("t-take-seat") !== null && !document.getElementById("tournament").hidden, null,
    { seen: () => document.getElementById("t-mine")?.textContent });
  await shot(p.page, "player-card-seat.png", `${me}'s card: his game's match exists, one click takes him to his seat`);
  await p.page.locator("#t-take-seat").click();
  await until(p.page, `${me} is back in his seat`, () => window.shvedka.seat !== null && !document.getElementById("match").hidden, null);
  await p.page.locator("#ready").click();
  await until(p.page, `${me}'s match runs`, () => window.shvedka.phase === "Running", null,
    { timeout: 30000, seen: () => window.shvedka.phase });
  step(`${me} took his seat from his card; his match runs`);

  // The wall: pieces, reserves, and a clock running; then the next live match by itself.
  await until(wall.page, "the wall's boards show the pieces and a running clock",
    () => document.querySelectorAll("#t-wall [data-wall-square] .piece").length >= 40 && document.querySelector("#t-wall .clock.running") !== null,
    null, { timeout: 30000, seen: () => ({ pieces: document.querySelectorAll("#t-wall [data-wall-square] .piece").length, running: document.querySelectorAll("#t-wall .clock.running").length }) });
  await shot(wall.page, "wall-live.png", "the projector (1920×1080): a live match's two boards and four clocks, the whole screen (the tables are the next page)");
  const first = await wall.page.locator("#t-wall-title").textContent();
  await until(wall.page, "the wall turns to the other live match by itself", (first) => document.getElementById("t-wall-title").textContent !== first
    && /of 2 live/.test(document.getElementById("t-wall-title").textContent), first, { timeout: 15000 });
  if (!(await wall.page.locator("#tournament").isVisible()) || (await wall.page.locator("#match").isVisible())) {
    fail("the wall stays on the tournament while it watches matches", "the tournament", "the match screen");
  }
  await shot(wall.page, "wall-next.png", "the projector after it turned to the other live match");
  step(`the wall turned from "${first}" to "${await wall.page.locator("#t-wall-title").textContent()}"`);
  for (const x of pages.values()) if (x.errors.length) fail("no console errors", [], x.errors);
}

await run(main, args.out, () => ({ browser, players: pages }));
