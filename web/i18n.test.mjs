// The message catalogues (i18n.js, locales/): every catalogue has the same keys with the same
// parameters and every plural form its language needs; every key is used by the page; every
// tournament refusal code of the protocol (read from the Rust enum `TourRefusal`) has a text in
// each language; Russian plurals take their three forms.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { CATALOGUES, pickLanguage, t } from "./i18n.js";
import { refusalText, setTeamNames, tourRefusalText } from "./notice.js";
import { ordinal } from "./tournament.js";

const here = new URL(".", import.meta.url);
const read = (name) => readFileSync(new URL(name, here), "utf8");
const sources = readdirSync(here).filter((f) => f.endsWith(".js") && f !== "i18n.js").map(read).join("\n") + read("index.html");

/** The `{name}` parameters of an entry (all its plural forms together). */
const params = (entry) => new Set([...(typeof entry === "string" ? [entry] : Object.values(entry)).join(" ").matchAll(/\{(\w+)\}/g)].map((m) => m[1]));

/** The variants of the protocol's enum `name` in `file` (under proto/src/), from its Rust source. */
function variants(file, name) {
  const rust = readFileSync(new URL(`../proto/src/${file}`, import.meta.url), "utf8");
  const body = rust.slice(rust.indexOf(`pub enum ${name} {`));
  assert.ok(body.length > 0, `enum ${name} in ${file}`);
  const end = body.indexOf("\n}\n");
  return [...body.slice(0, end).matchAll(/^    ([A-Z]\w*)\b/gm)].map((m) => m[1]);
}

/** The codes of the protocol's `TourRefusal`. */
function refusalCodes() {
  return variants("tournaments.rs", "TourRefusal");
}

/** The error codes that carry a family of their own (said with its own keys). */
const FAMILIES = ["Limit", "Tournament", "Match", "Invalid", "Session", "Busy", "Official"];

/**
 * Every code the server can send that the page says from a key (issue 31), by key prefix: read
 * from the protocol's Rust enums, so a new code without a text in each catalogue fails here.
 */
function serverCodes() {
  const match = variants("refusals.rs", "MatchRefusal").filter((v) => !["Illegal", "Unreadable", "Claim", "TakeBack", "Position"].includes(v));
  return {
    "x.code.": variants("server.rs", "ErrorCode").filter((v) => !FAMILIES.includes(v)),
    "x.limit.": variants("server.rs", "Limit"),
    "x.match.": match,
    "x.illegal.": variants("refusals.rs", "IllegalMove"),
    "x.text.": variants("refusals.rs", "MoveText"),
    "x.claim.": variants("refusals.rs", "ClaimRefusal"),
    "x.takeback.": variants("refusals.rs", "TakeBackRefusal"),
    "x.position.": variants("refusals.rs", "PositionRefusal"),
    "x.invalid.": variants("refusals.rs", "Invalid"),
    "x.session.": variants("refusals.rs", "SessionRefusal"),
    "x.busy.": variants("refusals.rs", "Busy"),
    "x.official.": variants("refusals.rs", "OfficialRefusal"),
    "x.official.role.": variants("refusals.rs", "OfficialRole"),
    "m.cause.": variants("server.rs", "ResultCause").filter((v) => v !== "BoardDrawn"),
    "m.draw.": variants("server.rs", "DrawHow"),
    "m.pause.": variants("server.rs", "PauseReason"),
    "m.bot-missing.": variants("server.rs", "BotTrouble"),
    "m.resume.": variants("server.rs", "PauseReason"),
    "m.closed.": variants("server.rs", "ClosedReason"),
    "m.elsewhere.": variants("server.rs", "ElsewhereReason"),
    "m.piece.": variants("refusals.rs", "PieceKind"),
    "m.piece-of.": variants("refusals.rs", "PieceKind"),
    "m.colour.": variants("refusals.rs", "Colour"),
    "m.seat.": variants("types.rs", "SeatId"),
    "m.seat-of.": variants("types.rs", "SeatId"),
    "m.team.": variants("types.rs", "TeamId"),
    "m.act.": variants("client.rs", "ArbiterRequest").filter((v) => v !== "AdjustClock").concat(["AddTime", "TakeTime"]),
    "m.claim.": variants("client.rs", "ClaimKind"),
    "why.weigh.": variants("explanation.rs", "WeighingView"),
  };
}

test("every catalogue has the same keys, the same parameters, and the plural forms of its language", () => {
  const keys = Object.keys(CATALOGUES.en).sort();
  for (const [lang, catalogue] of Object.entries(CATALOGUES)) {
    assert.deepEqual(Object.keys(catalogue).sort(), keys, `${lang}: the same keys as en`);
    const forms = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const key of keys) {
      const entry = catalogue[key];
      assert.equal(typeof entry, typeof CATALOGUES.en[key], `${lang} ${key}: plural in every language or in none`);
      assert.deepEqual([...params(entry)].sort(), [...params(CATALOGUES.en[key])].sort(), `${lang} ${key}: the same parameters`);
      if (typeof entry === "object" && key !== "t.ordinal") {
        for (const form of forms) assert.ok(form in entry || "other" in entry, `${lang} ${key}: the form ${form}`);
        for (const form of forms.filter((f) => f !== "other")) assert.ok(form in entry, `${lang} ${key}: the form ${form}`);
      }
    }
  }
});

