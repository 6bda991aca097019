/* Attention Explorer: the interpreter module PyScript imports (`interpreter` in
   pyscript.toml). It is Pyodide's own loadPyodide, started from this browser's memory
   snapshot when a valid one is kept (snapshot.mjs), else normally. <html data-start>
   says which: "snapshot" or "normal" ("shared" in a widget run by another widget's Python:
   static/transfer.js). The runtime path below is kept current by
   `make build`.

   static/boot.js calls startEarly() right after the first frame, so Python starts while
   PyScript is still loading; PyScript's own call then gets the same interpreter. Of
   PyScript's options only stdout and stderr matter here (the page loads no packages):
   they are forwarded once PyScript has given them. */
import { loadPyodide as loadNormally, version } from "../vendor/pyodide-314.0.2-eb43536d/pyodide.mjs";
import { startPlan, wasmMemoryBytes } from "./snapshot.mjs";

export { version };
const RUNTIME = new URL("../vendor/pyodide-314.0.2-eb43536d/", import.meta.url).href;
const streams = {};
const forward = (name, fallback) => (text) => (streams[name] || fallback)(text);
let starting = null;

/* `then` once the page is ready and the student has paused: the snapshot's maker (a
   second Python start, seconds of CPU) would otherwise compete with their clicks on a
   machine of two cores. It waits for QUIET_MS without a click, key or input (counted
   from this module's start, so clicks before ready count too), and at most LATEST_MS
   after ready, so a student who never pauses still gets a quick second visit. */
const QUIET_MS = 2000, LATEST_MS = 30000;
/* attention:input: input in another widget this Python runs (static/transfer.js). */
const INPUTS = ["pointerdown", "click", "keydown", "input", "change", "attention:input"];
let lastInput = 0;
const noted = () => { lastInput = performance.now(); };
INPUTS.forEach((type) => addEventListener(type, noted, { capture: true, passive: true }));

function whenReady(html, then) {
  const quiet = () => {
    const readyAt = performance.now();
    const check = () => {
      const now = performance.now();
      const wait = Math.min(Math.max(lastInput, readyAt) + QUIET_MS, readyAt + LATEST_MS) - now;
      if (wait > 0) return void setTimeout(check, wait);
      INPUTS.forEach((type) => removeEventListener(type, noted, { capture: true }));
      then();
    };
    check();
  };
  if (html.dataset.state === "ready") return quiet();
  const watch = new MutationObserver(() => {
    if (html.dataset.state !== "ready") return;
    watch.disconnect();
    quiet();
  });
  watch.observe(html, { attributes: true, attributeFilter: ["data-state"] });
}

async function start() {
  const html = document.documentElement;
  const ns = window.attentionExplorer = window.attentionExplorer || {};  /* docs/DESIGN.md */
  await ns.transfer;  /* static/transfer.js: the service worker, if any */
  const plan = await startPlan(RUNTIME);
  const options = { indexURL: RUNTIME, stdout: forward("stdout", console.log),
                    stderr: forward("stderr", console.warn) };
  let pyodide;
  try {
    pyodide = await loadNormally({ ...options, ...plan.options });
  } catch (error) {
    if (plan.kind !== "snapshot") throw error;
    console.info("Python snapshot refused, starting normally:", error && error.message);
    await plan.refused();
    pyodide = await loadNormally(options);
  }
  html.dataset.start = plan.kind;
  ns.wasmMemory = () => wasmMemoryBytes(pyodide);  /* read by `make bench` */
  whenReady(html, () => plan.afterReady(pyodide));
  return pyodide;
}

export function startEarly() {
  starting = starting || start();
  starting.catch(() => {});  /* reported when PyScript asks for it */
}

export function loadPyodide(options) {
  streams.stdout = options && options.stdout;
  streams.stderr = options && options.stderr;
  starting = starting || start();
  return starting;
}
