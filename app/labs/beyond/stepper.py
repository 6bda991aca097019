"""The state's stepper (views.py, "The state, word by word"): back, next and play move `mixer_step`, the
words the state has read, through the page's own path (`Page.apply`), as a link would. Play reads one
word every STEP_MS up to the last; when the student's system asks for reduced motion there is no
animation: each press reads one word, as next does (static/page.js's `later` says which)."""

from app import settings as schema
from app.i18n import text
from app.labs.beyond import apply, views

STEP_MS = 1000  # between two words while playing: time to read the new state


def where(page):
    mix = apply.mix_in(page.record)
    return (None, 0) if mix is None else (views.reached(page.settings, mix) + 1, mix.n)


def go(page, t, focus):
    at, n = where(page)
    if at is None:
        return
    page.apply(schema.BY_ATTR["mixer_step"], max(1, min(n, t)))
    show_play(page)
    page.region(focus).focus()


def show_play(page):
    """The play button as the stepper is: pressed, and called "Stop", while it plays."""
    playing = getattr(page, "mixer_playing", None) is not None
    button = page.region("mixer-play")
    button.setAttribute("aria-pressed", "true" if playing else "false")
    button.textContent = text(page.settings.lang, "mixer_pause" if playing else "mixer_play")


def back(page):
    stop(page)
    at, _ = where(page)
    if at is not None:
        go(page, at - 1, "mixer-back")


def forward(page):
    stop(page)
    at, _ = where(page)
    if at is not None:
        go(page, at + 1, "mixer-next")


def stop(page):
    later = getattr(page, "mixer_playing", None)
    if later is not None:
        page.helpers.idleCancel(later)
    page.mixer_playing = None


def play(page):
    """Start (or stop) reading one word after another, from the first when the last is reached."""
    if getattr(page, "mixer_playing", None) is not None:
        stop(page)
        show_play(page)
        return
    at, n = where(page)
    if at is None:
        return
    if at >= n:
        go(page, 1, "mixer-play")
    page.mixer_playing = page.helpers.later(page.task(lambda moving: tick(page, moving)), STEP_MS)
    show_play(page)


def tick(page, moving):
    page.mixer_playing = None
    at, n = where(page)
    if at is None:
        return
    if moving and at + 1 < n:
        page.mixer_playing = page.helpers.later(page.task(lambda again: tick(page, again)), STEP_MS)
    go(page, at + 1, "mixer-play")
