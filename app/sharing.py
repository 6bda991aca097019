"""Share and export: the page's link, its embed snippet and an exercise link copied, the steps
table and the whole matrix downloaded as CSV (their text: app/export.py), the bars and the
matrix as a picture, SVG or PNG (app/picture.py).

Copying puts the text in the visible box, selected, and tries the clipboard two ways (inside
an LMS iframe the clipboard is often refused: the box is then there to copy by hand).
Each function takes the widget (an app.page.Page).
"""

from app import export, picture, render, settings as schema
from app.i18n import text


def local_host(address):
    """The host of `address` when only this computer can open it (localhost, 127.x.x.x, [::1]),
    else None: a link copied there reaches no student."""
    host = address.split("://", 1)[-1].split("/", 1)[0].rsplit("@", 1)[-1]
    name = host[:host.index("]") + 1] if host.startswith("[") else host.split(":", 1)[0]
    return host if name.lower() in ("localhost", "[::1]", "0.0.0.0") or name.startswith("127.") else None


def copy(page, value):
    """Put `value` in the visible box, selected, and try the clipboard (two ways), saying which
    worked (static/page.js, copyText: the clipboard is the page's); a link of this computer's own
    address says so, and how to publish the page."""
    lang = page.settings.lang
    host = local_host(page.address[0])
    local = "" if host is None else " " + text(lang, "local_link", host=host)
    page.helpers.copyText(page.region("share-text"), page.region("share-status"), value,
                          text(lang, "copied") + local, text(lang, "copy_manual") + local)


def download(page, data, name):
    """Offer `data` (CSV text) as the file `name` (static/page.js, download)."""
    page.helpers.download(data, name, "text/csv;charset=utf-8")
    page.region("share-status").textContent = text(page.settings.lang, "downloaded", file=name)


def copy_link(page):
    copy(page, page.url(embed=False))


def copy_embed(page):
    copy(page, export.embed_snippet(page.url(embed=True), page.settings.lang))


def copy_exercise(page):
    copy(page, page.url(embed=False, quiz=True))


def copy_exercise_embed(page):
    copy(page, export.embed_snippet(page.url(embed=True, quiz=True), page.settings.lang))


def steps_csv(page):
    if page.row is not None:
        download(page, export.steps_csv(page.row, page.tokens, page.settings.lang),
                 export.csv_filename(page.tokens, page.row, page.settings.lang))


def matrix_csv(page):
    if page.record is not None and page.settings.mode != "model":
        download(page, export.matrix_csv(page.record, page.tokens, page.settings.lang),
                 export.matrix_filename(page.settings.lang))


def image(page, png):
    """The bars and the matrix as a picture: the SVG drawn here, offered as it is or turned into
    a PNG by the page's thread (static/page.js, picture), which says which in the status line."""
    if page.record is None or page.settings.mode == "model":  # (the designed heads' picture)
        return
    lang, settings = page.settings.lang, page.settings
    names = render.row_names(settings, page.tokens, page.record)
    name = picture.picture_name(names, page.row, lang, "png" if png else "svg")
    svg = picture.picture_svg(settings, page.tokens, page.record, page.row, names, lang)
    page.helpers.picture(svg, name, png, page.region("share-status"), text(lang, "pic_downloaded", file=name),
                         text(lang, "pic_png_failed"))


def package(page):
    """The package button: the browser builds a SCORM package of the exercise on screen (its
    settings, guess first on and lock=1: the launch's parameters), or the page's plain folder
    (static/package.js, through static/page.js's helper `package`)."""
    from app.views.controls import PACKAGE_KINDS
    if page.settings.mode != "sentence" or page.settings.lock:
        return
    kind = page.region("package-kind").value
    kind = kind if kind in PACKAGE_KINDS else PACKAGE_KINDS[0]
    lang = page.settings.lang
    parameters = "?" + schema.page_query(page.settings.copy(quiz=True, lock=True, step=None))
    texts = {name: text(lang, "package_" + name) for name in ("building", "done", "bundle_done", "failed")}
    page.helpers.package(kind, parameters, page.region("package-progress"), page.region("share-status"), texts, lang)
