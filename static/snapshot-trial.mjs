/* Attention Explorer: the snapshot trial (snapshot-trial.html, static/snapshot.mjs). The
   runtime folder comes in the address's fragment, from the page. */
globalThis.attentionTrial = true;  /* snapshot.mjs: this frame is no widget starting */
const runtimeURL = decodeURIComponent(location.hash.slice(1));
const tell = (restored) => parent.postMessage({ type: "attention:trial", restored }, location.origin);
if (parent !== window && new URL(runtimeURL, location.href).origin === location.origin) {
  import("./snapshot.mjs")
    .then(({ restoresFrom }) => restoresFrom(new URL(runtimeURL, location.href).href))
    .then(tell, (error) => { console.info("Python snapshot trial:", error && error.message); tell(false); });
}
