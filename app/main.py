"""Attention Explorer's entry script, run by PyScript (index.html).

The page's code is app/page.py: as a module it comes compiled ahead with the others
(app/app.zip), where a script PyScript runs is compiled at every start. Started from a
memory snapshot, Python may hold some of the app's modules imported already: they are
checked against the files first (static/attention_snapshot.py).
"""

import sys

if "attention_snapshot" in sys.modules:
    sys.modules["attention_snapshot"].forget_changed()

from app.page import start  # noqa: E402

start()
