"""What the student edits by hand: a card's or a matrix's cell, matrix mode's Q, K, V boxes and
its compare field, and two words swapped.

Editable cells (name="cell", views/editor.py) commit on change and Enter and cancel on Escape
without redrawing the editor, so Tab moves on as the student expects; a number that cannot be
read keeps its text and says why. Matrix mode's boxes apply with "Compute" (views/matrix_mode.py).
Each function takes the widget (an app.page.Page) and changes it through its `render`.
"""

import random

from app import matrices, order, render, settings as schema
from app.i18n import short, text
from app.views import matrix_mode


def cell_problem(page, cell, message):
    """Mark a cell invalid with `message` (the text typed stays), or clear the mark."""
    if message is None:
        cell.removeAttribute("aria-invalid")
        cell.removeAttribute("aria-describedby")
        page.region("edit-message").textContent = ""
    else:
        cell.setAttribute("aria-invalid", "true")
        cell.setAttribute("aria-describedby", "edit-message")
        page.region("edit-message").textContent = message


def commit_cell(page, cell):
    """Enter, Tab or leaving a cell: a good number recomputes at once (the editor stays, so
    focus moves on as the student asked); a bad one keeps its text and says why."""
    lang = page.settings.lang
    matrix, r, c = cell.dataset.matrix, int(cell.dataset.r), int(cell.dataset.c)
    try:
        value = matrices.parse_cell(cell.value)
    except matrices.Unreadable as problem:
        cell_problem(page, cell, text(lang, problem.key, **problem.params) + " "
                     + text(lang, "cell_kept", value=cell.dataset.value))
        return
    cell_problem(page, cell, None)
    current = [t.card for t in page.tokens] if matrix == "cards" else getattr(page.record, matrix)
    if value == current[r][c]:
        cell.value = cell.dataset.value
        return
    edited = tuple(tuple(value if (i, j) == (r, c) else float(x) for j, x in enumerate(row))
                   for i, row in enumerate(current))
    page.render(page.settings.copy(**{matrix: edited}), page.lexicon_tokens, ())
    if matrix == "cards":  # the cards under the words follow
        page.region("sentence").innerHTML = render.render_words(page.settings, page.tokens, page.record)
    shown = short(value, lang, "full")
    cell.dataset.value = cell.value = shown
    changed = value != float(cell.dataset.designed)
    cell.classList.toggle("edited", changed)
    cell.nextElementSibling.textContent = "✎" if changed else ""
    cell.setAttribute("aria-label", cell.dataset.label + (f" ({text(lang, 'edited_mark')})" if changed else ""))


def cancel_cell(page, cell):
    """Escape: the cell shows the number in use again."""
    cell.value = cell.dataset.value
    cell_problem(page, cell, None)


def matrix_boxes(page):
    """Read the Q, K, V boxes: ({name: matrix or None}, {name: message}) (empty box: None)."""
    lang = page.settings.lang
    found, problems = {}, {}
    for name in matrix_mode.INPUTS:
        typed = page.region("mm-" + name).value
        if not typed.strip() and name != "q":
            found[name] = None
            continue
        try:
            found[name] = matrices.parse(typed)
        except matrices.Unreadable as problem:
            message = text(lang, problem.key, **problem.params)
            if "row" in problem.params and problem.key.startswith("cell_"):
                message = text(lang, "matrix_in_row", row=problem.params["row"], message=message)
            problems[name] = message
    if not problems:
        shape = matrices.shape_problem(*matrices.resolve(found["q"], found["k"], found["v"]))
        if shape is not None:
            problems["k" if shape.key == "shape_qk" else "v"] = text(lang, shape.key, **shape.params)
    return found, problems


def apply_boxes(page):
    """'Compute': the typed Q, K, V replace the matrices; any problem is said beside its box
    (the text stays, nothing is recomputed)."""
    found, problems = matrix_boxes(page)
    for name in matrix_mode.INPUTS:
        box, message = page.region("mm-" + name), problems.get(name)
        page.region(f"mm-{name}-message").textContent = message or ""
        if message:
            box.setAttribute("aria-invalid", "true")
        else:
            box.removeAttribute("aria-invalid")
    if problems:
        page.region("mm-" + next(n for n in matrix_mode.INPUTS if n in problems)).focus()
        return
    settings = page.settings
    focus = settings.focus if settings.focus is not None and settings.focus < len(found["q"]) else 0
    page.render(settings.copy(q=found["q"], k=found["k"], v=found["v"], seed=None, focus=focus),
                page.lexicon_tokens, ("sentence",))
    page.region("mm-apply").focus()


def random_matrices(page):
    """'Random': new Q, K, V from a random seed."""
    seed = random.randint(0, schema.SEED_MAX)
    page.render(page.settings.copy(seed=seed, focus=0), page.lexicon_tokens, ("sentence",))
    page.region("mm-random").focus()


def example_matrices(page, target):
    """An example of matrix mode picked from its list."""
    if target.value == "":
        return
    _, q, k, v = matrices.EXAMPLES[int(target.value)]
    page.render(page.settings.copy(q=q, k=k, v=v, seed=None, focus=0), page.lexicon_tokens, ("sentence",))
    page.region("mm-example").focus()


def show_compare(page, typed, step):
    """Mark the typed matrix's cells against the page's step (kept across recomputes)."""
    page.compare = (typed, step)
    page.region("cmp-text").value = typed
    page.region("cmp-step").value = step
    page.region("compare-result").innerHTML = matrix_mode.compare(page.record, typed, step, page.settings.lang)


def compare_typed(page):
    """'Compare': the typed matrix against the chosen step."""
    show_compare(page, page.region("cmp-text").value, page.region("cmp-step").value)


def swap(page):
    """Swap the two words chosen; say whether the weights just moved with them."""
    a, b = int(page.region("swap-a").value), int(page.region("swap-b").value)
    before, words = page.record, [t.text for t in page.lexicon_tokens]
    if a == b or before is None:
        return
    settings = page.settings
    sentence = " ".join(order.swapped(words, a, b))
    tokens, problem = schema.check_sentence(sentence, page.lexicons[schema.reading(settings)], settings.limit)
    if tokens is None or len(tokens) != len(words):
        page.set_messages([problem] if problem else [])
        return
    focus = settings.focus
    focus = None if focus is None else order.permutation(len(words), a, b)[focus]
    # the cards travel with their words (the lexicon might read a moved capital otherwise)
    cards = tuple(tuple(c) for c in order.swapped([t.card for t in page.tokens], a, b))
    page.render(settings.copy(sentence=sentence, text=sentence, focus=focus, cards=cards), tokens, ("sentence",))
    said = text(page.settings.lang, order.verdict(before, page.record, a, b), a=words[a], b=words[b])
    page.region("swap-a").value, page.region("swap-b").value = str(a), str(b)
    page.region("order-result").textContent = said
    page.region("swap").focus()


def reset_edits(page):
    """'Reset the edits': the designed matrices and the lexicon's cards again."""
    page.render(page.settings.copy(w_q=None, w_k=None, w_v=None, cards=None), page.lexicon_tokens, ("sentence",))
    page.region("reset-edits").focus()
