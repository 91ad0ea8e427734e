// The browser codec against the Rust encoder: every golden sample of proto/ as JSON.
// Run: node --test web/ (crates/server/tests/web_codec.rs runs it in the suite).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { frame, msg, td, entry, decode, encode, result, act, claims, fetchRecord, listAll, MAX_PAGES, PAGE_LIMIT } from "./codec.js";
import { refusalText } from "./notice.js";
import { describe } from "./say.js";
import * as i18n from "./i18n.js";

const golden = new Map(
  readFileSync(new URL("../proto/tests/data/golden.json.txt", import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((line) => line.split("\t")),
);

// Client samples, built the way the web client builds them.
const built = {
  hello: frame(1, msg.hello("anna")),
  "hello-resume": frame(1, msg.hello("anna", msg.resume("00ff", 300, 7))),
  list: frame(3, msg.listMatches()),
  create: frame(4, msg.createMatch("mgimo-2017", "3+2", true, true, true)),
  "take-seat": frame(5, msg.takeSeat(7, "BlackB")),
  ready: frame(6, msg.ready(true)),
  move: frame(70000, msg.move("B", "e7e8qd1", 1234)),
  "claim-flag": frame(8, msg.claim(msg.flag("WhiteA"))),
  chat: frame(9, msg.chat("Team", "need a knight")),
  arbiter: frame(10, msg.arbiter("s3cret")),
  "arbiter-adjust": frame(11, msg.arbiterAct(3, msg.adjustClock("BlackA", -60000))),
  "arbiter-declare": frame(12, msg.arbiterAct(3, msg.declareResult("Two", "A1"))),
  "list-live": frame(13, msg.listLive()),
  record: frame(14, msg.record(3)),
  "td-register": frame(15, msg.register(1, "Rooks", ["anna", "boris"])),
  choose: frame(16, msg.choose(1, 2, 1, "Crossed")),
  assignment: frame(17, msg.assignment(1)),
  legal: frame(18, msg.legal(3, "B")),
  "list-page": frame(19, msg.listPage(40, 20, false)),
  "record-part": frame(20, msg.recordPart(3, 24576)),
  "fill-with-bots": frame(23, msg.fillWithBots(7, 2)),
  register: frame(30, msg.registerAccount("Alice", "correct horse", false)),
  login: frame(31, msg.login("alice", "correct horse")),
  logout: frame(32, msg.logout()),
  "change-password": frame(33, msg.changePassword("old pass", "new pass")),
  invitation: frame(34, msg.invitation("12.00ff")),
  rematch: frame(35, msg.rematch(12, true)),
  review: frame(36, msg.review(12, 99)),
  "recent-matches": frame(37, msg.recentMatches("anna")),
  leaderboard: frame(39, msg.leaderboard("blitz")),
  profile: frame(40, msg.profile("Anna")),
  seek: frame(42, msg.seek({ time_control: "blitz", rules: "mgimo-2017", rated: true, range: null, partner: "gleb" })),
  "answer-seek": frame(43, msg.answerSeek(3, true)),
  "cancel-seek": frame(44, msg.cancelSeek(3)),
  "seek-pools": frame(45, msg.seekPools()),
  tournaments: frame(48, msg.tournaments(9, 20)),
  "follow-tournament": frame(49, msg.followTournament(2)),
  "unfollow-tournament": frame(50, msg.followTournament(null)),
  "tournament-round": frame(51, msg.tournamentRound(2, 1)),
  "td-create": frame(55, msg.td(td.create("Осенний турнир", "mgimo-2017", "3+2", 3, true, true, true))),
  "td-registration": frame(56, msg.td(td.registration(2, false))),
  "td-settings": frame(57, msg.td(td.settings(2, 4, true))),
  "td-check-in": frame(58, msg.td(td.checkIn(2, 3))),
  "td-preview": frame(59, msg.td(td.preview(2))),
  "td-pair-by-hand": frame(60, msg.td(td.pairByHand(2, 120000, [[1, 4], [2, 3]], [5]))),
  "entry-invite": frame(61, msg.entry(entry.invite(2, "Ферзи", "ilya"))),
  "entry-accept": frame(62, msg.entry(entry.accept(2, "zhenya"))),
  "entry-decline": frame(63, msg.entry(entry.decline(2, "zhenya"))),
  "entry-check-in": frame(64, msg.entry(entry.checkIn(2))),
  roles: frame(65, msg.roles()),
  analyse: frame(66, msg.analyse({
    bfen: "6rk/6pp/8/8/8/8/5PPP/6K1[N] w - - 0 1 | 1k6/1Q6/1K6/8/8/8/8/8[] b - - 0 1",
    rules: "classic",
    clocks_ms: [61000, 9500, 180000, 2000],
  })),
  "review-record": frame(71, msg.reviewRecord({ bpgn: "[Rules \"classic\"]\n\n1A. e4 {179.000} 1a. P@e5 *\n", game: 1, rules: null, from: 0 })),
  "call-arbiter-replay": frame(70, msg.callArbiter("WrongSetup")),
  "call-arbiter": frame(71, msg.callArbiter()),
  "arbiter-replay": frame(72, msg.arbiterAct(3, act.replay("OutsideHint", "a spectator"))),
  "td-publish-games-page": frame(73, msg.td(td.publish(2, { GamesPage: { round: 2, from: 4 } }, "ru"))),
  "td-publish-sheet": frame(74, msg.td(td.publish(2, { Sheet: { round: 1 } }, "en"))),
};

// The samples the page never builds: a nonce of 2^64 - 1, which JavaScript cannot hold (the web
// client counts from 1), and `Bot` (a page is a person: it never says it is a program).
const beyondJs = new Set(["ping", "bot"]);

test("client messages are encoded exactly as the Rust encoder does", () => {
  for (const [name, text] of Object.entries(built)) {
    assert.equal(text, golden.get(name), name);
  }
});

test("every client sample is covered", () => {
  const clientSamples = [...golden].filter(([, json]) => json.startsWith('{"req":')).map(([n]) => n);
  for (const name of clientSamples) {
    assert.ok(name in built || beyondJs.has(name), `no browser encoding for ${name}`);
  }
});

test("server messages decode and re-encode to the same text", () => {
  for (const [name, text] of golden) {
    if (text.startsWith('{"req":')) continue;
    assert.equal(encode(decode(text)), text, name);
  }
});

test("decoded server messages carry what the client reads", () => {
  const err = decode(golden.get("reply-err"));
  assert.equal(err.kind, "Reply");
  assert.deepEqual(result(err.body), {
    err: { code: { Match: { Illegal: { board: "A", why: "DropMates" } } }, rule: "P3", message: "drop would give mate on board" },
  });
  const ok = decode(golden.get("reply-ok"));
  assert.deepEqual(result(ok.body), { ok: "Ok" });
  const moved = decode(golden.get("event-move"));
  assert.equal(moved.body.kind.Moved.san, "e4");
  assert.deepEqual(moved.body.clocks_ms, [179100, 180000, 175000, 180000]);
  assert.deepEqual(decode(golden.get("reply-assigned")).body.result.Ok.Assigned.game, [9, "WhiteB"]);
  assert.throws(() => decode('{"A":1,"B":2}'));
  // Issue 15: pages, record parts, limits, the server's own pauses, a closed match.
  assert.deepEqual(result(decode(golden.get("reply-page")).body).ok.MatchPage.next, 41);
  assert.deepEqual(result(decode(golden.get("reply-record-part")).body).ok.RecordPart, { text: "1A. e4", offset: 24576, total: 30000 });
  const limit = result(decode(golden.get("reply-limit")).body).err;
  assert.deepEqual(limit.code, { Limit: "OpenMatches" });
  assert.equal(refusalText(limit), "refused: you have as many forming matches as you may");
  const unavailable = result(decode(golden.get("reply-unavailable")).body).err;
  assert.equal(refusalText(unavailable), "refused: the server cannot do it now; try again");
  assert.deepEqual(decode(golden.get("event-paused")).body.kind, { Paused: { reason: "Storage" } });
  assert.deepEqual(decode(golden.get("event-resumed")).body.kind, { Resumed: { reason: "Restart" } });
  assert.deepEqual(decode(golden.get("match-closed")), { kind: "MatchClosed", body: { match_id: 7, reason: "Expired" } });
});

test("refusals_of_every_code_shape_read_as_text", () => {
  assert.equal(refusalText({ code: { Match: { Illegal: { board: "A", why: "DropMates" } } }, rule: "P3", message: "x" }), "refused (P3): board A: a drop may not give mate on board");
  assert.equal(refusalText({ code: { Limit: "ChatLength" }, rule: null, message: "a chat message has at most 500 characters" }), "refused: the message is too long");
  assert.equal(refusalText({ code: "TooLarge", rule: null, message: "too large" }), "refused: the answer is too large");
  assert.equal(refusalText({ code: "Timeout", rule: null, message: "the server did not answer in time" }), "the server did not answer in time");
  assert.equal(refusalText({ code: "BadReply", rule: null, message: "odd" }), "odd");
  // A code this page does not know (a newer server): the server's words, rather than nothing.
  assert.equal(refusalText({ code: "SomethingNew", rule: null, message: "news" }), "refused: news");
});

// Issue 31: the page says every refusal, result, pause and arbiter's act from its code in each
// language; the server's English words (`message`, `reason`, `text`) never reach the reader.
test("every golden server message is said from its codes, never from the server's words", () => {
  const { CATALOGUES, setLanguage } = i18n;
  let said = 0;
  for (const lang of Object.keys(CATALOGUES)) {
    setLanguage(lang);
    for (const [name, text] of golden) {
      if (!text.startsWith("{") || name.startsWith("hello") || !/^\{"(Reply|SessionRefused|Event|Refused)"/.test(text)) continue;
      // The server's words replaced by a mark: a line that shows the mark fell back on them.
      const m = decode(text);
      const lines = [];
      const err = m.kind === "Reply" ? result(m.body).err : m.kind === "SessionRefused" ? m.body : null;
      if (err) lines.push(refusalText({ ...err, message: "§SERVER§" }));
      const k = m.kind === "Event" ? m.body.kind : {};
      if (k.Ended) k.Ended.reason = "§SERVER§";
      if (k.ArbiterActed) k.ArbiterActed.text = "§SERVER§";
      if (m.kind === "Refused") lines.push(i18n.t("x.version"));
      if (m.kind === "Event") {
        lines.push(describe({ names: ["anna", "boris", "vera", "gleb"], kinds: ["Guest", "Guest", "Guest", "Guest"] }, m.body.kind));
      }
      for (const line of lines) {
        said++;
        assert.ok(!/\b[xm]\.[a-z]/.test(line), `${lang} ${name}: a key left unsaid in "${line}"`);
        assert.ok(!line.includes("§SERVER§"), `${lang} ${name}: "${line}" shows the server's words`);
      }
    }
  }
  setLanguage("ru");
  const acted = decode(golden.get("event-arbiter-acted")).body.kind;
  assert.equal(describe({ names: [], kinds: [] }, acted), "судья olga: снял 60 с с часов чёрных B", "who acted, live (issue 33, item 8)");
  setLanguage("en");
  assert.equal(describe({ names: [], kinds: [] }, acted), "arbiter olga: took 60 s off the clock of black-B");
  assert.ok(said > 40, `the samples were said (${said})`);
});

/** A fake server's record of `text`, served in parts of at most `size` bytes (whole characters). */
function recordServer(text, size) {
  const bytes = new TextEncoder().encode(text);
  const asked = [];
  const ask = async (message) => {
    asked.push(message);
    const { match_id, offset } = message.RecordPart;
    if (match_id !== 3) return { err: { code: "NoSuchMatch", rule: null, message: "no match 3" } };
    let end = Math.min(offset + size, bytes.length);
    while (end < bytes.length && (bytes[end] & 0xc0) === 0x80) end--; // not inside a character
    return { ok: { RecordPart: { text: new TextDecoder().decode(bytes.slice(offset, end)), offset, total: bytes.length } } };
  };
  return { ask, asked };
}

test("a_long_record_comes_in_parts_by_byte_offsets", async () => {
  // Multi-byte characters (a comment with Cyrillic and an em dash) make bytes differ from chars.
  const text = `[Event "Шведка — финал"]\n\n${Array.from({ length: 4000 }, (_, i) => `${i + 1}A. e4 {тест}`).join(" ")}\n`;
  const { ask, asked } = recordServer(text, 24576);
  const r = await fetchRecord(ask, 3);
  assert.equal(r.ok, text);
  const total = new TextEncoder().encode(text).length;
  assert.ok(total > 24576 * 2, "three parts at least");
  assert.ok(asked.length >= 3);
  // Each part is asked where the previous one ended, in bytes (not characters).
  const utf8 = new TextEncoder();
  let offset = 0;
  for (const m of [...asked]) {
    assert.equal(m.RecordPart.offset, offset);
    const part = (await ask(m)).ok.RecordPart.text;
    offset += utf8.encode(part).length;
  }
  assert.equal(offset, total);
  assert.notEqual(offset, text.length, "bytes differ from characters here");
  assert.equal(frame(20, asked[1]), JSON.stringify({ req: 20, msg: { RecordPart: { match_id: 3, offset: asked[1].RecordPart.offset } } }));
  // A short record is one part; an empty one too.
  assert.deepEqual(await fetchRecord(recordServer("1A. e4", 24576).ask, 3), { ok: "1A. e4" });
  const empty = recordServer("", 24576);
  assert.deepEqual(await fetchRecord(empty.ask, 3), { ok: "" });
  assert.equal(empty.asked.length, 1);
  // A refusal comes back as it is; parts that do not fit together are a local failure.
  assert.equal((await fetchRecord(recordServer("x", 10).ask, 4)).err?.code, "NoSuchMatch");
  const wrong = async () => ({ ok: { RecordPart: { text: "x", offset: 5, total: 10 } } });
  assert.equal((await fetchRecord(wrong, 3)).err?.code, "BadReply");
  const stuck = async (m) => ({ ok: { RecordPart: { text: "", offset: m.RecordPart.offset, total: 10 } } });
  assert.equal((await fetchRecord(stuck, 3)).err?.code, "BadReply");
  assert.equal((await fetchRecord(async () => ({ ok: "Ok" }), 3)).err?.code, "BadReply");
});

test("the_lobby_list_follows_next_page_by_page", async () => {
  const summary = (id) => ({ match_id: id, rules: "classic", time_control: "1+0", seats: [null, null, null, null], phase: "Forming" });
  const all = Array.from({ length: 120 }, (_, i) => summary(i + 1));
  const asked = [];
  const ask = async (message) => {
    asked.push(message);
    const { after, limit, live } = message.ListPage;
    assert.equal(live, true);
    const from = after === null ? 0 : all.findIndex((m) => m.match_id === after) + 1;
    const matches = all.slice(from, from + Math.min(limit, 50));
    const last = from + matches.length >= all.length;
    return { ok: { MatchPage: { matches, next: last ? null : matches.at(-1).match_id } } };
  };
  const r = await listAll(ask, true);
  assert.deepEqual(r.ok?.matches.map((m) => m.match_id), all.map((m) => m.match_id));
  assert.equal(r.ok?.more, false);
  assert.deepEqual(asked.map((m) => m.ListPage.after), [null, 50, 100]);
  assert.equal(asked[0].ListPage.limit, PAGE_LIMIT);
  // A server with endless pages: at most MAX_PAGES are asked.
  let n = 0;
  const endless = async (m) => ({ ok: { MatchPage: { matches: [summary(++n)], next: (m.ListPage.after ?? 0) + 1 } } });
  const capped = await listAll(endless, false);
  assert.equal(capped.ok?.matches.length, MAX_PAGES);
  assert.equal(capped.ok?.more, true);
  // A refusal, an answer that is not a page, and pages that do not advance.
  assert.equal((await listAll(async () => ({ err: { code: "Forbidden", rule: null, message: "arbiters only" } }), true)).err?.code, "Forbidden");
  assert.equal((await listAll(async () => ({ ok: { Matches: [] } }), false)).err?.code, "BadReply");
  const looping = async () => ({ ok: { MatchPage: { matches: [], next: 7 } } });
  assert.equal((await listAll(looping, false)).err?.code, "BadReply");
});

// The arbiter's acts and the claims have no golden sample each; their JSON is serde's external
// tagging of proto's ArbiterRequest and ClaimKind.
test("arbiter acts and claims are tagged as serde tags them", () => {
  const j = (v) => JSON.stringify(v);
  assert.equal(j(msg.arbiterAct(3, act.pause())), '{"ArbiterAct":{"match_id":3,"act":"Pause"}}');
  assert.equal(j(act.resume()), '"Resume"');
  assert.equal(j(act.adjustClock("BlackA", -60000)), j(msg.adjustClock("BlackA", -60000)));
  assert.equal(j(act.takeBack("B")), '{"TakeBack":{"board":"B"}}');
  assert.equal(j(act.setPosition("x | y")), '{"SetPosition":{"bfen":"x | y"}}');
  assert.equal(j(act.declareResult(null, "both flags")), '{"DeclareResult":{"winner":null,"reason":"both flags"}}');
  assert.equal(j(act.annul("wrong seats")), '{"Annul":{"reason":"wrong seats"}}');
  assert.equal(frame(8, msg.claim(claims.flag("WhiteA"))), golden.get("claim-flag"));
  assert.equal(j(msg.claim(claims.repetition())), '{"Claim":"Repetition"}');
  assert.equal(j(msg.claim(claims.fiftyMoves())), '{"Claim":"FiftyMoves"}');
});

test("whole_numbers_the_server_can_read", async () => {
  const { wholeNumberIn } = await import("./codec.js");
  assert.equal(wholeNumberIn("42", 1, 100), 42);
  assert.equal(wholeNumberIn("1e30", 1, Number.MAX_SAFE_INTEGER), null);
  assert.equal(wholeNumberIn("1000000000000000000000000000000", 1, Number.MAX_SAFE_INTEGER), null);
  assert.equal(wholeNumberIn("0", 1, 100), null);
  assert.equal(wholeNumberIn("2.5", 1, 100), null);
  assert.equal(wholeNumberIn("", 1, 100), null);
});
