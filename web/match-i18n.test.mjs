// The match screen's files (issue 31) show no English of their own: every text a person reads
// there comes from the catalogues. A heuristic, strict for these files: in every statement that
// puts words on the page (textContent, title, placeholder, an attribute, a notice, an appended
// text, a choice's label, a refusal's message), every string literal is a catalogue key or holds
// no Latin letter; and every fixed text of the match screen, the arbiter's panel and the review
// in index.html carries its data-i18n key (title, placeholder and aria-label too).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CATALOGUES, t } from "./i18n.js";
import { phaseText, rulesText } from "./match-state.js";
import { matchTime } from "./review.js";
import { marked } from "./seats.js";

const here = new URL(".", import.meta.url);
const read = (name) => readFileSync(new URL(name, here), "utf8");

/** The files of the match screen, its review, the arbiter's panel and the chat. */
const FILES = ["match-view.js", "match-state.js", "arbiter.js", "chat.js", "review.js", "board-view.js", "gestures.js",
  "premove.js", "moves.js", "clocks.js", "sound.js", "report.js", "analysis.js", "analysis-view.js"];

/**
 * The source without comments, its string literals replaced by `\0N\0` (N: the index in
 * `literals`); a template literal's text outside `${…}` is one literal, and the literals of its
 * expressions are literals of their own.
 * @param {string} src
 */
function tokenize(src) {
  /** @type {string[]} */
  const literals = [];
  let i = 0;
  /** @param {string} stop  a character ending the code read (`}` of a template's `${`), or "" */
  const code = (stop) => {
    let out = "";
    let depth = 0;
    while (i < src.length) {
      const c = src[i];
      if (stop && c === stop && depth === 0) return out;
      if (c === "{") depth += 1;
      if (c === "}") depth -= 1;
      if (c === "/" && src[i + 1] === "/") {
        while (i < src.length && src[i] !== "\n") i += 1;
      } else if (c === "/" && src[i + 1] === "*") {
        i = src.indexOf("*/", i + 2) + 2;
        out += " ";
      } else if (c === '"' || c === "'") {
        let text = "";
        i += 1;
        while (src[i] !== c) {
          if (src[i] === "\\") i += 1;
          text += src[i];
          i += 1;
        }
        i += 1;
        literals.push(text);
        out += `\0${literals.length - 1}\0`;
      } else if (c === "`") {
        let text = "";
        let inner = "";
        i += 1;
        while (src[i] !== "`") {
          if (src[i] === "\\") {
            text += src[i + 1];
            i += 2;
          } else if (src[i] === "$" && src[i + 1] === "{") {
            i += 2;
            inner += ` ${code("}")}`;
            i += 1;
            text += " ";
          } else {
            text += src[i];
            i += 1;
          }
        }
        i += 1;
        literals.push(text);
        out += `\0${literals.length - 1}\0${inner}`;
      } else {
        out += c;
        i += 1;
      }
    }
    return out;
  };
  return { code: code(""), literals };
}

