"""Header, the first screen's controls (sentence box, examples, language), the settings
(switches, temperature, distance, head, reset), the share buttons and the page's about text."""

import math

from app import attention, heads, i18n, model, path, settings as schema
from app.i18n import short, text
from app.views.html import esc

SLOPE_CONTROL_MAX = 2.0  # the slope slider (control "pos"): 0 (off) to 2 in quarters; links allow up to 10


GUIDE = {"it": "teachers.html", "en": "teachers.en.html"}  # the guide's pages in the bundle (tools/guide.py)


def render_header(lang):
    """The one-line title (the explanation is at the page's end: render_about); in embed mode
    (CSS) only a small help that opens the explanation, and a link that opens the same state in
    a new tab."""
    return (
        f'<div class="full-header"><h1>{esc(text(lang, "title"))}</h1>'
        # (one line of what the page is, for a student arriving from a link: the rest is at the
        # end, #about; and the teachers' guide, a page of the bundle: tools/guide.py)
        f'<p class="tagline"><span class="tag-text">{esc(text(lang, "tagline"))} </span>'
        f'<a href="#about">{esc(text(lang, "tagline_more"))}</a><span class="tag-sep"> · </span>'
        f'<a class="for-teachers" href="{GUIDE[lang]}">{esc(text(lang, "for_teachers"))}</a></p></div>'
        f'<div class="embed-bar"><details class="embed-help"><summary>{esc(text(lang, "help_summary"))}</summary>'
        f'<p><strong>{esc(text(lang, "subtitle"))}</strong> {esc(text(lang, "intro"))}</p></details>'
        # The same state in a tab of its own (static/boot.js gives the link the current address
        # when followed): where the browser forbids storage to a frame, the page is first-party there.
        f'<a class="open-top" href="./" target="_blank" rel="noopener" data-open-top>'
        f'{esc(text(lang, "open_top"))}<span aria-hidden="true"> ↗</span></a></div>'
    )


def render_about(lang, interactive=True, mode="sentence", locked=False):
    """What the page is and how to use it, after the views (the first screen is the sentence),
    and the way to the trained model (model mode has its own way back). Not in a graded exercise
    (`locked`), which never leaves its sentence, nor in a copy of the page without the model's
    files (app/model.py, left_out): no button there promises what it cannot show."""
    off = "" if interactive is True else " disabled"
    about = f'<h2>{esc(text(lang, "subtitle"))}</h2><p class="intro">{esc(text(lang, "intro"))}</p>'
    if mode == "model" or locked or model.left_out():
        return about
    return (about + f'<p class="intro">{esc(text(lang, "about_model"))}</p>'
            f'<button type="button" class="secondary" id="model-start"{off}>{esc(text(lang, "mode_model"))}'
            '<span aria-hidden="true"> →</span></button>')


SHARE = (("copy-link", "copy_link"), ("copy-embed", "copy_embed"), ("export-csv", "export_csv"),
         ("export-matrix", "export_matrix"), ("export-png", "export_png"), ("export-svg", "export_svg"),
         ("copy-exercise", "copy_exercise"), ("copy-exercise-embed", "copy_exercise_embed"))
LOCKED_OUT = ("export-csv", "export-matrix", "export-png", "export-svg")  # not in a graded exercise
# (nor the package button: package_controls)
MODEL_SHARE = ("copy-link", "copy-embed")  # the trained model: its link (the exports are the designed heads')


