/* Attention Explorer: the memory snapshot of a started Python, kept in this browser.

   A snapshot rests on Pyodide's undocumented memory-snapshot hooks: every use of them goes
   through static/runtime.js, which knows one Pyodide version; on another, no snapshot is made
   or used (a snapshot is the wasm memory of one exact build; Pyodide itself refuses one made
   by another build). Anything unexpected here means "start Python the normal way", never a
   broken or waiting page.

   How it works: the first visit starts Python normally (in the engine's worker,
   engine.js, which imports this module). Once the page is ready and the student pauses, a
   throwaway Python in a module Web Worker (snapshot-worker.js; the engine's own Python
   cannot make a snapshot and still run the page) starts for a snapshot, imports the
   runtime modules the page uses and compiles the page's own sources (attention_snapshot.py
   says what it keeps: their code, each with the bytes it came from, and imported only the
   app's modules that touch no page, checked against their files before the page imports
   anything), and stores its memory in the Cache API. Later visits, and the other
   widgets of the same origin, restore it (runtime.js, `loadPython`).

   One entry per deployment (its folder), recording the runtime folder it was made by
   (Pyodide build + stdlib) and FORMAT; one made by another is stale: deleted, normal start.
   No file has to be read to find it, so a later visit starts restoring at once.
   The app's files are checked where they are used: an import uses the snapshot's code only
   for a file whose bytes are the ones it was compiled from, and a module kept imported stays
   only while every kept module's file has its bytes (app/main.py asks), so an edited file in a deployed
   folder is always what runs; the page then makes a new snapshot. A lexicon the snapshot made
   (the page's modules name what to make: `snapshot_warm`, pageRecipe) is used only while both
   its files read as they did (app/lexicon.py); an edited one is made again from the files. One maker per deployment: the Web Locks API; widgets
   that find a snapshot being made wait for it (WAIT_MS at most; ANSWER_MS when its maker
   does not answer, or stops answering: it says "making" every BEAT_MS while it makes, and a
   page put aside in the back/forward cache stops, keeping its lock), then restore it or start
   normally. */

import { compileAnyType, knows, loadPython, meet, memoryImage } from "./runtime.js";

const CACHE = "attention-explorer-snapshot";
const FORMAT = "code-3 runs-1";  // what a snapshot holds (attention_snapshot.py), how it is stored (pack)
const WAIT_MS = 45000;       // longest wait for another widget's snapshot
const ANSWER_MS = 5000;      // longest wait for the widget that holds the lock to answer (again)
const BEAT_MS = 1000;        // a maker says "making" this often while it makes, to those who wait
const MAX_BYTES = 256e6;     // a bigger "snapshot" is not ours

const CONFIG = new URL("../pyscript.toml", import.meta.url);
const HELPER = new URL("./attention_snapshot.py", import.meta.url);
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

/* The cache entry's URL (a name, never fetched). */
const KEY = `${BASE}snapshot/current`;

/* What a snapshot of this runtime and format says in its headers. */
function made(runtimeURL) {
  return { "X-Runtime": runtimeURL.replace(/\/$/, "").split("/").pop(), "X-Format": FORMAT };
}

/* The kept snapshot of this deployment, {headers, response} (its body read as it is expanded), or null. */
async function kept(cache) {
  const hit = await cache.match(KEY);
  return hit && { headers: hit.headers, response: hit };
}

function available() {
  return typeof caches !== "undefined";
}

/* Delete this deployment's snapshots other than `keep` (another runtime or format). */
async function dropStale(cache, keep) {
  for (const request of await cache.keys())
    if (request.url.startsWith(BASE + "snapshot/") && request.url !== keep) await cache.delete(request);
}

/* Wait while another engine holds the lock (it makes the snapshot, or will once its page is
   ready): WAIT_MS at most once it has answered, ANSWER_MS if it does not (a page put aside in
   the back/forward cache keeps its worker's lock but answers nothing: Safari). */
function waitForMaker(signalMaker) {
  if (!navigator.locks) return Promise.resolve();
  return navigator.locks.query().then((state) => {
    if (!(state.held || []).some((l) => l.name === LOCK)) return;
    const abort = new AbortController(), end = Date.now() + WAIT_MS;
    const until = () => setTimeout(() => abort.abort(), Math.min(ANSWER_MS, end - Date.now()));
    let timer = until();
    onMakerAnswer = () => { clearTimeout(timer); timer = until(); };
    signalMaker();
    return navigator.locks.request(LOCK, { mode: "shared", signal: abort.signal }, () => {})
      .catch(() => {}).finally(() => { clearTimeout(timer); onMakerAnswer = () => {}; });
  });
}

