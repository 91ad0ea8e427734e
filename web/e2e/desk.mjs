// End to end (issue 30): a tournament night run from the director's desk in the browser. The
// director (an account with the director role) creates a Swiss of three rounds over the board that
// asks for check-in; a player invites his partner from the tournament's page and the partner
// accepts; the director registers three more teams, closes registration, is warned of a Swiss too
// long for four teams, starts; teams check in (a player himself, the director for two others, the
// fourth stays away); the director previews round 1, changes the computer's pairing by hand and
// publishes it (the round names him; the team that did not check in is not paired and its player
// is told so); he enters both results and corrects one, the players' pages follow; the projector
// shows the round; the pairing sheet and standings print on A4 (Chromium's PDF, made a PNG); the
// operator revokes the director role and the desk goes from the open page without a new log-in
// (the Rust test revokes it once the file `revoke-now` is in the output directory).
//
//   node web/e2e/desk.mjs --url http://127.0.0.1:HTTPPORT/ --transport websocket --out DIR \
//     --director boss --players anna,boris,vera,gleb,dina,egor,zhenya,ilya
//
// Accounts exist already (password NAME-password); `--director` holds the director role.

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { fail, launch, openPlayer, run, until } from "./browser.mjs";
import { script } from "./script.mjs";

const { args, step, shot } = script("desk.mjs", {
  director: { type: "string" },
  players: { type: "string" },
});
const names = String(args.players).split(",");
let browser;
const pages = new Map();

/**
 * Opens a page logged in to an account.
 * @param {string} name
 * @param {object} [options]
 */
async function logIn(name, options = {}) {
  const p = await openPlayer(browser, name, options);
  pages.set(name, { ...p, name });
  await p.page.goto(`${args.url}?transport=${args.transport}`, { timeout: 15000 });
  await p.page.locator("#name").fill(name);
  await p.page.locator("#password").fill(`${name}-password`);
  await p.page.locator("#enter").click();
  await until(p.page, `${name} is in the lobby`, () => !document.getElementById("lobby").hidden && window.shvedka?.connected, null);
  return p.page;
}

/** The text of an element. */
const text = async (page, sel) => ((await page.locator(sel).textContent()) ?? "").replace(/\s+/g, " ").trim();

