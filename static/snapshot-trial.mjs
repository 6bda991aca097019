/* Attention Explorer: the snapshot trial (snapshot-trial.html, static/snapshot.mjs). The
   runtime folder comes in the address's fragment, from the page. */
(globalThis.attentionExplorer = globalThis.attentionExplorer || {}).trial = true;  /* snapshot.mjs: no widget starting */
const tell = (restored) => parent.postMessage({ type: "attention:trial", restored }, location.origin);
if (parent !== window) {
  Promise.resolve().then(() => {
    const runtimeURL = new URL(decodeURIComponent(location.hash.slice(1)), location.href);
    if (runtimeURL.origin !== location.origin) throw new Error("runtime of another origin");
    return import("./snapshot.mjs").then(({ restoresFrom }) => restoresFrom(runtimeURL.href));
  }).then(tell, (error) => { console.info("Python snapshot trial:", error && error.message); tell(false); });
}
