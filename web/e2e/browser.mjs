// Headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core, and what every
// end-to-end script needs around it: bounded waits, a record of console errors per page, and
// failures that say what was expected and what was seen.

import { join } from "node:path";
import { chromium } from "playwright-core";

/** Chromium's switches: headless, isolated, no traffic but to the server under test. */
export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  // Every name resolves to nothing except the local server. 127.0.0.1 must be excluded too:
  // Chromium applies the rules to IP literals as well.
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A failed expectation. */
export class Failure extends Error {}

/**
 * Fails with what was expected and what was seen.
 * @param {string} what
 * @param {unknown} expected
 * @param {unknown} seen
 */
export function fail(what, expected, seen) {
  throw new Failure(`${what}\n  expected: ${JSON.stringify(expected)}\n  seen:     ${JSON.stringify(seen)}`);
}

/**
 * Launches the browser (launch() gives it a fresh, temporary user-data-dir). `hosts` maps names
 * to loopback addresses, ahead of the rule that resolves every other name to nothing: a public
 * name served on loopback (`{ "chess.test": "127.0.0.1" }`). `args` are more switches.
 * @param {{ hosts?: Record<string, string>, args?: string[] }} [options]
 */
export async function launch({ hosts = {}, args = [] } = {}) {
  const maps = Object.entries(hosts).map(([name, address]) => `MAP ${name} ${address}, `);
  const switches = CHROMIUM_ARGS.map((a) => a.replace(/^--host-resolver-rules=/, `$&${maps.join("")}`));
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: [...switches, ...args], timeout: 30000 });
}

/**
 * A player's page in its own browser context, with its console errors recorded.
 * @param {import("playwright-core").Browser} browser
 * @param {string} label
 * @param {object} [contextOptions]
 */
export async function openPlayer(browser, label, contextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, ...contextOptions });
  context.setDefaultTimeout(15000);
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`${label}: console: ${m.text()}`);
  });
  page.on("pageerror", (e) => errors.push(`${label}: page error: ${e.message}`));
  return { label, context, page, errors };
}

/**
 * Waits until `fn(arg)` is true in the page, up to `timeout` ms; on timeout fails with `what`
 * and the value `seen(arg)` has then.
 * @param {import("playwright-core").Page} page
 * @param {string} what
 * @param {(arg: any) => any} fn
 * @param {any} arg
 * @param {{ timeout?: number, expected?: unknown, seen?: (arg: any) => any }} [opts]
 */
export async function until(page, what, fn, arg, opts = {}) {
  try {
    await page.waitForFunction(fn, arg, { timeout: opts.timeout ?? 15000, polling: 50 });
  } catch (e) {
    const seen = opts.seen ? await page.evaluate(opts.seen, arg).catch((x) => String(x)) : String(e.message).split("\n")[0];
    fail(what, opts.expected ?? "true", seen);
  }
}

/** The page's test report (`window.shvedka`), as plain data. */
export function report(page) {
  return page.evaluate(() => JSON.parse(JSON.stringify(window.shvedka)));
}

/**
 * Runs a script's `main` within `seconds` (less than the Rust runner's 180) and exits: 0 if it held; otherwise 1, after printing
 * why with each page's console errors and a screenshot of every page (`failure-NAME.png`).
 * `held()` gives the browser and the pages as they are when the run ends.
 * @param {() => Promise<void>} main
 * @param {string} out
 * @param {() => { browser: any, players: Map<string, any> }} held
 * @param {number} seconds
 */
export async function run(main, out, held, seconds = 170) {
  const watchdog = setTimeout(() => {
    console.error(`FAIL: the whole run took longer than ${seconds} s`);
    process.exit(1);
  }, seconds * 1000);
  try {
    await main();
    clearTimeout(watchdog);
    await held().browser?.close();
    process.exit(0);
  } catch (e) {
    console.error(e instanceof Failure ? `FAIL: ${e.message}` : `FAIL: ${e?.stack ?? e}`);
    const { browser, players } = held();
    for (const p of players.values()) {
      if (p.errors.length) console.error(p.errors.join("\n"));
      try {
        const path = join(out, `failure-${p.name}.png`);
        await p.page.screenshot({ path, timeout: 5000 });
        console.error(`screenshot ${path}: ${p.name}'s page when it failed`);
      } catch {
        // the page may be gone
      }
    }
    await browser?.close().catch(() => {});
    process.exit(1);
  }
}