def render_share(lang, interactive=True, mode="sentence", locked=False):
    """Copy link, copy embed code, download the table, the matrix and the picture; a box and a status line.
    `locked` (a graded exercise): no download, which would hold weights not guessed yet."""
    off = "" if interactive else " disabled"
    buttons = "".join(
        f'<button type="button" class="secondary" id="{bid}"{off}>{esc(text(lang, key))}</button>'
        for bid, key in SHARE if (mode != "model" or bid in MODEL_SHARE) and not (locked and bid in LOCKED_OUT))
    packaged = mode == "sentence" and not locked  # (a package is a sentence's graded exercise)
    if packaged:
        buttons += package_controls(lang, off)
    return (f'<h2>{esc(text(lang, "share_heading"))}</h2><div class="share-buttons">{buttons}</div>'
            f'<label class="sr-only" for="share-text">{esc(text(lang, "share_text_label"))}</label>'
            '<textarea id="share-text" class="share-text" readonly rows="3" hidden></textarea>'
            '<p id="share-status" class="share-status" role="status"></p>'
            + (f'<progress id="package-progress" class="package-progress" max="100" value="0" hidden '
               f'aria-label="{esc(text(lang, "package_progress"))}"></progress>' if packaged else ""))


PACKAGE_KINDS = ("1.2", "2004", "bundle")  # the package button's choices (static/package.js builds each)


def package_controls(lang, off):
    """The package button, next to the exercise's links: a SCORM package of the exercise on
    screen (1.2 or 2004), or the page's plain folder, built by the browser (static/package.js)."""
    options = "".join(f'<option value="{kind}">{esc(text(lang, "package_" + kind.replace(".", "")))}</option>'
                      for kind in PACKAGE_KINDS)
    return (f'<span class="package-choice"><label for="package-kind">{esc(text(lang, "package_kind"))}</label> '
            f'<select id="package-kind"{off}>{options}</select></span>'
            f'<button type="button" class="secondary" id="package-scorm"{off}>{esc(text(lang, "package_scorm"))}</button>')


def switch(name, checked, lang, off):
    """A checkbox switch named after its setting (name = the setting's control)."""
    on = " checked" if checked else ""
    return (f'<label class="switch"><input type="checkbox" id="{name}" name="{name}"{on}{off}> '
            f'<span>{esc(text(lang, name))}<small>{esc(text(lang, name + "_hint"))}</small></span></label>')


def temperature_value(t, lang):
    return text(lang, "temp_value", t=short(t, lang))


def slider(name, said, low, high, position, lang, off, klass="temperature", step=0.25, hint=True):
    """A range input named after its setting, its value said in words beside its label (and its
    hint under it: `name`_hint in app/i18n.py)."""
    said = esc(said)
    return (f'<div class="{klass}"><label for="{name}">{esc(text(lang, name))} '
            f'<span id="{name}-value" aria-hidden="true">{said}</span></label>'
            f'<input type="range" id="{name}" name="{name}" min="{low:g}" max="{high:g}" '
            f'step="{step:g}" value="{position:g}" aria-valuetext="{said}"{off}>'
            + (f'<small>{esc(text(lang, name + "_hint"))}</small>' if hint else "") + '</div>')


def checkpoint_value(step, lang):
    """What the training slider says after its label: "790 of 3000" (also as it moves: app/page.py)."""
    return text(lang, "model_checkpoint_value", step=step, last=model.steps()[-1])


def checkpoint_slider(step, lang, off=""):
    """The training slider, in the settings (name="checkpoint": its position is the kept
    checkpoint's index; a step moved to redraws the views, not the slider being dragged)."""
    kept = model.steps()
    index = kept.index(step) if step in kept else len(kept) - 1
    return slider("checkpoint", checkpoint_value(kept[index], lang), 0, len(kept) - 1, index, lang, off,
                  "temperature checkpoint", step=1, hint=False)


def temperature_slider(t, lang, off):
    """The temperature T on a doubling scale (each step × 2^¼), ⅛ to 8."""
    low, high = schema.TEMPERATURE_CONTROL
    position = min(max(math.log2(t), math.log2(low)), math.log2(high))
    return slider("temp", temperature_value(t, lang), math.log2(low), math.log2(high), position, lang, off)


