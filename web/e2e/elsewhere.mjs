// End to end (issue 36): a spectator's page, in Russian, follows a match on node a of a cluster.
// Node a is cut off from its database and NATS (by the Rust test around this script): it lets
// the match go and tells its followers to resume elsewhere. The page says so in Russian, keeps
// its session through the refusals of a node that cannot reach its storage, and once the links
// heal it follows the match again with what was played on node b meanwhile.
//
//   node web/e2e/elsewhere.mjs --url http://127.0.0.1:HTTPPORT/ --transport websocket --out DIR \
//     --match ID --then SAN
//
// It writes DIR/watching once the page follows the match (the test cuts node a then), and
// waits for the move SAN (played on node b during the cut) to reach the page.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fail, launch, openPlayer, report, run, until } from "./browser.mjs";
import { script } from "./script.mjs";

const { args, step, shot } = script("elsewhere.mjs", {
  match: { type: "string" },
  then: { type: "string" },
});
const id = Number(args.match);
const then = String(args.then);
let browser;
const pages = new Map();

async function main() {
  browser = await launch();
  const fan = await openPlayer(browser, "zritel", { locale: "ru-RU" });
  pages.set("zritel", { ...fan, name: "zritel" });
  await fan.page.goto(`${args.url}?transport=${args.transport}`, { timeout: 15000 });
  await fan.page.locator("#name").fill("zritel");
  await fan.page.locator("#enter").click();
  await until(fan.page, "the lobby lists the match", (id) => document.getElementById(`watch-${id}`) !== null, id, { timeout: 20000 });
  await fan.page.locator(`#watch-${id}`).click();
  await until(fan.page, "the page follows the match", (id) => window.shvedka.matchId === id && !document.getElementById("match").hidden, id);
  const before = await report(fan.page);
  await shot(fan.page, "watching.png", "a spectator's page (Russian) follows the match on node a");
  writeFileSync(join(String(args.out), "watching"), String(before.moves.length));
  step(`watching match ${id} with ${before.moves.length} moves`);

  // Node a lets the match go: the page says why, in Russian, and drops its link.
  await until(fan.page, "the page says the match moves to another node, in Russian",
    () => /переходит на другой узел/.test(document.getElementById("notice-text").textContent ?? "")
      && !document.getElementById("notice").hidden, null,
    { timeout: 30000, seen: () => document.getElementById("notice-text")?.textContent });
  await shot(fan.page, "resume-elsewhere-ru.png", "the notice: the match moves to another node (this one lost its database), reconnecting");
  await until(fan.page, "the link was dropped to resume", (n) => window.shvedka.losses > n, before.losses,
    { seen: () => window.shvedka.losses });
  await until(fan.page, "the status says the match moves, in Russian, while reconnecting",
    () => /партия переходит на другой узел/.test(document.querySelector("#link .state")?.textContent ?? ""), null,
    { seen: () => document.getElementById("link")?.textContent });
  step("told to resume elsewhere; the link dropped; the status says why");

  // Healed: the page resumes (its session kept through node a's refusals meanwhile) and follows
  // the match again, with the move played on node b.
  await until(fan.page, `the page follows the match again with ${then}`,
    (then) => window.shvedka.connected && window.shvedka.moves.includes(then), then,
    { timeout: 60000, seen: () => ({ connected: window.shvedka.connected, moves: window.shvedka.moves, error: window.shvedka.lastError }) });
  const after = await report(fan.page);
  if (after.matchId !== id) fail("the same match followed", id, after.matchId);
  if (after.moves.length <= before.moves.length) fail("the moves played meanwhile are shown", `> ${before.moves.length}`, after.moves);
  await shot(fan.page, "followed-again.png", `followed again after the heal: ${after.moves.join(" ")}`);
  step(`followed again: ${after.moves.join(" ")}`);
  // A link that cannot connect while node a is cut off is the browser's own complaint, not a fault.
  const errors = fan.errors.filter((e) => !/WebSocket|ERR_CONNECTION|Failed to load resource/.test(e));
  if (errors.length) fail("no console errors", [], errors);
  console.log(`PASS: the page was told the match moved, said so in Russian, and followed it again (${args.out})`);
}

await run(main, args.out, () => ({ browser, players: pages }));
