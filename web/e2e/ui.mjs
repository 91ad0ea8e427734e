// Playing through the page as a person does: dragging and clicking squares and reserve pieces
// (mouse), tapping them (touch), and checking what the page shows. Selectors are the page's
// test hooks (web/board-view.js): `[data-board][data-square]`, `[data-reserve-of] [data-reserve]`.

import { fail } from "./browser.mjs";

/** @param {"A"|"B"} board @param {string} square */
export const sq = (board, square) => `.sq[data-board="${board}"][data-square="${square}"]`;
/** @param {string} seat @param {string} role */
export const reservePiece = (seat, role) => `[data-reserve-of="${seat}"] [data-reserve="${role}"]`;

/** The centre of an element in the viewport (scrolled into view first). */
export async function centre(page, selector) {
  const el = page.locator(selector);
  await el.scrollIntoViewIfNeeded({ timeout: 10000 });
  const box = await el.boundingBox({ timeout: 10000 });
  if (!box) fail(`a box for ${selector}`, "visible", "no box");
  return { x: box.x + box.width / 2, y: box.y + box.height / 2, box };
}

/** Waits until a square is marked as a legal target. */
export async function expectTarget(page, board, square, timeout = 10000) {
  try {
    await page.locator(`${sq(board, square)}.target`).waitFor({ state: "attached", timeout });
  } catch {
    const cls = await page.locator(sq(board, square)).getAttribute("class").catch(() => null);
    const targets = await page.$$eval(".sq.target", (els) => els.map((e) => e.getAttribute("data-square")));
    fail(`${square} on board ${board} shown as a legal target`, "class target", { class: cls, targets });
  }
}

/**
 * Drags with the mouse from one element to another; `middle` runs while the piece hangs over
 * the target (for screenshots and checks).
 */
export async function drag(page, fromSel, toSel, { board, to, middle } = {}) {
  const a = await centre(page, fromSel);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(a.x + 8, a.y + 8, { steps: 2 });
  if (board && to) await expectTarget(page, board, to);
  const b = await centre(page, toSel);
  await page.mouse.move(b.x, b.y, { steps: 6 });
  if (middle) await middle();
  await page.mouse.up();
}

/** Clicks one element, waits for the target mark, clicks the other. */
export async function clickMove(page, fromSel, board, to) {
  await page.locator(fromSel).click();
  await expectTarget(page, board, to);
  await page.locator(sq(board, to)).click();
}

/** Taps one element, waits for the target mark, taps the other (touch screen). */
export async function tapMove(page, fromSel, board, to) {
  const a = await centre(page, fromSel);
  await page.touchscreen.tap(a.x, a.y);
  await expectTarget(page, board, to);
  const b = await centre(page, sq(board, to));
  await page.touchscreen.tap(b.x, b.y);
}

/** The smallest side (px) among the visible elements matching `selector`, and which it is. */
export function smallestBox(page, selector) {
  return page.$$eval(selector, (els) => {
    let best = Infinity, which = "";
    for (const el of els) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const side = Math.min(r.width, r.height);
      if (side < best) {
        best = side;
        which = el.id || el.getAttribute("data-square") || el.getAttribute("data-reserve") || el.className;
      }
    }
    return { side: Math.round(best * 10) / 10, which };
  });
}
