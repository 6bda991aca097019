/* Attention Explorer: a graded exercise (lock=1) reports to the learning platform that launched
   it, through the platform's SCORM API (1.2 `API` or 2004 `API_1484_11`). static/page.js loads
   this file only for a lock=1 page in a frame or a popup, and waits for it before the engine's
   start. With no API found it does nothing at all: no error, no message, today's page.

   - Discovery: the standard walk up window.parent (at most MAX_LEVELS levels), then the same
     from window.opener. A package's launch names its own version (scorm=1.2 or scorm=2004:
     tools/scorm.py): that API is looked for first, the whole walk, and the other only where it
     is nowhere (a platform may offer both at once); with no version named, at each window 2004's
     API first. A frame of another origin on the way ends that walk quietly.
   - Start: Initialize; the kept suspend_data gives back the page's address (its query) and, to
     the engine with `start`, the score and the answered words (ns.scorm.resume; app/quiz.py,
     Session.restore).
   - After every answered guess (the state published in #attention-state, app/page.py
     `publish`, whose quiz.tried grew): score, status, exit, session time, suspend_data, commit.
   - pagehide: session time and suspend_data once more, commit; then Finish / Terminate (once),
     unless the page is only put aside whole (event.persisted: the back-forward cache), when the
     session stays open and the page, restored, goes on reporting to it.
   docs/DESIGN.md ("Packages") is the contract. Nothing here is sent anywhere but to the API
   the platform put in the launching window. Plain JavaScript, no dependencies. */
