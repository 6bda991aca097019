"""What leaves the page: the steps table as CSV, and the snippet to embed the page.

Pure functions (no DOM): app/main.py turns their text into a download or the clipboard.
"""

import csv
import io
from html import escape

from app import i18n

CSV_COLUMNS = {
    "it": ("parola", "vivo", "azione", "cosa", "rimando", "stato", "q·k", "logit", "e^logit",
           "peso", "percentuale"),
    "en": ("word", "alive", "action", "thing", "pointer", "status", "q·k", "logit", "e^logit",
           "weight", "percent"),
}
STATUS = {
    "it": {"candidate": "candidata", "query": "parola della domanda", "masked": "mascherata"},
    "en": {"candidate": "candidate", "query": "query word", "masked": "masked"},
}


def _full(x, lang):
    """A number at full precision (repr), with a decimal comma in Italian."""
    if x is None:
        return ""
    text = repr(float(x))
    return text.replace(".", ",") if lang == "it" else text


def steps_csv(result, tokens, lang):
    """The steps table as CSV text: one row a word, numbers at full precision.

    Italian uses ';' between columns and a decimal comma (what an Italian spreadsheet
    expects); English uses ',' and a decimal point. Starts with a BOM so spreadsheets
    read it as UTF-8.
    """
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";" if lang == "it" else ",", lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS[lang])
    for j, tok in enumerate(tokens):
        status = result.status(j)
        writer.writerow(
            [tok.text] + [_full(v, lang) for v in tok.card] + [STATUS[lang][status]]
            + [_full(result.dots[j] if status == "candidate" else None, lang),
               _full(result.logits[j] if status == "candidate" else None, lang),
               _full(result.exps[j], lang), _full(result.weights[j], lang),
               f"{result.percents[j]}%"])
    return "\ufeff" + out.getvalue()


def csv_filename(tokens, result, lang):
    word = "".join(c for c in tokens[result.focus].text if c.isalnum())[:30] or "parola"
    return f"{'attenzione' if lang == 'it' else 'attention'}-{word}.csv"


def embed_snippet(page_url, lang):
    """An iframe reproducing the page at `page_url`, plus the optional auto-height script."""
    base = page_url.split("?", 1)[0]
    base = base[: base.rfind("/") + 1]
    title = i18n.text(lang, "embed_title")
    return (f'<iframe src="{escape(page_url)}" title="{escape(title)}" width="100%" height="1100" '
            f'loading="lazy" style="border:0" data-attention-explorer></iframe>\n'
            f'<script src="{escape(base)}embed.js" defer></script>')
