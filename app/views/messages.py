"""Notes for the student (bad input, odd links, the numbers' fine print) and lexicon problems."""

from app import i18n
from app.i18n import text
from app.views.html import esc


def note_text(note, lang):
    """The sentence for a settings.Note, translating notes nested in its parameters."""
    params = {k: (note_text(v, lang) if hasattr(v, "key") else v) for k, v in note.params.items()}
    return text(lang, note.key, **params)


def problem_text(problem, lang):
    """The sentence for a lexicon.Problem: file, line and what is wrong."""
    what = i18n.STRINGS[lang]["lexicon_problems"][problem.key].format(detail=problem.detail)
    return text(lang, "lexicon_problem", file=problem.file, line=problem.line, what=what)


def render_messages(notes, problems, lang):
    """Notes for the student (bad input, odd links) and lexicon problems for the teacher."""
    parts = []
    if notes:
        items = "".join(f'<li class="{esc(n.level)}">{esc(note_text(n, lang))}</li>' for n in notes)
        parts.append(f'<ul class="notes">{items}</ul>')
    if problems:
        items = "".join(f"<li>{esc(problem_text(p, lang))}</li>" for p in problems)
        parts.append(f'<details class="lexicon-problems"><summary>{len(problems)} × '
                     f'{esc(problem_text(problems[0], lang))}</summary><ul>{items}</ul></details>')
    return "".join(parts)