(function () {
  "use strict";
  var ns = window.attentionExplorer = window.attentionExplorer || {};
  var MAX_LEVELS = 7;  /* frames above the page a platform may nest its API in (ADL's walk) */
  var MAX_SUSPEND = 4096;  /* characters: SCORM 1.2's limit on suspend_data, kept in 2004 too */

  var NAMES = { "2004": "API_1484_11", "1.2": "API" };
  /* {v: "2004" or "1.2", api} on `win`, the first of `versions` it offers, or null (a window of
     another origin reads as none). */
  function look(win, versions) {
    try {
      for (var i = 0; i < versions.length; i++) {
        var api = win[NAMES[versions[i]]];
        if (api) return { v: versions[i], api: api };
      }
    } catch (error) { /* another origin */ }
    return null;
  }
  function walk(win, versions) {
    for (var level = 0; win && level <= MAX_LEVELS; level++) {
      var found = look(win, versions), up = null;
      if (found) return found;
      try { up = win.parent; } catch (error) { return null; }
      if (!up || up === win) return null;
      win = up;
    }
    return null;
  }
  function find(versions) {
    var found = walk(window, versions);
    if (!found) {
      try { if (window.opener) found = walk(window.opener, versions); } catch (error) { /* closed, or another origin */ }
    }
    return found;
  }

  var own = new URLSearchParams(location.search).get("scorm");  /* the package's version (tools/scorm.py) */
  var lms = own === "1.2" ? find(["1.2"]) || find(["2004"])
    : own === "2004" ? find(["2004"]) || find(["1.2"])
    : find(["2004", "1.2"]);
  if (!lms) return;
  var v12 = lms.v === "1.2", api = lms.api;
  /* One call of the API (its 1.2 or 2004 name); a platform's error never reaches the page. */
  function call(name12, name2004) {
    var args = Array.prototype.slice.call(arguments, 2);
    try {
      return String(api[v12 ? name12 : name2004].apply(api, args));
    } catch (error) {
      return "";
    }
  }
  function get(key) { return call("LMSGetValue", "GetValue", key); }
  function set(key, value) { return call("LMSSetValue", "SetValue", key, String(value)); }
  function commit() { return call("LMSCommit", "Commit", ""); }
  var KEY = v12 ? { status: "cmi.core.lesson_status", raw: "cmi.core.score.raw", min: "cmi.core.score.min",
                    max: "cmi.core.score.max", time: "cmi.core.session_time", exit: "cmi.core.exit" }
                : { status: "cmi.completion_status", raw: "cmi.score.raw", min: "cmi.score.min",
                    max: "cmi.score.max", time: "cmi.session_time", exit: "cmi.exit" };

  if (call("LMSInitialize", "Initialize", "") !== "true") return;
  var begun = Date.now(), finished = false, last = null;

  /* What the platform kept of the last session: its address's query (a graded exercise's own,
     or none), the score and the answers. */
  var kept = null;
  try {
    kept = JSON.parse(get("cmi.suspend_data") || "null");
  } catch (error) { kept = null; }
  var resume = null;
  if (kept && typeof kept === "object" && kept.v === 1) {
    var query = typeof kept.q === "string" ? new URLSearchParams(kept.q) : null;
    if (query && query.get("lock") === "1") {
      try {
        history.replaceState(history.state, "", location.pathname + "?" + query.toString() + location.hash);
      } catch (error) { /* the launch's own query stays */ }
    }
    resume = { right: kept.r, tried: kept.t, answered: kept.a || [] };
  }
  var status = get(KEY.status);
  if (status !== "completed" && status !== "passed" && status !== "failed") set(KEY.status, "incomplete");
  commit();

  /* Session time: 1.2 HH:MM:SS, 2004 an ISO 8601 duration. */
  function sessionTime() {
    var s = Math.max(0, Math.floor((Date.now() - begun) / 1000));
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
    if (!v12) return "PT" + h + "H" + m + "M" + sec + "S";
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return two(h) + ":" + two(m) + ":" + two(sec);
  }
  /* suspend_data: {"v": 1, "q": query, "r": right, "t": tried, "a": answered}, at most MAX_SUSPEND
     characters: past it the query goes (the launch's own is the exercise), then answers. */
  function suspendData(quiz) {
    var data = { v: 1, q: location.search.replace(/^\?/, ""), r: quiz.right, t: quiz.tried,
                 a: (quiz.answered || []).slice() };
    var text = JSON.stringify(data);
    if (text.length > MAX_SUSPEND) {
      data.q = "";
      text = JSON.stringify(data);
    }
    while (text.length > MAX_SUSPEND && data.a.length) {
      data.a.pop();
      text = JSON.stringify(data);
    }
    return text;
  }
  function keep(quiz) {
    set(KEY.exit, "suspend");
    set(KEY.time, sessionTime());
    set("cmi.suspend_data", suspendData(quiz));
  }
  function report(quiz) {
    var raw = quiz.tried ? Math.round(100 * quiz.right / quiz.tried) : 0;
    set(KEY.min, 0);
    set(KEY.max, 100);
    set(KEY.raw, raw);
    if (!v12) set("cmi.score.scaled", raw / 100);
    set(KEY.status, quiz.tried >= quiz.questions ? "completed" : "incomplete");
    keep(quiz);
    commit();
  }

  /* The state the engine publishes after every render (app/page.py, `publish`). */
  function published() {
    try {
      var quiz = JSON.parse(stateElement.textContent).quiz;
      return quiz && quiz.locked ? quiz : null;
    } catch (error) {
      return null;
    }
  }
  var html = document.documentElement, stateElement = document.getElementById("attention-state");
  var seen = null;  /* quiz.tried as last reported (null: the engine has not published yet) */
  if (stateElement) {
    new MutationObserver(function () {
      if (html.dataset.state !== "ready") return;  /* (the pre-rendered example's state) */
      var quiz = published();
      if (!quiz) return;
      last = quiz;
      if (seen !== null && quiz.tried !== seen) report(quiz);
      seen = quiz.tried;
    }).observe(stateElement, { childList: true, characterData: true, subtree: true });
  }

  addEventListener("pagehide", function (event) {
    if (finished) return;
    if (last) keep(last);
    else set(KEY.time, sessionTime());
    commit();
    if (event.persisted) return;  /* (put aside whole: restored, it reports on; gone, what it kept is committed) */
    finished = true;
    call("LMSFinish", "Terminate", "");
  });

  ns.scorm = { version: lms.v, resume: resume };
})();
