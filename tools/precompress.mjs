// Pre-compress the runtime files (CPython-free, run by `python3 -m tools.build vendor`):
// writes FILE.br (Brotli, quality 11) and FILE.gz (gzip -9) next to each file given.
// Node's zlib has Brotli built in; Python's standard library does not.
import { readFileSync, writeFileSync } from "node:fs";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";

for (const file of process.argv.slice(2)) {
  const data = readFileSync(file);
  writeFileSync(file + ".br", brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  }));
  writeFileSync(file + ".gz", gzipSync(data, { level: 9 }));
}
