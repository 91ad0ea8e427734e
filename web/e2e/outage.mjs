// End to end (issue 36): a page whose session cannot be read back because the server's database
// does not answer (a node cut off from it, a single server's storage down) keeps its session: it
// is refused `Unavailable` on resuming, says why, tries again as after a lost link, and resumes
// the same session once the database answers — it does not start a new one under its name.
//
//   node web/e2e/outage.mjs --url http://127.0.0.1:HTTPPORT/ --transport websocket --out DIR
//
// The Rust test around it makes the database refuse once DIR/entered exists (and writes
// DIR/refusing), and answer again once DIR/refused exists (the page was refused twice by then).

import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fail, launch, openPlayer, report, run, until } from "./browser.mjs";
import { script } from "./script.mjs";

const { args, step, shot } = script("outage.mjs");
const out = String(args.out);
let browser;
const pages = new Map();

async function main() {
  browser = await launch();
  const p = await openPlayer(browser, "vera");
  pages.set("vera", { ...p, name: "vera" });
  await p.page.goto(`${args.url}?transport=${args.transport}`, { timeout: 15000 });
  await p.page.locator("#name").fill("vera");
  await p.page.locator("#enter").click();
  await until(p.page, "the session is open", () => window.shvedka.connected, null);
  writeFileSync(join(out, "entered"), "");
  // The test makes the database refuse (it says so by DIR/refusing); then the link drops, and
  // the session, no longer held by a connection, must be read back to resume.
  for (let i = 0; i < 200 && !existsSync(join(out, "refusing")); i++) await new Promise((r) => setTimeout(r, 50));
  if (!existsSync(join(out, "refusing"))) fail("the test made the database refuse", "DIR/refusing", "nothing");
  const before = await report(p.page);
  await p.page.evaluate(() => window.shvedka.dropConnection());
  await until(p.page, "a resume refused, said, and tried again", (n) => window.shvedka.losses >= n + 2, before.losses,
    { timeout: 20000, seen: () => ({ losses: window.shvedka.losses, connected: window.shvedka.connected, error: window.shvedka.lastError }) });
  await shot(p.page, "refused-retrying.png", "the database does not answer: the page says so and keeps trying, its session kept");
  const during = await report(p.page);
  if (during.connected) fail("not connected while the session cannot be read", false, during.connected);
  step(`refused ${during.losses - before.losses} times, still trying`);
  writeFileSync(join(out, "refused"), "");
  await until(p.page, "the same session resumed once the database answers", () => window.shvedka.connected && window.shvedka.resumed, null,
    { timeout: 30000, seen: () => ({ connected: window.shvedka.connected, resumed: window.shvedka.resumed, error: window.shvedka.lastError }) });
  await shot(p.page, "resumed.png", "the database answers again: the same session resumed");
  step("the same session resumed");
  const errors = p.errors.filter((e) => !/WebSocket|ERR_CONNECTION|Failed to load resource/.test(e));
  if (errors.length) fail("no console errors", [], errors);
  console.log(`PASS: a page refused while the database does not answer kept its session and resumed it (${out})`);
}

await run(main, out, () => ({ browser, players: pages }));
