/* Attention Explorer: the memory snapshot of a started Python, kept in this browser.

   PRIVATE, PINNED API. `_makeSnapshot`, `_loadSnapshot` and `makeMemorySnapshot()` are
   Pyodide's undocumented memory-snapshot hooks, valid for the pinned Pyodide 314.0.2 only
   (a snapshot is the wasm memory of one exact build; Pyodide itself refuses one made by
   another build). Every use of them is in this module; on a Pyodide update, check them
   here first. Anything unexpected here means "start Python the normal way", never a broken
   or waiting page.

   How it works: the first visit starts Python normally. Once the page is ready, a
   throwaway Python in a module Web Worker (snapshot-worker.mjs; the page's own Python
   cannot make a snapshot and still run PyScript) starts with `_makeSnapshot`, imports the
   app's modules and stores its memory in the Cache API. Later visits, and the other
   widgets of the same origin, pass it to loadPyodide as `_loadSnapshot`. The key is the
   runtime folder (Pyodide build + stdlib) and a SHA-256 of pyscript.toml and of every file
   it lists, so an edited lexicon or app file in a deployed folder makes a new snapshot.
   One maker per deployment: the Web Locks API; widgets that find a snapshot being made
   wait for it (WAIT_MS at most), then restore it or start normally. */

const CACHE = "attention-explorer-snapshot";
const WAIT_MS = 45000;       // longest wait for another widget's snapshot
const MAX_BYTES = 256e6;     // a bigger "snapshot" is not ours

const CONFIG = new URL("../pyscript.toml", import.meta.url);
const BASE = new URL("./", CONFIG).href;            // this deployment (any sub-path)
const LOCK = "attention-explorer-snapshot " + BASE;

/* [files] of pyscript.toml: [[url, path in Python's file system], ...]. */
export function configFiles(toml) {
  const section = (toml.split(/^\[files\]\s*$/m)[1] || "").split(/^\[/m)[0];
  return [...section.matchAll(/^"([^"]+)"\s*=\s*"([^"]+)"/gm)]
    .map(([, src, dst]) => [new URL(src, CONFIG).href, dst]);
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/* The cache entry's URL for this runtime and these files (never fetched: a name). */
export async function snapshotKey(runtimeURL) {
  const toml = await fetchBytes(CONFIG);
  const files = configFiles(new TextDecoder().decode(toml));
  const parts = [toml, ...(await Promise.all(files.map(([src]) => fetchBytes(src))))];
  const hashes = await Promise.all(parts.map((p) => crypto.subtle.digest("SHA-256", p)));
  const all = new Uint8Array(hashes.length * 32);
  hashes.forEach((h, i) => all.set(new Uint8Array(h), i * 32));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  const runtime = runtimeURL.replace(/\/$/, "").split("/").pop();
  return { url: `${BASE}snapshot/${runtime}/${hex.slice(0, 32)}`, files };
}

function available() {
  return typeof caches !== "undefined" && typeof crypto !== "undefined" && crypto.subtle;
}

/* Delete this deployment's snapshots other than `keep` (stale runtime or files). */
async function dropStale(cache, keep) {
  for (const request of await cache.keys())
    if (request.url.startsWith(BASE + "snapshot/") && request.url !== keep) await cache.delete(request);
}

function waitForMaker(signalMaker) {
  if (!navigator.locks) return Promise.resolve();
  return navigator.locks.query().then((state) => {
    if (!(state.held || []).some((l) => l.name === LOCK)) return;
    signalMaker();
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), WAIT_MS);
    return navigator.locks.request(LOCK, { mode: "shared", signal: abort.signal }, () => {})
      .catch(() => {}).finally(() => clearTimeout(timer));
  });
}

/* Widgets of this deployment starting in the same browser tell each other so: a maker
   that knows of others makes the snapshot at once (they will restore it) instead of once
   its own page is ready. */
const channel = typeof BroadcastChannel !== "undefined" ? new BroadcastChannel(LOCK) : null;
let peers = false, onPeer = () => {};
if (channel) {
  channel.onmessage = () => { peers = true; onPeer(); };
  channel.postMessage("starting");
}

/* Whether this deployment has any snapshot kept in this browser (a current one or not). */
async function anyKept(cache) {
  return (await cache.keys()).some((request) => request.url.startsWith(BASE + "snapshot/"));
}

/* How to start: {kind: "snapshot"|"normal", options for loadPyodide, refused(): after
   Pyodide refused the snapshot, afterReady(): once the page is ready}.
   A first visit (no snapshot of this deployment kept) starts Python at once: the key, which
   reads and hashes every file of [files], is only worked out when the snapshot is made. */
