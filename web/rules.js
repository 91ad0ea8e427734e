// @ts-check
// The rules page (`?rules`, issue 31): every rule of docs/RULES.md with its id, a short title and
// its text, in the page's language (locales/rules.en.js, locales/rules.ru.js, the Russian after
// the MGIMO-2017 rules' own words), each rule an anchor: `?rules#P3` opens the page on P3 and
// marks it. The other screens name a rule the server gave with `ruleLabel` ("P3 — No drop that
// mates") and link it with `ruleHref` or `ruleLink`.
//
// A rule's text is markdown-like: paragraphs apart by a blank line, a line starting "- " a list
// item, `code`, *emphasis*; a rule id in it becomes a link to that rule.

import { language, onLanguage, t } from "./i18n.js";
import en from "./locales/rules.en.js";
import ru from "./locales/rules.ru.js";

/**
 * One rule: its id (the server's, `P3`, or for the entries of sections 9 and 10 an anchor of
 * their own), a short title, its source as RULES.md marks it (`MGIMO`, `ours`, `FIDE 6.3` …, in
 * the catalogue's language; empty when unmarked), its text and, for some, a table (first row the
 * head) shown after `tableAt` paragraphs (0: before the text).
 * @typedef {{ id: string, title: string, source: string, text: string, table?: string[][], tableAt?: number }} Rule
 */
/** @typedef {{ id: string, title: string, intro?: string, rules: Rule[] }} RuleSection */

/** The rules in each language the page speaks, in RULES.md's order. @type {Record<string, RuleSection[]>} */
export const RULE_CATALOGUES = { en, ru };

/** The shape of a rule id the server names: `FIDE`, `S1`, `E10`, `P5a`. */
const RULE_ID = /^(?:FIDE|[A-Z]\d{1,2}[a-z]?)$/;
/** Rule ids inside a text. */
const IDS_IN_TEXT = /\b(FIDE|[A-Z]\d{1,2}[a-z]?)\b/g;

/**
 * A text as it is set: a dash never starts a line, a number keeps the Russian word or unit after
 * it (`2017 г.`, `2 клетки`), "см." the word it points to.
 * @param {string} text
 */
function typeset(text) {
  return text.replace(/ —/g, "\u00a0—").replace(/(\d) (?=[А-Яа-яЁё])/g, "$1\u00a0").replace(/(?<![А-Яа-яЁё])см\. /g, "см.\u00a0");
}

/** @param {string} lang */
function rulesOf(lang) {
  return RULE_CATALOGUES[lang] ?? RULE_CATALOGUES.en;
}

/**
 * The rule `id` in language `lang` (the page's by default), or null if there is none.
 * @param {string} id
 * @param {string} [lang]
 * @returns {Rule | null}
 */
export function findRule(id, lang = language()) {
  for (const section of rulesOf(lang)) {
    for (const rule of section.rules) if (rule.id === id) return rule;
  }
  return null;
}

/**
 * The address of the rules page opened at rule `id` (relative: `?rules#P3`).
 * @param {string} id
 */
export function ruleHref(id) {
  return `?rules#${encodeURIComponent(id)}`;
}

/**
 * The short title of rule `id` in `lang` (the page's language by default), or null for an id
 * the rules do not have.
 * @param {string} id
 * @param {string} [lang]
 */
export function ruleTitle(id, lang = language()) {
  return findRule(id, lang)?.title ?? null;
}

/**
 * The rule as a person reads it beside a refusal or a result: `P3 — No drop that mates`
 * (`P3 — Без выставления с матом`), or the bare id for one the rules do not have.
 * @param {string} id
 * @param {string} [lang]
 */
export function ruleLabel(id, lang = language()) {
  const title = ruleTitle(id, lang);
  return title ? `${id} — ${title}` : id;
}

/**
 * A link to rule `id` on the rules page, labelled `P3 — …` (ruleLabel). It opens in a tab of its
 * own, so a match on the screen stays where it is.
 * @param {string} id
 * @param {string} [lang]
 */
export function ruleLink(id, lang = language()) {
  const a = document.createElement("a");
  a.href = ruleHref(id);
  a.target = "_blank";
  a.rel = "noopener";
  a.className = "rule-link";
  a.textContent = ruleLabel(id, lang);
  return a;
}

