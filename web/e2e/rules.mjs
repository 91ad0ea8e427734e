// End to end (issue 31): the rules page (`?rules`, web/rules.js). A phone whose browser speaks
// Russian (390×844) opens it from the header's "?": Russian throughout, no English rule text,
// nothing wider than the screen; the contents' link to P3 lands on P3 and marks it, a rule id inside P3's text leads on
// to M1, and `ruleHref("R3")` opened afresh lands on R3. A desktop in English follows the header's
// link from the lobby (a tab of its own), opens `ruleHref("P3")`, switches to Russian and back on
// P3, and goes back to the lobby.
//
//   node web/e2e/rules.mjs --url http://127.0.0.1:HTTPPORT/ --transport websocket --out DIR

import { fail, launch, openPlayer, run, until } from "./browser.mjs";
import { script } from "./script.mjs";

const { args, step, shot } = script("rules.mjs");
let browser;
const pages = new Map();

/** The rule `id` is the one marked, and its top is in the upper half of the screen. */
const landed = (id) => {
  const el = document.getElementById(id);
  if (!el || location.hash !== `#${id}` || !el.classList.contains("current")) return false;
  if (document.querySelectorAll("#rules-page .rule-entry.current").length !== 1) return false;
  const top = el.getBoundingClientRect().top;
  return top >= -2 && top < innerHeight / 2;
};
const where = (id) => ({
  hash: location.hash,
  current: [...document.querySelectorAll("#rules-page .rule-entry.current")].map((e) => e.id),
  top: document.getElementById(id)?.getBoundingClientRect().top,
  height: innerHeight,
});