def mode_choice(mode, lang, off):
    """Sentence, matrix or model mode: native radio buttons named after the setting (the model's
    says it is not in this copy once its files were found left out: app/model.py)."""
    items = "".join(
        f'<label class="mode-choice"><input type="radio" name="mode" value="{m}"'
        f'{" checked" if m == mode else ""}{off}> '
        f'{esc(text(lang, "mode_model_left_out" if m == "model" and model.left_out() else "mode_" + m))}</label>'
        for m in schema.MODES)
    return f'<fieldset class="modes"><legend>{esc(text(lang, "mode"))}</legend>{items}</fieldset>'


def slope_value(slope, lang, paper=None):
    """What the distance-bias slider says: "m = 0,5" (the course writes the slope m), ALiBi's own
    slope when that is what applies (`paper`: the position lab's ALiBi with the slider at 0), or
    off."""
    if slope:
        return text(lang, "pos_value", m=short(slope, lang))
    if paper:
        return text(lang, "pos_paper", m=short(paper, lang, "full"))
    return text(lang, "pos_off")


def slope_in_effect(settings):
    """The paper's slope the active head takes under ALiBi while the slider is at 0 (None: the
    slider's own value is what applies). Matrix mode has one head, the first (app/contract.py,
    head_slope)."""
    if settings.position != "alibi" or settings.slope > 0 or settings.mode == "model":
        return None
    return attention.alibi_slopes(len(heads.HEADS))[0 if settings.mode == "matrix" else settings.head]


def slope_said(settings, slope=None):
    """The slider's words for `settings` (with the slider at `slope`, when given)."""
    settings = settings if slope is None else settings.copy(slope=slope)
    return slope_value(settings.slope, settings.lang, slope_in_effect(settings))


def slope_slider(settings, lang, off):
    """The distance-bias slope m (0 = off … 2 on the slider; links allow up to 10)."""
    slope = settings.slope
    return slider("pos", slope_said(settings), 0, SLOPE_CONTROL_MAX, min(slope, SLOPE_CONTROL_MAX), lang, off,
                  "temperature pos")


def render_controls(settings, interactive=True):
    """The first screen's controls, one row above the sentence: the sentence box, the examples
    and the language. `interactive` "early": all wait for Python (static/early.js)."""
    lang = settings.lang
    off = "" if interactive is True and not settings.lock else " disabled"  # (a graded exercise: fixed)
    options = [f'<option value="">{esc(text(lang, "presets_pick"))}</option>']
    for i, (sentence, _) in enumerate(schema.examples(lang, settings.mode)):
        selected = " selected" if sentence == settings.sentence else ""
        options.append(f'<option value="{i}"{selected}>{esc(sentence)}</option>')
    langs = []
    for code, name in (("it", "Italiano"), ("en", "English")):
        checked = " checked" if code == lang else ""
        langs.append(
            f'<label class="lang-choice" lang="{code}"><input type="radio" name="lang" '
            f'value="{code}"{checked}{off}> {name}</label>'
        )
    hidden = " hidden" if settings.mode == "matrix" else ""  # matrix mode: no sentence
    # Which lexicon reads the sentence (the `lexicon` setting): the page's language is not the
    # sentence's, and a student may choose it. Letters (model mode) and matrices are read by none.
    words = schema.reading(settings)
    lexicons = "".join(f'<option value="{code}"{" selected" if code == words else ""}>'
                       f'{esc(text(lang, "lexicon_" + code))}</option>' for code in ("it", "en"))
    read_by = "" if settings.mode != "sentence" else (
        f'<div class="lexicon-choice"><label for="lexicon">{esc(text(lang, "lexicon_label"))}</label>'
        f'<select id="lexicon" name="lexicon"{off}>{lexicons}</select></div>')
    return (
        f'<form id="sentence-form" class="sentence-form" autocomplete="off"{hidden}>'
        f'<label for="sentence-input">{esc(text(lang, "model_letters_label" if settings.mode == "model" else "sentence_label"))}</label>'
        '<div class="input-row">'
        f'<input id="sentence-input" name="s" type="text" value="{esc(settings.text)}" '
        f'spellcheck="false"{off}>'
        f'<button type="submit" id="analyse"{off}>{esc(text(lang, "analyse"))}</button>'
        + read_by +
        "</div></form>"
        '<div class="first-options">'
        f'<label class="preset-label" for="preset"{hidden}>{esc(text(lang, "presets_label"))}</label>'
        f'<select id="preset" name="preset"{off}{hidden}>{"".join(options)}</select>'
        f'<fieldset class="langs"><legend>{esc(text(lang, "lang_legend"))}</legend>{"".join(langs)}</fieldset>'
        "</div>"
    )


