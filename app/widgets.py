"""One Python for every widget of a host page.

Widgets of the same deployment framed by one lesson page share one main thread, so each
starting its own Python made them wait for one another (three widgets took ~2 s even from
a snapshot, ~5 s cold). Instead, the first widget to load (the leader) starts Python as
usual; each widget after it (a follower: static/transfer.js decides, and keeps PyScript
from starting there) is handed to the leader's Python, which runs the page in the follower's
frame: an app.page.Page of its own, bound to that frame's window (same origin, so its objects
can be reached). Every widget keeps its own settings, URL,
history and host messages; they share the code, the parsed lexicons and app.contract's
cache of the last state's JSON (kept right for whichever widget asks last).

A follower whose leader goes away (its frame removed or navigated) or cannot start Python
loads again and leads, or follows a new leader; one this Python cannot run starts its own
(static/transfer.js: `attentionExplorer.shared` in a leader, `attentionExplorer.follower` in a follower).
"""

from pyodide.ffi import create_proxy


def serve(window, start_page):
    """Offer this page's Python to the follower widgets waiting in `window.attentionExplorer.shared`
    (made by static/transfer.js in a leader: their documents) and to those that come later:
    `start_page(frame)` starts a widget in a follower's frame (app.page: a Page sharing this
    Python's lexicons)."""
    namespace = getattr(window, "attentionExplorer", None)
    shared = getattr(namespace, "shared", None) if namespace is not None else None
    if shared is None:
        return

    def adopt(document):
        frame = None
        try:
            frame = document.defaultView
            if not frame or frame.document != document:  # that page has gone meanwhile
                return
            start_page(frame)
        except Exception as error:  # noqa: BLE001 - the follower then starts its own Python
            try:
                frame.console.warn("Attention Explorer: this widget starts its own Python:", str(error))
                frame.attentionExplorer.follower.alone(True)
            except Exception:  # noqa: BLE001 - a frame gone meanwhile
                pass

    shared.adopt = create_proxy(adopt)
    waiting = list(shared.waiting)
    shared.waiting.length = 0
    for document in waiting:
        adopt(document)
