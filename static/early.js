/* Attention Explorer: the pre-rendered example answers before Python is up.

   A word click and the mask / include-self switches are answered at once from the example's
   states written at build time by the page's own code (tools/early.py → static/early.json).
   The states a word click reaches with the switches as pre-rendered (6 of 24) come inline with this script in index.html, so a first click needs nothing
   but the page itself: on a phone's slow line each further request costs a round trip. The other
   switches' states are fetched the first time they are asked for, as early.json.gz
   unpacked here where the browser can, so a host that compresses nothing sends no more. Each
   answer is what Python would draw: the
   regions' changes, the state JSON in #attention-state, the live region's sentence, the
   address and, in a frame, the attention:state message to the host page. <html data-state>
   stays "loading": only Python says "ready". A click whose state has not arrived is kept
   (the radio stays checked) and answered when it does, or by Python.

   When Python starts, static/page.js calls attentionExplorer.early.stop(), which ends this and
   says what the controls ask for and whether the page shows it; Python then takes over with
   the same DOM. An address with a state (a reload, a shared link) is answered the same way when
   it names one of the example's states; for any other, and once a host page has sent
   attention:set, the words and switches wait for Python (boot.js says so). */
(function () {
  "use strict";
  var ns = window.attentionExplorer = window.attentionExplorer || {};
  var html = document.documentElement;
  var regions = ["settings", "sentence", "analysis"];
  /* (all of the example's states; those of the switches as pre-rendered are inline, #early-states) */
  var STATES = "./static/early.json";
  var inline = document.getElementById("early-states");
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
    if (!state && key !== shown && data === inlineStates) more();
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
    writeAddress(query.toString());
    if (window.parent !== window) {
      window.parent.postMessage({ type: "attention:state", state: JSON.parse(payload) }, "*");
    }
    shown = key;
  }

  /* The address, written at most every 100 ms, the last state (browsers refuse replaceState past
     ~100 calls in 10 s, as app/page.py knows); written at once when Python takes over. */
  var address = null, addressTimer = null, addressAt = 0;
  function flushAddress() {
    if (addressTimer !== null) { clearTimeout(addressTimer); addressTimer = null; }
    if (address === null) return;
    addressAt = Date.now();
    try { history.replaceState(null, "", "?" + address); } catch (e) { /* a sandbox, a browser's limit */ }
    address = null;
  }
  function writeAddress(query) {
    address = query;
    if (addressTimer === null) addressTimer = setTimeout(flushAddress, Math.max(0, 100 - (Date.now() - addressAt)));
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

  var names = (((document.querySelector("script[data-params]") || {}).dataset || {}).params || "").split(/\s+/);
  var search = new URLSearchParams(location.search);
  /* An address with a state (a reload, a shared link) may still name one of the example's states:
     that is known once the states are here (`stateOf`); until then its words and switches wait. */
  var asked = names.some(function (name) { return name && search.has(name); });
  function wait(on) { Array.prototype.forEach.call(controls(), function (c) { c.disabled = on; }); }
  if (!app || !stateBox || html.dataset.state !== "loading") {
    ns.early.stop = function () { stopped = true; return null; };
    ns.early.whenAnswering = function () {};
    return;
  }
  /* (the pre-rendered regions as they came, before anything here changes them) */
  regions.forEach(function (name) { base[name] = document.getElementById(name).cloneNode(true); });
  if (asked) wait(true);
  baseState = stateBox.textContent;
  shown = null;
  function onChange(event) {
    var t = event.target;
    if (t.name === "word" || t.id === "mask" || t.id === "self") show();
  }
  /* (Enter toggles a switch, as it does once Python is up: app/page.py) */
  function onKey(event) {
    var t = event.target;
    if (event.key === "Enter" && (t.id === "mask" || t.id === "self")) { event.preventDefault(); t.click(); }
  }
  app.addEventListener("change", onChange);
  app.addEventListener("keydown", onKey);
  /* A host page that sets a state (attention:set, kept for Python by boot.js) outranks the
     example: the early answers end, and the words wait for Python to apply it. */
  window.addEventListener("message", function (event) {
    var d = event.data;
    if (!stopped && event.source === window.parent && window.parent !== window && d && d.type === "attention:set") {
      stopped = aside = true;
      wait(true);
    }
  });
  /* (aside: the address or a host asks for what no early answer shows; Python then follows them
     alone, and the controls' state is not the student's choice) */
  var stop = ns.early.stop, aside = false;
  ns.early.stop = function () {
    app.removeEventListener("keydown", onKey);
    flushAddress();
    var said = stop();
    return aside || (asked && data === null) ? null : said;
  };
  /* The state of the example the address names, or null (its state parameters, in any order). */
  function stateOf(states, address) {
    var own = [];
    address.forEach(function (value, name) { if (states.params.indexOf(name) >= 0) own.push(name + "=" + value); });
    own = own.sort().join("&");
    var keys = Object.keys(states.states);
    for (var k = 0; k < keys.length; k++) {
      var pairs = states.states[keys[k]].query.map(function (p) { return p[0] + "=" + p[1]; });
      if (pairs.sort().join("&") === own) return keys[k];
    }
    return null;
  }
  /* All the states, the page's and the rest, fetched once and answered with (if they cannot
     come, Python answers). */
  var asking = false;
  function more() {
    if (asking) return;
    asking = true;
    var gz = typeof DecompressionStream === "function";
    fetch(STATES + (gz ? ".gz" : "")).then(unpack).then(settle, function (error) {
      if (window.console) console.info("Attention Explorer: no more early answers:", String(error));
    });
  }
  /* The example's states are here (those of the page, or all of them): answer with them. */
  function settle(states) {
    if (stopped) return;
    if (data !== null) { data = states; show(); return; }
    if (asked) {
      var key = stateOf(states, search);
      if (key === null) {
        if (states !== inlineStates) { stopped = aside = true; return; }  /* another state: Python draws it */
        more();
        return;
      }
      var parts = key.split("."), word = app.querySelector('input[name="word"][value="' + parts[0] + '"]');
      if (word) word.checked = true;
      document.getElementById("mask").checked = parts[1] === "1";
      document.getElementById("self").checked = parts[2] === "1";
      wait(false);
      document.dispatchEvent(new Event("attention:example"));  /* boot.js: the example after all */
    }
    data = states;
    shown = data.base;
    show();  /* a click that came before, or the state the address names */
    waiting.splice(0).forEach(function (then) { then(); });
  }
  var inlineStates = null;
  try { inlineStates = inline ? JSON.parse(inline.textContent) : null; } catch (e) { inlineStates = null; }
  if (inlineStates) settle(inlineStates); else more();
})();