/**
 * Appends `text` with its rule ids linked (except `self`, the rule the text belongs to).
 * @param {HTMLElement} parent
 * @param {string} text
 * @param {string} self
 * @param {string} lang
 */
function withLinks(parent, text, self, lang) {
  const doc = parent.ownerDocument;
  let at = 0;
  for (const m of text.matchAll(IDS_IN_TEXT)) {
    const id = m[1];
    const i = m.index ?? 0;
    if (id === self || !findRule(id, lang)) continue;
    parent.append(typeset(text.slice(at, i)));
    const a = doc.createElement("a");
    a.href = `#${id}`;
    a.textContent = id;
    parent.append(a);
    at = i + id.length;
  }
  parent.append(typeset(text.slice(at)));
}

/**
 * Appends one line of a text: `code`, *emphasis*, and rule ids as links.
 * @param {HTMLElement} parent
 * @param {string} line
 * @param {string} self
 * @param {string} lang
 */
function inline(parent, line, self, lang) {
  const doc = parent.ownerDocument;
  for (const part of line.split(/(`[^`]+`)/)) {
    if (part.length > 1 && part.startsWith("`") && part.endsWith("`")) {
      // A long name breaks after its underscores and slashes, never inside a word.
      const code = doc.createElement("code");
      for (const [n, piece] of part.slice(1, -1).split(/(?<=[_/])/).entries()) {
        if (n > 0) code.append(doc.createElement("wbr"));
        code.append(piece);
      }
      parent.append(code);
      continue;
    }
    for (const bit of part.split(/(\*[^*\s][^*]*\*)/)) {
      if (bit.length > 2 && bit.startsWith("*") && bit.endsWith("*")) {
        const em = doc.createElement("em");
        withLinks(em, bit.slice(1, -1), self, lang);
        parent.append(em);
      } else {
        withLinks(parent, bit, self, lang);
      }
    }
  }
}

/**
 * A rule's table: the first row its head.
 * @param {Document} doc
 * @param {string[][]} rows
 * @param {string} self
 * @param {string} lang
 */
function table(doc, rows, self, lang) {
  const box = doc.createElement("div");
  box.className = "rules-table";
  const el = doc.createElement("table");
  const head = el.createTHead().insertRow();
  for (const cell of rows[0]) {
    const th = doc.createElement("th");
    inline(th, cell, self, lang);
    head.append(th);
  }
  const body = el.createTBody();
  // Each cell knows its column's head: a narrow screen may show a row as a card (style.css).
  const labels = rows[0].map((cell) => cell.replace(/`/g, ""));
  for (const row of rows.slice(1)) {
    const tr = body.insertRow();
    for (const [n, cell] of row.entries()) {
      const td = tr.insertCell();
      td.dataset.label = labels[n];
      inline(td, cell, self, lang);
    }
  }
  box.append(el);
  return box;
}

/**
 * A rule as an anchor: its id (a link to itself), title, source, text and table.
 * @param {Document} doc
 * @param {Rule} rule
 * @param {string} lang
 */
function ruleEntry(doc, rule, lang) {
  const entry = doc.createElement("article");
  entry.className = "rule-entry";
  entry.id = rule.id;
  const h = doc.createElement("h3");
  if (RULE_ID.test(rule.id)) {
    const self = doc.createElement("a");
    self.className = "rule-id";
    self.href = `#${rule.id}`;
    self.textContent = rule.id;
    h.append(self, " ");
  }
  const title = doc.createElement("span");
  title.className = "rule-title";
  title.textContent = rule.title;
  h.append(title);
  if (rule.source) {
    const source = doc.createElement("span");
    source.className = "rule-source";
    source.textContent = `[${rule.source}]`;
    h.append(" ", source);
  }
  entry.append(h);
  const paragraphs = rule.text.split("\n\n");
  paragraphs.forEach((text, n) => {
    if (rule.table && n === (rule.tableAt ?? 0)) entry.append(table(doc, rule.table, rule.id, lang));
    /** @type {HTMLUListElement | null} */
    let list = null;
    for (const line of text.split("\n")) {
      if (line.startsWith("- ")) {
        if (!list) entry.append((list = doc.createElement("ul")));
        const li = doc.createElement("li");
        inline(li, line.slice(2), rule.id, lang);
        list.append(li);
      } else {
        list = null;
        const p = doc.createElement("p");
        inline(p, line, rule.id, lang);
        entry.append(p);
      }
    }
  });
  if (rule.table && (rule.tableAt ?? 0) >= paragraphs.length) entry.append(table(doc, rule.table, rule.id, lang));
  return entry;
}

