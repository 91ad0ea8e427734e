// @ts-check
// The page's language (issue 31): every string a person reads comes from a message catalogue
// (`locales/en.js`, `locales/ru.js`), never from the server's text. The language is the one the
// reader chose on the page (remembered), else the browser's, else English. Plurals follow the
// language's own rules (`Intl.PluralRules`: Russian has one, few and many — 1 тур, 2 тура,
// 5 туров), and times are written as the language writes them (`Intl.DateTimeFormat`).
//
// A catalogue is a plain object: a key names a text, with `{name}` where a parameter goes; a
// text that depends on a number is an object of plural forms (`one`, `few`, `many`, `other`),
// chosen by the parameter `count`. Adding a language is adding one catalogue file with the same
// keys and listing it in `CATALOGUES` (web/README.md).

import en from "./locales/en.js";
import ru from "./locales/ru.js";

/** @typedef {Record<string, string | Record<string, string>>} Catalogue */

/** The catalogues, by language code. @type {Record<string, Catalogue>} */
export const CATALOGUES = { en, ru };

/** The languages offered, in their own names. */
export const LANGUAGES = /** @type {const} */ ([["en", "English"], ["ru", "Русский"]]);

const STORED = "shvedka.lang";

/**
 * The language to start in: the stored choice, else the first of the browser's languages the
 * page has, else English.
 * @param {readonly string[]} preferred  the browser's languages (`navigator.languages`)
 * @param {string | null} stored
 */
export function pickLanguage(preferred, stored) {
  if (stored && stored in CATALOGUES) return stored;
  for (const tag of preferred) {
    const base = tag.toLowerCase().split("-")[0];
    if (base in CATALOGUES) return base;
  }
  return "en";
}

/** @returns {string | null} */
function storedChoice() {
  try {
    return globalThis.localStorage?.getItem(STORED) ?? null;
  } catch {
    return null;
  }
}

let lang = pickLanguage(globalThis.navigator?.languages ?? [], storedChoice());
/** @type {(() => void)[]} */
const listeners = [];

/** The page's language now. */
export function language() {
  return lang;
}

/**
 * Changes the page's language and remembers it; everything listening draws itself again.
 * @param {string} next
 */
export function setLanguage(next) {
  if (!(next in CATALOGUES) || next === lang) return;
  lang = next;
  try {
    globalThis.localStorage?.setItem(STORED, next);
  } catch {
    // a page without storage keeps the choice until it closes
  }
  for (const f of listeners) f();
}

/**
 * Calls `f` whenever the language changes.
 * @param {() => void} f
 */
export function onLanguage(f) {
  listeners.push(f);
}

/**
 * The text of `key` in the page's language, its `{name}` parameters filled in; a plural text
 * takes the form for `params.count`. A key missing from the language falls back to English,
 * and one missing there too shows itself (a test keeps the catalogues whole).
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 * @param {string} [inLang]
 */
export function t(key, params = {}, inLang = lang) {
  const entry = CATALOGUES[inLang]?.[key] ?? CATALOGUES.en[key];
  if (entry === undefined) return key;
  let text = entry;
  if (typeof entry === "object") {
    // `ordinal`: 1st, 2nd … by the language's ordinal rules; else by `count`, cardinal.
    const ordinal = "ordinal" in params;
    const n = Number(ordinal ? params.ordinal : params.count ?? 0);
    const form = new Intl.PluralRules(inLang, ordinal ? { type: "ordinal" } : {}).select(n);
    text = entry[form] ?? entry.other ?? "";
  }
  return /** @type {string} */ (text).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/**
 * A time of day as the page's language writes it.
 * @param {number} unixMs
 */
export function timeText(unixMs) {
  return new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", second: "2-digit" }).format(unixMs);
}

/**
 * Writes the page's fixed texts: every element with `data-i18n` gets the key's text, with
 * `data-i18n-title` its title, with `data-i18n-aria` its `aria-label` (a control named only for a
 * screen reader), with `data-i18n-placeholder` its placeholder.
 * @param {ParentNode} root
 */
export function applyStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n ?? "");
  for (const el of root.querySelectorAll("[data-i18n-title]")) /** @type {HTMLElement} */ (el).title = t(/** @type {HTMLElement} */ (el).dataset.i18nTitle ?? "");
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(/** @type {HTMLElement} */ (el).dataset.i18nAria ?? ""));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    /** @type {HTMLInputElement} */ (el).placeholder = t(/** @type {HTMLElement} */ (el).dataset.i18nPlaceholder ?? "");
  }
  if (globalThis.document) document.documentElement.lang = lang;
}
