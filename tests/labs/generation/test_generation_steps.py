"""What the generation path's student reads: its first step opens on the letters its task names, its
end offers no way into the trained model she is already in, and the real models' numbers name their
sources as links she can open."""

import re

from app.lexicon import Lexicons
from app.page import Page
from app.remote import Screen
from tests.test_engine_page import Timers
from tests.test_glossary import written_html


def started(pairs):
    page = Page(Screen(lambda ops: None), Lexicons(), Timers())
    ops = page.receive({"type": "start", "framed": False, "address": {"base": "http://x/", "pairs": pairs},
                        "early": None, "state": "", "queue": []})
    return page, written_html(ops)[1]


def test_the_first_step_opens_on_the_letters_its_task_names_and_typed_letters_stay():
    """A link to step 1 shows «a b c d e f g h a b c», the letters "try this" quotes, the last one
    selected; letters the student typed are kept instead."""
    for lang, quote in (("it", "«a b c d e f g h a b c»"), ("en", "“a b c d e f g h a b c”")):
        page, shown = started([("lang", lang), ("path", "generation"), ("step", "1")])
        assert page.settings.text == "a b c d e f g h a b c" and quote in shown
        assert page.settings.focus == 11  # (the start token, then 11 letters: the last "c")
    page, _ = started([("lang", "it"), ("mode", "model"), ("s", "x y z x y"), ("path", "generation"), ("step", "1")])
    assert page.settings.text == "x y z x y"


def test_the_generation_paths_end_has_no_button_into_the_model_the_student_is_in():
    """The last step (in model mode) ends with the way to the explorer only; the formula path's end
    still offers the trained model."""
    _, shown = started([("lang", "it"), ("path", "generation"), ("step", "6")])
    assert 'id="path-end-exit"' in shown and 'id="path-end-model"' not in shown
    _, shown = started([("lang", "it"), ("path", "formula"), ("step", "12")])
    assert 'id="path-end-model"' in shown


def test_the_real_models_sources_are_links_not_a_repository_path():
    """The real models' cache table names its sources as https links opening in a new tab, and no
    "docs/…" path."""
    for lang in ("it", "en"):
        _, shown = started([("lang", lang), ("path", "generation"), ("step", "4")])
        view = shown[shown.index('id="view-cache-sizes"'):]
        links = re.findall(r'<a href="(https://[^"]+)" target="_blank" rel="noopener noreferrer">', view)
        assert {"https://arxiv.org/abs/2307.09288", "https://arxiv.org/abs/2405.04434"} <= set(links)
        assert "docs/generation.md" not in shown
