// static/package.js's zip and CRC-32 helpers under `node --test` (run by tests/test_package_js.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

const packager = createRequire(import.meta.url)("../../static/package.js");

test("CRC-32 of the standard check string and of nothing is zip's", () => {
  assert.equal(packager.crc32(new TextEncoder().encode("123456789")), 0xCBF43926);
  assert.equal(packager.crc32(new Uint8Array(0)), 0);
  assert.equal(packager.crc32(new TextEncoder().encode("The quick brown fox jumps over the lazy dog")), 0x414FA339);
});

test("CRC-32 can be carried over pieces", () => {
  const all = new TextEncoder().encode("attention is all you need");
  assert.equal(packager.crc32(all.subarray(10), packager.crc32(all.subarray(0, 10))), packager.crc32(all));
});

test("a text file is deflated smaller, a .gz copy is stored as it is", async () => {
  const text = new TextEncoder().encode("ab".repeat(5000));
  const deflated = await packager.entry("a.txt", text);
  assert.equal(deflated.method, 8);
  assert.ok(deflated.data.length < text.length / 10);
  const gz = await packager.entry("a.txt.gz", text);
  assert.equal(gz.method, 0);
  assert.deepEqual(gz.data, text);
});

test("a zip of two entries has its signatures where the format puts them", async () => {
  const entries = [await packager.entry("x/é.txt", new TextEncoder().encode("hello")),
                   await packager.entry("y.gz", new Uint8Array([1, 2, 3]))];
  const bytes = new Uint8Array(await packager.zip(entries).arrayBuffer());
  const view = new DataView(bytes.buffer);
  assert.equal(view.getUint32(0, true), 0x04034b50);
  const end = bytes.length - 22;
  assert.equal(view.getUint32(end, true), 0x06054b50);
  assert.equal(view.getUint16(end + 10, true), 2);
  const central = view.getUint32(end + 16, true);
  assert.equal(view.getUint32(central, true), 0x02014b50);
  assert.equal(view.getUint16(central + 8, true) & 0x0800, 0x0800);  // UTF-8 names
});
