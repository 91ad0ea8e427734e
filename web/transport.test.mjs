// The WebTransport framing of transport.js: a big-endian u32 length and that many bytes of UTF-8
// JSON, the framing of the native protocol (proto/src/codec.rs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { FrameReader, frameBytes } from "./transport.js";

const text = (bytes) => new TextDecoder().decode(bytes);

test("a frame is its big-endian length then the UTF-8 bytes", () => {
  const bytes = frameBytes('{"Chat":"né"}');
  assert.deepEqual([...bytes.slice(0, 4)], [0, 0, 0, 14]);
  assert.equal(text(bytes.slice(4)), '{"Chat":"né"}');
});

test("frames split across chunks and packed into one chunk come out whole and in order", () => {
  const a = frameBytes('"ListMatches"');
  const b = frameBytes('{"Ping":{"nonce":7}}');
  const all = new Uint8Array([...a, ...b]);
  const reader = new FrameReader();
  reader.push(all.slice(0, 1));
  assert.equal(reader.next(), null, "a length prefix cut short is not a frame yet");
  reader.push(all.slice(1));
  assert.equal(text(reader.next()), '"ListMatches"');
  assert.equal(text(reader.next()), '{"Ping":{"nonce":7}}');
  assert.equal(reader.next(), null);
  // Byte by byte.
  const slow = new FrameReader();
  const got = [];
  for (const byte of all) {
    slow.push(new Uint8Array([byte]));
    for (let p = slow.next(); p; p = slow.next()) got.push(text(p));
  }
  assert.deepEqual(got, ['"ListMatches"', '{"Ping":{"nonce":7}}']);
});

test("a length past the limit is refused before the payload arrives", () => {
  const reader = new FrameReader(16);
  reader.push(new Uint8Array([0, 0, 0, 17]));
  assert.throws(() => reader.next(), /exceeds the limit of 16/);
});
