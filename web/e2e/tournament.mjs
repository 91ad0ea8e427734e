// End to end (issue 30): a tournament in the browser. The projector page (`?projector=ID`, 1920×1080,
// no controls) shows the tournament's standings and round as soon as it opens, loses its
// connection, comes back, and follows every result the director enters while it is on the wall; a phone-sized player's page finds the
// tournament in the lobby's list, opens it and sees the same standings.
//
//   node web/e2e/tournament.mjs --url http://127.0.0.1:HTTPPORT/ --transport websocket --out DIR \
//     --tournament ID --teams 4 --points 16
//
// `--points`: the quarter points of all teams together once the director's results are in (the
// Rust test enters them while this runs). Exit 0 only if everything held.

import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { fail, launch, openPlayer, run, until } from "./browser.mjs";
import { script } from "./script.mjs";

const { args, step, shot } = script("tournament.mjs", {
  tournament: { type: "string" },
  teams: { type: "string" },
  points: { type: "string" },
  seater: { type: "string" },
});
const id = Number(args.tournament);
const teams = Number(args.teams);
const total = Number(args.points);
let browser;
const players = new Map();

const sum = () => (window.shvedka?.tournament?.standings ?? []).reduce((a, l) => a + l.points, 0);

async function main() {
  browser = await launch();
  const wall = await openPlayer(browser, "projector", { viewport: { width: 1920, height: 1080 } });
  players.set("projector", wall);
  await wall.page.goto(`${args.url}?transport=${args.transport}&projector=${id}`, { timeout: 15000 });
  await until(wall.page, "the projector shows the tournament by itself",
    ([id, teams]) => window.shvedka?.tournament?.id === id && document.querySelectorAll("#t-standings tbody tr").length === teams
      && !document.getElementById("tournament").hidden, [id, teams],
    { expected: { id, teams }, seen: () => ({ t: window.shvedka?.tournament, error: window.shvedka?.lastError }) });
  if (await wall.page.locator("#t-back").isVisible()) fail("the projector has no controls", false, true);
  if (await wall.page.locator("#top").isVisible()) fail("the projector has no page header", false, true);
  const round = (await wall.page.locator("#t-round tbody").textContent()) ?? "";
  if (!/game 1/.test(round) || !/game 2/.test(round)) fail("the round shows both games of each pairing", "game 1 … game 2", round);
  await shot(wall.page, "projector.png", "the projector at 1920×1080: the standings and round 1 of the tournament");
  step("projector shows the tournament");

  // S3: the player whose team seats game 1 of table 1 makes the choice on his own page; the
  // projector shows it.
  const seater = await openPlayer(browser, String(args.seater));
  players.set("seater", seater);
  await seater.page.goto(`${args.url}?transport=${args.transport}`, { timeout: 15000 });
  await seater.page.locator("#name").fill(String(args.seater));
  await seater.page.locator("#password").fill(`${args.seater}-password`);
  await seater.page.locator("#enter").click();
  await until(seater.page, `${args.seater} logs in`, (id) => document.getElementById(`t-open-${id}`) !== null, id);
  await seater.page.locator(`#t-open-${id}`).click();
  await until(seater.page, "the player's card offers his team's seating choice with its deadline",
    () => !document.getElementById("t-mine").hidden && document.getElementById("t-choose-Crossed") !== null
      && /Choose within \d+:\d\d/.test(document.getElementById("t-mine").textContent ?? "")
      && /straight — \S+ against \S+ on board A/.test(document.getElementById("t-mine").textContent ?? ""), null,
    { seen: () => document.getElementById("t-mine")?.textContent });
  if (await seater.page.locator("#t-choose-WhiteOnA").count()) fail("only the choice his team owns is offered", 0, 1);
  await shot(seater.page, "player-card.png", `${args.seater}'s card: table 1, game 1, his team chooses the seating, the deadline counting down`);
  await seater.page.locator("#t-choose-Crossed").click();
  await until(wall.page, "the projector shows the choice", () => /crossed/.test(document.getElementById("t-round").textContent ?? ""), null,
    { seen: () => document.getElementById("t-round")?.textContent });
  await until(seater.page, "the card no longer offers a choice made, and says it was made", () => document.getElementById("t-choose-Crossed") === null
    && /Your team chose the seating: crossed/i.test(document.getElementById("t-mine").textContent ?? ""), null,
    { seen: () => document.getElementById("t-mine")?.textContent });
  step(`${args.seater} chose the seating; the projector shows it`);

  // The wall's connection drops (a flaky venue network): the page resumes and follows again.
  await wall.page.evaluate(() => window.shvedka.dropConnection());
  await until(wall.page, "the projector's page comes back after its connection dropped",
    () => window.shvedka.connected && window.shvedka.losses > 0, null,
    { seen: () => ({ connected: window.shvedka.connected, losses: window.shvedka.losses }) });
  step("projector reconnected");
  // The Rust test enters the results once this file is there: they come after the reconnection.
  writeFileSync(join(String(args.out), "projector-ready"), "");

  await until(wall.page, "the projector follows the director's results as they are entered",
    (total) => window.shvedka.tournament.change === "Result" && (window.shvedka.tournament.standings ?? []).reduce((a, l) => a + l.points, 0) === total, total,
    { timeout: 60000, expected: total, seen: () => ({ change: window.shvedka?.tournament?.change, standings: window.shvedka?.tournament?.standings }) });
  await until(wall.page, "the crosstable shows the four meetings of round 1 (two pairings, both ways)",
    () => [...document.querySelectorAll("#t-cross tbody td.t-cell")].filter((c) => c.textContent !== "" && c.textContent !== "×").length === 4, null,
    { seen: () => document.getElementById("t-cross")?.textContent });
  const top = (await wall.page.locator("#t-standings tbody tr:first-child .t-points").textContent())?.trim();
  if (!top || top === "0") fail("the leader has points", "more than 0", top);
  await shot(wall.page, "projector-results.png", "the projector after the director entered round 1's results: the standings moved");
  step(`projector live: ${await wall.page.evaluate(sum)} quarter points shown`);

  const vera = await openPlayer(browser, "vera", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  players.set("vera", vera);
  await vera.page.goto(`${args.url}?transport=${args.transport}`, { timeout: 15000 });
  await vera.page.locator("#name").fill("vera");
  await vera.page.locator("#password").fill("");
  await vera.page.locator("#enter").click();
  await until(vera.page, "vera's lobby lists the tournament", (id) => document.getElementById(`t-open-${id}`) !== null, id);
  await vera.page.locator(`#t-open-${id}`).click();
  await until(vera.page, "vera's page opens the tournament with the same standings",
    ([id, total]) => window.shvedka?.tournament?.id === id && !document.getElementById("tournament").hidden
      && window.shvedka.tournament.standings.reduce((a, l) => a + l.points, 0) === total, [id, total]);
  await shot(vera.page, "phone-tournament.png", "a phone (390×844) showing the tournament's standings and round");
  step("a phone page opened the tournament from the lobby");
  for (const p of players.values()) if (p.errors.length) fail("no console errors", [], p.errors);
}

await run(main, args.out, () => ({ browser, players }));