/* Run `make` holding this deployment's lock, unless another widget holds it (then skip). */
function withLockIfFree(make) {
  if (!navigator.locks) return make();
  return navigator.locks.request(LOCK, { ifAvailable: true }, (lock) => lock && make());
}

/* Engines of this deployment starting in the same browser tell each other so: a maker
   that knows of others makes the snapshot at once (they will restore it) instead of once
   its own page is ready. Opened by startPlan (an engine's), never by the snapshot's own
   worker or the trial. */
let channel = null, peers = false, onPeer = () => {};
/* The maker answers "making" (`maker`: this engine holds the lock); a waiting engine hears it. */
let maker = false, onMakerAnswer = () => {}, beat = null;
function listenForPeers() {
  if (typeof BroadcastChannel === "undefined") return;
  try { channel = new BroadcastChannel(LOCK); } catch (e) { return; }  /* refused: storage denied (Firefox) */
  channel.onmessage = (event) => {
    if (event.data === "making") return onMakerAnswer();
    peers = true;
    if (maker) {
      channel.postMessage("making");
      beat = beat || setInterval(() => {
        if (maker) channel.postMessage("making");
        else { clearInterval(beat); beat = null; }
      }, BEAT_MS);
    }
    onPeer();
  };
  channel.postMessage("starting");
}

/* Called with the runtime's URL once a snapshot is stored and may be tried (engine.js:
   tryInWorker). */
let stored = () => {};
export function onStored(then) { stored = then; }

/* What the page's Python has imported: [[name, file or null], ...] and, read from its file
   system, the page's own source files among them (app, PyScript's package). */
function pageRecipe(pyodide) {
  const dict = pyodide.globals.get("dict"), globals = dict();
  const { modules, files, warm } = JSON.parse(pyodide.runPython(RECIPE, { globals }));
  globals.destroy();
  dict.destroy();
  const read = (paths) => paths.flatMap((path) => {
    try { return [[path, pyodide.FS.readFile(path)]]; } catch (e) { return []; }  /* (not a file here) */
  });
  const own = modules.map(([, path]) => path)
    .filter((path) => typeof path === "string" && /\.pyc?$/.test(path) && !path.startsWith("/lib/"));
  return { modules, sources: read(own), data: read(files), warm };
}
/* (in the page's Python: its modules, and what those of its own files that define
   `snapshot_warm()` would have the snapshot make for them, with the files that reads; a lab's
   modules, app.labs.<id>.<module>, are left out: they come in the lab's own archive, fetched only
   when the lab is needed, and a snapshot holding them would find their files missing at the next
   start and forget every kept module) */
const RECIPE = `import json, sys
modules = [[n, getattr(m, "__file__", None)] for n, m in list(sys.modules.items())
           if not (n.startswith("app.labs.") and n.count(".") > 2)]
files, warm = [], []
for name, path in modules:
    if not isinstance(path, str) or path.startswith("/lib/"):
        continue
    try:
        wanted = sys.modules[name].__dict__.get("snapshot_warm")
        wanted = wanted() if callable(wanted) else None
        if wanted:
            files += [str(f) for f in wanted["files"]]
            warm += [[name, str(f), list(a)] for f, a in wanted["calls"]]
    except Exception:
        pass
json.dumps({"modules": modules, "files": files, "warm": warm})`;

/* After a start from the snapshot: did an import find a file other than the snapshot's? */
function recompiled(pyodide) {
  return pyodide.runPython(
    "import sys\n_s = sys.modules.get('attention_snapshot')\nnot _s or bool(_s.recompiled)");
}

/* How to start: {kind: "snapshot"|"normal", image: the memory image to restore (a promise;
   runtime.js, loadPython), refused(): after
   Pyodide refused the snapshot, afterReady(pyodide): once the page is ready}.
   Finding the snapshot reads no file of the app: a first visit starts Python at once, a
   later one starts restoring at once. */
