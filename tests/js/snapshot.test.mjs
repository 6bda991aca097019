// static/snapshot.js's storing and expanding of a memory image under `node --test` (run by
// tests/test_package_js.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { expandFrom, pack } from "../../static/snapshot.js";

const BLOCK = 65536;
const expand = (bytes, runs, length) => expandFrom(new Response(bytes).body, runs, length);

/* Made-up images: data at both ends, one byte in a block, a fill across two blocks. */
function image(length) {
  const bytes = new Uint8Array(length);
  bytes[0] = 1;
  bytes[length - 1] = 2;
  if (length > BLOCK * 3) { bytes[BLOCK * 2 + 17] = 3; bytes.fill(4, BLOCK * 4 - 5, BLOCK * 4 + 5); }
  return bytes;
}

test("an image is stored without its all-zero 64 kB blocks and expands back byte for byte", async () => {
  // 5 blocks + 3 bytes, data in blocks 0, 2, 3, 4 and the tail: block 1 is left out;
  // 3 blocks, data in blocks 0 and 2; one short block with data: kept whole.
  for (const [length, kept] of [[BLOCK * 5 + 3, BLOCK * 4 + 3], [BLOCK * 3, BLOCK * 2], [100, 100]]) {
    const original = image(length), { stored, runs } = pack(original);
    assert.equal(stored.length, kept, `stored bytes of a ${length}-byte image`);
    assert.deepEqual(await expand(stored, runs, length), original);
  }
  assert.equal(pack(image(BLOCK * 5 + 3)).runs, `0+${BLOCK} ${BLOCK * 2}+${BLOCK * 3 + 3}`);
});

test("stored bytes that do not fit their runs are refused", async () => {
  const length = BLOCK * 5 + 3, { stored, runs } = pack(image(length));
  const bad = {
    "short": [stored.subarray(1), runs],
    "a run past the image's end": [stored, `${runs} ${length}+1`],
    "no runs": [stored, ""],
    "a run without its offset": [stored, runs.replace(/^0\+/, "+")],
    "a malformed run": [stored, `${runs}+1`],
    "overlapping runs": [stored, `0+${stored.length - 1} 0+1`],
    "runs out of order": [stored, `${length - 1}+1 0+${stored.length - 1}`],
  };
  for (const [what, [bytes, header]] of Object.entries(bad))
    await assert.rejects(expand(bytes, header, length), /snapshot/, what);
});
