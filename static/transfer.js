/* Attention Explorer: fewer bytes on hosts that compress nothing (an LMS file area, a
   plain web space). When this page itself arrived uncompressed, a service worker (sw.js)
   serves Python's runtime from its pre-compressed .gz files, decompressed by the browser:
   about 5 MB instead of 15 MB. Where a service worker is not allowed (some iframes,
   private modes, plain http), the plain files load as before: more bytes, same page.
   window.attentionTransfer resolves when the runtime may be requested.
   On a later visit it also starts reading Python's memory snapshot (static/snapshot.mjs,
   which decides whether to use it), so the read overlaps the drawing of the page:
   window.attentionSnapshot resolves to {headers, body: promise of its bytes} or null. */
(function () {
  "use strict";
  var workers = navigator.serviceWorker;
  var nav = window.performance && performance.getEntriesByType &&
            performance.getEntriesByType("navigation")[0];
  var uncompressed = nav && nav.decodedBodySize > 0 && nav.encodedBodySize >= nav.decodedBodySize;
  window.attentionTransfer = new Promise(function (done) {
    try {
      if (!workers || !window.DecompressionStream) return done("plain");
      if (workers.controller) return done("service worker");
      if (!uncompressed) return done("plain");  /* the host compresses: nothing to gain */
      var timer = setTimeout(function () { done("plain"); }, 3000);
      workers.addEventListener("controllerchange", function () { clearTimeout(timer); done("service worker"); });
      workers.register("./sw.js").catch(function (e) {
        if (window.console) console.info("Attention Explorer: no service worker:", e && e.message); clearTimeout(timer); done("plain"); });
    } catch (e) {
      done("plain");
    }
  });
  window.attentionSnapshot = (function () {
    try {
      if (typeof caches === "undefined") return Promise.resolve(null);
      var base = new URL("../", document.currentScript.src).href;  /* this deployment */
      var key = base + "snapshot/current";
      /* No snapshot was ever stored here (snapshot.mjs marks it): do not open the Cache API,
         whose first opening in a browser profile can take 100 ms or more. */
      try {
        if (localStorage.getItem("attention-explorer-snapshot " + base) === null)
          return Promise.resolve(null);
      } catch (e) { /* storage that cannot say: look in the cache */ }
      return caches.open("attention-explorer-snapshot").then(function (cache) {
        return cache.match(key);
      }).then(function (kept) {
        if (!kept) return null;
        var body = kept.arrayBuffer();
        body.catch(function () {});  /* snapshot.mjs reports it, if it is used */
        return { headers: kept.headers, body: body };
      }).catch(function () { return null; });
    } catch (e) {
      return Promise.resolve(null);
    }
  })();
})();
