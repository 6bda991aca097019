/* Attention Explorer: fewer bytes on hosts that compress nothing (an LMS file area, a
   plain web space). When this page itself arrived uncompressed, a service worker (sw.js)
   serves Python's runtime from its pre-compressed .gz files, decompressed by the browser:
   about 5 MB instead of 15 MB. Where a service worker is not allowed (some iframes,
   private modes, plain http), the plain files load as before: more bytes, same page.
   window.attentionTransfer resolves when the runtime may be requested. */
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
})();
