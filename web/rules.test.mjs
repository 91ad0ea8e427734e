// The rules page's catalogues (rules.js, locales/rules.en.js, locales/rules.ru.js): both have the
// same sections and rule ids in the same order; every rule id of docs/RULES.md and every id the
// server can name (read from the Rust sources) is in both; the English is RULES.md's own text
// and marks; the Russian is Russian (no English sentence left, rule ids in Latin letters); every
// rule id a text names is a rule of the page; no anchor is an id index.html has; ruleHref,
// ruleTitle and ruleLabel.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { RULE_CATALOGUES, findRule, ruleHref, ruleLabel, ruleTitle } from "./rules.js";

const root = new URL("../", import.meta.url);
const read = (path) => readFileSync(new URL(path, root), "utf8");
const { en, ru } = RULE_CATALOGUES;
/** @param {import("./rules.js").RuleSection[]} c */
const entries = (c) => c.flatMap((s) => s.rules);
const ids = (c) => entries(c).map((r) => r.id);
const RULE_ID = /^(?:FIDE|[A-Z]\d{1,2}[a-z]?)$/;
const IDS_IN_TEXT = /\b(FIDE|[A-Z]\d{1,2}[a-z]?)\b/g;
/** Every text of an entry: its text and its table's cells. */
const texts = (r) => [r.text, ...(r.table ?? []).flat()];
const withoutCode = (s) => s.replace(/`[^`]*`/g, " ");

/** The rules of docs/RULES.md: `- **P3** [MGIMO] text…` up to the next rule, blank line or heading. */
function markdownRules() {
  const rules = [];
  let cur = null;
  for (const line of read("docs/RULES.md").split("\n")) {
    const m = line.match(/^\s*- \*\*([A-Z]\d+[a-z]?)\*\*(?: \[([^\]]+)\])? ?(.*)$/);
    if (m) {
      cur = { id: m[1], source: m[2] ?? "", lines: [m[3]] };
      rules.push(cur);
    } else if (!cur || line.trim() === "" || line.startsWith("#")) {
      cur = null;
    } else {
      cur.lines.push(line);
    }
  }
  return rules.map((r) => ({ id: r.id, source: r.source, text: r.lines.join("\n") }));
}
/** A text with its list marks and line breaks as plain spaces, to compare words. */
const flat = (s) => s.replace(/^\s*- /gm, " ").replace(/\s+/g, " ").trim();

/**
 * The match arms' strings of every Rust function `name` in `file` (`fn rule(&self) -> …`,
 * whatever it returns).
 * @param {string} file
 * @param {string} name
 */
function armsOf(file, name) {
  const rust = read(file);
  const arms = [];
  for (const m of rust.matchAll(new RegExp(`fn ${name}\\((?:&)?self\\)`, "g"))) {
    const body = rust.slice(m.index, rust.indexOf("\n    }\n", m.index));
    arms.push(...[...body.matchAll(/=> "([^"]+)"/g)].map((a) => a[1]));
  }
  assert.ok(arms.length > 0, `${file}: fn ${name} with its rules`);
  return arms;
}

/** Every `.rs` file under `dir` (a URL), recursively. */
function rustFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = new URL(name, dir);
    if (statSync(path).isDirectory()) return name === "tests" ? [] : rustFiles(new URL(`${name}/`, dir));
    return name.endsWith(".rs") && name !== "tests.rs" ? [path] : [];
  });
}

/**
 * The rule ids the server can name: `RuleId::as_str`, `Reason::rule`, `Rejection::rule`, and
 * every string literal shaped like a rule id in the crates' sources (`rule: Some("K5".into())`,
 * `ClaimRejected { rule: "E4", … }`, the A1 classification's "FIDE" …), their test modules left out.
 */
function serverRuleIds() {
  const named = {
    "RuleId::as_str": armsOf("crates/bughouse/src/error.rs", "as_str"),
    "Reason::rule": armsOf("crates/bughouse/src/adjudicate.rs", "rule"),
    "Rejection::rule": armsOf("crates/bughouse-match/src/reject.rs", "rule"),
  };
  const all = Object.values(named).flat();
  for (const id of ["FIDE", "P3", "R7", "E1", "E10", "M3", "S1", "K5"]) assert.ok(all.includes(id), `the Rust functions read: ${id} in ${all}`);
  /** @type {Map<string, string>} id → a file naming it */
  const literals = new Map();
  for (const crate of readdirSync(new URL("crates/", root))) {
    const src = new URL(`crates/${crate}/src/`, root);
    try {
      statSync(src);
    } catch {
      continue;
    }
    for (const file of rustFiles(src)) {
      let rust = readFileSync(file, "utf8");
      const tests = rust.search(/^\s*#\[cfg\(test\)\]\s*\n\s*mod \w+ \{/m);
      if (tests >= 0) rust = rust.slice(0, tests);
      for (const m of rust.matchAll(/"(FIDE|[A-Z]\d{1,2}[a-z]?)"/g)) literals.set(m[1], file.pathname);
    }
  }
  // The scan reads what it should: the server's K5 (a pause), S3 (a tournament's choices), the A1 check's M4.
  for (const id of ["K5", "S3", "M4", "E4"]) assert.ok(literals.has(id), `the literal "${id}" was found: ${[...literals.keys()]}`);
  return { ...named, "string literals of crates/*/src": [...literals.keys()] };
}

test("both catalogues have the same sections and the same ids in the same order, each id once", () => {
  assert.deepEqual(ru.map((s) => s.id), en.map((s) => s.id));
  for (const [i, s] of en.entries()) assert.deepEqual(ids([ru[i]]), ids([s]), `section ${s.id}`);
  assert.equal(new Set(ids(en)).size, ids(en).length, "no id twice");
  for (const c of [en, ru]) for (const s of c) assert.ok(s.title.trim() !== "" && s.rules.length > 0, `section ${s.id}`);
});

test("no rule's anchor is an id the page already has", () => {
  const page = new Set([...read("web/index.html").matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]));
  assert.ok(page.has("rules") && page.has("rules-page"), "index.html read (its rules select, the rules page)");
  for (const id of [...ids(en), ...en.map((s) => `rules-${s.id}`), "rules-back"]) assert.ok(!page.has(id), `${id} is an anchor of the rules page only`);
});

test("every rule of docs/RULES.md is in both catalogues, in its order", () => {
  const md = markdownRules().map((r) => r.id);
  assert.ok(md.length >= 40 && md.includes("P5a") && md.includes("E10"), `RULES.md read: ${md}`);
  for (const id of md) {
    assert.ok(findRule(id, "en"), `${id} in English`);
    assert.ok(findRule(id, "ru"), `${id} in Russian`);
  }
  assert.deepEqual(ids(en).filter((id) => md.includes(id)), md, "RULES.md's order");
});

test("every rule id the server can name is in both catalogues, the plain illegal move (FIDE) too", () => {
  for (const [where, named] of Object.entries(serverRuleIds())) {
    for (const id of named) {
      assert.ok(findRule(id, "en"), `${id} (${where}) in English`);
      assert.ok(findRule(id, "ru"), `${id} (${where}) in Russian`);
    }
  }
  assert.equal(ruleTitle("FIDE", "en"), "FIDE Laws of Chess");
  assert.equal(ruleTitle("FIDE", "ru"), "Правила ФИДЕ");
});

test("no entry without a title or a text; tables alike in both languages", () => {
  for (const [lang, c] of Object.entries(RULE_CATALOGUES)) {
    for (const r of entries(c)) {
      assert.ok(r.title.trim() !== "", `${lang} ${r.id}: a title`);
      assert.ok(r.text.trim() !== "", `${lang} ${r.id}: a text`);
      assert.equal(r.title, r.title.trim(), `${lang} ${r.id}: the title trimmed`);
      for (const row of r.table ?? []) assert.equal(row.length, r.table?.[0].length, `${lang} ${r.id}: a full table row`);
    }
  }
  for (const [i, r] of entries(en).entries()) {
    const other = entries(ru)[i];
    assert.equal(other.table?.length, r.table?.length, `${r.id}: the table's rows`);
    assert.equal(other.tableAt, r.tableAt, `${r.id}: where the table stands`);
    assert.equal(other.text.split("\n\n").length, r.text.split("\n\n").length, `${r.id}: the paragraphs`);
  }
});

