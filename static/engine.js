/* Attention Explorer's engine: Python (Pyodide) in a module Web Worker, so that its start and
   its work never hold up the page's own thread (docs/DESIGN.md, the data flow).

   Started by static/page.js (new Worker(…, {name: "attention-engine"})) right after the first
   frame. It starts Python from this browser's memory snapshot when a valid one is kept
   (snapshot.js), else normally; writes the app's files ([files] of pyscript.toml: the app's
   archive) and the page's language's lexicon files ([later.<lang>]) into Python's file system;
   runs app/main.py, whose Engine
   (app/engine.py) then serves every widget whose page sends a port: the page that started
   the worker and the widgets of the same deployment framed by the same lesson page
   (static/transfer.js).

   To each port it says, as JSON-able messages:
     {type: "progress", stage}        a step of the start (boot.js words it)
     {type: "engine", start}          Python is up ("snapshot" or "normal"): send "start"
     {type: "ops", ops, done, ms}     a batch of ops (app/remote.py); done: the answer to the
                                      page's last message, which may send the next (ms: the
                                      engine's time on it)
     {type: "failed", detail}         Python could not start
     {type: "trial", result}          how the trial of a snapshot just stored went
     {type: "figures", memory, transferred, compiledBy, python}  Python's wasm memory (null on a
                                      Pyodide static/runtime.js does not know), the bytes
                                      this worker fetched, who compiled Python's wasm, "page" or
                                      "engine", and Python's own figures (app/engine.py, `figures`)
                                      (asked by `make bench` and the tests)
   It first tells the page that started it {type: "listening"} (which sends nothing before),
   asks it {type: "compile", url, answer} (Python's wasm, see below),
   and takes from it {type: "wasm", module}, {type: "quiet"} (the student paused: the snapshot of later visits may be
   made now) and, from every page, {type: "port", lang} with a MessagePort whose messages are the
   page's (app/page.py, `receive`) and the language its address asks for. The runtime path below
   is kept current by `make build`. */
import * as runtime from "../vendor/pyodide-314.0.2-b6b1ca59/pyodide.js";
import { compileAnyType, loadPython, meet, memoryBytes, onWasmFailure, takePageWasm } from "./runtime.js";
import { configFiles, onStored, restored, startPlan, tryInWorker } from "./snapshot.js";

const RUNTIME = new URL("../vendor/pyodide-314.0.2-b6b1ca59/", import.meta.url).href;
const CONFIG = new URL("../pyscript.toml", import.meta.url);
const ENTRY = new URL("../app/main.py", import.meta.url);
const ports = [];  /* [port, its number in the engine] for every page, in order of arrival */
/* What the engine's Python reads of this worker: the deployment's folder, where it fetches the
   trained model's files on demand (app/model.py). A worker started from a blob (a sandboxed
   frame) has no address of its own to resolve them against. */
self.attentionExplorer = { root: new URL("../", import.meta.url).href };
let engine = null, pyodide = null, plan = null, failed = null;

const tell = (message) => ports.forEach(([port]) => port.postMessage(message));

/* A start from the snapshot takes Python's compiled wasm from the page that started this worker:
   a browser keeps the code it compiled for a page (Chromium's wasm code cache) but not for a
   worker, where each visit compiles the runtime's wasm anew. The page compiles it when asked
   ({type: "compile", url, answer: true}) and answers {type: "wasm", module}, or module null
   where it cannot (then this worker compiles it, as on a first visit). A visit whose engine
   compiled it has the page compile it once more when the student pauses ({type: "compile",
   url, answer: false}, beside the snapshot being made), so that the browser keeps it for the
   next visit. On a Pyodide other than the one static/runtime.js knows, none of this: no
   snapshot, and Python starts the documented way. */
const WASM = RUNTIME + "pyodide.asm.wasm";
meet(runtime);
compileAnyType();  /* (a wasm labelled with any type compiles, from its bytes) */
onWasmFailure(fail);
let giveWasm = null, compiledBy = "engine";
const pageWasm = new Promise((resolve) => { giveWasm = resolve; });
function askPageForWasm(url) {
  self.postMessage({ type: "compile", url, answer: true });
  takePageWasm(url, pageWasm, (by) => { compiledBy = by; });
}