async function main() {
  browser = await launch();
  const td = await logIn(String(args.director), { viewport: { width: 1400, height: 1000 } });
  await until(td, "the director's lobby offers a new tournament", () => !document.getElementById("tc-form").hidden, null);
  await td.locator("#tc-name").fill("Вечер шведки");
  await td.locator("#tc-format").selectOption("swiss");
  await td.locator("#tc-rounds").fill("3");
  await td.locator("#tc-clock").fill("3+2");
  await td.locator("#tc-online").uncheck();
  await td.locator("#tc-check-in").check();
  await td.locator("#tc-create").click();
  await until(td, "the new tournament opens with the desk", () => !document.getElementById("tournament").hidden
    && !document.getElementById("t-desk").hidden && window.shvedka?.tournament?.id > 0, null);
  const id = await td.evaluate(() => window.shvedka.tournament.id);
  step(`the director created tournament ${id} from the desk`);

  // A player invites his partner from the tournament's page; the partner accepts.
  const [anna, boris] = names;
  const a = await logIn(anna);
  await until(a, "the lobby lists the tournament", (id) => document.getElementById(`t-open-${id}`) !== null, id);
  await a.locator(`#t-open-${id}`).click();
  await until(a, `${anna} may invite a partner`, () => !document.getElementById("t-invite-form").hidden, null);
  await a.locator("#t-invite-team").fill("Ладьи");
  await a.locator("#t-invite-partner").fill(boris);
  await a.locator("#t-invite").click();
  await until(a, `${anna} waits for ${boris}`, () => document.getElementById("t-invite-cancel") !== null, null,
    { seen: () => document.getElementById("t-entry")?.textContent });
  const b = await logIn(boris, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await until(b, "the lobby lists the tournament", (id) => document.getElementById(`t-open-${id}`) !== null, id);
  await b.locator(`#t-open-${id}`).click();
  await until(b, `${boris} sees ${anna}'s invitation`, () => document.getElementById("t-invite-accept") !== null, null,
    { seen: () => document.getElementById("t-entry")?.textContent });
  await shot(b, "phone-invitation.png", `${boris}'s phone: ${anna} invites him to play as Ладьи`);
  await b.locator("#t-invite-accept").click();
  await until(td, "the desk lists the team formed by invitation", (p) => document.getElementById("d-teams").textContent.includes(p), anna);
  step(`${anna} invited ${boris}; the team is registered`);

  // The director registers three more teams at the desk.
  for (const [i, team] of ["Кони", "Слоны", "Ферзи"].entries()) {
    await td.locator("#d-team").fill(team);
    await td.locator("#d-p1").fill(names[2 + 2 * i]);
    await td.locator("#d-p2").fill(names[3 + 2 * i]);
    await td.locator("#d-add").click();
    await until(td, `the desk lists ${team}`, (team) => document.getElementById("d-teams").textContent.includes(team), team);
  }
  await td.locator("#d-registration").click();
  await until(td, "registration is closed, the status says so, and the director gets no player's box about it",
    () => document.getElementById("d-registration").textContent === "Open registration"
      && /registration closed/.test(document.getElementById("t-status").textContent) && document.getElementById("t-entry").hidden, null,
    { seen: () => [document.getElementById("t-status")?.textContent, document.getElementById("t-entry")?.textContent] });
  // Five rounds for four teams: warned before the start; back to three.
  await td.locator("#d-rounds").fill("5");
  await td.locator("#d-save").click();
  await until(td, "the desk warns of a Swiss too long for four teams", () => !document.getElementById("d-warning").hidden
    && /at most 3 rounds/.test(document.getElementById("d-warning").textContent), null);
  await shot(td, "desk-registration.png", "the director's desk before the start: four teams, registration closed, the warning of five rounds for four teams");
  await td.locator("#d-rounds").fill("3");
  await td.locator("#d-save").click();
  await until(td, "the warning goes with three rounds", () => document.getElementById("d-warning").hidden, null);
  await td.locator("#d-start").click();
  await until(td, "the tournament runs", () => /in play/.test(document.getElementById("t-status").textContent), null);
  step("registration closed, warned, started");

  // Check-in: anna's team by herself, teams 2 and 3 by the director; team 4 stays away.
  await until(a, `${anna} is asked to check in`, () => document.getElementById("t-check-in") !== null, null,
    { seen: () => document.getElementById("t-entry")?.textContent });
  await a.locator("#t-check-in").click();
  await until(td, "the desk shows team 1 checked in", () => document.getElementById("d-checkin-1") === null
    && document.querySelector("#d-teams .d-in") !== null, null);
  for (const team of [2, 3]) {
    await td.locator(`#d-checkin-${team}`).click();
    await until(td, `team ${team} is checked in`, (team) => document.getElementById(`d-checkin-${team}`) === null, team);
  }
  step("three teams checked in, one away");

  // The computer's pairing, changed by hand: the bye goes to another team.
  await td.locator("#d-preview").click();
  await until(td, "the proposal shows one table and one bye, team 4 not paired", () => !document.getElementById("d-proposal").hidden
    && document.getElementById("d-bye-1") !== null && /Not checked in, not paired: Ферзи/.test(document.getElementById("d-changed").textContent), null,
    { seen: () => document.getElementById("d-proposal")?.textContent });
  const [first, bye] = await td.evaluate(() => [document.getElementById("d-t1-a").value, document.getElementById("d-bye-1").value]);
  await td.locator("#d-t1-a").selectOption(bye);
  // Halfway through, the team with the bye is at table 1 too: said at once, by its name.
  await until(td, "a team placed twice is said by name before publishing", () => /^\S.* is placed twice: take it off one place/.test(document.getElementById("d-changed").textContent)
    && document.getElementById("d-changed").classList.contains("d-warning"), null, { seen: () => document.getElementById("d-changed")?.textContent });
  await td.locator("#d-bye-1").selectOption(first);
  await until(td, "and no longer once it is placed once", () => !/placed twice/.test(document.getElementById("d-changed").textContent), null);
  await until(td, "the desk says the pairing is changed by hand", () => /Changed by hand/.test(document.getElementById("d-changed").textContent), null);
  await shot(td, "desk-preview.png", "the director's desk: round 1 as the computer proposed it, changed by hand (the bye moved), team 4 not paired");
  await td.locator("#d-pair").click();
  await until(td, "round 1 is paired by hand by the director", (who) => new RegExp(`Round 1 \\(paired by hand by ${who}; not paired: Ферзи`).test(document.getElementById("t-round-title").textContent),
    String(args.director), { seen: () => document.getElementById("t-round-title")?.textContent });
  const zhenya = await logIn(names[6]);
  await zhenya.locator(`#t-open-${id}`).click();
  await until(zhenya, "a player of the team that stayed away is told it was not paired", () => /not paired in round 1/.test(document.getElementById("t-entry").textContent), null,
    { seen: () => document.getElementById("t-entry")?.textContent });
  step(`round 1 paired by hand (bye to team ${first}); team 4 told it was not paired`);

  // Results at the desk: both games, then a correction; the players' pages follow.
  await until(td, "the desk offers round 1's results", () => document.getElementById("d-r1-2-enter") !== null, null);
  await td.locator("#d-r1-1-outcome").selectOption("FirstWins");
  await td.locator("#d-r1-1-reason").fill("мат на доске A");
  await td.locator("#d-r1-1-enter").click();
  await until(td, "game 1's result is in", () => document.getElementById("d-r1-1-enter")?.textContent === "Correct", null);
  await td.locator("#d-r1-2-outcome").selectOption("Draw");
  await td.locator("#d-r1-2-enter").click();
  await until(td, "game 2's result is in", () => document.getElementById("d-r1-2-enter")?.textContent === "Correct", null);
  await until(b, `${boris}'s phone follows: 16 quarter points given (a pairing and a bye)`,
    () => (window.shvedka?.tournament?.standings ?? []).reduce((s, l) => s + l.points, 0) === 16, null,
    { seen: () => window.shvedka?.tournament?.standings });
  const before = await b.evaluate(() => JSON.stringify(window.shvedka.tournament.standings));
  await td.locator("#d-r1-2-outcome").selectOption("SecondWins");
  await td.locator("#d-r1-2-reason").fill("флаг: исправлено судьёй");
  await td.locator("#d-r1-2-enter").click();
  await until(b, `${boris}'s phone shows the corrected standings`, (before) => window.shvedka.tournament.change === "Corrected"
    && JSON.stringify(window.shvedka.tournament.standings) !== before, before);
  await shot(b, "phone-standings.png", `${boris}'s phone after the correction: standings and round 1`);
  step("results entered and one corrected at the desk; the pages follow");

  // The projector.
  const wall = await openPlayer(browser, "projector", { viewport: { width: 1920, height: 1080 } });
  pages.set("projector", { ...wall, name: "projector" });
  await wall.page.goto(`${args.url}?transport=${args.transport}&projector=${id}`, { timeout: 15000 });
  await until(wall.page, "the projector shows round 1 with its note", () => /paired by hand/.test(document.getElementById("t-round-title")?.textContent ?? "")
    && document.querySelectorAll("#t-standings tbody tr").length === 4, null);
  if (await wall.page.locator("#t-desk").isVisible()) fail("the projector shows no desk", "hidden", "visible");
  await shot(wall.page, "projector.png", "the projector (1920×1080) after round 1 at the desk");

  // Print: the pairing sheet and the standings on A4, as Chromium prints them.
  await td.locator("#d-print").isVisible() || fail("the desk offers printing", "a button", "none");
  const pdf = join(String(args.out), "print.pdf");
  await td.pdf({ path: pdf, format: "A4", printBackground: true });
  const pageCount = (readFileSync(pdf, "latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  if (pageCount < 2) fail("the print is the round's sheet, then the standings", ">= 2 pages", pageCount);
  execFileSync("pdftoppm", ["-png", "-r", "60", pdf, join(String(args.out), "print")]);
  writeFileSync(join(String(args.out), "print.txt"), `${pageCount} A4 pages\n`);
  step(`printed: ${pageCount} A4 pages (print-1.png, print-2.png)`);
  // In Russian (issue 31): a phone whose browser speaks Russian sees the tournament in Russian,
  // no English word left; the director switches his page to Russian and back.
  const ru = await openPlayer(browser, "ru", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: "ru-RU" });
  pages.set("ru", { ...ru, name: "ru" });
  await ru.page.goto(`${args.url}?transport=${args.transport}`, { timeout: 15000 });
  await ru.page.locator("#name").fill(names[2]);
  await ru.page.locator("#password").fill(`${names[2]}-password`);
  await ru.page.locator("#enter").click();
  await until(ru.page, "the Russian lobby lists the tournament", (id) => document.getElementById(`t-open-${id}`)?.textContent === "Открыть", id);
  // The phone's card of the tournament says what its numbers are («контроль: 3+2», «команды: 4»).
  const card = await ru.page.evaluate((id) => [...document.getElementById(`t-open-${id}`).closest("tr").querySelectorAll("td")]
    .filter((td) => getComputedStyle(td).display !== "none")
    .map((td) => `${getComputedStyle(td, "::before").content.replace(/^"|"$/g, "").replace(/^none$/, "")}${td.textContent}`), id);
  if (!card.includes("контроль: 3+2") || !card.includes("команды: 4")) fail("the phone's tournament card labels its clock and teams", ["контроль: 3+2", "команды: 4"], card);
  const wide = await ru.page.evaluate(() => document.documentElement.scrollWidth);
  if (wide > 390) fail("the Russian lobby fits the phone's width", 390, wide);
  await ru.page.locator(`#t-open-${id}`).click();
  await until(ru.page, "the tournament's page is in Russian", () => /швейцарская, 3 тура/.test(document.getElementById("t-status").textContent)
    && /Тур 1/.test(document.getElementById("t-round-title").textContent), null,
    { seen: () => [document.getElementById("t-status")?.textContent, document.getElementById("t-round-title")?.textContent] });
  const english = await ru.page.evaluate(() => {
    const text = document.getElementById("tournament").innerText;
    return [...text.matchAll(/\b(round|table|game|points|standings|crosstable|team|won|draw|bye|seating|colours|players|wins)\b/gi)].map((m) => m[0]);
  });
  if (english.length) fail("no English word left on the Russian page", [], english);
  await shot(ru.page, "phone-ru.png", "a phone in Russian: the tournament after round 1 (standings, crosstable, the round paired by hand)");
  await td.locator("#lang").selectOption("ru");
  await until(td, "the desk speaks Russian", () => document.getElementById("d-print").textContent === "Печать жеребьёвки и таблицы (A4)"
    && /Результаты тура 1/.test(document.getElementById("d-results-title").textContent), null);
  // The notice shown before the switch is said again in Russian, not left in English.
  const notice = await td.evaluate(() => document.getElementById("notice").hidden ? null : document.getElementById("notice-text").textContent);
  if (notice !== null && /[a-z]{3}/i.test(notice)) fail("the notice bar in Russian after the switch", "результат исправлен", notice);
  await shot(td, "desk-ru.png", "the director's desk switched to Russian");
  // Exports from the desk (issue 57), in the director's language: each a file the browser saves.
  const saved = async (/** @type {string} */ button) => {
    const [file] = await Promise.all([td.waitForEvent("download", { timeout: 15000 }), td.locator(button).click()]);
    const path = join(String(args.out), `export-${file.suggestedFilename()}`);
    await file.saveAs(path);
    return { name: file.suggestedFilename(), text: readFileSync(path, "utf8") };
  };
  const roundNamed = await td.locator("#d-x-round option").first().textContent();
  if (roundNamed !== "тур 1") fail("the export's round is named in the page's language once it is switched", "тур 1", roundNamed);
  const standingsCsv = await saved("#d-x-standings");
  if (standingsCsv.name !== "Вечер шведки — положение команд.csv") fail("the standings' file is named in Russian", "Вечер шведки — положение команд.csv", standingsCsv.name);
  if (!standingsCsv.text.startsWith("\uFEFFRank,Team,Points") || !standingsCsv.text.includes("Ладьи")) fail("the standings CSV, marked UTF-8 for a spreadsheet", "BOM, header, Ладьи", standingsCsv.text);
  const crossCsv = await saved("#d-x-crosstable");
  if (!/^\uFEFFNo,Team,1,2,3,4,Byes,Points/.test(crossCsv.text) || !/\n1,Ладьи,,,,,2,2/.test(crossCsv.text)) fail("the crosstable CSV, Ладьи's bye shown", "No,Team,1..4,Byes,Points; 1,Ладьи,,,,,2,2", crossCsv.text);
  const pageHtml = await saved("#d-x-html");
  if (!/<html/.test(pageHtml.text) || !pageHtml.text.includes("Турнирная таблица") || !pageHtml.text.includes("Ладьи")) fail("the printable page in Russian", "Турнирная таблица, Ладьи", pageHtml.text.slice(0, 400));
  const sheetTxt = await saved("#d-x-sheet");
  if (sheetTxt.name !== "Вечер шведки — тур 1, лист пар.txt" || !/тур 1.*жеребьёвка/.test(sheetTxt.text) || !/Стол 1:/.test(sheetTxt.text)) fail("round 1's pairing sheet in Russian", "тур 1 … жеребьёвка, Стол 1:", [sheetTxt.name, sheetTxt.text.slice(0, 300)]);
  await td.locator("#d-x-round-games").click();
  await until(td, "a night over the board has no records to save, and says so", () => /ни у одной партии ещё нет записи/.test(document.body.innerText), null);
  writeFileSync(join(String(args.out), "exports.txt"), [standingsCsv, crossCsv, sheetTxt].map((f) => `== ${f.name}\n${f.text}`).join("\n"));
  step(`exported in Russian: ${[standingsCsv, crossCsv, pageHtml, sheetTxt].map((f) => f.name).join("; ")}`);
  await td.locator("#lang").selectOption("en");
  await until(td, "and back to English", () => document.getElementById("d-print").textContent === "Print pairings and standings (A4)", null);
  const pageEn = await saved("#d-x-html");
  if (pageEn.name !== "Вечер шведки — standings and crosstable.html" || !pageEn.text.includes("Crosstable")) fail("the printable page in English once the desk is", "Crosstable", pageEn.name);
  step("the tournament in Russian on a phone; the desk switched to Russian and back; its page exported in English too");

  // Round 2's preview follows check-ins (issue 57): with Кони and Слоны checked in, the computer
  // pairs them; Ладьи check in while the preview is open, and the open preview pairs them too and
  // no longer lists them as away.
  for (const team of [2, 3]) {
    await td.locator(`#d-checkin-${team}`).click();
    await until(td, `team ${team} is checked in for round 2`, (team) => document.getElementById(`d-checkin-${team}`) === null, team);
  }
  await td.locator("#d-preview").click();
  await until(td, "round 2's proposal lists Ладьи as away", () => !document.getElementById("d-proposal").hidden
    && /Not checked in, not paired: Ладьи/.test(document.getElementById("d-changed").textContent), null,
    { seen: () => document.getElementById("d-changed")?.textContent });
  await until(a, `${anna} is asked to check in for round 2`, () => document.getElementById("t-check-in") !== null, null,
    { seen: () => document.getElementById("t-entry")?.textContent });
  await a.locator("#t-check-in").click();
  await until(td, "the open preview follows the check-in: Ладьи are paired, not away", () => !/Ладьи/.test(document.getElementById("d-changed").textContent)
    && [...document.querySelectorAll("#d-pairing select")].some((s) => s.selectedOptions[0]?.textContent?.includes("Ладьи")), null,
    { seen: () => [document.getElementById("d-changed")?.textContent, [...document.querySelectorAll("#d-pairing select")].map((s) => s.selectedOptions[0]?.textContent)] });
  await shot(td, "desk-preview-follows.png", "round 2's open preview after Ладьи checked in from their page: they are paired, not listed as away");
  await td.locator("#d-cancel").click();
  step("round 2's open preview followed a late check-in");

  // The operator revokes the role while the desk is open: it goes without a new log-in.
  writeFileSync(join(String(args.out), "revoke-now"), "");
  await until(td, "the desk goes once the director role is revoked", () => document.getElementById("t-desk").hidden
    && document.getElementById("tc-form").hidden, null, { timeout: 30000 });
  step("the role revoked: the desk went without a new log-in");
  for (const p of pages.values()) if (p.errors.length) fail("no console errors", [], p.errors);
}

await run(main, args.out, () => ({ browser, players: pages }));
