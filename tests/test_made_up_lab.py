"""A lab is one folder, for real: a made-up lab written as `app/labs/madeup/` alone in a copy of the
app (a manifest with a setting and a button, a module with a view, its two-step path and their
strings in both languages, a style.css, a bench row) is found everywhere the labs are read: links, host messages,
the command line, the state JSON and its schema, docs/parameters.md, an embedded widget's `view=`, the `path`
setting's choices and the path's bar, a click on its button, the stylesheet `make build` writes.
With the folder gone, none of it is anywhere."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MANIFEST = '''"""A made-up lab: one switch, one button, one view, a path of two steps."""

from app.labs import Lab
from app.setting import Setting

LAB = Lab(
    id="madeup",
    settings=(
        Setting(attr="made_up", url="made", host="made", control="made", kind="flag", default=False,
                note="link_flag_bad", state="made_up", help="the made-up lab's switch", example="1"),
    ),
    clicks={"made-press": "view.press"},
)
'''

VIEW = '''"""The made-up lab's view: its switch, its button, and a line that says whether the switch is on."""

from app import path, settings as schema
from app.i18n import text
from app.views import registry
from app.views.html import esc


def render(ctx):
    lang, on = ctx.lang, ctx.settings.made_up
    inner = (f'<label><input type="checkbox" name="made" id="made"{" checked" if on else ""}> '
             f'{esc(text(lang, "made_switch"))}</label>'
             f'<button type="button" id="made-press">{esc(text(lang, "made_press"))}</button>'
             f'<p class="made-line">{esc(text(lang, "made_on" if on else "made_off"))}</p>')
    return registry.section("made-up", inner, "made-up-section")


def press(page):
    """The button turns the switch over, as the switch itself would."""
    page.apply(schema.BY_ATTR["made_up"], not page.settings.made_up)


VIEW_DECLARED = registry.add(registry.View(
    id="made-up", place=66, tab=True, explorer=False, draw=render,
    strings={"it": {"view_made-up": "Inventata", "made_switch": "Interruttore inventato", "made_press": "Premi",
                    "made_on": "È acceso.", "made_off": "È spento."},
             "en": {"view_made-up": "Made up", "made_switch": "Made-up switch", "made_press": "Press",
                    "made_on": "It is on.", "made_off": "It is off."}}))
registry.add_strings({
    "it": {"path_madeup_name": "Un laboratorio inventato", "path_madeup_one_title": "Il primo passo",
           "path_madeup_one_text": "Accendi l'interruttore.", "path_madeup_one_try": "Premi il pulsante.",
           "path_madeup_one_answer": "La frase cambia.", "path_madeup_two_title": "Il secondo passo",
           "path_madeup_two_text": "Ancora la vista.", "path_madeup_two_try": "Guardala.",
           "path_madeup_two_answer": "È la stessa."},
    "en": {"path_madeup_name": "A made-up lab", "path_madeup_one_title": "The first step",
           "path_madeup_one_text": "Turn the switch on.", "path_madeup_one_try": "Press the button.",
           "path_madeup_one_answer": "The line changes.", "path_madeup_two_title": "The second step",
           "path_madeup_two_text": "The view again.", "path_madeup_two_try": "Look at it.",
           "path_madeup_two_answer": "It is the same."}})
PATH = registry.add_path(path.Path(id="madeup", steps=(path.Step(id="one", shows=("made-up", "bars")),
                                                       path.Step(id="two", shows=("made-up",)))))
'''

STYLE = ".made-line { font-style: italic; }\n"

BENCH = '''"""The made-up lab's row in `make bench`: its switch turned over at 200 words."""

from app.labs import Bench

BENCH = (Bench(group="madeup", label="Setting change (the made-up switch), 200 words", query="&view=made-up",
               block=2, script="return [];"),)
