/* Attention Explorer: the browser-side helpers app/page.py calls, as
   window.attentionExplorer.page.NAME (docs/DESIGN.md). Each does in one browser call what
   would cost Python a call per element or per event; none holds text rules or maths: the
   numbers and the HTML all come from Python (app/render.py). Loaded by every widget's own
   page (a widget run by a sibling's Python calls its own page's, so `document` is its own).
   Plain JavaScript, no dependencies; deferred, before PyScript's module (index.html). */
(function () {
  "use strict";
  var ns = window.attentionExplorer = window.attentionExplorer || {};

  /* A long grid's window (app/views/heatmap.py): the two gap rows sized for the rows they
     stand for. */
  function sizeGaps(table, rowPx) {
    var rows = +table.getAttribute("aria-rowcount") - 1;
    var gaps = table.tBodies[0].querySelectorAll("tr.gap > td");
    gaps[0].style.height = (table.dataset.start * rowPx) + "px";
    gaps[1].style.height = ((rows - table.dataset.stop) * rowPx) + "px";
  }

  var FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

  ns.page = {
    /* A long grid just drawn: its gaps sized and, at the next frame (when the browser lays
       the page out anyway), sized again if a row is not `rowPx` tall; its box scrolled back
       to `scroll`. */
    gridFit: function (table, rowPx, scroll) {
      sizeGaps(table, rowPx);
      var wrap = table.parentElement;
      if (scroll > 0) wrap.pendingScroll = scroll;  /* read by a redraw before that frame */
      requestAnimationFrame(function () {
        var row = table.querySelector("tr[data-row]"), px = row ? row.getBoundingClientRect().height : 0;
        if (px > 0 && Math.abs(px - rowPx) > 0.01) sizeGaps(table, px);  /* rows of another height */
        if (scroll > 0) wrap.scrollTop = scroll;
        delete wrap.pendingScroll;
      });
    },

    /* The grid's window moved to rows start…stop: the drawn rows that stay are kept (a
       focused row header stays focused; if the focused one goes, the grid's box takes the
       focus), the others removed, `head` added after the top gap and `tail` before the
       bottom one. */
    gridMove: function (table, start, stop, head, tail, rowPx) {
      var body = table.tBodies[0], top = body.firstElementChild, bottom = body.lastElementChild;
      var focusLost = false;
      for (var tr = top.nextElementSibling; tr && tr !== bottom;) {
        var next = tr.nextElementSibling, i = +tr.dataset.row;
        if (i < start || i >= stop) {
          focusLost = focusLost || tr.contains(document.activeElement);
          tr.remove();
        }
        tr = next;
      }
      if (focusLost) table.parentElement.focus({ preventScroll: true });
      top.insertAdjacentHTML("afterend", head);
      bottom.insertAdjacentHTML("beforebegin", tail);
      table.dataset.start = start;
      table.dataset.stop = stop;
      sizeGaps(table, rowPx);
    },

    /* A scroll (or focus) listener for long grids' boxes: when the rows shown (or the focused
       row header) come near an edge of the drawn window, `need(first, count, rowPx)` asks
       Python for the rows from `first` on, at once (a held Tab key is faster than the box's
       scroll events). It runs on every scroll event and calls Python only then. */
    gridWatch: function (need) {
      return function (event) {
        var target = event.target;
        if (!target.classList) return;
        var focused = target.classList.contains("row-pick");
        var wrap = focused ? target.closest(".heatmap-wrap") : target;
        if (!wrap || !wrap.classList.contains("heatmap-wrap")) return;
        var table = wrap.querySelector("table.heatmap"), gap = table && table.querySelector("tr.gap");
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
        if ((start > 0 && from < start + 2) || (stop < n && to > stop - 2)) need(from, to - from, rowPx);
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
      element.removeAttribute("aria-busy");
      element.style.removeProperty("min-height");
    },
    partsOff: function (ids) {
      return ids.filter(function (id) {
        var element = document.getElementById(id);
        return element && element.offScreen === true;
      });
    },

    /* A part drawn anew keeps the keyboard focus a student had inside it (a table's scroll box
       reached with Tab while the part was still to be drawn): the same control, by its place. */
    redrawPart: function (element, html) {
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

    idle: function (work) {
      return self.requestIdleCallback ? requestIdleCallback(work, { timeout: 200 }) : setTimeout(work, 1);
    },
    idleCancel: function (id) {
      (self.cancelIdleCallback || clearTimeout)(id);
    },

    /* Changes in place, in one call: [[selector, attribute ("" = text, "outerHTML"), values]],
       each selector (inside `root`) finding exactly one element per value, in order; a value
       already there is not written again (the text of a cell is changed in its own text node).
       The numbers and texts all come from Python (render.row_changes); this only writes them,
       where 1,500 writes from Python would cost a browser call each. Stops and returns false
       when a selector finds another count: the caller then draws the part whole. */
    patch: function (root, changes) {
      var list = JSON.parse(changes);
      for (var c = 0; c < list.length; c++) {
        var selector = list[c][0], name = list[c][1], values = list[c][2];
        var found = root.querySelectorAll(selector);
        if (found.length !== values.length) return false;
        for (var k = 0; k < values.length; k++) {
          var element = found[k], value = values[k];
          if (name === "") {
            var only = element.firstChild;  /* a lone text node is changed, not replaced */
            if (only && only.nodeType === 3 && !only.nextSibling) {
              if (only.data !== value) only.data = value;
            } else element.textContent = value;
          }
          else if (name === "outerHTML") element.outerHTML = value;
          else if (element.getAttribute(name) !== value) element.setAttribute(name, value);
        }
      }
      return true;
    },

    /* Posts a message (JSON text) to the host page from this page's own JavaScript: the host
       (embed.js) tells widgets apart by the message's source, which is the window of the code
       that calls postMessage (for a page run by another widget's Python, app/widgets.py, that
       Python's window otherwise). */
    tellHost: function (json) {
      window.parent.postMessage(JSON.parse(json), "*");
    },

    /* `input` and `click` reach Python only from the targets that need them (a slider, a
       button): a word click also fires both, and each would be a call into Python for nothing
       (for an async handler, a task too) inside the click. */
    forTargets: function (selector, handler) {
      return function (event) {
        var t = event.target;
        if (t.closest && t.closest(selector)) handler(event);
      };
    }
  };
})();
