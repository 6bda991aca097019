"""Settings of the page, the URL parameters that carry them, and the state JSON.

Data flows one way: URL / controls -> Settings -> tokens -> Attention -> HTML and state.
The URL parameters and the JSON are a contract with host pages and tests
(see DESIGN.md): `s`, `focus`, `mask`, `self`, `lang`, and a version-1 state object.
"""

import json

from app import attention, i18n
from app.lexicon import lookup, tokenize

MAX_TOKENS = 60  # the most words (and punctuation marks) the page shows well, by default
MAX_LIMIT = 500  # the most a link may ask for with ?limit= (long texts, benchmarks)
CHARS_PER_TOKEN = 40  # text longer than limit × this is refused before it is even split
_TRUE = ("1", "true", "on", "yes")
_FALSE = ("0", "false", "off", "no", "")


class Settings:
    """What the student chose. `text` is what is in the box; `sentence` what is analysed."""

    __slots__ = ("sentence", "text", "focus", "mask", "include_self", "lang", "limit")

    def __init__(self, sentence, focus=None, mask=False, include_self=False, lang="it", text=None,
                 limit=MAX_TOKENS):
        self.sentence = sentence
        self.text = sentence if text is None else text
        self.focus = focus  # 0-based index of the selected word, or None
        self.mask = mask
        self.include_self = include_self
        self.lang = lang
        self.limit = limit  # most tokens a sentence may have

    def copy(self, **changes):
        fields = {name: getattr(self, name) for name in self.__slots__}
        fields.update(changes)
        return Settings(**fields)

    def __repr__(self):
        return "Settings(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__) + ")"


def default_settings(lang=i18n.DEFAULT_LANG):
    sentence, focus = i18n.PRESETS[lang][0]
    return Settings(sentence, focus, lang=lang)


def preset_index(sentence, lang):
    """Index of `sentence` among the language's presets, or None."""
    for i, (s, _) in enumerate(i18n.PRESETS[lang]):
        if s == sentence:
            return i
    return None


def preset_focus(sentence, lang):
    """The word an example starts with selected, or None for a sentence that is no example."""
    preset = preset_index(sentence, lang)
    return None if preset is None else i18n.PRESETS[lang][preset][1]


class Note:
    """A message for the student: a string key and its parameters (translated at render)."""

    __slots__ = ("key", "params", "level")

    def __init__(self, key, level="warning", **params):
        self.key, self.params, self.level = key, params, level

    def __repr__(self):
        return f"Note({self.key!r}, {self.params!r})"

    def __eq__(self, other):
        return isinstance(other, Note) and (self.key, self.params) == (other.key, other.params)


def check_sentence(text, lexicon, limit=MAX_TOKENS):
    """(tokens, None) for a sentence the page can show, or (None, Note) saying why not."""
    if len(text) > limit * CHARS_PER_TOKEN:
        return None, Note("too_long_chars", count=len(text), limit=limit * CHARS_PER_TOKEN)
    words = tokenize(text, lexicon.lang)
    if not words:
        return None, Note("empty")
    if len(words) > limit:
        return None, Note("too_long", count=len(words), limit=limit)
    return lookup(words, lexicon), None


def _first(params, name):
    values = params.get(name)
    return values[0] if values else None


def _whole_number(text):
    """The int written with ASCII digits only (no sign, no space inside), or None."""
    digits = text.strip()
    return int(digits) if digits.isascii() and digits.isdigit() else None


def parse_params(search, lexicons):
    """Settings from the URL's parameters, and notes for every value that had to be replaced.

    `search` is a query string ("?s=...&focus=1"), or the parameters already decoded as
    {name: [values]} (the browser passes these, decoded by URLSearchParams, which spares
    importing urllib there: ~60 ms of Pyodide's start).

    Unknown `lang` -> Italian; a sentence that is blank or too long -> the first example
    (the text still goes into the box); `focus` not a word index -> no word selected;
    `mask`/`self` not 0/1 -> 0. Repeated parameters: the first one counts.
    """
    if isinstance(search, str):
        from urllib.parse import parse_qs
        params = parse_qs(search.lstrip("?"), keep_blank_values=True)
    else:
        params = search
    notes = []

    lang = _first(params, "lang")
    if lang is None:
        lang = i18n.DEFAULT_LANG
    elif lang not in i18n.LANGS:
        notes.append(Note("link_lang_bad", value=lang))
        lang = i18n.DEFAULT_LANG
    settings = default_settings(lang)

    limit = _first(params, "limit")
    if limit is not None:
        value = _whole_number(limit)
        if value is not None and 1 <= value <= MAX_LIMIT:
            settings.limit = value
        else:
            notes.append(Note("link_limit_bad", value=limit, limit=MAX_LIMIT))

    sentence = _first(params, "s")
    tokens = None
    if sentence is not None:
        tokens, problem = check_sentence(sentence, lexicons[lang], settings.limit)
        if tokens is None:
            notes.append(Note("link_sentence_bad", why=problem))
            settings.text = sentence  # keep what the link carried in the box
        else:
            settings.sentence = settings.text = sentence
            settings.focus = preset_focus(sentence, lang)
    n = len(tokens) if tokens is not None else len(tokenize(settings.sentence, lang))

    focus = _first(params, "focus")
    if focus is not None:
        value = _whole_number(focus)
        if value is not None and value < n:
            settings.focus = value
        else:
            notes.append(Note("link_focus_bad", value=focus))
            settings.focus = None

    for name, attr in (("mask", "mask"), ("self", "include_self")):
        value = _first(params, name)
        if value is None:
            continue
        if value.strip().lower() in _TRUE:
            setattr(settings, attr, True)
        elif value.strip().lower() in _FALSE:
            setattr(settings, attr, False)
        else:
            notes.append(Note("link_flag_bad", name=name, value=value))
    return settings, notes