test("the English is RULES.md's own: each rule's text and source mark, the sections' headings", () => {
  for (const md of markdownRules()) {
    const r = findRule(md.id, "en");
    assert.equal(r?.source, md.source, `${md.id}: the source mark`);
    assert.equal(flat(r?.text ?? ""), flat(md.text), `${md.id}: the text`);
  }
  const headings = [...read("docs/RULES.md").matchAll(/^## (\d+\. .+)$/gm)].map((m) => m[1]);
  assert.equal(headings.length, 10);
  assert.deepEqual(en.slice(1).map((s) => s.title), headings);
});

test("the Russian marks the same sources (МГИМО, ФИДЕ, наше решение) with the same articles", () => {
  const kinds = (s, words) => words.filter((w) => s.includes(w)).length + ":" + words.map((w) => s.includes(w)).join();
  for (const [i, r] of entries(en).entries()) {
    const other = entries(ru)[i];
    assert.equal(kinds(other.source, ["МГИМО", "ФИДЕ", "наше решение"]), kinds(r.source, ["MGIMO", "FIDE", "ours"]), `${r.id}: ${r.source} / ${other.source}`);
    assert.deepEqual(other.source.match(/\d+(\.\d+)?/g), r.source.match(/\d+(\.\d+)?/g), `${r.id}: the FIDE articles`);
    assert.doesNotMatch(other.source, /[A-Za-z]{2,}/, `${r.id}: the Russian source mark in Russian`);
  }
});

test("the Russian is Russian: Cyrillic everywhere, no English sentence, rule ids in Latin letters", () => {
  const english = /\b(the|and|of|is|are|to|with|or|may|not|be|it|its|for|by|on|in|an|at|as|if|that|this|from|when|his|who|one)\b/;
  for (const s of ru) {
    assert.match(s.title + (s.intro ?? ""), /[а-яё]/i, `section ${s.id}`);
    if (s.intro) assert.doesNotMatch(withoutCode(s.intro), english, `section ${s.id}'s intro`);
  }
  for (const r of entries(ru)) {
    assert.match(r.title, /[а-яё]/i, `${r.id}: the title in Russian`);
    assert.match(r.text, /[а-яё]{3}/i, `${r.id}: the text in Russian`);
    for (const text of [r.title, ...texts(r)]) {
      const plain = withoutCode(text);
      // Between two Russian words, at most two Latin ones (BFEN, SAN, Chess960, lichess …; rule ids not counted).
      for (const stretch of plain.split(/[А-Яа-яЁё]+/)) {
        const words = (stretch.match(/[A-Za-z][A-Za-z0-9']*/g) ?? []).filter((w) => !RULE_ID.test(w));
        assert.ok(words.length < 3, `${r.id}: English left in the Russian: "${stretch.trim()}"`);
      }
      const match = plain.match(english);
      assert.equal(match, null, `${r.id}: the English word "${match?.[0]}" in the Russian`);
      // А, В, Е, К, М, Р, С look like Latin letters: a rule id typed with one would link nowhere.
      const lookalike = plain.match(/(?<![А-Яа-яЁё])[АВЕКМРС]\d/);
      assert.equal(lookalike, null, `${r.id}: a rule id in Cyrillic letters: ${lookalike?.[0]}`);
    }
  }
});

test("every rule id a text names is a rule of the page, and both languages name the same ones", () => {
  for (const [lang, c] of Object.entries(RULE_CATALOGUES)) {
    for (const r of entries(c)) {
      for (const text of [r.title, ...texts(r)]) {
        for (const m of withoutCode(text).matchAll(IDS_IN_TEXT)) assert.ok(findRule(m[1], lang), `${lang} ${r.id} names ${m[1]}`);
      }
    }
  }
  // FIDE aside: the English names the Laws "FIDE" in its sentences, the Russian «ФИДЕ».
  const named = (r) => new Set(texts(r).flatMap((s) => [...withoutCode(s).matchAll(IDS_IN_TEXT)].map((m) => m[1])).filter((id) => id !== "FIDE"));
  for (const [i, r] of entries(en).entries()) assert.deepEqual(named(entries(ru)[i]), named(r), `${r.id}: the rules its text names`);
});

test("ruleHref, ruleTitle and ruleLabel", () => {
  assert.equal(ruleHref("P3"), "?rules#P3");
  assert.equal(ruleHref("P5a"), "?rules#P5a");
  assert.equal(ruleTitle("P3", "en"), "No drop that mates");
  assert.equal(ruleTitle("P3", "ru"), "Без выставления с матом");
  assert.equal(ruleTitle("M1", "ru"), "Мат на доске");
  assert.equal(ruleTitle("X9", "en"), null);
  assert.equal(ruleTitle("P3", "xx"), "No drop that mates", "a language without rules falls back to English");
  assert.equal(ruleLabel("E7", "en"), "E7 — Flags");
  assert.equal(ruleLabel("E7", "ru"), "E7 — Просроченное время");
  assert.equal(ruleLabel("X9", "ru"), "X9");
});
