/* Attention Explorer: the interpreter module PyScript imports (`interpreter` in
   pyscript.toml). It is Pyodide's own loadPyodide, started from this browser's memory
   snapshot when a valid one is kept (snapshot.mjs), else normally. <html data-start>
   says which: "snapshot" or "normal". The runtime path below is kept current by
   `make build`.

   static/boot.js calls startEarly() right after the first frame, so Python starts while
   PyScript is still loading; PyScript's own call then gets the same interpreter. Of
   PyScript's options only stdout and stderr matter here (the page loads no packages):
   they are forwarded once PyScript has given them. */
import { loadPyodide as loadNormally, version } from "../vendor/pyodide-314.0.2-655ba87d/pyodide.mjs";
import { startPlan, wasmMemoryBytes } from "./snapshot.mjs";

export { version };
const RUNTIME = new URL("../vendor/pyodide-314.0.2-655ba87d/", import.meta.url).href;
const streams = {};
const forward = (name, fallback) => (text) => (streams[name] || fallback)(text);
let starting = null;

/* `then` a little after the page is ready: the student's first clicks come first. */
function whenReady(html, then) {
  const later = () => setTimeout(then, 2000);
  if (html.dataset.state === "ready") return later();
  const watch = new MutationObserver(() => {
    if (html.dataset.state !== "ready") return;
    watch.disconnect();
    later();
  });
  watch.observe(html, { attributes: true, attributeFilter: ["data-state"] });
}

async function start() {
  const html = document.documentElement;
  await window.attentionTransfer;  /* static/transfer.js: the service worker, if any */
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
  window.attentionWasmMemory = () => wasmMemoryBytes(pyodide);  /* read by `make bench` */
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
