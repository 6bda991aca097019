/* Attention Explorer: the page's thread. It starts the engine (static/engine.js: Python in a
   Web Worker) or, in a widget that follows another (static/transfer.js), connects to that
   widget's engine; sends the engine the page's events, each with what the engine may read of
   the page (`context`); and applies the ops the engine sends back (`apply`, app/remote.py),
   among them the helpers below, window.attentionExplorer.page.NAME (docs/DESIGN.md). Each
   helper does in one call what would cost the engine an op per element; none holds text
   rules or maths: the numbers and the HTML all come from Python (app/render.py).
   Plain JavaScript, no dependencies; deferred (index.html). */
(function () {
  "use strict";
  var ns = window.attentionExplorer = window.attentionExplorer || {};
  var html = document.documentElement;
  var SRC = document.currentScript.src;  /* (engine.js is beside this script) */

  /* A long grid's window (app/views/heatmap.py): the two gap rows sized for the rows they
     stand for. */
  function sizeGaps(table, rowPx) {
    var rows = +table.getAttribute("aria-rowcount") - 1;
    var gaps = table.tBodies[0].querySelectorAll("tr.gap > td");
    gaps[0].style.height = (table.dataset.start * rowPx) + "px";
    gaps[1].style.height = ((rows - table.dataset.stop) * rowPx) + "px";
  }

  /* The columns a wide grid's box shows ([first, count]), read from the column headers (all
     drawn: views/heatmap.py); null for a grid drawn whole across. */
  function columnsShown(wrap, table) {
    if (table.dataset.cstart === undefined) return null;
    var cells = table.tHead.rows[0].cells, n = cells.length - 1;
    var left = wrap.scrollLeft + cells[0].offsetWidth, right = wrap.scrollLeft + wrap.clientWidth;
    var lo = 1, hi = n + 1;  /* the first header whose right edge is past `left` */
    while (lo < hi) {
      var mid = (lo + hi) >> 1, c = cells[mid];
      if (c.offsetLeft + c.offsetWidth > left) hi = mid; else lo = mid + 1;
    }
    var last = lo;
    while (last <= n && cells[last].offsetLeft < right) last++;
    return [lo - 1, last - lo];
  }

  /* Whether what the box shows, from…to, comes within 2 of an edge of the drawn start…stop
     (of n), where more is left to draw. */
  function nearEdge(start, stop, n, from, to) {
    return (start > 0 && from < start + 2) || (stop < n && to > stop - 2);
  }


  var FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

  /* The ResizeObserver waiting for the last grid drawn to be laid out (gridFit). */
  var fitting = null;

  /* When the student last clicked, typed or changed something (for `idle`). */
  var PAUSE_MS = 300, lastInput = -Infinity;
  var COPY_WAIT_MS = 1500;  /* a clipboard that has not answered by then: the copy goes by hand (copyText) */
  ["pointerdown", "keydown", "input", "change"].forEach(function (type) {
    addEventListener(type, function () { lastInput = performance.now(); }, { capture: true, passive: true });
  });

  ns.page = {
    /* A long grid just drawn: its gaps sized and, once the browser lays its rows out, sized
       again if a row is not `rowPx` tall; its box scrolled back to `scroll` and `left`
       (`column`: the first column the box showed there). A ResizeObserver's call comes after
       the frame's layout and before its paint, so nothing is drawn unscrolled, and only once
       the rows are laid out: a grid off screen (its section skipped by content-visibility:
       style.css) or on a hidden tab waits until it is shown, where measuring it at the next
       frame laid out its thousands of cells for nothing (docs/performance.md). */
    gridFit: function (table, rowPx, scroll, left, column) {
      if (fitting) fitting.disconnect();  /* (a grid drawn again before it was laid out) */
      fitting = null;
      if (!table || !table.tBodies[0].firstElementChild.classList.contains("gap")) return;  /* drawn whole */
      sizeGaps(table, rowPx);
      var wrap = table.parentElement, row = table.querySelector("tr[data-row]");
      wrap.pending = { scroll: scroll, left: left, column: column };  /* (its place until then: gridPlace) */
      var fit = function (px) {
        if (px > 0 && Math.abs(px - rowPx) > 0.01) sizeGaps(table, px);  /* rows of another height */
        if (scroll > 0) wrap.scrollTop = scroll;
        if (left > 0) wrap.scrollLeft = left;
        delete wrap.pending;
        wrap.seen = { scroll: scroll, left: left, column: column };
      };
      if (!row || !self.ResizeObserver) {
        return void requestAnimationFrame(function () { fit(row ? row.getBoundingClientRect().height : 0); });
      }
      var watch = fitting = new ResizeObserver(function () {
        var px = row.getBoundingClientRect().height;
        if (!(px > 0)) return;  /* (not laid out: hidden) */
        watch.disconnect();
        if (fitting === watch) fitting = null;
        fit(px);
      });
      watch.observe(row);
    },

    /* The grid's window moved to rows start…stop (and, of a wide grid, to `columns` [c0, c1]):
       the drawn rows that stay are kept (a focused row header stays focused; if the focused
       one goes, the grid's box takes the focus), the others removed (all of them when the
       columns change), `head` added after the top gap and `tail` before the bottom one. */
    gridMove: function (table, start, stop, head, tail, rowPx, columns) {
      if (!table) return;
      var body = table.tBodies[0], top = body.firstElementChild, bottom = body.lastElementChild;
      var focusLost = null, across = columns && (columns[0] !== +table.dataset.cstart || columns[1] !== +table.dataset.cstop);
      for (var tr = top.nextElementSibling; tr && tr !== bottom;) {
        var next = tr.nextElementSibling, i = +tr.dataset.row;
        if (across || i < start || i >= stop) {
          if (tr.contains(document.activeElement)) focusLost = i;
          tr.remove();
        }
        tr = next;
      }
      top.insertAdjacentHTML("afterend", head);
      bottom.insertAdjacentHTML("beforebegin", tail);
      if (focusLost !== null) {  /* (a row drawn again with other columns keeps its row header's focus) */
        var again = body.querySelector('.row-pick[data-row="' + focusLost + '"]');
        (again || table.parentElement).focus({ preventScroll: true });
      }
      table.dataset.start = start;
      table.dataset.stop = stop;
      if (columns) {
        table.dataset.cstart = columns[0];
        table.dataset.cstop = columns[1];
      }
      sizeGaps(table, rowPx);
    },

    /* A scroll (or focus) listener for long grids' boxes: when the rows shown (or the focused
       row header) come near an edge of the drawn window, or the columns shown near an edge of
       a wide grid's drawn columns, `need(first, count, rowPx, column, columns)` asks Python for
       the rows from `first` on and (column null: the drawn ones) the columns from `column` on, at once (a held Tab key is
       faster than the box's scroll events). It runs on every scroll event and calls Python
       only then. */
    gridWatch: function (need) {
      return function (event) {
        var target = event.target;
        if (!target.classList) return;
        var focused = target.classList.contains("row-pick");
        var wrap = focused ? target.closest(".heatmap-wrap") : target;
        if (!wrap || !wrap.classList.contains("heatmap-wrap")) return;
        var table = wrap.querySelector("table.heatmap"), gap = table && table.querySelector("tr.gap");
        if (table && !focused) gridPlace(wrap, table);  /* (where the box is, kept for when it is off screen) */
        var row = gap && table.querySelector("tr[data-row]");
        if (!row) return;
        var rowPx = row.getBoundingClientRect().height;
        if (!(rowPx > 0)) return;
        var n = +table.getAttribute("aria-rowcount") - 1, start = +table.dataset.start, stop = +table.dataset.stop;
        var from, to;
        if (focused) {
          var count = Math.ceil(wrap.clientHeight / rowPx);
          from = Math.max(0, +target.dataset.row - (count >> 1));
          to = from + count;
        } else {
          var origin = gap.getBoundingClientRect().top - wrap.getBoundingClientRect().top + wrap.scrollTop;
          from = Math.max(0, Math.floor((wrap.scrollTop - origin) / rowPx));
          to = Math.ceil((wrap.scrollTop + wrap.clientHeight - origin) / rowPx);
        }
        var shown = columnsShown(wrap, table), across = shown &&
          nearEdge(+table.dataset.cstart, +table.dataset.cstop, +table.getAttribute("aria-colcount") - 1,
                   shown[0], shown[0] + shown[1]);
        if (across || nearEdge(start, stop, n, from, to)) {
          need(from, to - from, rowPx, across ? shown[0] : null, across ? shown[1] : null);
        }
      };
    },

    /* An embedded widget's grid tab shown again: its box may be back at the top while the
       window is further down, and no scroll event says so; a synthetic one at the next frame
       lets gridWatch look. */
    gridShown: function (root) {
      requestAnimationFrame(function () {
        var wrap = root.querySelector(".heatmap-wrap");
        if (wrap) wrap.dispatchEvent(new Event("scroll"));
      });
    },

    /* The row parts off screen (or on a hidden tab) are brought up to date when the browser is
       idle (app/page.py): an observer marks each part's `offScreen` and calls `catchUp` when a
       part marked aria-busy comes on screen (a sliver under 2 px is not seen). */
    watchParts: function (root, ids, catchUp) {
      partIds = ids;
      if (root.partsWatch) root.partsWatch.disconnect();
      var watch = root.partsWatch = new IntersectionObserver(function (entries) {
        var due = false;
        entries.forEach(function (entry) {
          entry.target.offScreen = !entry.isIntersecting;
          due = due || (!entry.target.offScreen && entry.target.hasAttribute("aria-busy"));
        });
        if (due) catchUp();
      }, { rootMargin: "-2px 0px" });
      ids.forEach(function (id) { var element = document.getElementById(id); if (element) watch.observe(element); });
    },

    /* A part drawn empty keeps the height it had (and counts as off screen) until it is drawn:
       content above the student does not shrink and grow back, and a click right after the
       redraw, before the observer has looked, does not draw it. */
    partHeights: function (ids) {
      return ids.map(function (id) {
        var element = document.getElementById(id);
        return element ? element.getBoundingClientRect().height : 0;
      });
    },
    holdParts: function (ids, heights) {
      ids.forEach(function (id, k) {
        var element = document.getElementById(id);
        if (!element) return;
        element.offScreen = true;
        if (heights[k] > 0) element.style.minHeight = heights[k] + "px";
      });
    },
    releasePart: function (element) {
      if (!element) return;
      element.removeAttribute("aria-busy");
      element.style.removeProperty("min-height");
    },

    /* A part drawn anew keeps the keyboard focus a student had inside it (a table's scroll box
       reached with Tab while the part was still to be drawn): the same control, by its place. */
    redrawPart: function (element, html) {
      if (!element) return;
      var active = document.activeElement;
      var at = active && active !== element && element.contains(active)
        ? Array.prototype.indexOf.call(element.querySelectorAll(FOCUSABLE), active) : -1;
      element.innerHTML = html;
      var again = at >= 0 && element.querySelectorAll(FOCUSABLE)[at];
      if (again) again.focus({ preventScroll: true });
    },

    /* What the student is looking at stays in place when views off screen above it are drawn
       (their height changes: a rounding note comes or goes): the first view of the analysis
       not wholly above the screen, found before; the page scrolled by what it moved, after. */
    place: function (root) {
      for (var i = 0; i < root.children.length; i++) {
        var view = root.children[i], box = view.getBoundingClientRect();
        if (box.bottom > 2 && box.height > 0) return [view, box.top];  /* (a sliver is not seen) */
      }
      return null;
    },
    keepPlace: function (place) {
      if (!place) return;
      var moved = place[0].getBoundingClientRect().top - place[1];
      if (moved) scrollBy(0, moved);
    },

    /* `work` once the student has paused (PAUSE_MS without a click, key or input) and the
       browser is idle: a burst of clicks or switches (arrow keys through the words) is not held
       up by the views off screen, drawn once after it. */
    idle: function (work) {
      var call = { timer: 0, idle: 0 };
      var check = function () {
        var wait = lastInput + PAUSE_MS - performance.now();
        if (wait > 0) call.timer = setTimeout(check, wait);
        else if (self.requestIdleCallback) call.idle = requestIdleCallback(work, { timeout: 200 });
        else call.timer = setTimeout(work, 1);
      };
      check();
      return call;
    },
    /* The generation lab's play (app/generating.py): `work(true)` after `ms`; when the student
       asks for reduced motion, `work(false)` at once (no animation: one letter a press). Its
       result is cancelled as an idle call is. */
    later: function (work, ms) {
      var still = !!(self.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches);
      return { timer: setTimeout(function () { work(!still); }, still ? 0 : ms), idle: 0 };
    },
    idleCancel: function (call) {
      clearTimeout(call.timer);
      if (call.idle) cancelIdleCallback(call.idle);
    },

    /* Changes in place, in one call: [[selector, attribute ("" = text, "outerHTML"), values]],
       each selector (inside `root`) finding exactly one element per value, in order; a value
       already there is not written again (the text of a cell is changed in its own text node).
       The numbers and texts all come from Python (render.row_changes); this only writes them,
       where 1,500 writes from Python would cost an op each. Stops and calls `refused(name)`
       when a selector finds another count: the engine then draws the part `name` whole. */
    patch: function (root, changes, refused, name) {
      if (!root) return;
      var list = JSON.parse(changes);
      for (var c = 0; c < list.length; c++) {
        var selector = list[c][0], attribute = list[c][1], values = list[c][2];
        var found = root.querySelectorAll(selector);
        if (found.length !== values.length) return refused(name);
        for (var k = 0; k < values.length; k++) {
          var element = found[k], value = values[k];
          if (attribute === "") {
            var only = element.firstChild;  /* a lone text node is changed, not replaced */
            if (only && only.nodeType === 3 && !only.nextSibling) {
              if (only.data !== value) only.data = value;
            } else element.textContent = value;
          }
          else if (attribute === "outerHTML") element.outerHTML = value;
          else if (element.getAttribute(attribute) !== value) element.setAttribute(attribute, value);
        }
      }
    },

    /* The selection moved from row `before` to row `after` in every table under `root` (the
       grid; the trained model's heads and predictions): the rows' class and their buttons'
       pressed state, as app/views/heatmap.py draws them. A row not drawn (outside a long
       grid's window) gets its mark when it is; no `root` (no grid on the page): nothing. */
    pickRow: function (root, before, after) {
      if (!root) return;
      [[before, false], [after, true]].forEach(function (pick) {
        root.querySelectorAll('tr[data-row="' + pick[0] + '"]').forEach(function (tr) {
          if (pick[1]) tr.setAttribute("class", "selected"); else tr.removeAttribute("class");
          var button = tr.cells[0] && tr.cells[0].firstElementChild;
          if (button && button.classList.contains("row-pick")) button.setAttribute("aria-pressed", String(pick[1]));
        });
      });
    },
    /* Posts a message (JSON text) to the host page from this page's own window: the host
       (embed.js) tells widgets apart by the message's source. */
    tellHost: function (json) {
      window.parent.postMessage(JSON.parse(json), "*");
    },

    /* The status says ready, and the note under it that every number is now computed live (a
       shorter text moves nothing below it). */
    sayReady: function (ready, note) {
      var status = document.getElementById("status"), under = document.getElementById("status-note");
      var box = document.getElementById("status-box");
      /* The floating status goes once ready: left over the page it covered the title and the
         sentence box (on a phone, the first screen), and its note goes with it. */
      if (box) box.classList.add("gone");
      if (status) status.querySelector(".status-text").textContent = ready;
      if (under && under.textContent !== note) {
        under.style.minHeight = under.offsetHeight + "px";
        under.textContent = note;
      }
    },

    /* The controls the pre-rendered page kept disabled until the engine was up. */
    enable: function () {
      document.querySelectorAll("#app [disabled]").forEach(function (element) { element.removeAttribute("disabled"); });
    },

    /* `value` in the visible box, selected, and on the clipboard if the browser lets this page
       write it (two ways; inside an LMS iframe it often does not: the box is there to copy by
       hand); `status` says which. */
    copyText: function (area, status, value, copied, manual) {
      area.hidden = false;
      area.value = value;
      area.focus();
      area.select();
      var say = function (ok) { status.textContent = ok ? copied : manual; };
      var byHand = function () {
        var ok = false;
        try { ok = !!document.execCommand("copy"); } catch (e) { /* refused */ }
        say(ok);
      };
      // A clipboard that neither copies nor refuses (a permission prompt nobody answers, a
      // window without focus) still gets an answer: after COPY_WAIT_MS the text, selected, is
      // copied by hand or said to be copied by the student; a late success says so again.
      var settled = false;
      var late = setTimeout(function () { if (!settled) byHand(); }, COPY_WAIT_MS);
      var end = function (then) { return function () { settled = true; clearTimeout(late); then(); }; };
      try {
        navigator.clipboard.writeText(value).then(end(function () { say(true); }), end(byHand));
      } catch (e) { settled = true; clearTimeout(late); byHand(); }
    },

    /* `data` offered as the file `name`. */
    /* The package button's zip (buildPackage, below). */
    package: function (kind, parameters, progress, status, texts, lang) {
      buildPackage(kind, parameters, progress, status, texts, lang);
    },

    download: function (data, name, type) {
      var url = URL.createObjectURL(new Blob([data], { type: type }));
      var link = document.createElement("a");
      link.href = url;
      link.download = name;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
    },

    /* The picture of the bars and the matrix (app/picture.py, an SVG) offered as `name`: as it
       is, or (`png`) drawn at twice its size on a canvas and offered as a PNG. The canvas
       writes no text of its own: the SVG's, in the page's fonts. `said` goes to `status` once
       offered, `failed` where the browser cannot make the PNG. */
    picture: function (svg, name, png, status, said, failed) {
      var done = function (text) { if (status) status.textContent = text; };
      if (!png) {
        ns.page.download(svg, name, "image/svg+xml");
        done(said);
        return;
      }
      var img = new Image(), scale = 2;
      img.onload = function () {
        try {
          var canvas = document.createElement("canvas");
          canvas.width = img.width * scale;
          canvas.height = img.height * scale;
          var g = canvas.getContext("2d");
          g.scale(scale, scale);
          g.drawImage(img, 0, 0);
          canvas.toBlob(function (blob) {
            if (!blob) return done(failed);
            ns.page.download(blob, name, "image/png");
            done(said);
          }, "image/png");
        } catch (e) { done(failed); }
      };
      img.onerror = function () { done(failed); };
      img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
    },

    /* What the engine reads of the page with each event: the values of the controls `read`
       (ids); what it wants to hear of besides events: a long grid's box scrolled near the drawn
       window's edge (`rows`), printing and its end. */
    listen: function (read, rows, printing, printed) {
      valueIds = read;
      var watch = ns.page.gridWatch(rows), app = document.getElementById("app");
      app.addEventListener("scroll", watch, true);
      app.addEventListener("focusin", watch);
      window.addEventListener("beforeprint", printing);
      window.addEventListener("afterprint", printed);
    }
  };

  /* -- linked views ------------------------------------------------------------------- */

  /* A word pointed at or focused in one view (its card, its bar, its row of the steps table,
     the grid's row or column header, a head's bar) is marked in every view (class "linked",
     style.css); the selected word keeps its own mark. Only a class changes: a screen reader
     hears nothing more. On the page's thread alone, from the first paint. Matrix mode has no
     words: nothing is linked there. */
  var LINKS = ["label.word[data-index]", ".bar-row[data-index]", "table.steps tr[data-index]",
               ".mini-bars li[data-index]", "table.heatmap tr[data-row]", "table.heatmap th[data-col]"];
  var linked = null;
  function wordAt(node) {
    var hit = node && node.closest ? node.closest(LINKS.join(",")) : null;
    if (!hit || !document.querySelector("#sentence label.word")) return null;
    var data = hit.dataset;
    return data.index !== undefined ? data.index : data.row !== undefined ? data.row : data.col;
  }
  function link(word) {
    if (word === linked) return;
    var app = document.getElementById("app");
    app.querySelectorAll(".linked").forEach(function (e) {
      e.classList.remove("linked");
      if (!e.classList.length) e.removeAttribute("class");  /* (as drawn) */
    });
    linked = word;
    if (word === null) return;
    var key = String(+word);
    app.querySelectorAll(LINKS.map(function (s) {
      return s.replace(/\[(data-[a-z]+)\]$/, '[$1="' + key + '"]');
    }).join(",")).forEach(function (e) { e.classList.add("linked"); });
  }
  (function () {
    var app = document.getElementById("app");
    if (!app) return;
    app.addEventListener("pointerover", function (event) { link(wordAt(event.target)); });
    app.addEventListener("pointerleave", function () { link(null); });
    app.addEventListener("focusin", function (event) { link(wordAt(event.target)); });
    app.addEventListener("focusout", function (event) { if (!app.contains(event.relatedTarget)) link(null); });
  })();
  ns.page.linked = function () { return linked; };

  /* -- the engine's ops ------------------------------------------------------------------ */

  var slots = new Map();  /* helper results kept for a later op (app/remote.py, Helpers) */
  var target = null;  /* the target of the event the engine is answering */
  var port = null;  /* this page's MessagePort to the engine */

  function root(start) {
    if (start === "doc") return document;
    if (start === "target") return target;
    if (start.id !== undefined) return document.getElementById(start.id);
    var kept = slots.get(start.slot);
    slots.delete(start.slot);  /* (each result is used once) */
    return kept;
  }
  function resolve(path) {
    var node = root(path[0]);
    for (var i = 1; i < path.length && node != null; i++) {
      var step = path[i];
      node = typeof step === "object" ? node.querySelector(step[1]) : node[step];
    }
    return node;
  }
  function callback(id) {
    return function () {
      var args = Array.prototype.slice.call(arguments).map(function (a) {
        return typeof a === "number" || typeof a === "string" || typeof a === "boolean" ? a : null;
      });
      send({ type: "callback", id: id, args: args });
    };
  }
  function value(a) {
    if (Array.isArray(a)) return a.map(value);
    if (a && typeof a === "object") return "$" in a ? resolve(a.$) : "cb" in a ? callback(a.cb) : a;
    return a;
  }

  /* The address, written as the engine asks (it keeps to one write every 100 ms): `push`, in a
     new history entry (a step of a guided path entered or left: app/page.py, push_url), else in
     the entry the browser is on. A browser's limit on these calls (Safari, Firefox) only delays
     the write; an entry still to be made stays to be made. */
  var address = null, addressTimer = null;
  function writeAddress(href, push) {
    address = { href: href, push: !!push || !!(address && address.push) };
    if (addressTimer !== null) return;
    try {
      if (address.push) history.pushState(null, "", href);
      else history.replaceState(null, "", href);
      address = null;
    } catch (e) {
      addressTimer = setTimeout(function () {
        var waiting = address;
        addressTimer = null;
        address = null;
        if (waiting) writeAddress(waiting.href, waiting.push);
      }, 1000);
    }
  }
  /* This page's address as the engine reads it (app/page.py, read_address). */
  function here() {
    var pairs = [];
    new URLSearchParams(location.search).forEach(function (v, k) { pairs.push([k, v]); });
    return { base: location.origin + location.pathname, pairs: pairs };
  }

  /* A control that an answer draws again keeps the focus: the element the focus was on, gone
     from the page, is found again in the new HTML as the same control (its id; else its name, and
     a radio's or checkbox's value; else, a button with neither, its data-* attributes: a grid's
     row header), at the same rank among those alike, and focused. A field the student types in whose value did not change is that very
     element put back in its new place (its attributes made the new ones'): its caret, selection
     and undo stay, which no focus() gives back (a number field's caret cannot even be read).
     Here, not in the engine: the engine never reads the focus, and every view, its own redraws
     and those of views to come, gets it without naming its controls. A focus the answer moved
     itself (the guided path's buttons, a language) is left where it put it. */
  var TYPED = /^(text|search|number|email|url|tel|password|textarea)$/;
  function sameControl(element) {
    if (element.id) return "#" + CSS.escape(element.id);
    var tag = element.tagName.toLowerCase(), selector = tag;
    if (element.name) {
      selector += '[name="' + CSS.escape(element.name) + '"]';
      var valued = element.type === "radio" || element.type === "checkbox";
      return valued ? selector + '[value="' + CSS.escape(element.value) + '"]' : selector;
    }
    Array.prototype.forEach.call(element.attributes, function (a) {
      if (a.name.indexOf("data-") === 0) selector += "[" + a.name + '="' + CSS.escape(a.value) + '"]';
    });
    return selector === tag ? null : selector;
  }
  function focused() {
    var active = document.activeElement, app = document.getElementById("app");
    if (!active || !app || active === app || !app.contains(active)) return null;
    var selector = sameControl(active);
    if (!selector) return null;
    return { element: active, selector: selector,
             rank: Array.prototype.indexOf.call(app.querySelectorAll(selector), active) };
  }
  function keepFocus(kept) {
    var app = document.getElementById("app"), active = document.activeElement;
    if (!kept || kept.element.isConnected || !app || (active && active !== document.body)) return;
    var alike = app.querySelectorAll(kept.selector), twin = alike.length === 1 ? alike[0] : alike[kept.rank];
    if (!twin) return;
    var old = kept.element;
    if (TYPED.test(old.type) && twin.tagName === old.tagName && twin.type === old.type && twin.value === old.value) {
      Array.prototype.slice.call(old.attributes).forEach(function (a) {
        if (!twin.hasAttribute(a.name)) old.removeAttribute(a.name);
      });
      Array.prototype.forEach.call(twin.attributes, function (a) {
        if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
      });
      twin.replaceWith(old);
      twin = old;
    }
    twin.focus({ preventScroll: true });
  }

  /* The analysis drawn anew (its innerHTML: app/page.py, show_analysis). A view whose section is
     the one on the page but for attributes and the state of its controls stays, given the new
     ones: a lab's controls after one of them changed (the radio checked moved, the 200 boxes of
     the global words as they were), a view the change left as it was. What stays is not parsed,
     styled and laid out again, and keeps the focus, a field's caret and a box's scroll; the other
     sections are replaced. Another set of sections (a step, a mode, a prompt): all replaced. */
  function drawViews(root, html) {
    var fresh = document.createElement("div");
    fresh.innerHTML = html;
    var olds = root.children, news = fresh.children, n = news.length;
    var aligned = n > 0 && olds.length === n && root.childNodes.length === n && fresh.childNodes.length === n;
    for (var i = 0; aligned && i < n; i++) aligned = olds[i].tagName === news[i].tagName && olds[i].id === news[i].id;
    if (!aligned) {
      root.textContent = "";
      while (fresh.firstChild) root.appendChild(fresh.firstChild);
      return;
    }
    Array.prototype.map.call(olds, function (old, k) { return [old, news[k]]; }).forEach(function (pair) {
      if (sameShape(pair[0], pair[1])) takeState(pair[0], pair[1]);
      else pair[0].replaceWith(pair[1]);
    });
  }
  /* Whether `a` and `b` are the same tree but for attributes: the same elements (an input of
     the same type) in the same places, the same text. */
  function sameShape(a, b) {
    if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
    if (a.nodeType !== 1) return a.nodeValue === b.nodeValue;
    if (a.tagName === "INPUT" && a.type !== b.type) return false;
    var x = a.firstChild, y = b.firstChild;
    for (; x && y; x = x.nextSibling, y = y.nextSibling) if (!sameShape(x, y)) return false;
    return !x && !y;
  }
  /* `b`'s attributes given to `a` (sameShape), and its controls' state: what `a` drawn anew would
     show (a radio or box checked or not, a field's value, an option chosen). */
  function takeState(a, b) {
    if (a.nodeType !== 1) return;
    var k, attribute;
    for (k = a.attributes.length - 1; k >= 0; k--) {
      if (!b.hasAttribute(a.attributes[k].name)) a.removeAttribute(a.attributes[k].name);
    }
    for (k = 0; k < b.attributes.length; k++) {
      attribute = b.attributes[k];
      if (a.getAttribute(attribute.name) !== attribute.value) a.setAttribute(attribute.name, attribute.value);
    }
    if (a.tagName === "INPUT" && a.checked !== b.checked) a.checked = b.checked;
    if ((a.tagName === "INPUT" || a.tagName === "TEXTAREA") && a.value !== b.value) a.value = b.value;
    if (a.tagName === "OPTION" && a.selected !== b.selected) a.selected = b.selected;
    for (var x = a.firstChild, y = b.firstChild; x; x = x.nextSibling, y = y.nextSibling) takeState(x, y);
  }

  var DO = {
    set: function (op) {
      var node = resolve(op[1]);
      if (node == null) return;
      if (op[2] === "innerHTML" && node.id === "analysis") drawViews(node, op[3]);  /* (its views: drawViews) */
      else node[op[2]] = op[3];
    },
    call: function (op) { var node = resolve(op[1]); if (node != null) node[op[2]].apply(node, op[3].map(value)); },
    helper: function (op) {
      var result = ns.page[op[1]].apply(null, op[2].map(value));
      if (result !== undefined) slots.set(op[3], result);
    },
    url: function (op) { writeAddress(op[1], op[2]); },
    console: function (op) { console[op[1]](op[2]); }
  };
  function apply(ops) {
    var failed = null, more = document.querySelector("details.more-settings"), open = more && more.open;
    var kept = focused();
    JSON.parse(ops).forEach(function (op) {
      try {
        DO[op[0]](op);
      } catch (error) {  /* (one op that cannot be done costs nothing else; the page says so) */
        console.error("Attention Explorer: an op of the engine failed:", JSON.stringify(op).slice(0, 200), error);
        failed = failed || (error && error.name) || "Error";
      }
    });
    /* ("More settings" drawn again, for a new mode or language, stays open if it was) */
    var now = document.querySelector("details.more-settings");
    if (open && now && now !== more) now.open = true;
    keepFocus(kept);
    if (failed && inFlight !== "error") send({ type: "error", name: failed });
  }

  /* -- the page's events --------------------------------------------------------------- */

  /* What the engine may read of the page with an event (app/remote.py, Context): the values of
     the controls it named (listen), the checked radio of each group, which row views it watches
     are on the page (watchParts) and which of them are off screen, the long grid's window. */
  var valueIds = [], partIds = [];
  function context(element) {
    var values = {}, checked = {}, ids = [], off = [];
    valueIds.forEach(function (id) { var c = document.getElementById(id); if (c) values[id] = c.value; });
    document.querySelectorAll("#app input[type=radio]:checked").forEach(function (c) { checked[c.name] = c.value; });
    partIds.forEach(function (id) {
      var e = document.getElementById(id);
      if (!e) return;
      ids.push(id);
      if (e.offScreen === true) off.push(id);
    });
    var wrap = document.querySelector("#analysis .heatmap-wrap"), table = wrap && wrap.querySelector("table.heatmap");
    var place = table && gridPlace(wrap, table), wide = table && table.dataset.cstart !== undefined;
    var grid = table ? { scroll: place.scroll, left: place.left, col: place.column,
                         start: +table.dataset.start || 0, stop: +table.dataset.stop || 0,
                         cstart: wide ? +table.dataset.cstart : null, cstop: wide ? +table.dataset.cstop : null,
                         gap: !!table.querySelector("tr.gap") } : null;
    return { target: element ? describe(element) : null, values: values, checked: checked, ids: ids, off: off, grid: grid };
  }
  /* Where a long grid's box is scrolled ({scroll, left, column}: the first column it shows): of a
     grid drawn and not laid out yet, where gridFit will put it; of one laid out, what the box says;
     of one no longer laid out (skipped by content-visibility off screen, style.css; or on a hidden
     tab), what it said when last laid out (`seen`, kept at each read and each scroll of the box:
     gridWatch). Reading the box of a grid not laid out would lay out its thousands of cells with
     every event, or with one that comes before the frame after a redraw (docs/performance.md);
     checkVisibility() without the option would too. A browser that cannot tell reads the box. */
  function gridPlace(wrap, table) {
    if (wrap.pending) return wrap.pending;
    if (wrap.checkVisibility && !wrap.checkVisibility({ contentVisibilityAuto: true })) {
      return wrap.seen || { scroll: 0, left: 0, column: 0 };
    }
    var shown = columnsShown(wrap, table);
    return (wrap.seen = { scroll: wrap.scrollTop, left: wrap.scrollLeft, column: shown ? shown[0] : 0 });
  }
  function describe(t) {
    var data = {};
    for (var k in t.dataset || {}) data[k] = t.dataset[k];
    return { name: t.name || "", value: t.value === undefined ? "" : String(t.value), type: t.type || "",
             checked: !!t.checked, id: t.id || "", className: typeof t.className === "string" ? t.className : "",
             dataset: data };
  }

  /* One message at a time: the next waits for the engine's answer to the last (it reads the
     page as that answer left it). A slider's burst of input events sends its last value. */
  var queue = [], busy = false, inFlight = null, contextMs = 0;
  function send(message, element) {
    if (message.type === "input") {
      for (var i = 0; i < queue.length; i++) {
        if (queue[i][0].type === "input" && queue[i][1] === element) { queue.splice(i, 1); break; }
      }
    }
    /* (and of words picked one after another faster than the engine answers, the last: arrow
       keys held through a long sentence) */
    var last = queue[queue.length - 1];
    if (last && message.type === "change" && last[0].type === "change" && element && element.name === "word" &&
        last[1] && last[1].name === "word") queue.pop();
    queue.push([message, element || null]);
    next();
  }
  /* <main id="app" data-answering> while the engine has messages of this page to answer (a test,
     or a host page's script, waits for the page to have settled). */
  function answering() {
    var app = document.getElementById("app"), on = busy || queue.length > 0;
    if (app && app.hasAttribute("data-answering") !== on) app.toggleAttribute("data-answering", on);
  }
  function next() {
    answering();
    if (busy || !queue.length || !port) return;
    var entry = queue.shift();
    busy = true;
    inFlight = entry[0].type;
    target = entry[1];
    var began = performance.now();
    entry[0].context = context(entry[1]);
    contextMs = performance.now() - began;
    port.postMessage(JSON.stringify(entry[0]));
    answering();
  }

  function listen() {
    var app = document.getElementById("app");
    app.addEventListener("change", function (event) { send({ type: "change" }, event.target); });
    app.addEventListener("input", function (event) {
      if (event.target.type === "range") send({ type: "input" }, event.target);
    });
    app.addEventListener("keydown", function (event) {
      var t = event.target;
      if (event.key === "Enter" && t.type === "checkbox") {  /* (native checkboxes only take Space) */
        event.preventDefault();
        t.click();
      } else if (t.name === "cell" && (event.key === "Enter" || event.key === "Escape")) {
        event.preventDefault();
        send({ type: "keydown", key: event.key }, t);
      } else if ((event.key === "ArrowLeft" || event.key === "ArrowRight") && t.closest && t.closest(".path-bar")
                 && !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
        /* the guided path's bar: the arrows go back and on (app/page.py, go_step) */
        var to = document.getElementById(event.key === "ArrowLeft" ? "step-prev" : "step-next");
        event.preventDefault();
        if (to && !to.disabled) to.click();
      }
    });
    app.addEventListener("submit", function (event) {
      event.preventDefault();
      send({ type: "submit" }, event.target);
    });
    app.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest('button[type="button"]');
      if (button) send({ type: "click" }, button);
      var link = event.target.closest && event.target.closest("a.term, a.go");
      if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button) return;
      if (link.classList.contains("term")) {
        /* a term's use on a step: its glossary entry, which the browser then scrolls to */
        var glossary = document.getElementById("glossary");
        if (glossary) glossary.open = true;
        var entry = document.getElementById(link.hash.slice(1));
        if (entry) { event.preventDefault(); entry.scrollIntoView({ block: "center" }); entry.focus({ preventScroll: true }); }
      } else {
        /* a glossary entry's step: a new history entry, which the engine follows as Back would
           (app/page.py, follow_address), without loading the page again */
        var to = new URL(link.href, location.href), pairs = [];
        to.searchParams.forEach(function (v, k) { pairs.push([k, v]); });
        event.preventDefault();
        writeAddress(to.href, true);
        send({ type: "address", address: { base: to.origin + to.pathname, pairs: pairs } });
      }
    });
    window.addEventListener("message", function (event) {
      var d = event.data;
      if (event.source === window.parent && window.parent !== window && d && d.type === "attention:set") {
        send({ type: "host", data: d });
      }
    });
    /* The browser's Back or Forward: the engine applies the entry's address (app/page.py,
       follow_address); an address still waiting to be written was the entry left's. */
    window.addEventListener("popstate", function () {
      address = null;
      send({ type: "address", address: here() });
    });
  }

  /* -- the start ----------------------------------------------------------------------- */

  /* What the engine's Page needs to start (app/page.py, `start`): the address, the state the
     page shows, the early answers' end (static/early.js) and the host's messages so far. */
  function startMessage() {
    var queued = ns.queue || [];
    ns.queue = null;  /* (boot.js keeps no more: they come to `listen` now) */
    var early = ns.early ? ns.early.stop() : null;  /* (first: it writes the address it left pending) */
    return { type: "start", framed: window.parent !== window, embedded: html.classList.contains("embed"),
             address: here(),
             early: early,
             state: (document.getElementById("attention-state") || {}).textContent || "",
             queue: queued, resume: ns.scorm ? ns.scorm.resume : null };
  }

  /* The package button (app/sharing.py, package; the helper `package`): static/package.js, loaded the first time, builds
     the zip of `kind` ("1.2", "2004", "bundle") from this page's own files; `progress` (a
     <progress>) follows the files, `status` (role=status) says it at each quarter and at the end
     (`texts`: the strings, in `lang`). */
  function buildPackage(kind, parameters, progress, status, texts, lang) {
    var button = document.getElementById("package-scorm");
    if (button && button.getAttribute("aria-disabled") === "true") return;
    var say = function (text) { if (status) status.textContent = text; };
    var pct = function (part) { return Math.round(100 * part) + (lang === "it" ? " %" : "%"); };
    var load = ns.packager ? Promise.resolve() : new Promise(function (done, fail) {
      var script = document.createElement("script");
      script.src = new URL("./package.js", SRC).href;
      script.onload = function () { done(); };
      script.onerror = function () { fail(new Error("package.js")); };
      document.head.appendChild(script);
    });
    if (button) button.setAttribute("aria-disabled", "true");
    if (progress) { progress.value = 0; progress.hidden = false; }
    say(texts.building.replace("{pct}", pct(0)));
    var quarter = 0;
    load.then(function () {
      return ns.packager.build(new URL("../", SRC).href, kind, parameters, function (done, total) {
        if (progress) { progress.max = total; progress.value = done; }
        if (Math.floor(4 * done / total) > quarter && done < total) {
          quarter = Math.floor(4 * done / total);
          say(texts.building.replace("{pct}", pct(quarter / 4)));
        }
      });
    }).then(function (made) {
      var url = URL.createObjectURL(made.blob), link = document.createElement("a");
      link.href = url;
      link.download = made.name;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
      var size = (made.blob.size / 1e6).toFixed(1);
      say(texts[kind === "bundle" ? "bundle_done" : "done"].replace("{file}", made.name)
          .replace("{size}", lang === "it" ? size.replace(".", ",") : size));
    }).catch(function (error) {
      say(texts.failed.replace("{why}", (error && error.message) || String(error)));
    }).then(function () {
      if (progress) progress.hidden = true;
      if (button) button.removeAttribute("aria-disabled");
    });
  }

  /* A graded exercise (lock=1) in a frame or a popup may have been launched by a learning
     platform: static/scorm.js looks for its SCORM API, and the engine's start waits for it (it
     may give back the last session's address and score). Anywhere else it is not loaded. */
  var scormLoaded = (function () {
    var lock = new URLSearchParams(location.search).get("lock"), boot = document.querySelector("script[data-boot]");
    var truthy = boot ? JSON.parse(boot.dataset.boot).truthy : ["1"], opened = false;
    if (lock === null || truthy.indexOf(lock.trim().toLowerCase()) < 0) return null;
    try { opened = !!window.opener; } catch (error) { /* another origin's: a popup all the same */ opened = true; }
    if (window.parent === window && !opened) return null;
    return new Promise(function (done) {
      var script = document.createElement("script");
      script.src = new URL("./scorm.js", SRC).href;
      script.onload = script.onerror = function () { done(); };
      document.head.appendChild(script);
    });
  })();

  var STAGE = "py:progress";  /* boot.js says each step of the start */
  function onEngine(event) {
    var m = event.data;
    if (m.type === "ops") {
      var began = performance.now();
      if (m.ops) apply(m.ops);
      if (m.done) {
        /* (`make bench`: the work of the last answer, on each side) */
        ns.work = { engine: m.ms, page: contextMs + performance.now() - began };
        busy = false;
        target = null;
        next();
      }
    } else if (m.type === "engine") {
      if (!ns.follower) html.dataset.start = m.start;
      (scormLoaded || Promise.resolve()).then(function () {
        listen();
        queue.unshift([startMessage(), null]);
        next();
      });
    } else if (m.type === "progress") {
      window.dispatchEvent(new CustomEvent(STAGE, { detail: m.stage }));
    } else if (m.type === "failed") {
      if (ns.follower) ns.follower.alone(false);  /* its leader's Python could not start */
      else if (ns.fail) ns.fail(m.detail);
    } else if (m.type === "trial") {
      html.dataset.snapshot = m.result;
    } else if (m.type === "figures") {
      figures.splice(0).forEach(function (done) { done(m); });
    }
  }

  /* The engine of this page (started once) and a port to it for each widget it serves: this
     page's, and those of the followers (static/transfer.js). What is sent to it waits until it
     says it listens: a message that reaches a module worker before its module has run may be
     lost. */
  var worker = null, figures = [], listening = false, unsent = [];
  function tell(message, transfer) {
    var to = engine();
    if (listening) to.postMessage(message, transfer || []);
    else unsent.push([message, transfer || []]);
  }
  function engine() {
    if (!worker) {
      var url = new URL("./engine.js", SRC).href, options = { type: "module", name: "attention-engine" };
      try {
        worker = new Worker(url, options);
      } catch (error) {
        /* A frame sandboxed without allow-same-origin (origin "null") may start no worker from a
           URL; a classic one from a blob URL may import the engine (the server allows any origin
           to; a module worker from a blob fails there). Messages that come before the engine
           listens are given to it once it does; a failed import is the worker's error. */
        var start = "var early = []; onmessage = function (e) { early.push(e); };" +
          "import(" + JSON.stringify(url) + ").then(function () { early.forEach(function (e) {" +
          " dispatchEvent(new MessageEvent('message', { data: e.data, ports: e.ports })); }); }," +
          " function (e) { setTimeout(function () { throw e; }); });";
        worker = new Worker(URL.createObjectURL(new Blob([start], { type: "text/javascript" })), { name: options.name });
      }
      worker.onerror = function (event) { if (ns.fail) ns.fail(event.message || "the engine's worker failed"); };
      worker.onmessage = function (event) {
        var m = event.data || {};
        if (m.type === "compile") compileFor(m.url, m.answer);
        if (m.type !== "listening" || listening) return;
        listening = true;
        unsent.splice(0).forEach(function (args) { worker.postMessage(args[0], args[1]); });
      };
      quietThen(function () { tell({ type: "quiet" }); });
      /* (`make bench` and the tests: a promise of the engine's figures, {memory: bytes of its
         Python's memory, transferred: bytes its worker fetched, compiledBy: "page" or "engine",
         who compiled Python's wasm}) */
      ns.engineFigures = function () {
        return new Promise(function (done) { figures.push(done); tell({ type: "figures" }); });
      };
    }
    return worker;
  }
  /* Python's wasm as the Cache API keeps it, decoded once, or null (`keep`: put it there first,
     from the network): a second visit then reads it with no Brotli to decode, on a start
     bound by CPU, and the browser keeps the code it compiled beside that copy. It is the copy
     static/sw.js keeps on hosts that compress nothing (same cache, same address): a runtime
     folder's name never changes content, and the other versions' copies go, as there. Without
     storage (a sandboxed frame's `caches` throws when read), or with any doubt, null: the
     network, as before. */
  var RUNTIME_CACHE = "attention-explorer-runtime";
  function keptWasm(url, keep) {
    return Promise.resolve().then(function () {
      return self.caches ? caches.open(RUNTIME_CACHE) : null;
    }).then(function (cache) {
      if (!cache) return null;
      return cache.match(url).then(function (kept) {
        if (kept || !keep) return kept;
        return fetch(url, { credentials: "same-origin" }).then(function (response) {
          if (!response.ok) return null;
          /* (kept labelled application/wasm, whatever the host said: it then compiles as it streams) */
          if (!isWasm(response)) response = new Response(response.body, { headers: { "Content-Type": "application/wasm" } });
          return cache.put(url, response).then(function () { return cache.keys(); }).then(function (keys) {
            var folder = url.slice(0, url.lastIndexOf("/") + 1), kind = folder.replace(/(\/vendor\/[a-z]+-)[^/]*\/$/, "$1");
            keys.forEach(function (old) {
              if (old.url.startsWith(kind) && !old.url.startsWith(folder)) cache.delete(old).catch(function () {});
            });
            return cache.match(url);
          });
        });
      });
    }).then(function (kept) { return kept || null; }, function () { return null; });
  }
  /* Python's wasm compiled here: the browser keeps the code it compiles for a page from one
     visit to the next, not for a worker (static/engine.js). `answer`: the engine starts from its
     snapshot and waits for the module (null: it compiles it itself); else this only leaves the
     compiled code for the next visit (and keeps the decoded copy). A warm start that found no
     copy (lost, or its first visit left before keeping it) keeps one when the student pauses. */
  function compileFor(url, answer) {
    var network = function () { return fetch(url, { credentials: "same-origin" }); };
    var compiled = !(self.WebAssembly && WebAssembly.compileStreaming) ? Promise.reject(null)
      : keptWasm(url, !answer).then(function (kept) {
        if (!kept && answer) quietThen(function () { compileFor(url, false); });
        if (!kept) return compiledFrom(network());
        return compiledFrom(kept).catch(function () {  /* (a kept copy that does not compile) */
          return caches.open(RUNTIME_CACHE).then(function (cache) { return cache.delete(url); })
            .then(function () { return keptWasm(url, true); }, function () { return null; })
            .then(function (again) { return compiledFrom(again || network()); });
        });
      });
    if (!answer) return void compiled.catch(function () {});
    compiled.then(function (module) {
      try {
        tell({ type: "wasm", module: module });
      } catch (error) {  /* (a browser that cannot send a module to a worker) */
        tell({ type: "wasm", module: null });
      }
    }, function () { tell({ type: "wasm", module: null }); });
  }
  /* A wasm response compiled: as it streams when labelled application/wasm, else from its bytes
     (streaming compilation refuses any other type, and hosts send Python's wasm as
     document/unknown, Moodle's file area, or application/octet-stream; static/snapshot.js
     does the same in the engine's worker). */
  function isWasm(response) {
    return /^\s*application\/wasm\s*(;|$)/i.test(response.headers.get("Content-Type") || "");
  }
  function compiledFrom(response) {
    return Promise.resolve(response).then(function (r) {
      if (isWasm(r)) return WebAssembly.compileStreaming(r);
      if (!r.ok) throw new Error(r.url + ": " + r.status);
      return r.arrayBuffer().then(function (bytes) { return WebAssembly.compile(bytes); });
    });
  }
  /* `port`'s messages go to the engine (each page makes its own channel, and keeps its end);
     `lang`, the language its address asks for: the engine fetches that lexicon while Python
     starts (another language's comes when a message first needs it: app/lexicon.py). */
  function connect(port, lang) {
    tell({ type: "port", lang: lang }, [port]);
  }
  if (ns.shared) {  /* a leader: its followers connect here */
    ns.shared.connect = connect;
    ns.shared.waiting.splice(0).forEach(function (go) { go(); });
  }

  /* The language this page's address asks for, else the pre-rendered page's (the default). A
     name that is no language is a guess that fetches nothing: the page's start then asks. */
  function language() {
    return new URLSearchParams(location.search).get("lang") || html.lang;
  }

  function begin(give) {
    var channel = new MessageChannel();
    try {
      give(channel.port2, language());
      port = channel.port1;
    } catch (error) {
      if (ns.follower) return ns.follower.alone(true);  /* the leader's engine cannot take it */
      if (ns.fail) ns.fail(error);
      return;
    }
    port.onmessage = onEngine;
  }
  if (ns.follower) {
    ns.follower.connect(begin);
  } else {
    /* Now (the page is parsed: its words are on screen or about to be, and the engine's start
       is another thread's work), once static/transfer.js has its service worker in place (if
       any), so the runtime comes through it. */
    (ns.transfer || Promise.resolve()).then(function () { begin(connect); });
  }

  /* `then` once the page is ready and the student has paused: the snapshot's maker (a second
     Python start, seconds of CPU) would otherwise compete with their clicks on a machine of
     two cores. It waits for QUIET_MS without a click, key or input (counted from now, so
     clicks before ready count too), and at most LATEST_MS after ready, so a student who
     never pauses still gets a quick second visit. */
  var QUIET_MS = 2000, LATEST_MS = 30000;
  /* attention:input: input in a follower widget (static/transfer.js). */
  var INPUTS = ["pointerdown", "click", "keydown", "input", "change", "attention:input"];
  function quietThen(then) {
    var lastInput = 0;
    var noted = function () { lastInput = performance.now(); };
    INPUTS.forEach(function (type) { addEventListener(type, noted, { capture: true, passive: true }); });
    var quiet = function () {
      var readyAt = performance.now();
      var check = function () {
        var now = performance.now();
        var wait = Math.min(Math.max(lastInput, readyAt) + QUIET_MS, readyAt + LATEST_MS) - now;
        if (wait > 0) return void setTimeout(check, wait);
        INPUTS.forEach(function (type) { removeEventListener(type, noted, { capture: true }); });
        then();
      };
      check();
    };
    if (html.dataset.state === "ready") return quiet();
    var watch = new MutationObserver(function () {
      if (html.dataset.state !== "ready") return;
      watch.disconnect();
      quiet();
    });
    watch.observe(html, { attributes: true, attributeFilter: ["data-state"] });
  }
})();