export async function startPlan(runtimeURL) {
  const key = KEY, expected = made(runtimeURL);
  const plan = { kind: "normal", image: null, refused: async () => {}, afterReady: () => {} };
  /* A new snapshot, from this page's Python once it is ready (or, before, from the files):
     true once stored. */
  const store = (pyodide) => makeSnapshot(runtimeURL, key, expected, pyodide ? pageRecipe(pyodide) : null)
    .then(() => caches.open(CACHE)).then((cache) => dropStale(cache, key)).then(() => true)
    .catch((e) => { console.info("Python snapshot not made:", e && e.message); return false; });
  let cache;
  const look = async () => kept(cache = cache || await caches.open(CACHE));
  listenForPeers();
  try {
    if (!available() || !knows()) return plan;
    let hit = await look();
    if (hit && Object.entries(expected).some(([name, value]) => hit.headers.get(name) !== value)) {
      if (hit.response.body) hit.response.body.cancel().catch(() => {});
      cache = cache || await caches.open(CACHE);
      await cache.delete(key);  /* made by another runtime or format */
      hit = null;
    }
    if (!hit) {
      let release;
      const mine = navigator.locks && await new Promise((got) => {
        navigator.locks.request(LOCK, { ifAvailable: true }, (lock) => {
          got(!!lock);
          return lock && new Promise((done) => { release = done; });
        }).catch(() => got(false));
      });
      maker = !!mine;
      if (mine || !navigator.locks) {
        /* This widget makes the snapshot. Alone, once its page is ready (it then competes
           with nothing, and knows what the page uses). With other widgets starting (in other
           tabs of this browser, which said so; widgets framed by the same host page normally
           share one Python instead, static/transfer.js): at once, from the files, and it
           restores the snapshot too, rather than a second interpreter start on a busy
           machine. A widget that only shows up later gets the snapshot as soon as it is
           made. */
        let making = null, ready = null;
        const make = (pyodide) => making = making || store(pyodide).finally(() => { maker = false; if (release) release(); });
        /* (the trial, once the lock is free: only after this first, normal start) */
        plan.afterReady = (pyodide) => make(ready = pyodide).then((done) => done && stored(runtimeURL));
        onPeer = () => make(ready);
        if (!peers) return plan;
        await make(null);
        hit = await look();
        if (!hit) return plan;
      }
      else {
        /* Also for a maker that was not listening yet when this widget said "starting". */
        await waitForMaker(() => channel && channel.postMessage("wanted"));
        hit = await look();
        if (!hit) return plan;
      }
    }
    cache = cache || await caches.open(CACHE);
    const image = imageOf(hit);
    plan.kind = "snapshot";
    image.catch(() => {});  /* reported where loadPyodide awaits it (a refused snapshot) */
    plan.image = image;
    /* Once ready: a file that was not the snapshot's (edited in the deployed folder, or
       unknown to a snapshot made from the files) asks for a new one, made from this page. */
    plan.afterReady = (pyodide) => {
      if (recompiled(pyodide)) withLockIfFree(() => store(pyodide)).catch(() => {});
      else dropStale(cache, key).catch(() => {});
    };
    /* Refused by Pyodide (corrupt, other build): delete it; this page makes a new one. */
    plan.refused = async () => {
      await cache.delete(key).catch(() => {});
      plan.kind = "normal";
      plan.afterReady = (pyodide) => withLockIfFree(() => store(pyodide)).catch(() => {});
    };
  } catch (error) {
    /* Storage blocked (third-party iframe, private mode), quota: start normally. An entry
       that could not be read is deleted. */
    console.info("Python starts without a snapshot:", error && error.message);
    if (cache) cache.delete(key).catch(() => {});
    Object.assign(plan, { kind: "normal", image: null, afterReady: () => {} });
  }
  return plan;
}

/* How a snapshot is stored: its memory image without its all-zero blocks of STRETCH bytes
   (counted from the image's start; most of the free heap, about half of the image). The
   browser keeps that much less per deployment (its storage quota can be small on a phone, and
   a course may have several deployments), and a later visit reads that much less
   (docs/performance.md has the sizes). X-Runs lists where the
   stored bytes go, "offset+length" for each run; X-Length is the whole image's length. */
const STRETCH = 65536;

/* [[offset, length], ...], in order: the runs of the image outside its all-zero STRETCH blocks. */
function storedRuns(image) {
  if (image.byteOffset % 4) image = image.slice();
  const runs = [];
  for (let start = 0; start < image.byteLength; start += STRETCH) {
    const size = Math.min(STRETCH, image.byteLength - start);
    const words = new Uint32Array(image.buffer, image.byteOffset + start, size >>> 2);
    let zero = words.every((w) => w === 0);
    for (let i = size & ~3; zero && i < size; i++) zero = image[start + i] === 0;
    if (zero) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === start) last[1] += size;
    else runs.push([start, size]);
  }
  return runs;
}

/* The image as stored: {stored: the bytes of its runs one after another, runs: X-Runs}. */
export function pack(image) {
  const runs = storedRuns(image);
  const stored = new Uint8Array(runs.reduce((sum, [, size]) => sum + size, 0));
  let at = 0;
  for (const [offset, size] of runs) { stored.set(image.subarray(offset, offset + size), at); at += size; }
  return { stored, runs: runs.map(([offset, size]) => `${offset}+${size}`).join(" ") };
}

