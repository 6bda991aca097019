/* Attention Explorer: how this page gets its Python, decided in the <head> (one script, so
   the first paint waits for no other request).

   1. Several widgets of one lesson page share one engine (app/engine.py). Widgets of one
   deployment framed by the same host page each starting their own Python would start
   several, seconds of CPU and hundreds of MB each. So the first of them to load is the
   leader and starts the engine as usual (attentionExplorer.shared); a widget that finds a
   leader among its sibling frames is a follower (attentionExplorer.follower, <html
   data-start="shared">): it starts none and, once its page is parsed, asks the leader for a
   port to the leader's engine (static/page.js). A follower loads again, and leads or follows another leader, when its leader
   goes away or cannot start Python; one the leader's Python cannot run starts its own (so
   do this deployment's widgets loaded later in the same tab). Only framed pages take part,
   and only siblings of the same origin and the same folder lead.

   2. Fewer bytes on hosts that compress nothing (an LMS file area, a plain web space).
   When this page itself arrived uncompressed, a service worker (sw.js) serves Python's
   runtime from its pre-compressed .gz files, decompressed by the browser: a third of
   the bytes. Where a service worker is not allowed (some iframes, private modes,
   plain http), the plain files load as before: more bytes, same page.
   attentionExplorer.transfer resolves when the runtime may be requested.
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
    /* (static/page.js sets `connect`, which gives a MessagePort to this page's engine, and
       calls the followers waiting for it; an engine that cannot start tells them so through
       their ports, and they load again) */
    ns.shared = { waiting: [], connect: null };
    return;
  }

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
    },
    /* static/page.js: `then(connect)` with the leader's function that gives a MessagePort to
       its engine, once the page is parsed (the leader is known for sure then, below) and the leader
       has one. */
    connect: function (then) {
      connecting = then;
      if (parsed) connectNow();
    }
  };
  var connecting = null, parsed = false;
  function connectNow() {
    if (!connecting) return;
    var then = connecting;
    connecting = null;
    try {
      var shared = namespace(leader).shared;
      if (shared.connect) return then(shared.connect);
      /* (called by the leader's script: the port is made in a task of this page's own, as a
         port made within the leader's call was seen to get none of the engine's messages) */
      shared.waiting.push(function () { setTimeout(function () { then(shared.connect); }, 0); });
    } catch (e) {
      ns.follower.alone(true);  /* the leader cannot take it */
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    parsed = true;
    try {
      if (leader.closed || !namespace(leader).shared) leader = leaderAmongSiblings();  /* gone meanwhile */
      if (!leader || !started(leader)) return ns.follower.alone(false);
      /* The leader leaves (its frame removed or loaded again): so does this page. Not when
         the whole lesson page is only put aside (back/forward cache): it comes back whole. */
      leader.addEventListener("pagehide", function (event) {
        if (!event.persisted) ns.follower.alone(false);
      });
      /* The snapshot of later visits is made when the students pause (static/page.js):
         input here counts too. */
      ["pointerdown", "keydown", "input"].forEach(function (type) {
        addEventListener(type, function () {
          try { leader.dispatchEvent(new leader.Event("attention:input")); } catch (e) { /* gone */ }
        }, { capture: true, passive: true });
      });
      connectNow();
    } catch (e) {
      ns.follower.alone(true);  /* the leader cannot take it */
    }
  });
})();
(function () {
  "use strict";
  var ns = window.attentionExplorer = window.attentionExplorer || {};  /* the page's one namespace (docs/DESIGN.md) */
  var workers = null;
  try { workers = navigator.serviceWorker; } catch (e) { /* a sandboxed frame: reading it throws */ }
  /* (read once the page is parsed, so whole: inlined in the <head>, this runs while its body
     still comes) */
  function uncompressed() {
    var nav = window.performance && performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    return nav && nav.decodedBodySize > 0 && nav.encodedBodySize >= nav.decodedBodySize;
  }
  ns.transfer = new Promise(function (done) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { decide(done); });
    else decide(done);
  });
  function decide(done) {
    try {
      if (!workers || !window.DecompressionStream) return done("plain");
      if (workers.controller) return done("service worker");
      if (!uncompressed()) return done("plain");  /* the host compresses: nothing to gain */
      var timer = setTimeout(function () { done("plain"); }, 3000);
      workers.addEventListener("controllerchange", function () { clearTimeout(timer); done("service worker"); });
      workers.register("./sw.js").catch(function (e) {
        if (window.console) console.info("Attention Explorer: no service worker:", e && e.message); clearTimeout(timer); done("plain"); });
    } catch (e) {
      done("plain");
    }
  }
})();
