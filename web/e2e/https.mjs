// End to end (issue 58): a public server's web client in a browser that trusts its ACME CA, as
// everyone's trusts Let's Encrypt. The page is opened over HTTPS by the server's public name
// (`--url https://chess.test:PORT/`; the name is mapped to 127.0.0.1 in Chromium's resolver, no
// other name resolves), is a secure context, and opens WebTransport to that name with no
// certificate hashes (/connect.json lists none): Chromium verifies the CA's certificate itself,
// against the root the Rust runner put in the NSS database of the HOME it gave this script. Anna
// then plays a match against three of the server's bots over that link and resigns.
//
// One switch stands in for the CA being public: Chromium takes a root added to NSS for HTTPS, but
// for WebTransport it also wants the root to be one of its built-in public ones ("issued by a
// known root"), which pebble's, or any test CA's, never is. `--webtransport-developer-mode` lifts
// only that: the certificate must still chain to a trusted root and name the host (without the
// NSS root the session is refused, CERTIFICATE_VERIFY_FAILED). `--ignore-certificate-errors-
// spki-list` with the leaf's key, the other way, would skip the verification instead, and does
// not open WebTransport in Chromium 156 anyway. The script checks that the browser still refuses
// a certificate the root did not issue for the name: the same endpoint dialled by its address.
//
//   HOME=DIR-WITH-.pki/nssdb node web/e2e/https.mjs --url https://chess.test:HTTPSPORT/ \
//        --transport webtransport --out DIR
//
// Exit 0 only if everything held; prints one line per screenshot.

import { fail, launch, openPlayer, report, run, until } from "./browser.mjs";
import { script } from "./script.mjs";
import { clickMove, sq } from "./ui.mjs";

const { args, step, shot } = script("https.mjs");
const url = new URL(String(args.url));
let browser;
const players = new Map();

/** Board A's part of the page's position. */
const boardA = (page) => page.evaluate(() => window.shvedka.bfen?.split(" | ")[0] ?? null);

