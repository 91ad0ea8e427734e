// The lobby's words (issue 31): the header, the login, the lobby, quick pairing, ratings and
// recent matches put no English of their own on the page — every sentence a person reads comes
// from the catalogues (a scan of their sources and of their parts of index.html) — and they read
// as a Russian reader expects: the rules' terms, plurals in three forms, dates and numbers as
// Russian writes them.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { language, setLanguage, t } from "./i18n.js";
import { invitationText, poolNote, seekEndText, seekText, tcName } from "./quick.js";
import { changeLine, dayText, games, numberText, partnerLine, profileHead, ratingText } from "./ratings.js";
import { phaseText, rulesName, summaryText, yourMatch } from "./lobby.js";
import { endedText, recentCells } from "./recent.js";
import { closeReason } from "./transport.js";

const here = new URL(".", import.meta.url);
const read = (name) => readFileSync(new URL(name, here), "utf8");

/** The files of the header, the login and the lobby. */
const FILES = ["app.js", "lobby.js", "quick.js", "ratings.js", "recent.js", "session.js", "login.js", "notice.js", "transport.js"];

/**
 * Where a text a person reads goes: an assignment to what the page shows, a call that shows or
 * logs it, a helper of these files that makes an element with its text, or a message that ends
 * up in the notice bar or the header's status. The literal that follows is checked.
 */