function fail(detail) {
  if (failed !== null || engine) return;
  failed = String(detail && detail.message || detail);
  tell({ type: "failed", detail: failed });
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/* pyscript.toml's text, fetched once. */
const config = fetchBytes(CONFIG).then((bytes) => new TextDecoder().decode(bytes));
config.catch(() => {});  /* (reported where it is awaited) */

/* The app's files, [[path, bytes], ...]: fetched from the start, while Python starts. */
async function fetchFiles() {
  const files = configFiles(await config);
  return Promise.all(files.map(([src, dst]) => fetchBytes(src).then((bytes) => [dst, bytes])));
}

/* pyscript.toml's [later.<name>] tables, {name: [[URL, path], ...]}: files written the first
   time a page needs them (a language's lexicon files, app/lexicon.py). */
function laterFiles(toml) {
  const groups = Object.create(null);  /* (a page's name for a language is any text: no inherited keys) */
  for (const [, name, body] of toml.matchAll(/^\[later\.(\w+)\]\s*$([^[]*)/gm)) {
    groups[name] = [...body.matchAll(/^"([^"]+)"\s*=\s*"([^"]+)"/gm)].map(([, src, dst]) => [new URL(src, CONFIG).href, dst]);
  }
  return groups;
}

/* The app's files, as PyScript's [files] would lay them out: "URL" = "path", where a path
   ending in /* takes the archive's files. */
function writeFiles(python, fetched) {
  for (const [dst, bytes] of fetched) {
    const path = dst.replace(/^\.\//, "");
    if (path.endsWith("/*")) {
      python.unpackArchive(bytes, "zip", { extractDir: path.slice(0, -2) });
      continue;
    }
    if (path.includes("/")) python.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    python.FS.writeFile(path, bytes);
  }
}

let pythonUp = null;
const python = new Promise((resolve) => { pythonUp = resolve; });  /* Python, its app's files written */

async function start() {
  const files = fetchFiles();
  files.catch(() => {});  /* (reported where it is awaited) */
  tell({ type: "progress", stage: "Loading Pyodide" });
  plan = await startPlan(RUNTIME);
  if (plan.kind === "snapshot") askPageForWasm(WASM);
  tell({ type: "progress", stage: "Loading interpreter" });
  const entry = fetch(ENTRY).then((r) => { if (!r.ok) throw new Error(`${ENTRY}: ${r.status}`); return r.text(); });
  entry.catch(() => {});
  const loading = loadPython(runtime.loadPyodide, RUNTIME, plan), image = plan.image;
  plan.image = null;
  /* (Python has copied the image, or refused it: either way its memory is freed now) */
  if (image) loading.then(() => image, () => image).then(restored, () => {});
  try {
    pyodide = await loading;
  } catch (error) {
    if (plan.kind !== "snapshot") throw error;
    console.info("Python snapshot refused, starting normally:", error && error.message);
    await plan.refused();
    pyodide = await loadPython(runtime.loadPyodide, RUNTIME);
  }
  tell({ type: "progress", stage: "Loaded interpreter" });
  writeFiles(pyodide, await files);
  pythonUp(pyodide);
  pyodide.runPython("import sys\nif '' not in sys.path and '.' not in sys.path: sys.path.insert(0, '')");
  const globals = pyodide.globals.get("dict")();
  pyodide.runPython(await entry, { globals, filename: "app/main.py" });
  /* (the languages the pages asked for so far are written before their first message) */
  await Promise.all(later.values());
  engine = globals.get("ENGINE");
  ports.forEach(([port, number]) => attach(port, number));
}

/* A group of pyscript.toml's [later.<name>] files, a language's lexicon: fetched the first time a
   page asks for it, at once for the language a page's port names (while Python starts), else
   when a message needs it ({"later": [names]}: app/lexicon.py); written into Python's file
   system once Python is up, once for every page. A file that cannot be had is said in the
   console and left out: Python, asking for it again, is told it is not coming. */
const later = new Map();
function fetchLater(name) {
  if (!later.has(name)) {
    const fetched = config.then((toml) => Promise.all((laterFiles(toml)[name] || []).map(([src, dst]) =>
      fetchBytes(src).then((bytes) => [dst, bytes], (error) => {
        console.warn(`Attention Explorer: ${dst} could not be loaded:`, error && error.message);
        return null;
      }))), () => []);
    later.set(name, Promise.all([python, fetched]).then(([pyodide, got]) => writeFiles(pyodide, got.filter(Boolean)))
      .catch((error) => console.warn(`Attention Explorer: the files of ${name} could not be written:`, error)));
  }
  return later.get(name);
}

/* A lab's archive (app/labs/<id>.zip: its modules), fetched the first time a page's message
   needs the lab (app/labs/__init__.py) and unpacked into app/, once for every page; a lab whose
   archive cannot be had is said so to Python, which goes on without it. */
const labs = new Map();
function lab(id) {
  if (!labs.has(id)) {
    labs.set(id, fetchBytes(new URL(`../app/labs/${id}.zip`, import.meta.url)).then((bytes) => {
      pyodide.unpackArchive(bytes, "zip", { extractDir: "app" });
      engine.arrived(JSON.stringify([id]));
    }, (error) => {
      console.warn(`Attention Explorer: the lab ${id} could not be loaded:`, error && error.message);
      engine.unavailable(JSON.stringify([id]));
    }));
  }
  return labs.get(id);
}

/* A message's ops from its Page; when its settings need labs that are not here ({"labs": [ids]})
   or a language whose lexicon files are not ({"later": [names]}; the Page undid it), those are
   fetched and the message is sent again. */
async function answer(number, data) {
  const asked = new Set();
  for (;;) {
    const ops = engine.receive(number, data);
    if (!ops.startsWith("{")) return ops;
    const { labs: ids = [], later: names = [] } = JSON.parse(ops);
    /* (what is asked for again once it came is not coming: the page goes on without it) */
    ids.filter((id) => asked.has(`lab ${id}`)).forEach((id) => engine.unavailable(JSON.stringify([id])));
    names.filter((name) => asked.has(`later ${name}`)).forEach((name) => engine.without(JSON.stringify([name])));
    ids.forEach((id) => asked.add(`lab ${id}`));
    names.forEach((name) => asked.add(`later ${name}`));
    await Promise.all([...ids.map(lab), ...names.map(fetchLater)]);
  }
}

/* A page's port: its messages go to its Page once Python is up (they wait in the port till
   then: its onmessage is set only by attach), one at a time in their order (a message waiting
   for a lab holds the later ones back). */
function attach(port, number) {
  engine.attach(number, (ops) => port.postMessage({ type: "ops", ops }));
  let queue = Promise.resolve();
  port.onmessage = (event) => {
    queue = queue.then(async () => {
      let ops = "";
      const began = performance.now();
      try {
        ops = await answer(number, event.data);
      } catch (error) {  /* (app/page.py shows its own errors: this is the engine's) */
        console.error("Attention Explorer's engine:", error);
      }
      port.postMessage({ type: "ops", ops, done: true, ms: performance.now() - began });
    });
  };
  port.postMessage({ type: "engine", start: plan.kind });
}

onStored((runtime) => tryInWorker(runtime, (result) => ports.length && ports[0][0].postMessage({ type: "trial", result })));

self.onmessage = (event) => {
  const data = event.data || {};
  if (data.type === "port") {
    const port = event.ports[0], entry = [port, ports.length + 1];
    ports.push(entry);
    if (typeof data.lang === "string") fetchLater(data.lang);  /* (a name no table has: nothing) */
    if (failed !== null) port.postMessage({ type: "failed", detail: failed });
    else if (engine) attach(...entry);
  } else if (data.type === "wasm") {
    giveWasm(data.module);
  } else if (data.type === "quiet") {
    if (pyodide) plan.afterReady(pyodide);
    if (compiledBy === "engine") self.postMessage({ type: "compile", url: WASM, answer: false });
  } else if (data.type === "figures") {
    const transferred = performance.getEntriesByType("resource").reduce((sum, r) => sum + r.transferSize, 0);
    tell({ type: "figures", memory: pyodide ? memoryBytes(pyodide) : 0, transferred, compiledBy,
           python: engine ? JSON.parse(engine.figures()) : null });
  }
};

self.postMessage({ type: "listening" });

start().catch(fail);
