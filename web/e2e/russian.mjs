// A page read in Russian (issue 31): no English word left in what a part of the page shows or
// names (its text, titles, aria-labels, placeholders), and nothing of it cut off or sticking out
// of the screen. Shared by the end-to-end scripts that open a page with `locale: "ru-RU"`.

import { fail } from "./browser.mjs";

/**
 * Latin words in the part `selector` of the page that are not players' names, moves, rule ids or
 * keys' names: English left on a Russian page. Run in the page.
 * @param {{ selector: string, names: string[] }} arg
 */
const latinIn = ({ selector, names }) => {
  const root = document.querySelector(selector);
  if (!root) return ["(no such part)"];
  const texts = [root.innerText];
  for (const el of [root, ...root.querySelectorAll("*")]) {
    for (const a of ["title", "aria-label", "placeholder"]) {
      const v = el.getAttribute(a);
      if (v) texts.push(v);
    }
  }
  // Names, the file extension of a record, the BFEN, keys (Home, End) and Chess960 are no English.
  const allowed = new Set([...names, "BPGN", "BFEN", "Home", "End", "Chess"]);
  return texts.flatMap((t) => [...t.matchAll(/\b[A-Za-z]{3,}\b/g)].map((m) => m[0])).filter((w) => !allowed.has(w));
};

/**
 * Elements of the part `selector` cut off (their text wider than their box, where it does not
 * show) or outside the screen's width. Run in the page.
 * @param {string} selector
 */
const cutIn = (selector) => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll(`${selector} *`)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || el.closest("[hidden]")) continue;
    const style = getComputedStyle(el);
    const hides = style.overflowX !== "visible" && style.overflowX !== "auto" && style.overflowX !== "scroll";
    if (r.left < -0.5 || r.right > width + 0.5 || (hides && el.scrollWidth > el.clientWidth + 1)) {
      out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.className && typeof el.className === "string" ? `.${el.className.split(" ")[0]}` : ""} ${Math.round(r.left)}..${Math.round(r.right)}: ${el.textContent?.slice(0, 40)}`);
    }
  }
  return { page: document.documentElement.scrollWidth, width, out: out.slice(0, 10) };
};

/**
 * Fails unless the part `selector` of a Russian page has no English left and nothing cut off.
 * @param {import("playwright-core").Page} page
 * @param {string} what  the page, for the message
 * @param {string} selector
 * @param {string[]} names  the players' names on it (Latin, and no English)
 */
export async function expectRussian(page, what, selector, names) {
  const english = await page.evaluate(latinIn, { selector, names });
  if (english.length) fail(`${what}: no English left in ${selector}`, [], english);
  const cut = await page.evaluate(cutIn, selector);
  if (cut.page > cut.width || cut.out.length) fail(`${what}: nothing of ${selector} cut off or wider than the screen`, { page: `≤ ${cut.width}`, out: [] }, cut);
}