def render_settings(settings, interactive=True):
    """The settings, under the sentence and above the views they change. In view: the explorer's
    mask and include-self, or the controls of the guided path's step (app/path.py); the others
    (mode, √d_k, guess first, temperature, distance, head, reset) behind "More settings", open
    when any of them is not its default, each still a control of its own in the URL and by
    keyboard. In the explorer, the way into the guided path ends the row.
    `interactive` "early": only the mask and include-self are enabled (static/early.js)."""
    lang = settings.lang
    off = "" if interactive is True else " disabled"
    if settings.mode == "model":  # the trained model: the training slider, none of the designed heads'
        try:
            slider_html = checkpoint_slider(model.nearest_step(settings.checkpoint), lang, off)
        except model.Unavailable:
            slider_html = ""
        return (f'<h2 class="sr-only">{esc(text(lang, "settings_aria"))}</h2><div class="options">'
                f'{slider_html}{mode_choice(settings.mode, lang, off)}</div><div class="more-row">'
                f'<details class="more-settings"><summary>{esc(text(lang, "more_settings"))}</summary>'
                f'<div class="options"><button type="button" class="secondary" id="reset"{off}>'
                f'{esc(text(lang, "reset"))}</button></div></details></div>')
    early = "" if interactive else " disabled"  # "early": the switches static/early.js answers are on
    if settings.lock:  # a graded exercise: its switches as the teacher set them, guess first on
        off = early = " disabled"
    from app.views.heads import head_select  # heads' controls (app/views/heads.py)
    matrix = settings.mode == "matrix"  # matrix mode: no heads
    controls = {  # control name -> (its setting's attribute, its HTML)
        "mask": ("mask", switch("mask", settings.mask, lang, early if schema.mask_possible(settings) else " disabled")),
        "self": ("include_self", switch("self", settings.include_self, lang, early)),
        "mode": ("mode", mode_choice(settings.mode, lang, off)),
        "scaled": ("scaled", switch("scaled", settings.scaled, lang, off)),
        "temp": ("temperature", temperature_slider(settings.temperature, lang, off)),
        "quiz": ("quiz", switch("quiz", settings.quiz, lang, off)),
        "pos": ("slope", slope_slider(settings, lang, off)),
        "head": ("head", head_select(settings, lang, off) if not matrix else ""),
    }
    in_view = path.controls_in_view(settings.step, settings.path)
    # (open when a link set one of them: a student sees what the teacher changed)
    plain = schema.default_settings(lang)
    changed = any(getattr(settings, attr) != getattr(plain, attr)
                  for name, (attr, _) in controls.items() if name not in in_view)
    start = "" if settings.step is not None or settings.lock else (
        f'<button type="button" class="secondary path-start" id="step-start"{off}>{esc(text(lang, "path_name"))}'
        '<span aria-hidden="true"> →</span></button>')
    return (
        f'<h2 class="sr-only">{esc(text(lang, "settings_aria"))}</h2><div class="options">'
        + "".join(controls[name][1] for name in in_view if name in controls)
        + '</div><div class="more-row">'
        f'<details class="more-settings"{" open" if changed else ""}><summary>{esc(text(lang, "more_settings"))}'
        f'<span class="more-list">{esc(text(lang, "more_settings_list"))}</span></summary>'
        '<div class="options">'
        + "".join(html for name, (_, html) in controls.items() if name not in in_view)
        + f'<button type="button" class="secondary" id="reset"{off}>{esc(text(lang, "reset"))}</button>'
        "</div></details>" + start + "</div>"
    )