async function main() {
  if (url.protocol !== "https:") fail("the page's address", "https://NAME:PORT/", args.url);
  if (args.transport !== "webtransport") fail("the transport this script shows", "webtransport", args.transport);
  browser = await launch({ hosts: { [url.hostname]: "127.0.0.1" }, args: ["--webtransport-developer-mode"] });
  step(`chromium ${browser.version()}, ${url.hostname} mapped to 127.0.0.1`);
  const anna = { name: "anna", seat: "WhiteA", ...(await openPlayer(browser, "anna")) };
  players.set("anna", anna);
  const page = anna.page;
  // Every WebTransport the page opens, with the certificate hashes it passes (none, here).
  await anna.context.addInitScript(() => {
    const Native = /** @type {any} */ (window).WebTransport;
    const opened = [];
    Object.defineProperty(window, "__webtransports", { value: opened });
    /** @type {any} */ (window).WebTransport = class extends Native {
      constructor(address, options) {
        opened.push({ url: String(address), hashes: options?.serverCertificateHashes?.length ?? 0 });
        super(address, options);
      }
    };
  });

  // The page itself over HTTPS: the CA's certificate for the public name, verified.
  const response = await page.goto(`${url.href}?name=anna&transport=${args.transport}`, { timeout: 15000 });
  if (!response?.ok()) fail("the page over HTTPS", 200, response?.status());
  const tls = await response.securityDetails();
  if (!tls || !/^TLS/.test(tls.protocol ?? "")) fail("the page came over TLS", "TLS 1.x", tls);
  if (tls.subjectName !== url.hostname) fail("the certificate is for the public name", url.hostname, tls.subjectName);
  if (!/pebble/i.test(tls.issuer ?? "")) fail("the certificate is the CA's (pebble's)", "Pebble Intermediate CA …", tls.issuer);
  step(`page served over ${tls.protocol}: certificate for ${tls.subjectName}, issued by ${tls.issuer}`);
  const where = await page.evaluate(() => ({ secure: window.isSecureContext, origin: location.origin }));
  if (!where.secure || where.origin !== url.origin) fail("a secure context at the public name", { secure: true, origin: url.origin }, where);
  const hsts = (await response.allHeaders())["strict-transport-security"];
  if (!hsts) fail("the page's HSTS", "strict-transport-security: max-age=…", await response.allHeaders());

  // The link: WebTransport to the public name, no hashes given.
  await until(page, "anna connected over webtransport", (t) => window.shvedka?.connected && window.shvedka.link === t, args.transport,
    { timeout: 20000, expected: { connected: true, link: args.transport },
      seen: () => ({ connected: window.shvedka?.connected, link: window.shvedka?.link, status: document.getElementById("link")?.title, opened: /** @type {any} */ (window).__webtransports }) });
  const info = await page.evaluate(async () => (await fetch("/connect.json", { cache: "no-store" })).json());
  if (info.quic_host !== url.hostname || info.cert_hashes.length !== 0) {
    fail("/connect.json names the public name and no hashes", { quic_host: url.hostname, cert_hashes: [] }, info);
  }
  const opened = await page.evaluate(() => /** @type {any} */ (window).__webtransports);
  const dialled = `https://${url.hostname}:${info.quic_port}${info.path}`;
  if (opened.length === 0 || opened.some((/** @type {any} */ o) => o.url !== dialled || o.hashes !== 0)) {
    fail("WebTransport to the public name, with no certificate hashes", [{ url: dialled, hashes: 0 }], opened);
  }
  step(`WebTransport session to ${dialled}, no certificate hashes`);
  // The same endpoint by its address, from a document of the same origin (/connect.json: no
  // session of the web client's): the certificate is not for 127.0.0.1, and is refused.
  const other = await browser.newContext();
  const probe = await other.newPage();
  await probe.goto(`${url.origin}/connect.json`, { timeout: 15000 });
  const byAddress = `https://127.0.0.1:${info.quic_port}${info.path}`;
  const refused = await probe.evaluate(async (address) => {
    const wt = new WebTransport(address);
    try {
      await wt.ready;
      wt.close();
      return "opened";
    } catch (e) {
      return `refused: ${/** @type {any} */ (e)?.message ?? e}`;
    }
  }, byAddress);
  await other.close();
  if (!refused.startsWith("refused")) fail("a WebTransport certificate not for the name dialled is refused", "refused", refused);
  step(`WebTransport to ${byAddress} (no hashes) ${refused}: the browser verifies`);

  // A match against three of the server's bots, over that link.
  await page.locator("#tc").fill("3+0");
  await page.locator("#create").click();
  await until(page, "creating seats anna at White-A", () => window.shvedka.seat === "WhiteA", null,
    { expected: "WhiteA", seen: () => window.shvedka.seat });
  await page.locator("#bots-bar").waitFor({ state: "visible", timeout: 10000 });
  await page.locator("#bot-level").selectOption("1");
  await page.locator("#fill-bots").click();
  await until(page, "three bots sit beside anna", () => (document.getElementById("boards")?.textContent?.match(/bot-\d+ ★/g) ?? []).length >= 3, null,
    { expected: "three 'bot-N ★' names", seen: () => document.getElementById("boards")?.textContent });
  await page.locator("#ready").click();
  await until(page, "the match starts", () => window.shvedka.phase === "Running", null,
    { timeout: 20000, expected: "Running", seen: () => window.shvedka.phase });
  step("three bots seated, the clocks running");
  for (const [from, to, n] of [["e2", "e4", 1], ["g1", "f3", 2], ["f1", "c4", 3]]) {
    await clickMove(page, sq("A", from), "A", to);
    await until(page, `black-A answers anna's move ${n}`, (k) => {
      const a = window.shvedka.bfen?.split(" | ")[0] ?? "";
      return a.split(" ")[1] === "w" && Number(a.match(/ (\d+)$/)?.[1] ?? 0) > k;
    }, n, { timeout: 20000, seen: () => window.shvedka.bfen });
    step(`anna's move ${n} (${from}–${to}) answered: board A ${await boardA(page)}`);
  }
  const played = await report(page);
  if (played.link !== "webtransport" || !played.connected) fail("the match played over webtransport", "webtransport", played.link);
  if (played.moves.length < 6) fail("moves played on the boards", "at least 6", played.moves);
  // The screenshot's own caption (the test's, over the page: headless Chromium has no address
  // bar): where the page is from and what it is connected by.
  await page.evaluate((text) => {
    const caption = document.createElement("div");
    caption.id = "e2e-caption";
    caption.textContent = text;
    caption.style.cssText = "position:fixed;left:0;right:0;bottom:0;padding:4px 8px;font:13px monospace;background:#ffd;color:#000;border-top:1px solid #aa8;z-index:99999";
    document.body.append(caption);
  }, `${page.url()} · secure context · ${tls.protocol}, certificate for ${tls.subjectName} by ${tls.issuer} · link ${played.link} to ${dialled}, no hashes`);
  await shot(page, "https-playing.png", `anna at White-A over HTTPS from ${url.host}, three bots, ${played.moves.length} moves played over WebTransport (the test's caption at the bottom)`);
  await page.evaluate(() => document.getElementById("e2e-caption")?.remove());
  step(`${played.moves.length} moves: ${played.moves.join(" ")}`);

  await page.locator("#resign").click();
  await page.locator("#resign").click();
  await until(page, "anna sees the result", () => window.shvedka.phase === "Ended" && window.shvedka.result !== null, null,
    { timeout: 15000, seen: () => window.shvedka.result });
  const r = await report(page);
  if (r.result.winner !== "Two") fail("anna's team loses by her resignation", "Two", r.result);
  await shot(page, "https-resigned.png", `anna resigned over the same link: ${r.result.reason}; the result banner, the moves, the log`);
  if (anna.errors.length) fail("no console errors", [], anna.errors);
  console.log(`PASS: over HTTPS from ${url.host}, WebTransport to ${dialled} with no certificate hashes, ${r.moves.length} moves`);
}

await run(main, String(args.out), () => ({ browser, players }));
