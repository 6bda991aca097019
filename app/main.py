"""Attention Explorer's engine entry, run by static/engine.js in its Web Worker.

The engine's code is app/engine.py and app/page.py: as modules they come compiled ahead with
the others (app/app.zip). Started from a memory snapshot, Python may hold some of the app's
modules imported already: they are checked against the files first
(static/attention_snapshot.py).
"""

import sys

if "attention_snapshot" in sys.modules:
    sys.modules["attention_snapshot"].forget_changed()

from app.engine import Engine  # noqa: E402

ENGINE = Engine()
