/* Attention Explorer: the pre-rendered example answers before Python is up.

   A word click and the mask / include-self switches are answered at once from the example's
   states written at build time by the page's own code (tools/early.py → static/early.json,
   27 kB as gzip: preloaded as early.json.gz from index.html's <head>, before Python's files
   take a slow line, and unpacked here where the browser can, so a host that compresses
   nothing sends no more). Each answer is what Python would draw: the
   regions' changes, the state JSON in #attention-state, the live region's sentence, the
   address and, in a frame, the attention:state message to the host page. <html data-state>
   stays "loading": only Python says "ready". A click before the states have arrived is kept
   (the radio stays checked) and answered when they do, or by Python.

   When Python starts (app/page.py) it calls attentionExplorer.early.stop(), which ends this and
   says what the controls ask for and whether the page shows it; Python then takes over with
   the same DOM. Nothing here runs for a link that asks for another state (boot.js shows the
   example meanwhile and says so): its words and switches wait for Python. */
(function () {
  "use strict";
  var ns = window.attentionExplorer = window.attentionExplorer || {};
  var html = document.documentElement;
  var regions = ["controls", "sentence", "analysis"];
  /* (preloaded as .gz by index.html, from its <head>: it comes before Python's files take the line) */
  var STATES = "./static/early.json";
  var app = document.getElementById("app");
  var stateBox = document.getElementById("attention-state");
  var data = null, shown = null, stopped = false, base = {}, baseState = null, waiting = [];
  var controls = function () { return app.querySelectorAll('input[name="word"], #mask, #self'); };

  function choice() {
    var word = app.querySelector('input[name="word"]:checked');
    var mask = document.getElementById("mask"), self = document.getElementById("self");
    return { focus: word ? +word.value : null, mask: !!(mask && mask.checked), include_self: !!(self && self.checked) };
  }
  function keyOf(c) { return c.focus + "." + (c.mask ? 1 : 0) + "." + (c.include_self ? 1 : 0); }

  /* The ops of tools/early.py applied to a copy of the pre-rendered region. */
  function build(name, ops) {
    var copy = base[name].cloneNode(true);
    var all = Array.prototype.slice.call(copy.getElementsByTagName("*"));
    ops.forEach(function (op) {
      var el = op[0] < 0 ? copy : all[op[0]], what = op[1], value = op[2];
      if (what === "html") el.innerHTML = value;
      else if (what === "outer") el.outerHTML = value;
      else if (what.charAt(0) === "@") {
        if (value === null) el.removeAttribute(what.slice(1)); else el.setAttribute(what.slice(1), value);
      } else el.childNodes[+what.slice(1)].data = value;
    });
    return copy;
  }
  /* The live region made like `target`: nodes of the same shape keep their identity (the
     radio the student is on keeps the focus), only attributes and texts change. */
  function same(live, target) {
    if (live.nodeType !== target.nodeType || live.nodeName !== target.nodeName) return false;
    if (live.nodeType === 3) { if (live.data !== target.data) live.data = target.data; return true; }
    if (live.nodeType !== 1) return true;
    var k, a;
    for (k = live.attributes.length - 1; k >= 0; k--) {
      a = live.attributes[k].name;
      if (!target.hasAttribute(a)) live.removeAttribute(a);
    }
    for (k = 0; k < target.attributes.length; k++) {
      a = target.attributes[k];
      if (live.getAttribute(a.name) !== a.value) live.setAttribute(a.name, a.value);
    }
    morph(live, target);
    return true;
  }
  function morph(live, target) {
    var a = live.childNodes, b = target.childNodes;
    if (a.length !== b.length) {
      live.replaceChildren.apply(live, Array.prototype.slice.call(b));
      return;
    }
    for (var k = b.length - 1; k >= 0; k--) {
      if (!same(a[k], b[k])) live.replaceChild(b[k], a[k]);
    }
  }

  function show() {
    if (stopped || !data) return;
    var want = choice(), key = keyOf(want), state = data.states[key];
    if (!state || key === shown) return;
    regions.forEach(function (name) {
      morph(document.getElementById(name), build(name, state.ops[name]));
    });
    var payload = JSON.parse(baseState), combo = data.matrix[key.slice(key.indexOf("."))];
    Object.keys(state.state).forEach(function (k) { payload[k] = state.state[k]; });
    if (combo) Object.keys(combo).forEach(function (k) { payload.matrix[k] = combo[k]; });
    payload = JSON.stringify(payload);
    stateBox.textContent = payload;
    document.getElementById("announce").textContent = state.say;
    /* (the address as app/page.py writes it: its other parameters kept, in order) */
    var query = new URLSearchParams();
    new URLSearchParams(location.search).forEach(function (value, name) {
      if (data.params.indexOf(name) < 0) query.append(name, value);
    });
    state.query.forEach(function (pair) { query.append(pair[0], pair[1]); });
    try { history.replaceState(null, "", "?" + query.toString()); } catch (e) { /* sandboxed */ }
    if (window.parent !== window) {
      window.parent.postMessage({ type: "attention:state", state: JSON.parse(payload) }, "*");
    }
    shown = key;
  }

  function unpack(response) {
    if (!response.ok) throw new Error(response.status);
    return response.arrayBuffer().then(function (bytes) {
      var head = new Uint8Array(bytes, 0, 2);
      if (head[0] !== 0x1f || head[1] !== 0x8b) return bytes;  /* a host that decoded it already */
      return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    }).then(function (bytes) { return JSON.parse(new TextDecoder().decode(bytes)); });
  }

  ns.early = {
    /* For app/page.py: ends the early answers; what the controls ask for now, and whether
       the page shows it (null: the page shows the example as pre-rendered). */
    /* For boot.js: whether the example's words and switches answer (their states are here),
       and `then` called once they do (at once if they do already). */
    answering: function () { return !stopped && data !== null; },
    whenAnswering: function (then) { if (data !== null) then(); else waiting.push(then); },
    stop: function () {
      stopped = true;
      app.removeEventListener("change", onChange);
      return { choice: choice(), shown: shown };
    }
  };

  var params = ((document.querySelector("script[data-params]") || {}).dataset || {}).params || "";
  var search = new URLSearchParams(location.search);
  var asked = params.split(/\s+/).some(function (name) { return name && search.has(name); });
  if (!app || !stateBox || asked || html.dataset.state !== "loading") {
    /* another state is asked for: its words and switches wait for Python */
    if (app && asked) Array.prototype.forEach.call(controls(), function (c) { c.disabled = true; });
    ns.early.stop = function () { stopped = true; return null; };
    ns.early.whenAnswering = function () {};
    /* (index.html preloads the states: taken, unread, so the browser does not warn of a preload unused) */
    if (typeof DecompressionStream === "function") fetch(STATES + ".gz").catch(function () {});
    return;
  }
  regions.forEach(function (name) { base[name] = document.getElementById(name).cloneNode(true); });
  baseState = stateBox.textContent;
  shown = null;
  function onChange(event) {
    var t = event.target;
    if (t.name === "word" || t.id === "mask" || t.id === "self") show();
  }
  app.addEventListener("change", onChange);
  var gz = typeof DecompressionStream === "function";
  fetch(STATES + (gz ? ".gz" : ""))
    .then(unpack)
    .then(function (states) {
      data = states;
      shown = data.base;
      show();  /* a click that came before */
      waiting.splice(0).forEach(function (then) { then(); });
    })
    .catch(function (error) { if (window.console) console.info("Attention Explorer: no early answers:", String(error)); });
})();
