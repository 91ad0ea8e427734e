// What every end-to-end script starts with: its arguments (`--url`, `--transport`, `--out`, and
// any of its own), the output directory, a step line and a screenshot that says what it shows.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

/**
 * Reads the script's arguments (exits 2 with its usage when they are wrong) and makes `--out`.
 * @param {string} file  the script's file name, for the usage line
 * @param {Record<string, { type: "string" | "boolean", default?: any }>} [own]  its own options
 */
export function script(file, own = {}) {
  const { values: args } = parseArgs({
    options: {
      url: { type: "string" },
      transport: { type: "string", default: "websocket" },
      out: { type: "string", default: "e2e-out" },
      ...own,
    },
  });
  if (!args.url || !["webtransport", "websocket"].includes(String(args.transport))) {
    console.error(`usage: node web/e2e/${file} --url http://127.0.0.1:PORT/ --transport webtransport|websocket --out DIR`);
    process.exit(2);
  }
  const out = String(args.out);
  mkdirSync(out, { recursive: true });
  /** @param {string} text */
  const step = (text) => console.log(`· ${text}`);
  /** A screenshot of the visible page, and a line saying what it shows. */
  const shot = async (page, name, what) => {
    const path = join(out, name);
    await page.screenshot({ path, fullPage: false });
    console.log(`screenshot ${path}: ${what}`);
  };
  return { args, step, shot };
}