/* A snapshot just stored is tried once, by a Python restored from it in a worker of its own
   (snapshot-trial.js, ended after), while the student still pauses. The browser keeps a
   script compiled, with the functions it ran, only once it has seen it twice: without the
   trial the second visit would compile Pyodide's JavaScript again (the first visit's Python
   and the maker's do not count). A trial that fails is only reported: the
   next visit's own start decides, as it always did (a second Python can fail for want of
   memory where the engine's alone would not). `said(result)` gets "tried", "refused" or
   "unanswered" (the page writes it into <html data-snapshot>, read by `make bench` and the
   tests). */
const TRIAL_MS = 30000;
export function tryInWorker(runtimeURL, said) {
  let worker = null, timer = null;
  const finish = (result) => {
    if (timer === null) return;  /* said already */
    clearTimeout(timer);
    timer = null;
    worker.terminate();
    if (result === "refused") console.info("Python snapshot: its trial restore failed");
    said(result);
  };
  try {
    worker = new Worker(new URL("./snapshot-trial.js", import.meta.url).href + "#" + encodeURIComponent(runtimeURL),
                        { type: "module" });
  } catch (error) {
    return said("refused");
  }
  worker.onmessage = (event) => finish(event.data && event.data.restored ? "tried" : "refused");
  worker.onerror = () => finish("refused");
  timer = setTimeout(() => finish("unanswered"), TRIAL_MS);
}

/* In the trial's worker: restore a Python from this deployment's snapshot; true if it runs. */
export async function restoresFrom(runtimeURL) {
  const cache = await caches.open(CACHE);
  const hit = await kept(cache);
  if (!hit) return false;
  const runtime = await import(runtimeURL + "pyodide.js");
  if (!meet(runtime)) return false;
  const image = await imageOf(hit);
  try {
    compileAnyType();
    const pyodide = await loadPython(runtime.loadPyodide, runtimeURL, { image });
    return pyodide.runPython("6 * 7") === 42;
  } finally {
    restored(image);
  }
}

/* The memory image of a kept snapshot ({headers, body}: kept()), a promise; an error at once
   when its size is none of a snapshot's. */
function imageOf(hit) {
  const length = Number(hit.headers.get("X-Length"));
  if (!(length > 0 && length < MAX_BYTES)) throw new Error("snapshot of unexpected size");
  return expandFrom(hit.response.body, hit.headers.get("X-Runs"), length);
}

/* Python has its memory from the image, or will not: the image's memory given back. */
export function restored(image) {
  release(image.buffer);
}

/* The memory image again, from the stored runs (pack's) read from `stream`: an error if they
   do not add up (runs in order, none overlapping, inside the image, using every stored byte).
   Each piece goes straight to its place in the image and its memory is given back at once, so
   no copy of the stored bytes waits in the worker for a collection. */
export async function expandFrom(stream, runsHeader, length) {
  const image = new Uint8Array(length), runs = runsOf(runsHeader, length);
  const reader = stream.getReader();
  let run = 0, done = 0;  /* the run being filled, and how much of it is */
  for (;;) {
    const { done: ended, value } = await reader.read();
    if (ended) break;
    for (let at = 0; at < value.byteLength;) {
      if (run === runs.length) { reader.cancel().catch(() => {}); throw new Error("truncated snapshot"); }
      const [offset, size] = runs[run], n = Math.min(size - done, value.byteLength - at);
      image.set(value.subarray(at, at + n), offset + done);
      at += n;
      done += n;
      if (done === size) { run += 1; done = 0; }
    }
    release(value.buffer);
  }
  if (run !== runs.length) throw new Error("snapshot runs do not fit");
  return image;
}

/* X-Runs as [[offset, length], ...]: an error if they are not in order, apart, inside the image. */
function runsOf(runsHeader, length) {
  const runs = [];
  let end = 0;
  for (const run of (runsHeader || "").split(" ").filter(Boolean)) {
    const [, offset, size] = (/^(\d+)\+(\d+)$/.exec(run) || []).map(Number);
    if (!(size > 0 && offset >= end && offset + size <= length)) throw new Error("snapshot runs do not fit");
    end = offset + size;
    runs.push([offset, size]);
  }
  return runs;
}

/* Gives an ArrayBuffer's memory back at once (it is left empty), where a dead one waits for a
   full collection, which an idle worker may not have for minutes: the stored snapshot once
   expanded, the image once Python has copied it into its own memory. */
export function release(buffer) {
  try { if (buffer && buffer.transfer && !buffer.detached) buffer.transfer(0); } catch (e) { /* kept */ }
}