test("every key is used by the page, and every key the page names exists", () => {
  // Keys built from a code at run time: checked against the codes themselves.
  const families = {
    "t.phase.": ["Registering", "Running", "Finished", "Closed"],
    "t.choice.": ["Straight", "Crossed", "WhiteOnA", "WhiteOnB"],
    "t.seat.": ["WhiteA", "BlackA", "WhiteB", "BlackB"],
    "d.outcome.": ["FirstWins", "Draw", "SecondWins"],
    "r.choice.": ["Seating", "Colours"],
    // The rules a draw held in a flag's window rests on (`HappeningView::Draw::rule`).
    "why.draw.": ["E3", "E4", "E5", "M3"],
    "r.": refusalCodes(),
    ...serverCodes(),
  };
  const built = new Set(Object.entries(families).flatMap(([prefix, codes]) => codes.map((c) => prefix + c)));
  for (const key of Object.keys(CATALOGUES.en)) {
    const named = sources.includes(`"${key}"`);
    assert.ok(named || built.has(key), `${key} is used`);
  }
  for (const key of built) assert.ok(key in CATALOGUES.en, `${key} has a text`);
  const literals = new Set([...sources.matchAll(/"((?:h|l|t|d|e|w|r|x|m|u|v|why)\.[a-z0-9][a-zA-Z0-9.-]*)"/g)].map((m) => m[1]));
  for (const key of literals) assert.ok(key in CATALOGUES.en, `${key} is named by the page and has a text`);
});

test("every code the server sends has a text in every language (read from the protocol's enums)", () => {
  const codes = serverCodes();
  assert.ok(codes["x.illegal."].includes("DropMates") && codes["x.session."].length >= 5, "the enums were read");
  for (const lang of Object.keys(CATALOGUES)) {
    for (const [prefix, names] of Object.entries(codes)) {
      for (const name of names) assert.ok(`${prefix}${name}` in CATALOGUES[lang], `${lang}: ${prefix}${name}`);
    }
  }
});

test("every tournament refusal code is said in every language from its code, never the server's words", () => {
  const codes = refusalCodes();
  assert.ok(codes.length >= 30, `the enum was read: ${codes}`);
  for (const lang of Object.keys(CATALOGUES)) {
    for (const code of codes) {
      const text = t(`r.${code}`, {}, lang);
      assert.notEqual(text, `r.${code}`, `${lang}: ${code}`);
    }
  }
  const game = { round: 1, table: 2, game: 1 };
  assert.equal(tourRefusalText({ NotYourChoice: { game, choice: "Seating" } }), "the seating of round 1, table 2, game 1 is the other team's choice");
  assert.equal(tourRefusalText({ NotInField: { team: 4 } }), "team 4 is not in this round (withdrawn or not checked in)");
  // A team the followed tournament names is said by its name (issue 57: «команда 5 поставлена дважды»).
  setTeamNames(new Map([[5, "Pawns"]]));
  assert.equal(tourRefusalText({ PlacedTwice: { team: 5 } }), "team “Pawns” is placed twice");
  assert.equal(tourRefusalText({ PlacedTwice: { team: 6 } }), "team 6 is placed twice", "a team it does not know by number");
  setTeamNames(new Map());
  // An official's refusal is said from its code and role, never the server's words (version 16).
  const differs = { code: { Official: { SecretDiffers: { role: "Arbiter" } } }, rule: null, message: "SERVER WORDS" };
  const said = refusalText(differs);
  assert.ok(said.includes("an arbiter") && !said.includes("SERVER WORDS"), said);
  assert.ok(t("x.official.Needed", { role: t("x.official.role.Director", {}, "ru") }, "ru").includes("директор турнира"));
});

test("Russian: plurals in three forms, ordinals, and the seed rules' terms", () => {
  assert.deepEqual([1, 2, 5, 21, 22, 25].map((count) => t("t.swiss", { count }, "ru")),
    ["швейцарская, 1 тур", "швейцарская, 2 тура", "швейцарская, 5 туров", "швейцарская, 21 тур", "швейцарская, 22 тура", "швейцарская, 25 туров"]);
  assert.deepEqual([1, 2, 3, 4, 11].map((n) => ordinal(n, "en")), ["1st", "2nd", "3rd", "4th", "11th"]);
  assert.equal(ordinal(2, "ru"), "2-е");
  assert.equal(t("t.choice.Crossed", {}, "ru"), "рассадка накрест");
  assert.equal(t("t.won", { team: "Ладьи" }, "ru"), "победа: Ладьи");
});

test("the language: the reader's choice, else the browser's, else English", () => {
  assert.equal(pickLanguage(["ru-RU", "en"], null), "ru");
  assert.equal(pickLanguage(["de-DE", "en-GB"], null), "en");
  assert.equal(pickLanguage(["de-DE"], null), "en");
  assert.equal(pickLanguage(["en-US"], "ru"), "ru");
  assert.equal(pickLanguage(["ru"], "xx"), "ru");
});
