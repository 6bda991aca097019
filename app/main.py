"""Attention Explorer in the browser: read the controls, compute, write HTML, publish state.

The only module that touches the DOM. One handler for all changes inside #app (the
regions are re-rendered, so events are caught where they bubble to), one for the
sentence form. Every render ends in `publish()`: the state JSON in #attention-state,
`data-state` on <html>, the URL (history.replaceState) and, when framed, a message to
the parent window.
"""

import traceback

import js
from pyscript import document, window, when

from app import lexicon, render, state
from app.i18n import LANGS, PRESETS, text

_lexicons = {lang: lexicon.load_lexicon(lang) for lang in LANGS}
_settings = None  # state.Settings shown now
_tokens = []  # lexicon.Token list of the shown sentence
_result = None  # attention.Attention for the selected word, or None
_OUR_PARAMS = ("s", "focus", "mask", "self", "lang")


def _region(name):
    return document.getElementById(name)


def _set_messages(notes=()):
    problems = _lexicons[_settings.lang].problems
    _region("messages").innerHTML = render.render_messages(list(notes), problems, _settings.lang)


def _render(settings, tokens, regions, notes=()):
    """Compute the result for `settings` and redraw the named regions."""
    global _settings, _tokens, _result
    _settings, _tokens = settings, tokens
    _result = state.analyse(settings, tokens)
    lang = settings.lang
    if "all" in regions:
        document.documentElement.lang = lang
        document.title = text(lang, "title")
        _region("header").innerHTML = render.render_header(lang)
        _region("controls").innerHTML = render.render_controls(settings)
        _region("status").textContent = text(lang, "ready")
    if "all" in regions or "sentence" in regions:
        _region("sentence").innerHTML = render.render_sentence(tokens, settings.focus, lang)
    _region("analysis").innerHTML = render.render_analysis(_result, tokens, lang)
    _set_messages(notes)
    _publish()


def _publish():
    payload = state.state_json(state.build_state(_settings, _tokens, _result))
    _region("attention-state").textContent = payload
    document.documentElement.dataset.state = "ready"
    params = js.URLSearchParams.new(window.location.search)
    for name in _OUR_PARAMS:
        params.delete(name)
    for pair in state.to_params(_settings).split("&"):
        name, _, value = pair.partition("=")
        params.set(name, js.decodeURIComponent(value.replace("+", " ")))
    window.history.replaceState(None, "", "?" + params.toString())
    if not getattr(js.Object, "is")(window.parent, window):
        message = js.JSON.parse('{"type": "attention:state", "state": ' + payload + "}")
        window.parent.postMessage(message, "*")


def _show_sentence(sentence, focus=None):
    """Show a new sentence (mask and switches kept). On bad input keep the old sentence on
    screen and say why; the box keeps what the student typed."""
    lang = _settings.lang
    tokens, problem = state.check_sentence(sentence, _lexicons[lang])
    if tokens is None:
        _settings.text = sentence
        _set_messages([problem])
        return False
    preset = state.preset_index(sentence, lang)
    if focus is None and preset is not None:
        focus = PRESETS[lang][preset][1]
    _render(_settings.copy(sentence=sentence, text=sentence, focus=focus), tokens, ("sentence",))
    _region("sentence-input").value = sentence
    _region("preset").value = "" if preset is None else str(preset)
    return True


def guarded(handler):
    """Run a handler; on an unexpected error show one line and keep the page working."""

    def run(event):
        try:
            handler(event)
        except Exception as error:  # noqa: BLE001 - the page must survive anything
            js.console.error(traceback.format_exc())
            lang = _settings.lang if _settings else "it"
            _region("messages").innerHTML = render.render_messages(
                [state.Note("error_handler", level="error", error=type(error).__name__)], (), lang)

    run.__name__ = handler.__name__
    return run


@when("change", "#app")
@guarded
def on_change(event):
    target = event.target
    name = target.name
    if name == "word":
        _render(_settings.copy(focus=int(target.value)), _tokens, ())
    elif name in ("mask", "self"):
        attr = "mask" if name == "mask" else "include_self"
        _render(_settings.copy(**{attr: bool(target.checked)}), _tokens, ())
    elif name == "preset" and target.value != "":
        sentence, focus = PRESETS[_settings.lang][int(target.value)]
        _show_sentence(sentence, focus)
    elif name == "lang" and target.value in LANGS and target.value != _settings.lang:
        _switch_language(target.value)


def _switch_language(lang):
    """Switch language; a preset sentence becomes the same example in the other language."""
    old = _settings
    preset = state.preset_index(old.sentence, old.lang)
    if preset is not None:
        sentence, focus = PRESETS[lang][preset]
    else:
        sentence, focus = old.sentence, old.focus
    tokens, problem = state.check_sentence(sentence, _lexicons[lang])
    notes = []
    if tokens is None:  # cannot happen for a sentence already shown, but never crash
        sentence, focus = PRESETS[lang][0]
        tokens, _ = state.check_sentence(sentence, _lexicons[lang])
        notes.append(problem)
    if focus is not None and focus >= len(tokens):
        focus = None
    _render(old.copy(sentence=sentence, text=sentence, focus=focus, lang=lang), tokens, ("all",), notes)
    document.querySelector(f'input[name="lang"][value="{lang}"]').focus()


@when("submit", "#app")
@guarded
def on_submit(event):
    event.preventDefault()
    sentence = _region("sentence-input").value
    if _show_sentence(sentence):
        first = document.querySelector('input[name="word"]')
        if first:
            first.focus()


def start():
    """First render from the URL, replacing the pre-rendered (disabled) page."""
    settings, notes = state.parse_params(str(window.location.search), _lexicons)
    tokens, _ = state.check_sentence(settings.sentence, _lexicons[settings.lang])
    _render(settings, tokens, ("all",), notes)


start()
