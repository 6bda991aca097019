/* Attention Explorer: the one door to Pyodide's internals. Every use of an undocumented part of
   Pyodide, and every change to a global of the browser, is in this module; static/engine.js,
   static/snapshot.js and the snapshot's workers call its functions and nothing else of the kind
   (tests/test_door.py fails on one outside it).

   WRITTEN_FOR is the Pyodide version whose internals this module knows. Each worker that
   starts a Python first shows this module the runtime it imported (`meet`). On that version the
   functions below use what they know:
     - `_loadSnapshot` and `_makeSnapshot` (loadPyodide's private options), `makeMemorySnapshot()`
       and `_module.HEAP8`: the memory snapshot (static/snapshot.js says what it is for);
     - WebAssembly.instantiateStreaming replaced in the worker: a wasm labelled with any type
       compiles (`compileAnyType`), and the page's compiled module is used (`takePageWasm`,
       with self.fetch replaced for that one request);
     - console.warn replaced to see the one warning by which Pyodide reports a wasm that cannot
       be fetched or compiled (`onWasmFailure`).
   On any other version every function takes the documented road: loadPyodide({indexURL}) with
   no snapshot, nothing replaced, nothing private called; the page gets ready, only slower.

   A Pyodide update: tests/test_door.py and `python -m tools.build check` fail while WRITTEN_FOR
   differs from the vendored version (tools/build.py, `door_mismatch`). Check each use above against the new Pyodide's
   source (its loadPyodide options, how it fetches and instantiates its wasm, the warning it
   gives when that fails), then write the new version here. */

export const WRITTEN_FOR = "314.0.2";
let known = false;

/* Whether `runtime` (the exports of the Pyodide module a worker imported) is the version this
   module was written for; what the functions below then do in this worker. */
export function meet(runtime) {
  known = !!runtime && runtime.version === WRITTEN_FOR;
  if (!known) console.info(`Pyodide ${runtime && runtime.version} is not ${WRITTEN_FOR}: plain start, no snapshot`);
  return known;
}

/* True once `meet` found the version this module knows: snapshots may be made and used. */
export function knows() {
  return known;
}

/* A Python started: restored from `image` (a memory image, or a promise of one), or started
   for a snapshot to be made of it (`forSnapshot`), or plainly. */
export function loadPython(loadPyodide, indexURL, { image = null, forSnapshot = false } = {}) {
  if (!known) {
    if (forSnapshot) return Promise.reject(new Error(`no snapshot on Pyodide other than ${WRITTEN_FOR}`));
    return loadPyodide({ indexURL });
  }
  if (forSnapshot) return loadPyodide({ indexURL, _makeSnapshot: true });
  if (!image) return loadPyodide({ indexURL });
  return loadPyodide({ indexURL, _loadSnapshot: image });
}

/* The memory image of a Python started with forSnapshot. */
export function memoryImage(pyodide) {
  return pyodide.makeMemorySnapshot();
}

/* Bytes of Python's wasm memory (read by `make bench`), or null where it is not known how. */
export function memoryBytes(pyodide) {
  return known ? pyodide._module.HEAP8.byteLength : null;
}

/* Python's wasm compiles whatever type its host labels it with. Pyodide compiles it with
   WebAssembly.instantiateStreaming, which refuses any response not labelled application/wasm:
   a learning platform's file area sends it as document/unknown (Moodle), other hosts as
   application/octet-stream. This worker's instantiateStreaming then compiles such a response
   from its bytes instead (one copy of the file in memory while it compiles; the same code).
   Called by every worker that starts a Python, before it does. */
export function compileAnyType() {
  const streaming = WebAssembly.instantiateStreaming;
  if (!known || !streaming || streaming.anyType) return;
  const anyType = async function (source, imports) {
    const response = await source;
    if (isWasm(response)) return streaming.call(WebAssembly, response, imports);
    if (!response.ok) throw new Error(`${response.url}: ${response.status}`);
    return WebAssembly.instantiate(await response.arrayBuffer(), imports);
  };
  anyType.anyType = true;
  WebAssembly.instantiateStreaming = anyType;
}

/* True when `response` may be compiled as it streams: labelled application/wasm. */
function isWasm(response) {
  return /^\s*application\/wasm\s*(;|$)/i.test(response.headers.get("Content-Type") || "");
}

/* Python's wasm (`url`) taken from `pageWasm`, a promise of the module the page compiled (or
   null: the worker reads and compiles it as usual). Pyodide asks for the wasm as it starts: that
   request waits for the page's answer and is made only if no module comes (else the runtime's
   wasm were read from the HTTP cache and decoded from Brotli twice, here and on the page).
   `compiled("page")` is called when the page's module is the one run. */
export function takePageWasm(url, pageWasm, compiled) {
  if (!known) return;
  const instantiateStreaming = WebAssembly.instantiateStreaming, fetchAny = self.fetch;
  self.fetch = function (resource, init) {
    if (String(resource) !== url) return fetchAny.apply(self, arguments);
    self.fetch = fetchAny;
    return pageWasm.then((module) => module ? new Response(null) : fetchAny.call(self, resource, init));
  };
  WebAssembly.instantiateStreaming = async (source, imports) => {  /* (Pyodide streams only that one) */
    const module = await pageWasm;
    if (!module) return instantiateStreaming(source, imports);
    /* (a request made after all, by a start again without the refused snapshot: let go unread) */
    Promise.resolve(source).then((response) => response.body && response.body.cancel()).catch(() => {});
    compiled("page");
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
}

/* `fail(message)` when Pyodide reports a wasm that cannot be fetched or compiled: it says so only
   with this warning, and then waits forever. */
export function onWasmFailure(fail) {
  if (!known) return;
  const warn = console.warn;
  console.warn = function (first) {
    if (first === "wasm instantiation failed!") fail(first);
    return warn.apply(console, arguments);
  };
}