export async function startPlan(runtimeURL) {
  const plan = { kind: "normal", options: {}, refused: async () => {}, afterReady: () => {} };
  let key, cache;
  const keyed = async () => key = key || await snapshotKey(runtimeURL);
  try {
    if (!available()) return plan;
    cache = await caches.open(CACHE);
    let hit = (await anyKept(cache)) ? await cache.match((await keyed()).url) : null;
    if (!hit) {
      let release;
      const mine = navigator.locks && await new Promise((got) => {
        navigator.locks.request(LOCK, { ifAvailable: true }, (lock) => {
          got(!!lock);
          return lock && new Promise((done) => { release = done; });
        }).catch(() => got(false));
      });
      if (mine || !navigator.locks) {
        /* This widget makes the snapshot. Alone, once its page is ready (it then competes
           with nothing). With other widgets starting: at once, and it restores the
           snapshot too, rather than a second interpreter start on a busy machine. A
           widget that only shows up later gets the snapshot as soon as it is made. */
        let making = null;
        const make = () => making = making || (async () => {
          const k = await keyed();
          await dropStale(cache, k.url);
          if (!(await cache.match(k.url))) await makeSnapshot(runtimeURL, k);  /* else made meanwhile */
        })().catch((e) => console.info("Python snapshot not made:", e))
          .finally(() => release && release());
        plan.afterReady = make;
        onPeer = make;
        if (!peers) return plan;
        await make();
        hit = await cache.match((await keyed()).url);
        if (!hit) return plan;
      }
      else {
        /* Also for a maker that was not listening yet when this widget said "starting". */
        await waitForMaker(() => channel && channel.postMessage("wanted"));
        hit = await cache.match((await keyed()).url);
        if (!hit) return plan;
      }
    }
    dropStale(cache, key.url).catch(() => {});
    const length = Number(hit.headers.get("X-Length"));
    if (!(length > 0 && length < MAX_BYTES)) throw new Error("snapshot of unexpected size");
    plan.kind = "snapshot";
    plan.options = { _loadSnapshot: hit.arrayBuffer().then((b) => {
      if (b.byteLength !== length) throw new Error("truncated snapshot");
      return new Uint8Array(b);
    }) };
    /* Refused by Pyodide (corrupt, other build): delete it; this page makes a new one. */
    plan.refused = async () => {
      await cache.delete(key.url).catch(() => {});
      plan.kind = "normal";
      plan.afterReady = () => navigator.locks
        ? navigator.locks.request(LOCK, { ifAvailable: true }, (lock) => lock && makeSnapshot(runtimeURL, key))
            .catch(() => {})
        : makeSnapshot(runtimeURL, key).catch(() => {});
    };
  } catch (error) {
    /* Storage blocked (third-party iframe, private mode), quota, a file missing: start
       normally. A stale entry that could not be read is deleted. */
    console.info("Python starts without a snapshot:", error && error.message);
    if (cache && key) cache.delete(key.url).catch(() => {});
    plan.kind = "normal";
    plan.options = {};
  }
  return plan;
}

/* The throwaway interpreter of snapshot-worker.mjs makes it; it stores it itself. */
function makeSnapshot(runtimeURL, key) {
  return new Promise((done, fail) => {
    const worker = new Worker(new URL("./snapshot-worker.mjs", import.meta.url), { type: "module" });
    const stop = (error) => { worker.terminate(); error ? fail(error) : done(); };
    const timer = setTimeout(() => stop(new Error("snapshot worker timed out")), 120000);
    worker.onmessage = (e) => { clearTimeout(timer); stop(e.data.error ? new Error(e.data.error) : null); };
    worker.onerror = (e) => { clearTimeout(timer); stop(new Error(e.message || "snapshot worker failed")); };
    worker.postMessage({ runtimeURL, key: key.url, files: key.files });
  });
}

/* In the worker: start Python for a snapshot, import the app, store the memory image. */
export async function makeAndStore({ runtimeURL, key, files }) {
  const { loadPyodide } = await import(runtimeURL + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: runtimeURL, _makeSnapshot: true });
  const modules = [];
  for (const [src, dst] of files) {
    const path = dst.replace(/^\.\//, "");
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    if (dir) pyodide.FS.mkdirTree(dir);
    pyodide.FS.writeFile(path, await fetchBytes(src));
    if (/^[A-Za-z_]\w*(\/[A-Za-z_]\w*)*\.py$/.test(path) && dir)
      modules.push(path.slice(0, -3).replace(/\//g, ".").replace(/\.__init__$/, ""));
  }
  /* The app's pure-Python modules (by name, from [files]): imported now, not at start.
     One that cannot be imported outside the page is simply left for the page. */
  pyodide.runPython(
    "import importlib\nfor name in " + JSON.stringify(modules) + ":\n" +
    "    try:\n        importlib.import_module(name)\n    except Exception:\n        pass\n");
  const image = pyodide.makeMemorySnapshot();
  const cache = await caches.open(CACHE);
  await cache.put(key, new Response(image, { headers: {
    "Content-Type": "application/octet-stream", "X-Length": String(image.byteLength) } }));
}

/* Bytes of Python's wasm memory (read by `make bench`). */
export function wasmMemoryBytes(pyodide) {
  return pyodide._module.HEAP8.byteLength;
}
