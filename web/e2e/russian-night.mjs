// End to end in Russian (issue 31): four players whose browsers speak Russian (Chromium's locale
// ru-RU; Gleb on a phone) play a match, each move typed in the move box as a player may, to mate
// on board (E1): a refused move (a drop from an empty reserve, P1) is said in Russian with a link
// to its rule on the rules page; the result is said in Russian with its rule linked. Then the
// four agree a rematch, and the players of board A agree a draw (E3): the drawn result, in
// Russian. On each screen the match page's visible text is checked for English words left
// (names, moves in SAN, squares and rule ids are identifiers, not English), and screenshots on
// desktop and phone are written for a person to look at.
//
//   node web/e2e/russian-night.mjs --url http://127.0.0.1:HTTPPORT/ --transport websocket --out DIR

import { fail, launch, report, run, until } from "./browser.mjs";
import { script } from "./script.mjs";
import { expectRussian } from "./russian.mjs";
import { openPlayers, seatAndStart } from "./table.mjs";

const { args, step, shot } = script("russian-night.mjs");

const PLAYERS = [
  { name: "anna", seat: "WhiteA", locale: "ru-RU" },
  { name: "boris", seat: "BlackA", locale: "ru-RU" },
  { name: "vera", seat: "WhiteB", locale: "ru-RU" },
  { name: "gleb", seat: "BlackB", phone: true, locale: "ru-RU" },
];

// Who types what: the match of web/e2e/match.mjs, to mate on board A by Black-A.
const PLAN = [
  ["vera", "e4"], ["gleb", "d5"], ["vera", "exd5"], ["anna", "a3"], ["boris", "P@a6"], ["gleb", "c6"],
  ["vera", "dxc6"], ["gleb", "Nf6"], ["vera", "cxb7"], ["gleb", "Nbd7"], ["vera", "bxa8=Nb1"],
  ["anna", "b3"], ["boris", "e5"], ["anna", "c3"], ["boris", "Bc5"], ["anna", "h3"], ["boris", "Qh4"],
  ["anna", "a4"], ["boris", "Qxf2#"],
];

let browser;
let players;

/** Fails if any page's match screen has English left or anything cut off. */
async function noEnglish(where) {
  for (const p of players.values()) await expectRussian(p.page, `${p.name}'s page (${where})`, "#match", ["anna", "boris", "vera", "gleb"]);
}

/** Types `text` in `who`'s move box and sends it; returns once the page has answered. */
async function type(who, text) {
  const page = players.get(who).page;
  await page.locator("#move-input").fill(text);
  await page.locator("#move-input").press("Enter");
}

/** Waits until every page has seen `n` moves. */
async function everyoneSees(n) {
  for (const p of players.values()) {
    await until(p.page, `${p.name} has seen ${n} moves`, (k) => window.shvedka.moves.length >= k, n,
      { expected: n, seen: () => window.shvedka.moves });
  }
}

