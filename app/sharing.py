"""Share and export: the page's link, its embed snippet and an exercise link copied, the steps
table and the whole matrix downloaded as CSV (their text: app/export.py).

Copying puts the text in the visible box, selected, and tries the clipboard two ways (inside
an LMS iframe the clipboard is often refused: the box is then there to copy by hand).
Each function takes the widget (an app.page.Page).
"""

from pyodide.ffi import create_proxy, to_js

from app import export
from app.i18n import text


def say(page, message):
    page.region("share-status").textContent = message


async def copy(page, value):
    """Put `value` in the visible box, selected, and try the clipboard (two ways)."""
    area = page.region("share-text")
    area.hidden = False
    area.value = value
    area.focus()
    area.select()
    lang = page.settings.lang
    try:
        await page.window.navigator.clipboard.writeText(value)
        say(page, text(lang, "copied"))
        return
    except Exception:  # noqa: BLE001 - no clipboard permission (e.g. inside an LMS iframe)
        pass
    try:
        copied = bool(page.document.execCommand("copy"))
    except Exception:  # noqa: BLE001
        copied = False
    say(page, text(lang, "copied" if copied else "copy_manual"))


def download(page, data, name):
    """Offer `data` (CSV text) as the file `name`."""
    js = page.js
    options = to_js({"type": "text/csv;charset=utf-8"}, dict_converter=js.Object.fromEntries)
    blob = js.Blob.new(to_js([data]), options)
    url = js.URL.createObjectURL(blob)
    link = page.document.createElement("a")
    link.href = url
    link.download = name
    page.document.body.appendChild(link)
    link.click()
    link.remove()
    js.setTimeout(create_proxy(lambda: js.URL.revokeObjectURL(url)), 1000)
    say(page, text(page.settings.lang, "downloaded", file=name))


async def copy_link(page):
    await copy(page, page.url(embed=False))


async def copy_embed(page):
    await copy(page, export.embed_snippet(page.url(embed=True), page.settings.lang))


async def copy_exercise(page):
    await copy(page, page.url(embed=False, quiz=True))


async def copy_exercise_embed(page):
    await copy(page, export.embed_snippet(page.url(embed=True, quiz=True), page.settings.lang))


def steps_csv(page):
    if page.row is not None:
        download(page, export.steps_csv(page.row, page.tokens, page.settings.lang),
                 export.csv_filename(page.tokens, page.row, page.settings.lang))


def matrix_csv(page):
    if page.record is not None:
        download(page, export.matrix_csv(page.record, page.tokens, page.settings.lang),
                 export.matrix_filename(page.settings.lang))
