// The browser codec against the Rust encoder: every golden sample of proto/ as JSON.
// Run: node --test web/ (crates/server/tests/web_codec.rs runs it in the suite).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { frame, msg, decode, encode, result, act, claims } from "./codec.js";

const golden = new Map(
  readFileSync(new URL("../proto/tests/data/golden.json.txt", import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((line) => line.split("\t")),
);

// Client samples, built the way the web client builds them.
const built = {
  hello: frame(1, msg.hello("anna")),
  "hello-resume": frame(1, msg.hello("anna", msg.resume("00ff", 300))),
  list: frame(3, msg.listMatches()),
  create: frame(4, msg.createMatch("mgimo-2017", "3+2", true)),
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
};

// The one sample JavaScript cannot hold: a nonce of 2^64 - 1 (the web client counts from 1).
const beyondJs = new Set(["ping"]);

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
    err: { code: "Rejected", rule: "P3", message: "drop would give mate on board" },
  });
  const ok = decode(golden.get("reply-ok"));
  assert.deepEqual(result(ok.body), { ok: "Ok" });
  const moved = decode(golden.get("event-move"));
  assert.equal(moved.body.kind.Moved.san, "e4");
  assert.deepEqual(moved.body.clocks_ms, [179100, 180000, 175000, 180000]);
  assert.deepEqual(decode(golden.get("reply-assigned")).body.result.Ok.Assigned.game, [9, "WhiteB"]);
  assert.throws(() => decode('{"A":1,"B":2}'));
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