def param_pairs(settings):
    """The URL parameters that reproduce these settings, as (name, value) pairs."""
    pairs = [("s", settings.sentence)]
    if settings.focus is not None:
        pairs.append(("focus", str(settings.focus)))
    pairs += [("mask", "1" if settings.mask else "0"), ("self", "1" if settings.include_self else "0"),
              ("lang", settings.lang)]
    if settings.limit != MAX_TOKENS:
        pairs.append(("limit", str(settings.limit)))
    return pairs


def to_params(settings):
    """The URL query string (without '?') that reproduces these settings."""
    from urllib.parse import urlencode
    return urlencode(param_pairs(settings))


def analyse(settings, tokens):
    """The attention record for the selected word, or None when no word is selected."""
    if settings.focus is None or not 0 <= settings.focus < len(tokens):
        return None
    return attention.attend([t.card for t in tokens], settings.focus, settings.mask,
                            settings.include_self)


def build_state(settings, tokens, result):
    """The version-1 state object of DESIGN.md (plain data, full-precision floats)."""
    n = len(tokens)
    if result is None:
        rows = [{"index": j, "candidate": False, "dot": None, "logit": None, "weight": 0.0,
                 "percent": "0%"} for j in range(n)]
    else:
        rows = [{"index": j, "candidate": result.candidates[j], "dot": result.dots[j],
                 "logit": result.logits[j], "weight": result.weights[j],
                 "percent": f"{result.percents[j]}%"} for j in range(n)]
    return {
        "version": 1,
        "lang": settings.lang,
        "sentence": settings.sentence,
        "features": list(attention.FEATURES),
        "tokens": [{"text": t.text, "card": list(t.card), "known": t.known} for t in tokens],
        "w_q": [list(r) for r in attention.W_Q],
        "focus": None if result is None else result.focus,
        "mask": settings.mask,
        "include_self": settings.include_self,
        "d_k": attention.D_K,
        "scale": attention.SCALE,
        "query": None if result is None else list(result.query),
        "rows": rows,
    }


def state_json(state):
    """JSON text safe to put inside a <script> element (no '<' can close it)."""
    return json.dumps(state, ensure_ascii=False, allow_nan=False).replace("<", "\\u003c")


def switch_language(settings, lang, lexicons):
    """(settings, tokens) in another language: an example becomes the same example there,
    a typed sentence stays as it is (its cards now come from that language's lexicon)."""
    preset = preset_index(settings.sentence, settings.lang)
    if preset is not None:
        sentence, focus = i18n.PRESETS[lang][preset]
    else:
        sentence, focus = settings.sentence, settings.focus
    tokens, _ = check_sentence(sentence, lexicons[lang], settings.limit)
    if tokens is None:  # cannot happen for a sentence already shown; never crash
        sentence, focus = i18n.PRESETS[lang][0]
        tokens, _ = check_sentence(sentence, lexicons[lang], settings.limit)
    if focus is not None and focus >= len(tokens):
        focus = None
    return settings.copy(sentence=sentence, text=sentence, focus=focus, lang=lang), tokens


HOST_KEYS = ("type", "sentence", "focus", "mask", "self", "lang")


def host_update(settings, tokens, data, lexicons):
    """Apply an `attention:set` message from the host page, trusting nothing in it.

    `settings` and `tokens` are what the page shows now. Returns (settings, tokens,
    warnings, notes). `warnings` are for the console (unknown keys, wrong types: ignored);
    `notes` are for the page (a sentence that cannot be shown, which keeps the old one).
    Fields are applied in the order lang, sentence, focus, mask, self, so a message can
    set a sentence and select one of its words.
    """
    warnings, notes = [], []
    if not isinstance(data, dict):
        return settings, tokens, ["attention:set: the message is not an object; ignored"], notes
    for key in data:
        if key not in HOST_KEYS:
            warnings.append(f"attention:set: unknown key {str(key)[:40]!r} ignored")

    if "lang" in data:
        lang = data["lang"]
        if isinstance(lang, str) and lang in i18n.LANGS:
            if lang != settings.lang:
                settings, tokens = switch_language(settings, lang, lexicons)
        else:
            warnings.append("attention:set: 'lang' must be 'it' or 'en'; ignored")

    if "sentence" in data:
        sentence = data["sentence"]
        if isinstance(sentence, str):
            new_tokens, problem = check_sentence(sentence, lexicons[settings.lang], settings.limit)
            if new_tokens is None:
                notes.append(problem)
                settings = settings.copy(text=sentence)
            else:
                settings = settings.copy(sentence=sentence, text=sentence,
                                         focus=preset_focus(sentence, settings.lang))
                tokens = new_tokens
        else:
            warnings.append("attention:set: 'sentence' must be a string; ignored")

    if "focus" in data:
        focus = data["focus"]
        if focus is None:
            settings = settings.copy(focus=None)
        elif isinstance(focus, (int, float)) and not isinstance(focus, bool) \
                and float(focus).is_integer() and 0 <= focus < len(tokens):
            settings = settings.copy(focus=int(focus))
        else:
            warnings.append(f"attention:set: 'focus' must be a word index 0..{len(tokens) - 1} or null; ignored")

    for key, attr in (("mask", "mask"), ("self", "include_self")):
        if key in data:
            value = data[key]
            if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
                settings = settings.copy(**{attr: bool(value)})
            else:
                warnings.append(f"attention:set: '{key}' must be true or false; ignored")
    return settings, tokens, warnings, notes
