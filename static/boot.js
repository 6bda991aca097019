/* Attention Explorer: loading progress and failure messages while Python starts (and, with
   quiz=1 or step=N, the pre-rendered answer or explorer kept out of sight meanwhile). Plain JavaScript with no
   dependencies. It only talks about loading: the engine is started by static/page.js, which
   tells the steps of its start here (py:progress events) and its failure
   (attentionExplorer.fail); once Python is up, app/page.py owns the page (and sets
   data-state="ready" on <html>). */
(function () {
  "use strict";
  var html = document.documentElement;
  var ns = window.attentionExplorer = window.attentionExplorer || {};  /* the page's one namespace (docs/DESIGN.md) */
  /* Guess first: with quiz=1 in the link, the example pre-rendered in index.html keeps its
     answer (bars, table, matrix, new card) out of sight until Python has drawn the question
     (static/style.css, html.quiz-pending). Run before the first paint; it reads the link only. */
  var params = new URLSearchParams(location.search);
  /* Its messages in each language, the default language and the words a link's switch reads as
     on: written by the build into data-boot from app/i18n.py and app/settings.py. */
  var boot = JSON.parse(document.currentScript.dataset.boot);
  var quiz = params.get("quiz");
  if (quiz === null || boot.truthy.indexOf(quiz.trim().toLowerCase()) < 0) quiz = params.get("lock");  /* (a graded exercise: guess first) */
  if (quiz !== null && boot.truthy.indexOf(quiz.trim().toLowerCase()) >= 0) {
    html.classList.add("quiz-pending");
  }
  /* The guided path: with step=N in the link, the explorer pre-rendered in index.html keeps its
     settings and views out of sight (the sentence stays) until Python has drawn the step
     (static/style.css, html.step-pending): a student never reads views the step is not about.
     The trained model (mode=model) likewise: its letters and views are drawn by Python. */
  if (params.get("step") !== null || params.get("mode") === "model") html.classList.add("step-pending");
  var asked = params.get("lang");
  var lang = asked && Object.prototype.hasOwnProperty.call(boot.strings, asked) ? asked : boot.default;
  var T = boot.strings[lang];
  var steps = Object.keys(T.stages);  /* the engine's progress steps, in order (static/engine.js) */

  function status() { return document.getElementById("status"); }
  var framed = window.parent !== window;
  if (framed) html.classList.add("framed");
  /* A frame sandboxed without allow-same-origin has the opaque origin "null": its module
     scripts load only from a host that allows any origin to read them. */
  var opaque = self.origin === "null";
  var failed = opaque ? T.sandboxed : framed ? T.failed + " " + T.framedWayOut : T.failed;
  function say(message, done) {
    var el = status();
    if (!el || (html.dataset.state === "error" && message !== failed)) return;
    el.querySelector(".status-text").textContent = message;
    var bar = el.querySelector("progress");
    if (bar && done !== undefined) bar.value = done;
    /* (a shorter message later, or "ready", moves nothing below it: see static/style.css) */
    var tall = el.offsetHeight;
    if (tall > (parseFloat(el.style.minHeight) || 0)) el.style.minHeight = tall + "px";
  }
  function fail(detail) {
    if (html.dataset.state !== "loading") return;
    html.dataset.state = "error";
    say(failed);
    note("");  /* (until the example's early answers are there, if they come: static/early.js) */
    if (ns.early) ns.early.whenAnswering(function () { note(T.earlyFailed); });
    var el = status();
    if (el) {
      el.classList.add("failed");
      el.setAttribute("role", "alert");
      var bar = el.querySelector("progress");
      if (bar) bar.hidden = true;
      /* (after the message, outside its live region: read once, then reached by Tab) */
      if (framed) el.insertAdjacentElement("afterend", wayOut());
    }
    if (window.console) console.error("Attention Explorer could not start Python:", detail);
  }
  ns.fail = fail;

  if (params.get("embed") === "1") html.classList.add("embed");  /* compact, for iframes */

  /* The same state at the top level, where storage is the page's own: the address as the
     page keeps it (app/page.py writes every change into it), without embed=1. Links marked
     data-open-top (the embedded widget's "open in a new tab", the failure's way out) take
     it when followed. */
  function topAddress() {
    var url = new URL(location.href);
    url.searchParams.delete("embed");
    return url.href;
  }
  /* (given before anything can follow it: a press, a long press or a menu, the keyboard) */
  ["pointerdown", "focusin", "contextmenu", "click", "auxclick"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var link = event.target && event.target.closest && event.target.closest("a[data-open-top]");
      if (link) link.href = topAddress();
    }, true);
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("a[data-open-top]").forEach(function (link) { link.href = topAddress(); });
  });
  /* Where Python cannot start in a frame: a button that opens the page in a new tab and,
     for a frame that may open no tab (sandboxed without allow-popups), its address to copy. */
  function wayOut() {
    var box = document.createElement("div");
    box.className = "way-out";
    var link = document.createElement("a");
    link.className = "button";
    link.href = topAddress();
    link.target = "_blank";
    link.rel = "noopener";
    link.setAttribute("data-open-top", "");
    link.textContent = T.newTab;
    var label = document.createElement("label");
    label.textContent = T.address + " ";
    var address = document.createElement("input");
    address.readOnly = true;
    address.value = topAddress();
    address.addEventListener("focus", function () { address.value = topAddress(); address.select(); });
    label.appendChild(address);
    box.appendChild(link);
    box.appendChild(label);
    return box;
  }

  /* Framed: report our height to the host page (embed.js resizes the iframe), and keep
     host `attention:set` messages that arrive before Python is ready for app/page.py. */
  ns.queue = [];
  if (framed) {
    window.addEventListener("message", function (event) {
      var d = event.data;
      if (ns.queue && event.source === window.parent && html.dataset.state === "loading" &&
          d && d.type === "attention:set") ns.queue.push(d);  /* (till static/page.js starts the page) */
    });
    /* The height is told in each protocol a host may listen to: our own (embed.js), Canvas's
       (lti.frameResize, as a JSON string, which every Canvas version reads) and, once a host
       page running H5P's h5p-resizer.js has answered our hello, H5P's (prepareResize, then
       resize when it says resizePrepared; again when it says resize, its window having changed). */
    var lastHeight = 0, h5p = false;
    var measure = function () {
      var page = document.querySelector(".page");
      return page ? Math.ceil(page.getBoundingClientRect().height) : 0;
    };
    var h5pSay = function (action, data) {
      data = data || {};
      data.context = "h5p";
      data.action = action;
      window.parent.postMessage(data, "*");
    };
    var report = function () {
      var height = measure();
      if (!height || height === lastHeight) return;
      lastHeight = height;
      window.parent.postMessage({ type: "attention:resize", height: height }, "*");
      window.parent.postMessage(JSON.stringify({ subject: "lti.frameResize", height: height }), "*");
      if (h5p) h5pPrepare();
    };
    /* H5P's resizer sets the iframe to clientHeight, answers resizePrepared, then takes
       scrollHeight from our resize (its first versions: 1 px, then height). The content's
       height is both: what the iframe should be. */
    var h5pPrepare = function () { var h = measure(); h5pSay("prepareResize", { scrollHeight: h, clientHeight: h }); };
    window.addEventListener("message", function (event) {
      var d = event.data;
      if (event.source !== window.parent || !d || d.context !== "h5p") return;
      if (d.action === "hello") { h5p = true; h5pPrepare(); }
      else if (d.action === "resizePrepared") { var h = measure(); h5pSay("resize", { scrollHeight: h, height: h }); }
      else if (d.action === "resize") h5pPrepare();
    });
    /* (said again once loaded: the host's resizer may have been added after this frame) */
    document.addEventListener("DOMContentLoaded", function () { h5pSay("hello"); });
    window.addEventListener("load", function () { if (!h5p) h5pSay("hello"); });
    document.addEventListener("DOMContentLoaded", function () {
      if (window.ResizeObserver) new ResizeObserver(report).observe(document.querySelector(".page"));
      /* A frame of another site that is off screen is not rendered (Chromium throttles it), so
         its ResizeObserver waits until it is scrolled to, and the host page would then jump:
         every new state (app/page.py writes it) and the start's end are measured at once too. */
      var changes = new MutationObserver(report), state = document.getElementById("attention-state");
      changes.observe(html, { attributes: true, attributeFilter: ["data-state"] });
      if (state) changes.observe(state, { childList: true, characterData: true, subtree: true });
      /* (and a width the host page changed, a rotated phone: looked at every second while the
         host page is of another origin; nearly free while nothing has changed) */
      var foreign = false;
      try { foreign = !window.parent.document; } catch (e) { foreign = true; }
      if (foreign) setInterval(report, 1000);
      report();
    });
  }

  /* The pre-rendered example is not what a link with a state asks for: say so meanwhile. */
  var stateParams = ((document.currentScript && document.currentScript.dataset.params) || "").split(/\s+/);
  var pending = stateParams.some(function (name) { return name && params.has(name); });
  /* (its early answers are for the example only, static/early.js: the note under the status is
     then kept out of sight, in place) */
  if (pending) html.classList.add("state-link");
  /* (static/early.js: the address names one of the example's states after all, e.g. a reload) */
  document.addEventListener("attention:example", function () {
    html.classList.remove("state-link");
    pending = false;
    var el = status();
    if (html.dataset.state === "loading" && el && el.querySelector(".status-text").textContent === T.startLink) say(T.start);
  });
  function note(message) {
    var el = document.getElementById("status-note");
    if (el && el.textContent !== message) el.textContent = message;
  }
  document.addEventListener("DOMContentLoaded", function () {
    /* (a widget another widget's Python runs may be ready already: static/transfer.js) */
    if (html.dataset.state === "loading") {
      say(pending ? T.startLink : T.start, 0.05);
      note(T.early);
    }
  });

  window.addEventListener("py:progress", function (event) {
    var i = steps.indexOf(event.detail);
    if (i >= 0) say(T.stages[event.detail], (i + 1) / (steps.length + 1));
  });
  /* A script, stylesheet or module that fails to load before Python is ready. */
  window.addEventListener("error", function (event) {
    var t = event.target;
    if (t && t !== window && (t.tagName === "SCRIPT" || t.tagName === "LINK")) fail(t.src || t.href);
    else if (event.error) fail(event.error);
  }, true);
  window.addEventListener("unhandledrejection", function (event) { fail(event.reason); });
  setTimeout(function () { if (html.dataset.state === "loading") say(T.slow); }, 45000);
})();
