/* Attention Explorer: how this page gets its Python, decided in the <head> (one script, so
   the first paint waits for no other request).

   1. Several widgets of one lesson page share one Python (app/widgets.py). Widgets of one
   deployment framed by the same host page share one main thread: each starting its own
   Python made them wait for one another. So the first of them to load is the leader and
   starts Python as usual (attentionExplorer.shared); a widget that finds a leader among its
   sibling frames is a follower (attentionExplorer.follower, <html data-start="shared">): it
   keeps PyScript from starting here and, once its page is parsed, asks the leader's Python
   to run it. A follower loads again, and leads or follows another leader, when its leader
   goes away or cannot start Python; one the leader's Python cannot run starts its own (so
   do this deployment's widgets loaded later in the same tab). Only framed pages take part,
   and only siblings of the same origin and the same folder lead.

   2. Fewer bytes on hosts that compress nothing (an LMS file area, a plain web space).
   When this page itself arrived uncompressed, a service worker (sw.js) serves Python's
   runtime from its pre-compressed .gz files, decompressed by the browser: about 5 MB
   instead of 15 MB. Where a service worker is not allowed (some iframes, private modes,
   plain http), the plain files load as before: more bytes, same page.
   attentionExplorer.transfer resolves when the runtime may be requested.
   On a later visit it also starts reading Python's memory snapshot (static/snapshot.mjs,
   which decides whether to use it), so the read overlaps the drawing of the page:
   attentionExplorer.snapshot resolves to {headers, body: promise of its bytes} or null.
   (window.attentionExplorer is the page's one namespace: docs/DESIGN.md.) */
(function () {
  "use strict";
  var ns = window.attentionExplorer = window.attentionExplorer || {};  /* the page's one namespace (docs/DESIGN.md) */
  if (window.parent === window) return;
  var html = document.documentElement;
  var folderOf = function (href) { return href.split(/[?#]/)[0].replace(/[^/]*$/, ""); };
  var folder = folderOf(location.href);
  var namespace = function (frame) { return frame.attentionExplorer || {}; };
  var started = function (frame) { return frame.document.documentElement.dataset.state !== "error"; };  /* or starting */

  function leaderAmongSiblings() {
    try {
      var frames = window.parent.frames;
      for (var i = 0; i < frames.length; i++) {
        try {
          var frame = frames[i];
          if (frame !== window && namespace(frame).shared && folderOf(frame.location.href) === folder &&
              started(frame)) return frame;
        } catch (e) { /* a frame of another origin */ }
      }
    } catch (e) { /* no access to the host page's frames */ }
    return null;
  }

  /* After the leader's Python could not run a follower, this tab's widgets of this
     deployment start on their own. */
  var SOLO = "attention-explorer-alone " + folder, solo = false;
  try { solo = sessionStorage.getItem(SOLO) !== null; } catch (e) { /* storage refused */ }
  var leader = solo ? null : leaderAmongSiblings();
  if (!leader) {
    var shared = ns.shared = { waiting: [], adopt: null };
    /* Python could not start here: the followers waiting load again. */
    new MutationObserver(function () {
      if (html.dataset.state !== "error") return;
      shared.waiting.splice(0).forEach(function (doc) {
        try { namespace(doc.defaultView).follower.alone(false); } catch (e) { /* gone meanwhile */ }
      });
    }).observe(html, { attributes: true, attributeFilter: ["data-state"] });
    return;
  }

  /* A follower: PyScript's <script type="py"> is set aside as the parser adds it. */
  var watch = new MutationObserver(function () {
    var script = document.querySelector('script[type="py"]');
    if (script) {
      script.type = "text/x-attention-follower";
      watch.disconnect();
    }
  });
  watch.observe(document, { childList: true, subtree: true });
  html.dataset.start = "shared";
  var leaving = false;
  ns.follower = {
    /* Load again, and lead or follow another leader (`forGood`: this tab's widgets of this
       deployment all start on their own; where that cannot be recorded, the page stays as
       it is, showing its example, rather than loading again and again). */
    alone: function (forGood) {
      if (leaving) return;
      if (forGood) try { sessionStorage.setItem(SOLO, "1"); } catch (e) { return; }
      leaving = true;
      setTimeout(function () { location.reload(); }, 0);
    }
  };
  document.addEventListener("DOMContentLoaded", function () {
    watch.disconnect();
    try {
      if (leader.closed || !namespace(leader).shared) leader = leaderAmongSiblings();  /* gone meanwhile */
      if (!leader || !started(leader)) return ns.follower.alone(false);
      /* The leader leaves (its frame removed or loaded again): so does this page. Not when
         the whole lesson page is only put aside (back/forward cache): it comes back whole. */
      leader.addEventListener("pagehide", function (event) {
        if (!event.persisted) ns.follower.alone(false);
      });
      /* The snapshot of later visits is made when the students pause (static/interpreter.mjs):
         input here counts too. */
      ["pointerdown", "keydown", "input"].forEach(function (type) {
        addEventListener(type, function () {
          try { leader.dispatchEvent(new leader.Event("attention:input")); } catch (e) { /* gone */ }
        }, { capture: true, passive: true });
      });
      var shared = namespace(leader).shared;
      if (shared.adopt) shared.adopt(document);
      else shared.waiting.push(document);
    } catch (e) {
      ns.follower.alone(true);  /* the leader's Python cannot take it */
    }
  });
})();
(function () {
  "use strict";
  var ns = window.attentionExplorer = window.attentionExplorer || {};  /* the page's one namespace (docs/DESIGN.md) */
  var workers = null;
  try { workers = navigator.serviceWorker; } catch (e) { /* a sandboxed frame: reading it throws */ }
  var nav = window.performance && performance.getEntriesByType &&
            performance.getEntriesByType("navigation")[0];
  var uncompressed = nav && nav.decodedBodySize > 0 && nav.encodedBodySize >= nav.decodedBodySize;
  ns.transfer = new Promise(function (done) {
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
  ns.snapshot = (function () {
    try {
      if (typeof caches === "undefined" || ns.follower) return Promise.resolve(null);
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
