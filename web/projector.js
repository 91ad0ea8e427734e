// @ts-check
// The projector's pages (issue 57): on a wall of 1920×1080 a night of 24 teams does not fit one
// screen in type readable from the back of the hall — the live match's two boards, the standings,
// the crosstable and the round's twelve tables. So the wall shows one page at a time, each fitting
// the screen whole (no scrolling) in the largest type that fits: the live match, then the
// standings with the crosstable and the round side by side when that is still large, or the
// standings with the crosstable, then the round, when it is not. A phone (narrower than
// `WALL_MIN_WIDTH`) shows the page as it flows, everything under each other, and scrolls.

/** The smallest type a page is shown in (pixels); below, it is cut rather than shrunk further. */
export const SMALLEST_PX = 10;
/** The largest type a page is shown in. */
export const LARGEST_PX = 44;
/** Below this type the standings, crosstable and round no longer share one page. */
export const LARGE_PX = 20;
/** Narrower than this the projector's page flows and scrolls (a phone). */
export const WALL_MIN_WIDTH = 900;

/**
 * The largest whole font size in `[min, max]` at which `fits()` holds, set on `el` (binary
 * search; `min` when even that does not fit).
 * @param {HTMLElement} el
 * @param {() => boolean} fits
 * @param {number} [min]
 * @param {number} [max]
 * @returns {number}
 */
export function fitFont(el, fits, min = SMALLEST_PX, max = LARGEST_PX) {
  const at = (/** @type {number} */ px) => {
    el.style.fontSize = `${px}px`;
    return fits();
  };
  if (at(max)) return max;
  let [lo, hi] = [min, max];
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (at(mid)) lo = mid;
    else hi = mid;
  }
  at(lo);
  return lo;
}

/** @typedef {"match" | "all" | "standings" | "round"} WallPage */

/**
 * The page after `page` on the wall: a live match, then the tables (all on one page, or the
 * standings then the round when `split`), then the next live match.
 * @param {WallPage | null} page
 * @param {boolean} live  whether a match of the round is being played
 * @param {boolean} split
 * @returns {WallPage}
 */
export function nextPage(page, live, split) {
  if (page === "match") return split ? "standings" : "all";
  if (page === "standings") return "round";
  if (live) return "match";
  return split ? "standings" : "all";
}

/** Whether the document fits the window without scrolling. */
export function fitsWindow() {
  const d = document.documentElement;
  return d.scrollHeight <= window.innerHeight && d.scrollWidth <= window.innerWidth;
}
