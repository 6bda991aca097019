"""What leaves the page: the steps table and the whole matrix as CSV, and the snippet to
embed the page.

Pure functions (no DOM): app/sharing.py turns their text into a download or the clipboard.
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
OUTPUT_LABEL = {"it": "nuovo «{word}»", "en": "new “{word}”"}  # the output row: its 4 numbers
MATRIX_CORNER = {"it": "chi chiede \\ guarda", "en": "who asks \\ looks at"}
STATUS = {
    "it": {"candidate": "candidata", "query": "parola della domanda", "masked": "mascherata",
           "skipped": "non calcolata"},
    "en": {"candidate": "candidate", "query": "query word", "masked": "masked", "skipped": "not computed"},
}


def _full(x, lang):
    """A number at full precision (repr), with a decimal comma in Italian."""
    if x is None:
        return ""
    text = repr(float(x))
    return text.replace(".", ",") if lang == "it" else text


def _writer(out, lang):
    return csv.writer(out, delimiter=";" if lang == "it" else ",", lineterminator="\r\n")


def steps_csv(row, tokens, lang):
    """The steps table of the selected row as CSV text: one row a word, numbers at full
    precision, then the word's output (its new card) on a last row.

    Italian uses ';' between columns and a decimal comma (what an Italian spreadsheet
    expects); English uses ',' and a decimal point. Starts with a BOM so spreadsheets
    read it as UTF-8.
    """
    out = io.StringIO()
    writer = _writer(out, lang)
    writer.writerow(CSV_COLUMNS[lang])
    for j, tok in enumerate(tokens):
        status = row.status(j)
        shown = status == "candidate"
        writer.writerow(
            [tok.text] + [_full(v, lang) for v in tok.card] + [STATUS[lang][status]]
            + [_full(row.dots[j] if shown else None, lang), _full(row.logits[j] if shown else None, lang),
               _full(row.exps[j], lang), _full(row.weights[j], lang),
               i18n.percent(row.weights[j], lang, "table")])
    if row.output is not None:
        label = OUTPUT_LABEL[lang].format(word=tokens[row.focus].text)
        writer.writerow([label] + [_full(v, lang) for v in row.output]
                        + [""] * (len(CSV_COLUMNS[lang]) - 1 - len(row.output)))
    return "\ufeff" + out.getvalue()


def matrix_csv(record, tokens, lang):
    """The whole n×n matrix of weights as CSV (full precision): a header row of the words
    looked at, then one row per word asking (for slides and worksheets)."""
    out = io.StringIO()
    writer = _writer(out, lang)
    writer.writerow([MATRIX_CORNER[lang]] + [t.text for t in tokens])
    for i, tok in enumerate(tokens):
        writer.writerow([tok.text] + [_full(w, lang) for w in record.weights[i]])
    return "\ufeff" + out.getvalue()


def csv_filename(tokens, row, lang):
    word = "".join(c for c in tokens[row.focus].text if c.isalnum())[:30] or "parola"
    return f"{'attenzione' if lang == 'it' else 'attention'}-{word}.csv"


def matrix_filename(lang):
    return "matrice-attenzione.csv" if lang == "it" else "attention-matrix.csv"


def embed_snippet(page_url, lang):
    """An iframe reproducing the page at `page_url`, plus the optional auto-height script."""
    base = page_url.split("?", 1)[0]
    base = base[: base.rfind("/") + 1]
    title = i18n.text(lang, "embed_title")
    return (f'<iframe src="{escape(page_url)}" title="{escape(title)}" width="100%" height="1100" '
            f'loading="lazy" style="border:0" data-attention-explorer></iframe>\n'
            f'<script src="{escape(base)}embed.js" defer></script>')