async function main() {
  browser = await launch();
  players = await openPlayers(browser, args.url, args.transport, PLAYERS);
  for (const p of players.values()) {
    const lang = await p.page.evaluate(() => document.documentElement.lang);
    if (lang !== "ru") fail(`${p.name}'s page speaks the browser's language`, "ru", lang);
  }
  await shot(players.get("gleb").page, "ru-lobby-phone.png", "Gleb's phone (390×844), Russian: the lobby and the header");
  const first = await seatAndStart(players);
  step(`match ${first}: four seated in Russian, clocks running`);
  await noEnglish("at the start");

  // A refused move: White-A drops a knight she does not have (P1).
  const anna = players.get("anna").page;
  await type("anna", "N@e5");
  await until(anna, "anna's refused drop is said in Russian with its rule",
    () => !document.getElementById("notice").hidden && /^отказано \(P1\): доска A: в запасе белых A нет коня$/.test(document.getElementById("notice-text").textContent ?? ""), null,
    { expected: "отказано (P1): доска A: в запасе белых A нет коня", seen: () => document.getElementById("notice-text").textContent });
  const link = await anna.locator("#notice-rule a").first();
  const href = await link.getAttribute("href");
  const label = await link.innerText();
  if (href !== "?rules#P1" || !/^P1 — [А-Яа-яЁё]/.test(label)) fail("the refusal links its rule, titled in Russian", "?rules#P1, P1 — …", { href, label });
  await shot(anna, "ru-refused-desktop.png", "Anna's page (desktop, Russian): her drop of a knight she does not have is refused, said in Russian with a link to rule P1");
  await noEnglish("a refused move");
  step(`anna's refused drop: "${(await report(anna)).lastError}", linked to ${label}`);

  for (let i = 0; i < PLAN.length; i++) {
    const [who, san] = PLAN[i];
    await type(who, san);
    await everyoneSees(i + 1);
    if (i === 9) await shot(players.get("gleb").page, "ru-play-phone.png", "Gleb's phone (390×844), Russian, mid-match: both boards, reserves, clocks, the move box");
  }
  for (const p of players.values()) {
    await until(p.page, `${p.name} sees the result`, () => window.shvedka.phase === "Ended" && !document.getElementById("result").hidden, null,
      { seen: () => window.shvedka.phase });
    const text = await p.page.locator("#result").innerText();
    if (!/победила команда 2/i.test(text) || !/чёрные A поставили мат на доске/.test(text) || !/E1 — [А-Яа-яЁё]/.test(text)) {
      fail(`${p.name}'s result in Russian`, "Победила команда 2 … чёрные A поставили мат на доске … E1 — …", text);
    }
  }
  await shot(players.get("boris").page, "ru-mate-desktop.png", "Boris's page (desktop, Russian) at the end: the result (team 2 won, mate on board, rule E1 linked), the move list");
  await shot(players.get("gleb").page, "ru-mate-phone.png", "Gleb's phone (Russian) at the end: the result above the boards");
  await noEnglish("the result");
  step("mate on board, said in Russian on every page");

  // A rematch, drawn by agreement on board A (E3).
  for (const p of players.values()) await p.page.locator("#rematch").click();
  for (const p of players.values()) {
    await until(p.page, `${p.name} plays the rematch`, (a) => window.shvedka.matchId !== a && window.shvedka.phase === "Running", first,
      { timeout: 20000, seen: () => ({ match: window.shvedka.matchId, phase: window.shvedka.phase }) });
  }
  // The colours swapped: Boris has White on board A now, Anna Black.
  await type("boris", "e4");
  await everyoneSees(1);
  await players.get("boris").page.locator("#draw-offer").click();
  await anna.locator("#draw-bar").waitFor({ state: "visible", timeout: 10000 });
  const offer = await anna.locator("#draw-text").innerText();
  if (!/boris/.test(offer) || /[A-Za-z]{4,}/.test(offer.replace(/boris|guest/g, ""))) fail("the draw offer in Russian", "boris … предлагает ничью", offer);
  await shot(anna, "ru-draw-offer-desktop.png", "Anna's page (desktop, Russian): Boris offers a draw, with accept and decline");
  await anna.locator("#draw-accept").click();
  for (const p of players.values()) {
    await until(p.page, `${p.name} sees the draw`, () => window.shvedka.phase === "Ended" && !document.getElementById("result").hidden, null,
      { seen: () => window.shvedka.phase });
    const text = await p.page.locator("#result").innerText();
    if (!/ничья/i.test(text) || !/Ничья\s+по соглашению на доске A/.test(text) || !/E3 — [А-Яа-яЁё]/.test(text)) {
      fail(`${p.name}'s drawn result in Russian`, "Ничья по соглашению на доске A … E3 — …", text);
    }
  }
  await shot(anna, "ru-draw-desktop.png", "Anna's page (desktop, Russian): the rematch drawn by agreement on board A (E3)");
  await shot(players.get("gleb").page, "ru-draw-phone.png", "Gleb's phone (Russian): the draw");
  await noEnglish("the draw");
  step("the rematch drawn by agreement, said in Russian");

  const errors = [...players.values()].flatMap((p) => p.errors);
  if (errors.length) fail("no console errors", [], errors);
  console.log(`PASS: a match to mate and a draw in Russian over ${args.transport}; screenshots in ${args.out}`);
}

await run(main, args.out, () => ({ browser, players }));