'''

# Run by the copy's own Python: every place a lab reaches, read back.
PROBE = r"""
import json, subprocess, sys
from pathlib import Path
from app import contract, labs, render, settings as schema
from app.lexicon import Lexicons, load_lexicon
from app.page import Page
from app.remote import Screen
from app.views import registry
from tools import bench, build, docs


class Timers:
    setTimeout = staticmethod(lambda work, ms: 0)
    proxy = staticmethod(lambda work: work)


def started(query):
    page = Page(Screen(lambda ops: None), Lexicons(), Timers())
    pairs = [tuple(p.split("=", 1)) for p in query.split("&")]
    ops = page.receive({"type": "start", "framed": False, "address": {"base": "http://x/", "pairs": pairs},
                        "early": None, "state": "", "queue": []})
    return page, json.loads(ops)


lexicons = {lang: load_lexicon(lang) for lang in ("it", "en")}
seen = {"labs": list(labs.ids()), "url_keys": list(schema.URL_KEYS), "host_keys": list(schema.HOST_KEYS),
        "views": list(schema.BY_ATTR["view"].choices), "paths": list(schema.BY_ATTR["path"].choices),
        "parameters": docs.parameters_markdown() + docs.views_markdown(),
        "schema": json.loads(docs.state_schema_text(open("docs/state-v2.schema.json", encoding="utf-8").read())),
        "css": registry.with_css(open(sys.argv[1], encoding="utf-8").read()),
        "cli": subprocess.run([sys.executable, "-m", "app", "--help"], capture_output=True, text=True).stdout,
        "bench": list(bench.GROUPS),
        "archived": [p for paths in build.archives(Path(".")).values() for p in paths]}
if "madeup" in seen["labs"]:
    settings, notes = schema.parse_params("?made=1&focus=2", lexicons)
    tokens, _ = schema.check_sentence(settings.sentence, lexicons["it"])
    host, _, warnings, _ = schema.host_update(settings, tokens, {"type": "attention:set", "made": False}, lexicons)
    state = contract.build_state(settings, tokens, contract.compute(settings, tokens))
    seen.update(link=settings.made_up, notes=[n.key for n in notes], query=schema.page_query(settings),
                host=host.made_up, warnings=warnings, state=state["made_up"])
    for lang in ("it", "en"):
        page, ops = started(f"lang={lang}&path=madeup&step=1")
        clicked = json.loads(page.receive({"type": "click", "context": {"target": {"id": "made-press", "className": ""}}}))
        embedded, _ = started(f"lang={lang}&s=Il gatto dorme&focus=1&view=made-up")
        tabs = render.render_app(embedded.settings, embedded.tokens, embedded.record, embedded.row)
        seen[lang] = {"step": json.dumps(ops, ensure_ascii=False), "pressed": page.settings.made_up,
                      "after_click": json.dumps(clicked, ensure_ascii=False), "embed": embedded.settings.view,
                      "tab": 'value="made-up"' in tabs}
print(json.dumps(seen))
"""


def probe(tmp_path, with_lab):
    for folder in ("app", "lexicon", "model", "tools", "docs"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__", "*.zip", "*.png"))
    if with_lab:
        lab = tmp_path / "app" / "labs" / "madeup"
        lab.mkdir()
        (lab / "__init__.py").write_text(MANIFEST, encoding="utf-8")
        (lab / "view.py").write_text(VIEW, encoding="utf-8")
        (lab / "style.css").write_text(STYLE, encoding="utf-8")
        (lab / "bench.py").write_text(BENCH, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", PROBE, str(ROOT / "static" / "style.css")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_lab_written_as_one_folder_is_found_everywhere_the_labs_are_read(tmp_path):
    """The folder alone: ?made=1 reads its switch and writes it back, a host message sets it, the state
    has its key, docs/parameters.md and the command line's help list its parameter, view and path, the
    path opens on its first of two steps with its title in each language, its button turns the switch
    over, an embed's view= shows its tab, `make build`'s stylesheet carries its style.css, its archive
    its modules, and `make bench` its row (never the browser's archive)."""
    seen = probe(tmp_path, with_lab=True)
    assert "madeup" in seen["labs"] and "made" in seen["url_keys"] and "made" in seen["host_keys"]
    assert seen["link"] is True and seen["notes"] == [] and "made=1" in seen["query"].split("&")
    assert seen["host"] is False and seen["warnings"] == [] and seen["state"] is True
    assert "made-up" in seen["views"] and "madeup" in seen["paths"]
    assert "`made`" in seen["parameters"] and "`#view-made-up`" in seen["parameters"]
    assert "`path=madeup`: 2 steps" in seen["parameters"]
    assert ".made-line { font-style: italic; }" in seen["css"] and "app/labs/madeup/style.css" in seen["css"]
    assert "--made" in seen["cli"] and "the made-up lab's switch" in seen["cli"]
    assert "madeup" in seen["bench"], "its bench row is a group of `make bench`"
    assert "app/labs/madeup/view.py" in seen["archived"] and "app/labs/madeup/bench.py" not in seen["archived"]
    made = seen["schema"]["properties"]["made_up"]
    assert made["type"] == "boolean" and made["x-lab"] == "madeup" and "made_up" in seen["schema"]["required"]
    for lang, (title, name, on) in {"it": ("Il primo passo", "Un laboratorio inventato", "È acceso."),
                                    "en": ("The first step", "A made-up lab", "It is on.")}.items():
        got = seen[lang]
        assert title in got["step"] and name in got["step"] and "1 / 2" in got["step"], lang
        assert got["pressed"] is True and on in got["after_click"], lang
        assert got["embed"] == "made-up" and got["tab"], lang


def test_without_its_folder_the_made_up_lab_is_nowhere(tmp_path):
    """The same copy without the folder: no parameter, host key, view, path, docs or help line, style,
    archive or bench row of it."""
    seen = probe(tmp_path, with_lab=False)
    assert "madeup" not in seen["labs"] and "made" not in seen["url_keys"] and "made" not in seen["host_keys"]
    assert "made-up" not in seen["views"] and "madeup" not in seen["paths"]
    assert "`made`" not in seen["parameters"] and "made-up" not in seen["parameters"]
    assert "made-line" not in seen["css"] and "madeup" not in seen["css"]
    assert "--made" not in seen["cli"] and "madeup" not in seen["bench"]
    assert not any("madeup" in p for p in seen["archived"])
    assert "made_up" not in seen["schema"]["properties"] and "made_up" not in seen["schema"]["required"]
