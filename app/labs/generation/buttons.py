"""The generation lab's buttons (app/labs/generation/views.py): write one letter, play, clear.

Each changes the `generate` setting through the page's own path (`Page.apply`), as a link or a
host message would, then puts the focus back on the button pressed and says the new letter in
the live region. Play writes one letter every STEP_MS until the model has written generate.MAX
or the student presses it again; when the student's system asks for reduced motion there is no
animation: each press of play writes one letter, as the step button does (static/page.js's
`later` says which).
"""

from app import generate, settings as schema
from app.i18n import text
from app.labs.generation import views

STEP_MS = 1000  # between two letters while playing: time to read the new one


def write(page, n, focus):
    """Write up to n letters (0: none), the focus back on `focus`, the letter said."""
    if page.settings.mode != "model":
        return
    page.apply(schema.BY_ATTR["generate"], max(0, min(generate.MAX, n)))
    show_play(page)
    page.region(focus).focus()
    page.region("announce").textContent = views.announcement(page.record, page.settings.lang)


def step(page):
    stop(page)
    write(page, page.settings.generate + 1, "gen-step")


def clear(page):
    stop(page)
    write(page, 0, "gen-clear")


def show_play(page):
    """The play button as the state is: pressed, and called "Stop", while it plays."""
    playing = getattr(page, "playing", None) is not None  # (the lab's view is drawn: a button of it was pressed)
    button = page.region("gen-play")
    button.setAttribute("aria-pressed", "true" if playing else "false")
    button.textContent = text(page.settings.lang, "gen_pause" if playing else "gen_play")


def stop(page):
    later = getattr(page, "playing", None)
    if later is not None:
        page.helpers.idleCancel(later)
    page.playing = None


def play(page):
    """Start (or stop) writing one letter after another."""
    if getattr(page, "playing", None) is not None:
        stop(page)
        show_play(page)
        return
    if page.settings.generate >= generate.MAX:
        return
    page.playing = page.helpers.later(page.task(lambda moving: tick(page, moving)), STEP_MS)
    show_play(page)


def tick(page, moving):
    """One letter of play; the next is scheduled unless motion is reduced or all are written."""
    page.playing = None
    if page.settings.mode != "model":  # (the student left the model: play ends there)
        return
    more = moving and page.settings.generate + 1 < generate.MAX
    if more:
        page.playing = page.helpers.later(page.task(lambda again: tick(page, again)), STEP_MS)
    write(page, page.settings.generate + 1, "gen-play")