/** What of the page's rules sticks out of the screen's width (cut off or scrolled sideways). */
const overflow = () => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll("#rules-page *")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.left < -0.5 || r.right > width + 0.5 || el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible") {
      out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} ${Math.round(r.left)}..${Math.round(r.right)}: ${el.textContent?.slice(0, 40)}`);
    }
  }
  return { page: document.documentElement.scrollWidth, width, out: out.slice(0, 8) };
};

/** English left in the Russian page's rules: sentences' words, or three Latin words in a row. */
const englishIn = () => {
  const box = document.getElementById("rules-page").cloneNode(true);
  for (const code of box.querySelectorAll("code")) code.remove();
  const text = box.textContent;
  const words = [...text.matchAll(/\b(the|and|of|is|are|to|with|or|may|not|be|it|for|by|on|in|an|at|as|if|that|this|from|when|rule|rules|board|move|piece|player|draw|mate|flag|clock)\b/gi)].map((m) => m[0]);
  const runs = text.split(/[А-Яа-яЁё]+/).filter((s) => (s.match(/[A-Za-z][A-Za-z0-9']*/g) ?? []).filter((w) => !/^(FIDE|[A-Z]\d{1,2}[a-z]?)$/.test(w)).length >= 3);
  return { words, runs: runs.map((s) => s.trim()).slice(0, 5) };
};

async function main() {
  browser = await launch();

  // A Russian phone.
  const phone = await openPlayer(browser, "ru-phone", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: "ru-RU" });
  pages.set("ru-phone", { ...phone, name: "ru-phone" });
  // The header's "?" (named "Правила") opens the rules in a tab of their own; the header still fits.
  const lobby = phone.page;
  await lobby.goto(`${args.url}?transport=${args.transport}`, { timeout: 15000 });
  await until(lobby, "the Russian page's header links the rules", () => document.getElementById("rules-link")?.title === "Правила"
    && document.getElementById("rules-link").textContent === "Правила", null, { seen: () => document.getElementById("rules-link")?.outerHTML });
  const header = await lobby.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    cut: [...document.querySelectorAll("#top button, #top select, #top a")].filter((e) => e.offsetParent && e.scrollWidth > e.clientWidth + 1).map((e) => e.id),
  }));
  if (header.page > 390 || header.cut.length) fail("the phone's header fits, no button's word cut", { page: 390, cut: [] }, header);
  await shot(lobby, "ru-phone-header.png", "the Russian phone's log-in page: the header's round ? links the rules, the buttons' words whole");
  const [p] = await Promise.all([phone.context.waitForEvent("page"), lobby.locator("#rules-link").tap()]);
  p.on("pageerror", (e) => phone.errors.push(`ru rules tab: page error: ${e.message}`));
  p.on("console", (m) => m.type() === "error" && phone.errors.push(`ru rules tab: console: ${m.text()}`));
  await until(p, "the rules page in Russian", () => document.querySelector("#rules-page h1")?.textContent === "Правила игры"
    && document.getElementById("P3") !== null && document.getElementById("login").offsetParent === null, null,
    { seen: () => ({ h1: document.querySelector("#rules-page h1")?.textContent, login: document.getElementById("login").offsetParent !== null }) });
  await shot(p, "ru-phone-top.png", "a Russian phone (390×844) opens ?rules: the heading, the way back, the contents with every rule id");
  const english = await p.evaluate(englishIn);
  if (english.words.length || english.runs.length) fail("no English rule text on the Russian page", { words: [], runs: [] }, english);
  const wide = await p.evaluate(overflow);
  if (wide.page > 390 || wide.out.length) fail("nothing of the Russian rules wider than the phone", "scrollWidth ≤ 390, nothing outside", wide);
  step("the Russian page: no English, nothing wider than the phone");

  // The contents' P3: lands on P3, marked.
  await p.locator('.rules-index a[href="#P3"]').tap();
  await until(p, "the phone lands on P3, marked", landed, "P3", { seen: where });
  const p3 = await p.locator("#P3").innerText();
  if (!/Без выставления с матом/.test(p3) || !/мат на доске|«с матом на доске»/.test(p3)) fail("P3 in Russian, with its title", "Без выставления с матом … мат на доске", p3);
  const colours = await p.evaluate(() => [getComputedStyle(document.getElementById("P3")).backgroundColor, getComputedStyle(document.getElementById("P2")).backgroundColor]);
  if (colours[0] === colours[1]) fail("the rule landed on is highlighted", "another background than its neighbour's", colours);
  await shot(p, "ru-phone-P3.png", "the phone after the contents' link P3: P3 (Без выставления с матом) at the top, highlighted");

  // A rule id in P3's text leads on to M1.
  await p.locator('#P3 p a[href="#M1"]').first().tap();
  await until(p, "P3's link to M1 lands on M1, and only M1 is marked", landed, "M1", { seen: where });
  step("the phone followed the contents to P3 and P3's text to M1");

  // ruleHref, as the match screen links a rule the server named: a fresh load lands on R3.
  const href = await p.evaluate(async () => (await import("/rules.js")).ruleHref("R3"));
  if (href !== "?rules#R3") fail("ruleHref(R3)", "?rules#R3", href);
  await p.goto("about:blank");
  await p.goto(new URL(href, args.url).href, { timeout: 15000 });
  await until(p, "a fresh load of ruleHref(R3) lands on R3", landed, "R3", { seen: where });
  await shot(p, "ru-phone-R3.png", "the phone opens ruleHref('R3') afresh: R3 (Какую фигуру можно снять) with its list, highlighted");
  // The two tables, read on the phone.
  for (const id of ["presets-table", "A1-types"]) {
    await p.locator(`#${id} table`).scrollIntoViewIfNeeded();
    await shot(p, `ru-phone-${id}.png`, `the phone on the table of ${id}: every column readable, nothing cut off`);
  }
  step("ruleHref('R3') opened afresh lands on R3; the tables read on the phone");

  // An English desktop: the header's link from the lobby opens the rules in a tab of their own.
  const desk = await openPlayer(browser, "en-desktop", { locale: "en-US" });
  pages.set("en-desktop", { ...desk, name: "en-desktop" });
  const d = desk.page;
  await d.goto(`${args.url}?transport=${args.transport}`, { timeout: 15000 });
  const link = d.locator("#rules-link");
  if ((await link.textContent()) !== "Rules") fail("the header's link to the rules", "Rules", await link.textContent());
  const [tab] = await Promise.all([desk.context.waitForEvent("page"), link.click()]);
  const errors = [];
  tab.on("pageerror", (e) => errors.push(`rules tab: page error: ${e.message}`));
  tab.on("console", (m) => m.type() === "error" && errors.push(`rules tab: console: ${m.text()}`));
  await until(tab, "the header's link opens the rules in English", () => document.querySelector("#rules-page h1")?.textContent === "The rules of the game", null);
  if (!(await d.locator("#login").isVisible())) fail("the lobby's page stays where it was", "the login form shown", "hidden");
  await tab.goto(new URL("?rules#P3", args.url).href, { timeout: 15000 });
  await until(tab, "the desktop lands on P3, marked", landed, "P3", { seen: where });
  const en = await tab.locator("#P3").innerText();
  if (!/No drop that mates/.test(en) || !/A drop may not deliver mate on board/.test(en) || !/\[MGIMO\]/.test(en)) fail("P3 in English with its source", "No drop that mates … [MGIMO]", en);
  await shot(tab, "en-desktop-P3.png", "an English desktop (1360×900) on ?rules#P3: P3 highlighted at the top");
  await tab.locator("#lang").selectOption("ru");
  await until(tab, "switched to Russian, still on P3", () => /Без выставления с матом/.test(document.getElementById("P3")?.textContent ?? "")
    && document.getElementById("P3").classList.contains("current") && Math.abs(document.getElementById("P3").getBoundingClientRect().top) < innerHeight / 2, null,
    { seen: () => ({ text: document.getElementById("P3")?.textContent?.slice(0, 60), top: document.getElementById("P3")?.getBoundingClientRect().top }) });
  await shot(tab, "ru-desktop-P3.png", "the desktop switched to Russian in the header's menu: P3 still highlighted in view");
  await tab.locator("#lang").selectOption("en");
  await until(tab, "and back to English", () => /No drop that mates/.test(document.getElementById("P3")?.textContent ?? ""), null);
  await tab.locator("#rules-back").click();
  await until(tab, "the way back leads to the lobby's page", () => !location.search.includes("rules") && document.getElementById("login").offsetParent !== null
    && document.getElementById("rules-page").hidden, null, { seen: () => ({ url: location.href }) });
  step("the desktop: the header's link, ruleHref's P3, Russian and back, back to the lobby");
  for (const x of pages.values()) errors.push(...x.errors);
  if (errors.length) fail("no console errors", [], errors);
}

await run(main, args.out, () => ({ browser, players: pages }));
