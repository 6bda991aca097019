// Pre-compress the runtime files (CPython-free, run by `python3 -m tools.build vendor`):
// writes FILE.br (Brotli, quality 11) and FILE.gz next to each file given.
// Node's zlib has Brotli built in; Python's standard library does not.
//
// The .gz copies are what a host that compresses nothing sends (sw.js decompresses them), so
// each byte there is downloaded on a first visit: files of BIG bytes or more are gzipped with
// Zopfli (@gfx/zopfli, a build-time tool only; its output is ordinary gzip), ~5% smaller than
// gzip -9 (the Python runtime: −180 kB), at ~1 MB/s; the others with zlib's gzip -9. The files
// are shared between processes, one per core.
import { spawn } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";
import { gzipAsync } from "@gfx/zopfli";

const BIG = 512 * 1024;

async function compress(file) {
  const data = readFileSync(file);
  writeFileSync(file + ".br", brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  }));
  writeFileSync(file + ".gz", data.length >= BIG
    ? await gzipAsync(data, { numiterations: 1 }) : gzipSync(data, { level: 9 }));
}

function run(files) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "--here", ...files], { stdio: "inherit" });
    child.on("exit", (code) => code === 0 ? done() : fail(new Error(`precompress: exit ${code}`)));
  });
}

const args = process.argv.slice(2);
if (args[0] === "--here") {
  for (const file of args.slice(1)) await compress(file);
} else {
  /* Biggest first, each to the process with the fewest bytes so far. */
  const shares = Array.from({ length: Math.max(1, Math.min(availableParallelism(), args.length)) }, () => ({ bytes: 0, files: [] }));
  for (const file of args.map((f) => [statSync(f).size, f]).sort((a, b) => b[0] - a[0])) {
    const least = shares.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    least.bytes += file[0];
    least.files.push(file[1]);
  }
  await Promise.all(shares.filter((s) => s.files.length).map((s) => run(s.files)));
}