/** Statements that put words before a reader. */
const SINK = /\.textContent\s*=|\.title\s*=|\.placeholder\s*=|showError\(|showInfo\(|\.append\(|new Option\(|message:|\bbutton\(/;
/** Calls whose first literal argument names an element (an id), a class or an attribute, not words. */
const LOOKUP = /(?<![\w$])(\$|button|input|getElementById|querySelector|querySelectorAll|closest|createElement|setAttribute|getAttribute|toggle|contains)\(\s*\0\d+\0/g;

/** Codes in a statement that shows words, never shown themselves (the page's own error code). */
const CODES = new Set(["Offline"]);

/**
 * The literals of `src` that look like words shown to a person: in a statement that shows
 * words, holding a Latin letter, and not a catalogue key.
 * @param {string} src
 */
function shownEnglish(src) {
  const { code, literals } = tokenize(src);
  const found = [];
  /** @param {string} statement */
  const setsWords = (statement) => [...statement.matchAll(/setAttribute\(\s*\0(\d+)\0/g)]
    .some((m) => ["aria-label", "title", "placeholder", "alt"].includes(literals[Number(m[1])]));
  for (const statement of code.split(/[;{}]/)) {
    if (!SINK.test(statement) && !setsWords(statement)) continue;
    for (const m of statement.replace(LOOKUP, "$1(").matchAll(/\0(\d+)\0/g)) {
      const text = literals[Number(m[1])];
      if (/[A-Za-z]/.test(text) && !(text in CATALOGUES.en) && !CODES.has(text)) found.push(text);
    }
  }
  return found;
}

export { shownEnglish };

test("the match screen's files put no English of their own on the page", () => {
  for (const file of FILES) assert.deepEqual(shownEnglish(read(file)), [], `${file}: words not from the catalogues`);
});

test("the check finds English put back (it would fail on the old texts)", () => {
  assert.deepEqual(shownEnglish(`b.textContent = "Watch";`), ["Watch"]);
  assert.deepEqual(shownEnglish(`$("ready").textContent = ready ? "Not ready" : t("v.ready");`), ["Not ready"]);
  assert.deepEqual(shownEnglish("text = 1;\nbanner.textContent = `Starting in ${Math.ceil(left / 1000)}…`;"), ["Starting in  …"]);
  assert.deepEqual(shownEnglish("panel.title.textContent = `Board ${board}` + (me ? \" — yours\" : \"\");"), ["Board  ", " — yours"]);
  assert.deepEqual(shownEnglish(`b.title = \`claim that the flag of \${seatLabel(seat)} fell (K4)\`;`), ["claim that the flag of   fell (K4)"]);
  assert.deepEqual(shownEnglish(`showError(\`a clock adjustment is \${n}\`);`), ["a clock adjustment is  "]);
  assert.deepEqual(shownEnglish(`button("choice-cancel", "", "Cancel", () => this.clear());`), ["Cancel"]);
  assert.deepEqual(shownEnglish(`span.setAttribute("aria-label", \`\${white ? "white" : "black"} king\`);`), ["  king", "white", "black"]);
  // Keys, element ids and comments are not words shown.
  assert.deepEqual(shownEnglish(`// b.textContent = "Watch";\n$("phase").textContent = t("v.phase.review"); /* "Ready" */`), []);
});

/** Elements of index.html, with their attributes and their own text. */
function elements(html) {
  return [...html.matchAll(/<(\w+)((?:\s+[\w-]+(?:="[^"]*")?)*)\s*>([^<]*)/g)].map((m) => ({ tag: m[1], attrs: m[2], text: m[3].trim() }));
}

test("the match screen's, the review's and the arbiter's fixed texts in index.html carry their keys", () => {
  const html = read("index.html");
  const parts = [
    html.slice(html.indexOf('<section id="match"'), html.indexOf("</section>", html.indexOf('<section id="match"'))),
    html.slice(html.indexOf('<details id="arbiter-login"'), html.indexOf("</details>", html.indexOf('<details id="arbiter-login"'))),
    html.slice(html.indexOf('<form id="arbiter-form"'), html.indexOf("</section>", html.indexOf('<form id="arbiter-form"'))),
  ];
  assert.ok(parts.every((p) => p.length > 100), "the parts were found");
  const missing = [];
  for (const el of parts.flatMap(elements)) {
    const attr = (name) => new RegExp(`\\s${name}="([^"]*)"`).exec(el.attrs)?.[1];
    // Own words: a key, unless they are a board's letter, a square or a symbol.
    if (/[A-Za-z]{2,}/.test(el.text) && !attr("data-i18n")) missing.push(`<${el.tag}> ${el.text}`);
    for (const [name, key] of [["title", "data-i18n-title"], ["placeholder", "data-i18n-placeholder"], ["aria-label", "data-i18n-aria"]]) {
      if (attr(name) && !attr(key)) missing.push(`<${el.tag} ${name}="${attr(name)}">`);
    }
    for (const key of ["data-i18n", "data-i18n-title", "data-i18n-placeholder", "data-i18n-aria", "data-i18n-empty"]) {
      const k = attr(key);
      if (k !== undefined) assert.ok(k in CATALOGUES.en, `${key}="${k}" has a text`);
    }
  }
  assert.deepEqual(missing, [], "texts without a key");
});

test("the match screen's words in Russian: the rules' terms, plurals, numbers as Russian writes them", () => {
  const ru = (key, params) => t(key, params, "ru");
  assert.deepEqual([1, 2, 3, 5, 21].map((count) => ru("v.waiting-players", { count })), [
    "Ждём игроков: свободно 1 место.", "Ждём игроков: свободно 2 места.", "Ждём игроков: свободно 3 места.",
    "Ждём игроков: свободно 5 мест.", "Ждём игроков: свободно 21 место.",
  ]);
  assert.deepEqual([1, 3].map((count) => t("v.waiting-players", { count }, "en")), ["Waiting for 1 more player.", "Waiting for 3 more players."]);
  assert.equal(ru("v.rematch-want", { count: 1, names: "anna" }), "Реванш хочет 1 из 4 (anna).");
  assert.equal(ru("v.rematch-want", { count: 3, names: "a, b, c" }), "Реванш хотят 3 из 4 (a, b, c).");
  assert.equal(ru("v.arbiter-pause"), "Часы остановлены для судьи.");
  assert.equal(ru("v.promo-removal", { from: "b7", to: "a8", board: "A" }), "Превращение b7–a8: снятие — выберите фигуру на доске A (подсвечены):");
  assert.equal(ru("v.reserve-has", { count: 2, piece: ru("m.piece.Queen") }), "в запасе: ферзь × 2");
  assert.equal(ru("v.call-arbiter"), "Вызвать судью");
  assert.equal(ru("v.flag", { seat_of: ru("m.seat-of.WhiteA") }), "Флаг белых A");
  assert.equal(ru("v.you-lose", { head: ru("m.wins", { team: ru("m.team.Two") }) }), "победила команда 2 — вы проиграли");
  assert.equal(matchTime(65300, "ru"), "1:05,300");
  assert.equal(rulesText("mgimo-2017"), "MGIMO 2017");
  assert.equal(rulesText("crazyhouse"), "crazyhouse", "a preset this page does not know, by its id");
  assert.equal(ru("v.rules.mgimo-2017"), "МГИМО-2017");
  // Not «рассадка»: that is the S3 seating choice of a tournament game (issue 57).
  assert.equal(phaseText("Forming"), "waiting for players");
  assert.equal(ru("v.phase.Forming"), "сбор игроков");
  assert.equal(ru("m.wins", { team: ru("m.team-named", { name: "Слоны" }) }), "победила команда «Слоны»");
  assert.equal(matchTime(65300), "1:05.300");
  assert.equal(marked("anna", "Guest"), "anna (guest)");
  assert.equal(t("v.guest", { name: "anna" }, "ru"), "anna (гость)");
});
