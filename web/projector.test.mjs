// The projector's pages (projector.js): the order of the wall's pages, and the fit of a page's
// type to the screen by a binary search that needs no browser (a fake element and size).

import { test } from "node:test";
import assert from "node:assert/strict";
import { LARGEST_PX, SMALLEST_PX, fitFont, nextPage } from "./projector.js";

test("a live match, then the tables (one page or two), then the next live match", () => {
  assert.equal(nextPage("match", true, false), "all");
  assert.equal(nextPage("all", true, false), "match");
  assert.equal(nextPage("match", true, true), "standings");
  assert.equal(nextPage("standings", true, true), "round");
  assert.equal(nextPage("round", true, true), "match");
  // Between rounds: the tables alone, in turn when they take two pages.
  assert.equal(nextPage("all", false, false), "all");
  assert.equal(nextPage("standings", false, true), "round");
  assert.equal(nextPage("round", false, true), "standings");
  assert.equal(nextPage(null, false, false), "all");
});

test("the type is the largest whole size that fits, the smallest when none does", () => {
  const el = { style: { fontSize: "" } };
  // A page whose height is 40 times its type: fits 1080 up to 27 px.
  const fits = () => Number.parseFloat(el.style.fontSize) * 40 <= 1080;
  assert.equal(fitFont(/** @type {any} */ (el), fits), 27);
  assert.equal(el.style.fontSize, "27px");
  assert.equal(fitFont(/** @type {any} */ (el), () => true), LARGEST_PX);
  assert.equal(fitFont(/** @type {any} */ (el), () => false), SMALLEST_PX);
  assert.equal(el.style.fontSize, `${SMALLEST_PX}px`);
});