/* The throwaway interpreter of snapshot-worker.js makes it; it stores it itself. */
function makeSnapshot(runtimeURL, key, headers, recipe) {
  return new Promise((done, fail) => {
    const worker = new Worker(new URL("./snapshot-worker.js", import.meta.url), { type: "module" });
    const stop = (error) => { worker.terminate(); error ? fail(error) : done(); };
    const timer = setTimeout(() => stop(new Error("snapshot worker timed out")), 120000);
    worker.onmessage = (e) => { clearTimeout(timer); stop(e.data.error ? new Error(e.data.error) : null); };
    worker.onerror = (e) => { clearTimeout(timer); stop(new Error(e.message || "snapshot worker failed")); };
    worker.postMessage({ runtimeURL, key, headers, recipe });
  });
}

/* Without a page's recipe: the app's sources from [files] (its .py files, and those in its
   archives: pyscript.toml's "./app/app.zip" = "./app/*"), imported (their runtime modules
   come along) and then forgotten; a page restoring it later makes a complete one. */
async function filesRecipe() {
  const files = configFiles(new TextDecoder().decode(await fetchBytes(CONFIG)));
  const fetched = (wanted) => Promise.all(files.filter(([src, dst]) => wanted(src, dst))
    .map(async ([src, dst]) => [dst.replace(/^\.\//, ""), await fetchBytes(src)]));
  const [sources, archives] = await Promise.all([
    fetched((src, dst) => /^(\.\/)?[A-Za-z_]\w*(\/[A-Za-z_]\w*)*\.py$/.test(dst)),
    fetched((src, dst) => /\.zip$/.test(src) && /^(\.\/)?[A-Za-z_]\w*(\/[A-Za-z_]\w*)*\/\*$/.test(dst))]);
  return { modules: [], sources, archives: archives.map(([dst, bytes]) => [dst.slice(0, -2), bytes]) };
}

/* The modules under `dir` of Python's file system (.py, or .pyc alone as the app's archive has
   them; not __pycache__), as paths from the cwd. */
function pythonFiles(FS, dir) {
  return FS.readdir(dir).filter((name) => name !== "." && name !== ".." && name !== "__pycache__")
    .flatMap((name) => {
      const path = `${dir}/${name}`;
      if (FS.isDir(FS.stat(path).mode)) return pythonFiles(FS, path);
      return /^[A-Za-z_]\w*\.pyc?$/.test(name) ? [path] : [];
    });
}

/* In the worker: start Python for a snapshot, prepare it, store the memory image. */
export async function makeAndStore({ runtimeURL, key, headers, recipe }) {
  const runtime = await import(runtimeURL + "pyodide.js");
  meet(runtime);
  compileAnyType();
  const [pyodide, helper, made] = await Promise.all([
    loadPython(runtime.loadPyodide, runtimeURL, { forSnapshot: true }), fetchBytes(HELPER), recipe || filesRecipe()]);
  const FS = pyodide.FS;
  for (const [path, bytes] of [...made.sources, ...made.data || []]) {  /* (data: files the warm calls read) */
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    if (dir) FS.mkdirTree(dir);
    FS.writeFile(path, bytes);
  }
  const paths = made.sources.map(([path]) => path);
  for (const [dir, bytes] of made.archives || []) {
    pyodide.unpackArchive(bytes, "zip", { extractDir: dir });
    paths.push(...pythonFiles(FS, dir));
  }
  /* (a page's recipe imports nothing: it names the modules its page had imported) */
  const imports = recipe ? [] : paths.map((path) => path.replace(/\.pyc?$/, "").replace(/\//g, ".").replace(/\.__init__$/, ""));
  FS.mkdirTree("/snapshot");
  FS.writeFile("/snapshot/attention_snapshot.py", helper);
  FS.writeFile("/snapshot/recipe.json", JSON.stringify({ modules: made.modules, sources: paths, imports, warm: made.warm || [] }));
  pyodide.runPython("import sys\nsys.path.insert(0, '/snapshot')\nimport attention_snapshot\n" +
                    "sys.path.remove('/snapshot')\nattention_snapshot.prepare_from('/snapshot/recipe.json')");
  const image = memoryImage(pyodide);
  const { stored, runs } = pack(image);
  const cache = await caches.open(CACHE);
  /* X-Made and X-From (a page's recipe, or the files only) are read by tests and `make bench`. */
  await cache.put(key, new Response(stored, { headers: {
    ...headers, "Content-Type": "application/octet-stream", "X-Length": String(image.byteLength),
    "X-Runs": runs,
    "X-Made": String(Date.now()), "X-From": recipe ? "page" : "files" } }));
}