/**
 * Draws the rules page into `root` in `lang`: the heading, the way back, the contents (each
 * section with its rules' ids) and every section with its rules.
 * @param {HTMLElement} root
 * @param {string} [lang]
 */
export function renderRules(root, lang = language()) {
  const doc = root.ownerDocument;
  const head = doc.createElement("div");
  head.className = "row rules-head";
  const h1 = doc.createElement("h1");
  h1.textContent = t("u.title", {}, lang);
  const back = doc.createElement("a");
  back.id = "rules-back";
  back.className = "button";
  const keep = new URLSearchParams(doc.location?.search ?? "");
  keep.delete("rules");
  back.href = `${doc.location?.pathname ?? "/"}${keep.toString() ? `?${keep}` : ""}`;
  back.textContent = t("h.back", {}, lang);
  head.append(h1, back);
  const about = doc.createElement("p");
  about.className = "hint";
  about.textContent = typeset(t("u.about", {}, lang));
  const nav = doc.createElement("nav");
  nav.className = "rules-index";
  nav.setAttribute("aria-label", t("u.contents", {}, lang));
  const body = [];
  for (const section of rulesOf(lang)) {
    const line = doc.createElement("div");
    const to = doc.createElement("a");
    to.href = `#rules-${section.id}`;
    to.textContent = section.title;
    line.append(to);
    const chips = doc.createElement("span");
    chips.className = "rule-ids";
    for (const r of section.rules.filter((r) => RULE_ID.test(r.id))) {
      const a = doc.createElement("a");
      a.href = `#${r.id}`;
      a.textContent = r.id;
      a.title = r.title;
      chips.append(a);
    }
    line.append(chips);
    nav.append(line);
    const el = doc.createElement("section");
    el.className = "rules-section";
    el.id = `rules-${section.id}`;
    const h2 = doc.createElement("h2");
    h2.textContent = section.title;
    el.append(h2);
    if (section.intro) {
      const p = doc.createElement("p");
      inline(p, section.intro, "", lang);
      el.append(p);
    }
    for (const rule of section.rules) el.append(ruleEntry(doc, rule, lang));
    body.push(el);
  }
  root.replaceChildren(head, about, nav, ...body);
}

/**
 * Marks the rule the address's fragment names (`#P3`), and only it; returns it, or null.
 * @param {HTMLElement} root
 */
export function markRule(root) {
  const doc = root.ownerDocument;
  let id = "";
  try {
    id = decodeURIComponent((doc.location?.hash ?? "").slice(1));
  } catch {
    // a fragment that is not UTF-8 names no rule
  }
  for (const el of root.querySelectorAll(".rule-entry.current")) el.classList.remove("current");
  const el = id ? doc.getElementById(id) : null;
  if (!el || !root.contains(el) || !el.classList.contains("rule-entry")) return null;
  el.classList.add("current");
  return el;
}

/**
 * Shows the rules page instead of the page's screens (app.js, for `?rules`): drawn again when
 * the language changes; the rule of the fragment marked and scrolled to, at first and whenever
 * the fragment changes (a link on the page).
 */
export function showRules() {
  const root = document.getElementById("rules-page");
  if (!root) throw new Error("no #rules-page in the page");
  document.body.classList.add("rules-mode");
  root.hidden = false;
  const draw = () => {
    renderRules(root);
    document.title = `${t("u.title")} — shvedka`;
    markRule(root)?.scrollIntoView({ block: "start" });
  };
  draw();
  onLanguage(draw);
  window.addEventListener("hashchange", () => markRule(root));
}
