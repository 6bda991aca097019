/* Attention Explorer: the snapshot trial, a module Web Worker started inside the engine's worker
   by static/snapshot.js (tryInWorker) once it has stored a new snapshot. The runtime
   folder comes in the worker's address's fragment; it answers {restored} once. */
(globalThis.attentionExplorer = globalThis.attentionExplorer || {}).trial = true;  /* snapshot.js: no widget starting */
Promise.resolve().then(() => {
  const runtimeURL = new URL(decodeURIComponent(location.hash.slice(1)), location.href);
  if (runtimeURL.origin !== location.origin) throw new Error("runtime of another origin");
  return import("./snapshot.js").then(({ restoresFrom }) => restoresFrom(runtimeURL.href));
}).then((restored) => postMessage({ restored }), (error) => {
  console.info("Python snapshot trial:", error && error.message);
  postMessage({ restored: false });
});
