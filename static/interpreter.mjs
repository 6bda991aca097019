/* Attention Explorer: the interpreter module PyScript imports (`interpreter` in
   pyscript.toml). It is Pyodide's own loadPyodide, started from this browser's memory
   snapshot when a valid one is kept (snapshot.mjs), else normally. <html data-start>
   says which: "snapshot" or "normal". The runtime path below is kept current by
   `make build`. */
import { loadPyodide as loadNormally, version } from "../vendor/pyodide-314.0.2-655ba87d/pyodide.mjs";
import { startPlan, wasmMemoryBytes } from "./snapshot.mjs";

export { version };
const RUNTIME = new URL("../vendor/pyodide-314.0.2-655ba87d/", import.meta.url).href;

function whenReady(html, then) {
  if (html.dataset.state === "ready") return setTimeout(then, 0);
  const watch = new MutationObserver(() => {
    if (html.dataset.state !== "ready") return;
    watch.disconnect();
    setTimeout(then, 0);
  });
  watch.observe(html, { attributes: true, attributeFilter: ["data-state"] });
}

export async function loadPyodide(options) {
  const html = document.documentElement;
  await window.attentionTransfer;  /* static/transfer.js: the service worker, if any */
  const plan = await startPlan(RUNTIME);
  let pyodide;
  try {
    pyodide = await loadNormally({ ...options, indexURL: RUNTIME, ...plan.options });
  } catch (error) {
    if (plan.kind !== "snapshot") throw error;
    console.info("Python snapshot refused, starting normally:", error && error.message);
    await plan.refused();
    pyodide = await loadNormally({ ...options, indexURL: RUNTIME });
  }
  html.dataset.start = plan.kind;
  window.attentionWasmMemory = () => wasmMemoryBytes(pyodide);  /* read by `make bench` */
  whenReady(html, plan.afterReady);
  return pyodide;
}
