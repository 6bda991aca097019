/* Attention Explorer: the snapshot trial, a module Web Worker started by the page's thread
   (static/page.js) once the engine has stored a new snapshot (static/snapshot.mjs). The runtime
   folder comes in the worker's address's fragment; it answers {restored} once. */
(globalThis.attentionExplorer = globalThis.attentionExplorer || {}).trial = true;  /* snapshot.mjs: no widget starting */
Promise.resolve().then(() => {
  const runtimeURL = new URL(decodeURIComponent(location.hash.slice(1)), location.href);
  if (runtimeURL.origin !== location.origin) throw new Error("runtime of another origin");
  return import("./snapshot.mjs").then(({ restoresFrom }) => restoresFrom(runtimeURL.href));
}).then((restored) => postMessage({ restored }), (error) => {
  console.info("Python snapshot trial:", error && error.message);
  postMessage({ restored: false });
});