const SINKS = [
  /\.(?:textContent|innerText|title|placeholder)\s*=\s*/g,
  /\b(?:showInfo|showError|log|confirm|alert|prompt)\(\s*/g,
  /\bsetAttribute\(\s*"(?:aria-label|title|placeholder)"\s*,\s*/g,
  /\bel\(\s*"[a-z0-9]+"\s*,\s*/g,
  /\bbutton\(\s*[^,()]+,\s*/g,
  /\bnew Option\(\s*/g,
  /\bmessage:\s*/g,
  /\bnew Error\(\s*/g,
  /\b(?:gone|onclose|lost)\((?:[^,()]+,\s*)?/g,
];

/** The $ helper's own failure (a programming error about the page's ids, never shown). */
const DEVELOPER = new Set(["no # in the page"]);

/** The source without its comments (strings kept as they are). */
function code(source) {
  let out = "";
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '"' || c === "'" || c === "`") {
      const end = literalEnd(source, i);
      out += source.slice(i, end);
      i = end - 1;
    } else if (c === "/" && source[i + 1] === "/") {
      while (i < source.length && source[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && source[i + 1] === "*") {
      i = source.indexOf("*/", i + 2) + 1;
      out += " ";
    } else out += c;
  }
  return out;
}

/** Where the string literal opening at `i` ends (just past its closing quote). */
function literalEnd(source, i) {
  const quote = source[i];
  let depth = 0;
  for (let j = i + 1; j < source.length; j++) {
    const c = source[j];
    if (c === "\\") j++;
    else if (quote === "`" && depth === 0 && c === "$" && source[j + 1] === "{") {
      depth = 1;
      j++;
    } else if (depth > 0 && c === "{") depth++;
    else if (depth > 0 && c === "}") depth--;
    else if (depth > 0 && (c === '"' || c === "'" || c === "`")) j = literalEnd(source, j) - 1;
    else if (depth === 0 && c === quote) return j + 1;
    else if (depth === 0 && quote !== "`" && c === "\n") return j;
  }
  return source.length;
}

/** A literal's own text: its `${…}` parts left out. */
function ownText(literal) {
  let out = "";
  for (let j = 1; j < literal.length - 1; j++) {
    if (literal[0] === "`" && literal[j] === "$" && literal[j + 1] === "{") {
      let depth = 1;
      j += 2;
      for (; j < literal.length && depth > 0; j++) {
        if (literal[j] === "{") depth++;
        else if (literal[j] === "}") depth--;
        else if (literal[j] === '"' || literal[j] === "'" || literal[j] === "`") j = literalEnd(literal, j) - 1;
      }
      j--;
    } else out += literal[j];
  }
  return out;
}

/**
 * The literals a source shows a person that are words of its own (two letters or more in a
 * row): each as `line: literal`.
 * @param {string} source
 */
export function ownWords(source) {
  const text = code(source);
  const found = [];
  for (const sink of SINKS) {
    for (const m of text.matchAll(sink)) {
      const at = m.index + m[0].length;
      if (!['"', "'", "`"].includes(text[at])) continue;
      const literal = text.slice(at, literalEnd(text, at));
      const own = ownText(literal);
      if (/[A-Za-zА-Яа-яЁё]{2,}/.test(own) && !DEVELOPER.has(own)) {
        found.push(`${text.slice(0, at).split("\n").length}: ${literal}`);
      }
    }
  }
  return found;
}

/**
 * The texts of index.html's header, seek bar, notice, login and lobby (the arbiter's field and
 * list are the match screen's) that carry no key: text between tags with letters whose element
 * has no `data-i18n`, and a title, placeholder or aria-label without its `data-i18n-…`.
 * @param {string} html
 */
export function untranslated(html) {
  const part = (from, to) => html.slice(html.indexOf(from), html.indexOf(to, html.indexOf(from)));
  let mine = [
    part('<head>', '</head>'),
    part('<header id="top">', "</header>"),
    part('<div id="seek-bar"', "</div>"),
    part('<div id="notice"', "</div>"),
    part('<section id="login">', "</section>"),
    part('<section id="lobby"', "</section>"),
  ].join("\n");
  // The match screen's parts inside these (another file's texts).
  for (const [from, to] of [['<details id="arbiter-login"', "</details>"], ['<form id="arbiter-form"', "</form>"], ['<div id="arbiter-lobby"', "</table>"]]) {
    const i = mine.indexOf(from);
    if (i >= 0) mine = mine.slice(0, i) + mine.slice(mine.indexOf(to, i) + to.length);
  }
  /** Names that are no language's words. */
  const NAMES = /^(shvedka|Chess960|#|×|3\+0|1\+0|3\+2|5\+d3|10\+5)$/;
  const found = [];
  for (const m of mine.matchAll(/<([a-z0-9]+)([^>]*)>([^<]*)/g)) {
    const [, tag, attrs, after] = m;
    const text = after.trim();
    if (text && /[A-Za-z]{2,}/.test(text) && !NAMES.test(text) && !/data-i18n="/.test(attrs) && tag !== "script" && tag !== "style") {
      found.push(`<${tag}${attrs}>${text}`);
    }
    for (const [attr, key] of [["title", "data-i18n-title"], ["placeholder", "data-i18n-placeholder"], ["aria-label", "data-i18n-aria"]]) {
      const value = attrs.match(new RegExp(`\\s${attr}="([^"]*)"`))?.[1];
      if (value && /[A-Za-z]{2,}/.test(value) && !attrs.includes(`${key}="`)) found.push(`<${tag}${attrs}>: ${attr}`);
    }
  }
  return found;
}

/** Runs `f` with the page in `lang`, then back in the language it had. */
function inLanguage(lang, f) {
  const before = language();
  setLanguage(lang);
  try {
    f();
  } finally {
    setLanguage(before);
  }
}

test("the lobby's files show no English of their own: every text a person reads comes from a catalogue", () => {
  for (const file of FILES) assert.deepEqual(ownWords(read(file)), [], `${file}: texts not from the catalogues`);
  assert.deepEqual(untranslated(read("index.html")), [], "index.html: the header's and the lobby's texts carry their keys");
});

test("the scan finds an English text put back (the check can fail)", () => {
  const back = [
    'cell.textContent = "Sit";',
    "b.textContent = `Watch ${id}`;",
    'document.title = "over — shvedka";',
    'showInfo(`Your seek ${why}.`);',
    'showError("a match number is a whole number");',
    'log(`match ${id} found: you play ${seat}`);',
    'out.append(el("p", `${p.name} has no rated match yet.`, "hint"));',
    'row.insertCell().append(button(`watch-${id}`, "Watch", () => {}));',
    'return { err: { code: "Offline", rule: null, message: "not connected" } };',
    'reject(new Error("WebTransport did not open in time"));',
    'this.lost(link, "dropped");',
  ];
  for (const line of back) assert.equal(ownWords(line).length, 1, line);
  const fine = [
    'cell.textContent = t("l.sit");',
    "cell.textContent = `${p} (${seatName(seat)})`;",
    'el("th", "±")',
    'throw new Error(`no #${id} in the page`);',
    'const x = document.querySelector("#recent tbody");',
    'console.warn("not a server message", e);',
  ];
  for (const line of fine) assert.deepEqual(ownWords(line), [], line);
  assert.equal(untranslated('<header id="top"><button id="x">log out</button></header>').length, 1);
  assert.equal(untranslated('<header id="top"><select id="lang" aria-label="language"></select></header>').length, 1);
  assert.equal(untranslated('<header id="top"><button id="x" data-i18n="l.logout">log out</button></header>').length, 0);
});

test("Russian: the lobby's list, the seek bar and the pools in the rules' terms", () => {
  const m = { match_id: 12, rules: "mgimo-2017", time_control: "3+0", chess960: false, rated: true, seats: ["anna", null, null, null], kinds: [null, null, null, null], phase: "Forming" };
  assert.equal(summaryText(m), "Match 12 · MGIMO 2017 (removal) · rated · 3+0 · forming");
  inLanguage("ru", () => {
    assert.equal(summaryText(m), "Партия 12 · МГИМО-2017 (со снятием) · на рейтинг · 3+0 · ждёт игроков");
    assert.equal(phaseText("Ended"), "окончена");
    assert.equal(rulesName("classic"), "классические шведки");
    assert.equal(rulesName("house-rules"), "house-rules", "a preset the page does not know shows its code");
    const seek = { seek: 3, time_control: "3+0", rules: "mgimo-2017", rated: false, range: null, players: ["anna", "gleb"], invited: null, waiting: true, waited_ms: 4_000, reach: 250, widening: 25, expires_in_ms: null };
    assert.equal(seekText(seek, 0), "Ищем партию 3+0 без рейтинга (anna & gleb) · ждём 0:04 · рейтинг ±250");
    assert.equal(invitationText({ ...seek, rated: true, expires_in_ms: 60_000 }, 15_000), "anna приглашает вас сыграть в паре партию 3+0 на рейтинг (осталось 0:45)");
    assert.equal(seekEndText("Declined"), "Партнёр отклонил вашу заявку.");
    assert.deepEqual([1, 2, 5, 21].map((players) => poolNote({ time_control: "3+0", name: "blitz", rules: "mgimo-2017", rated: false, quick: true, players, people: players, longest_wait_ms: 0 })),
      ["блиц · ждёт 1", "блиц · ждут 2", "блиц · ждут 5", "блиц · ждёт 21"]);
    assert.equal(tcName("bullet"), "пуля");
    assert.equal(tcName("blitz-increment"), "блиц с добавлением");
    // Why a link closed (the header's status), from the server's close codes.
    assert.equal(closeReason(4003, "cannot keep up"), "связь не успевала: восстанавливаем");
    assert.equal(closeReason(4, "the session ended"), "сервер завершил сеанс");
    assert.equal(closeReason(1006, ""), "связь закрыта (1006)");
  });
});

test("Russian: ratings with plurals in three forms, the day and numbers as Russian writes them", () => {
  inLanguage("ru", () => {
    assert.deepEqual([1, 2, 5, 11, 21, 22].map(games), ["1 партия", "2 партии", "5 партий", "11 партий", "21 партия", "22 партии"]);
    const partner = (n) => partnerLine({ name: "vera", rating: { category: "blitz", rating: 1580, deviation: 200, games: n, provisional: true } });
    assert.deepEqual([1, 3, 7].map(partner), ["с vera: пара 1580? за 1 партию", "с vera: пара 1580? за 3 партии", "с vera: пара 1580? за 7 партий"]);
    assert.equal(changeLine({ seat: "BlackA", name: "boris", category: "blitz", before: 1500, after: 1612, deviation: 290, provisional: true }), "boris (чёрные A) 1500 → 1612? (+112)");
    const created = Date.UTC(2026, 4, 12, 12);
    assert.equal(profileHead({ name: "boris", kind: "Account", created_ms: created, categories: [], recent: [] }), "boris · с 12 мая 2026 г.");
    assert.equal(numberText(12345, true), "12\u00a0345");
    assert.equal(ratingText({ rating: 12345, provisional: false }), "12345", "a rating is never grouped");
    assert.match(endedText(created), /^12\.05\.2026, \d\d:\d\d$/);
  });
  assert.deepEqual([1, 2].map(games), ["1 game", "2 games"]);
  assert.equal(dayText(Date.UTC(2026, 4, 12, 12), "en"), "May 12, 2026");
  assert.equal(numberText(12345, true, "en"), "12,345");
});

test("Russian: a recent match, and one annulled", () => {
  const won = { match_id: 7, rules: "mgimo-2017", time_control: "3+0", players: ["anna", "boris", "vera", "gleb"], finished_ms: Date.UTC(2026, 4, 12, 12), result: { winner: "Two", rule: "E1", cause: { MateOnBoard: { seat: "BlackA" } } } };
  inLanguage("ru", () => {
    const cells = recentCells(/** @type {any} */ (won));
    assert.equal(cells[2], "МГИМО-2017 (со снятием) 3+0");
    assert.equal(cells[3], "anna (белые A), boris (чёрные A), vera (белые B), gleb (чёрные B)");
    assert.equal(cells[4], "победила команда 2 — чёрные A поставили мат на доске (E1)");
    assert.equal(recentCells(/** @type {any} */ ({ ...won, result: null }))[4], "аннулирована");
    assert.equal(t("l.no-recent", { name: "anna" }), "У anna пока нет сыгранных партий.");
  });
  assert.equal(recentCells(/** @type {any} */ ({ ...won, result: null }))[4], "annulled");
});

test("S1, issue 56: a match in play where the account holds a seat is offered back, not a guest's of the same name nor one followed", () => {
  /** @param {number} id @param {string} phase @param {(string|null)[]} seats @param {(string|null)[]} kinds */
  const m = (id, phase, seats, kinds) => ({ match_id: id, rules: "mgimo-2017", time_control: "3+0", chess960: false, seats, kinds, phase, rated: false });
  const matches = [
    m(1, "Ended", ["anna", "b", "c", "d"], ["Account", "Guest", "Guest", "Guest"]),
    m(2, "Running", ["x", "anna", "c", "d"], ["Guest", "Guest", "Guest", "Guest"]),
    m(3, "Paused", ["x", "y", "z", "anna"], ["Guest", "Guest", "Guest", "Account"]),
  ];
  assert.deepEqual(yourMatch(matches, "anna", null), { id: 3, seat: "BlackB" });
  assert.equal(yourMatch(matches, "anna", 3), null, "the match the page follows is not offered");
  assert.equal(yourMatch(matches, null, null), null, "a guest page is offered nothing");
  setLanguage("ru");
  assert.equal(t("l.your-match", { id: 3, seat: t("m.seat.BlackB") }), "Ваша партия 3 идёт: вы — чёрные B.");
  setLanguage("en");
});
