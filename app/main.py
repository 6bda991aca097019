"""Attention Explorer's entry script, run by PyScript (index.html).

The page's code is app/page.py: as a module it comes compiled ahead with the others
(app/app.zip), where a script PyScript runs is compiled at every start.
"""

from app.page import start

start()
