"""The engine: the widgets' Python, in a Web Worker (static/engine.js).

One engine serves every widget of one deployment in a browser tab: the page that started it
and the widgets of the same folder framed by the same lesson page (static/transfer.js). Each
widget is a Page (app/page.py) with a Screen of its own (app/remote.py), reached through a
message port: static/engine.js calls `attach` when a port comes, `receive` with each of its
messages (JSON text), and posts back the ops each returns. The widgets share the code and
the parsed lexicons; a lab's modules and a language's lexicon files come when a message first
needs them (`arrived`, `unavailable`, `without`).
"""

import json

import js
from pyodide.ffi import create_proxy

from app import labs, lexicon
from app.lexicon import Lexicons
from app.page import Page
from app.remote import Screen
from app.views import registry


class Timers:
    """The engine's own timers (the worker's setTimeout), for the pages' later work."""

    @staticmethod
    def setTimeout(work, ms):  # noqa: N802 - the browser's name
        return js.setTimeout(work, ms)

    proxy = staticmethod(create_proxy)


class Engine:
    """The widgets this engine runs, by the number static/engine.js gave their port."""

    def __init__(self):
        self.restored = lexicon.made()  # (before any page asked: a snapshot's, app/lexicon.py)
        self.lexicons = Lexicons(later=True)  # (a language's files come when first needed: static/engine.js)
        self.timers = Timers()
        self.pages = {}

    def attach(self, number, send):
        """A new widget; `send(text)` posts a batch of ops to its page outside an event."""
        self.pages[number] = Page(Screen(send), self.lexicons, self.timers)

    def receive(self, number, text):
        """A message of widget `number`'s page: the ops it wrote, as JSON text ("" for none)."""
        page = self.pages.get(number)
        return page.receive(json.loads(text)) if page is not None else ""

    def arrived(self, ids):
        """The labs `ids` (JSON text: a list) were unpacked into app/labs/ (static/engine.js): their
        views, paths and strings join the registry's lists."""
        for lab_id in json.loads(ids):
            registry.arrive(lab_id)

    def unavailable(self, ids):
        """The labs `ids` (JSON text) could not be fetched: the pages go on without them."""
        labs.UNAVAILABLE.update(json.loads(ids))

    def without(self, langs):
        """The lexicon files of `langs` (JSON text) could not all be fetched: each language's
        lexicon is made from the files that came (a missing one is said on the page)."""
        lexicon.UNAVAILABLE.update(json.loads(langs))

    def detach(self, number):
        self.pages.pop(number, None)

    def figures(self):
        """What `make bench` and the tests read of the engine's own work, as JSON text: the last
        forward pass of the trained model among the widgets (ms, null when none is in model mode),
        and the languages whose lexicon this Python had before it started (restored from a snapshot)."""
        records = [page.record for page in self.pages.values()
                   if page.settings is not None and page.settings.mode == "model" and page.record is not None]
        passes = [record.ms for record in records]
        # the last writing with the cache (generate=N, app/generate.py): its whole time, and the
        # time of its last letter's cached step (the longest cache it read)
        writes = [record.generation for record in records if getattr(record, "generation", None) is not None]
        return json.dumps({"forward_ms": passes[-1] if passes else None, "lexicons_restored": self.restored,
                           "generate_ms": writes[-1].ms if writes else None,
                           "generate_step_ms": writes[-1].step_ms[-1] if writes and writes[-1].step_ms else None})
