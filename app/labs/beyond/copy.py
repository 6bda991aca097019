"""Who can still copy (model mode, `arch`; docs/DESIGN.md, "Beyond attention"): the three models the
page trained alike (attention, ssm, hybrid), their copy accuracy by repeat length as `make model`
measured it (`model.copy`: a chart and its table), and the student's own letters with each model's
copy of them. The arch choice says which model the page's other views run.

A position "can be copied" when its letter came before and was followed then by the letter that
follows it now: a model that looks back (or remembers) where the letter was can predict it. The
three models read the letters at their last checkpoint, the one `model.copy` measured.
"""

from app import model
from app.i18n import percent, text
from app.numbers import whole
from app.views import registry
from app.views.html import esc
from app.model import COPY_ARCHS as ARCHS

W, H = 640, 264  # the chart's drawing (SVG units)
LEFT, RIGHT, TOP, BOTTOM = 74, 16, 54, 46  # its margins: the y ticks and title left, the legend and the band's name above, L below
MARKS = {"attention": "circle", "ssm": "square", "hybrid": "triangle"}  # (not by colour alone)

STRINGS = {
    "it": {
        "copy_heading": "Chi sa ancora copiare",
        "copy_intro": ("La pagina ha addestrato tre modelli allo stesso modo (stessi dati, seme e passi): attention in "
                       "entrambi i livelli, SSM con il miscelatore selettivo in entrambi (uno stato fisso di {state} "
                       "numeri a testa), e un ibrido, selettivo nel livello 1 e attention nel 2, come alterna Jamba."),
        "copy_test": ("La prova: l'inizio, L lettere diverse a caso, poi le stesse L. Conta quante lettere della "
                      "seconda copia, dalla seconda in poi, il modello prevede giuste, su {sequences} sequenze mai "
                      "viste per ogni L."),
        "copy_legend": "Il modello che la pagina fa girare",
        "copy_arch_attention": "attention (il modello della pagina)",
        "copy_arch_ssm": "SSM: due livelli selettivi",
        "copy_arch_hybrid": "ibrido: selettivo, poi attention",
        "copy_chart_aria": ("Lettere copiate giuste per lunghezza della ripetizione, da L = {first} a L = {last}: "
                            "{series}."),
        "copy_series": "{name} da {start} a {end}",
        "copy_x": "lettere ripetute (L)", "copy_y": "copiate giuste",
        "copy_untrained": "più lunghe di ogni ripetizione dell'addestramento",
        "copy_table_summary": "I numeri del grafico",
        "copy_col_length": "L", "copy_name_attention": "attention", "copy_name_ssm": "SSM", "copy_name_hybrid": "ibrido",
        "copy_measured": ("Misurato da make model sull'ultimo checkpoint di ciascuno: l'addestramento ha visto "
                          "ripetizioni da {low} a {high} lettere."),
        "copy_yours": "Le tue lettere, copiate da ciascuno",
        "copy_yours_none": ("Nessuna lettera qui si può copiare: scrivi una sequenza che si ripete (per esempio "
                            "dieci lettere diverse, poi le stesse dieci)."),
        "copy_yours_help": ("Una posizione si può copiare quando la sua lettera è già comparsa, seguita allora dalla "
                            "lettera che la segue adesso."),
        "copy_yours_score": "{name}: {right} giuste su {total}",
        "copy_col_position": "pos.", "copy_col_letter": "lettera", "copy_col_next": "poi",
        "copy_right": "giusta", "copy_wrong": "sbagliata",
        "copy_unavailable": "I file dei tre modelli non si possono leggere qui.",
        # (model mode's core views under an arch other than attention: this lab is here then)
        "model_circuit_state": 'Questo modello non ha attention: nessuna testa guarda indietro per copiare, e quello che sa delle lettere prima è tutto nel suo stato, di misura fissa. Dopo «{token}» (posizione {i}) prevede «{next}» ({p}).',
        "model_selective_name": 'selettivo: punteggi con segno',
        "model_heads_selective": "In un livello selettivo (Mamba) ogni casella è un punteggio s = L · q·k / √N, con segno: una riga non somma a 100 e non c'è una finestra.",
        "model_intro_ssm": "Questo è il modello SSM, addestrato come quello della pagina: in entrambi gli strati l'attention è sostituita dal miscelatore selettivo (Mamba-2), che tiene uno stato di misura fissa al posto di ogni k e v.",
        "model_intro_block": "Questo è il modello a blocchi interi: in ogni strato LayerNorm e le teste, poi LayerNorm e una FFN; un'ultima LayerNorm prima di W_U. È addestrato su parole italiane del lessico della pagina, scritte senza spazi.",
        "model_intro_hybrid": 'Questo è il modello ibrido, addestrato come quello della pagina: lo strato 1 è il miscelatore selettivo (Mamba-2), lo strato 2 è attention, come Jamba alterna i due.',
        "model_jump_state": "Fra il passo {a} e il passo {b} il punteggio in contesto scende (da {icl_a} a {icl_b}; metà della discesa intorno al passo {step}): il modello comincia a usare quello che ha già letto, attraverso il suo stato. Senza attention non c'è una testa di induzione da guardare. La loss nello stesso tratto va da {loss_a} a {loss_b}.",
        "model_jump_state_plain": 'Intorno al passo {step} il punteggio in contesto scende: il modello comincia a usare quello che ha già letto, attraverso il suo stato.',
        # (a model with attention whose training formed no induction head: the block model's)
        "model_circuit_unformed": "In questo modello nessuna testa ha imparato a copiare: nel suo addestramento non si è formata una testa di induzione, e lo strato 2 non cerca la lettera da copiare. Dopo «{token}» (posizione {i}) prevede «{next}» ({p}), da quello che ha imparato di come si scrivono le parole.",
        "model_jump_unformed": "Dal passo {a} al passo {b} la loss, la linea continua, scende da {loss_a} a {loss_b}: il modello impara come si scrivono le parole italiane. Il punteggio in contesto, la linea tratteggiata, si muove appena (da {icl_a} a {icl_b}): nessuna testa ha imparato a copiare quello che ha già letto.",
    },
    "en": {
        "copy_heading": "Who can still copy",
        "copy_intro": ("The page trained three models alike (the same data, seed and steps): attention in both "
                       "layers, SSM with the selective mixer in both (a fixed state of {state} numbers a head), "
                       "and a hybrid, selective in layer 1 and attention in layer 2, as Jamba alternates them."),
        "copy_test": ("The test: the start, L different random letters, then the same L. It counts how many "
                      "letters of the second copy, from its second on, the model predicts right, on {sequences} "
                      "sequences it never saw for each L."),
        "copy_legend": "The model the page runs",
        "copy_arch_attention": "attention (the page's model)",
        "copy_arch_ssm": "SSM: two selective layers",
        "copy_arch_hybrid": "hybrid: selective, then attention",
        "copy_chart_aria": "Letters copied right by repeat length, from L = {first} to L = {last}: {series}.",
        "copy_series": "{name} from {start} to {end}",
        "copy_x": "letters repeated (L)", "copy_y": "copied right",
        "copy_untrained": "longer than any repeat in training",
        "copy_table_summary": "The chart's numbers",
        "copy_col_length": "L", "copy_name_attention": "attention", "copy_name_ssm": "SSM", "copy_name_hybrid": "hybrid",
        "copy_measured": ("Measured by make model on each one's last checkpoint: training saw repeats of {low} to "
                          "{high} letters."),
        "copy_yours": "Your letters, copied by each",
        "copy_yours_none": ("No letter here can be copied: type a sequence that repeats (say ten different letters, "
                            "then the same ten)."),
        "copy_yours_help": ("A position can be copied when its letter came before, followed then by the letter that "
                            "follows it now."),
        "copy_yours_score": "{name}: {right} right of {total}",
        "copy_col_position": "pos.", "copy_col_letter": "letter", "copy_col_next": "next",
        "copy_right": "right", "copy_wrong": "wrong",
        "copy_unavailable": "The three models' files cannot be read here.",
        "model_circuit_state": 'This model has no attention: no head looks back to copy, and all it knows of the letters before is in its state, of a fixed size. After “{token}” (position {i}) it predicts “{next}” ({p}).',
        "model_selective_name": 'selective: signed scores',
        "model_heads_selective": 'In a selective (Mamba) layer each cell is a score s = L · q·k / √N, signed: a row does not sum to 100 and there is no window.',
        "model_intro_ssm": "This is the SSM model, trained like the page's: in both layers attention is replaced by the selective mixer (Mamba-2), which keeps a state of a fixed size instead of every k and v.",
        "model_intro_block": "This is the model with whole blocks: in each layer LayerNorm and the heads, then LayerNorm and an FFN; a last LayerNorm before W_U. It is trained on Italian words of the page's lexicon, written with no spaces.",
        "model_intro_hybrid": "This is the hybrid model, trained like the page's: layer 1 is the selective mixer (Mamba-2), layer 2 is attention, as Jamba alternates the two.",
        "model_jump_state": 'Between step {a} and step {b} the in-context score falls (from {icl_a} to {icl_b}; half of the drop around step {step}): the model starts using what it has already read, through its state. Without attention there is no induction head to watch. The loss goes from {loss_a} to {loss_b} over the same steps.',
        "model_jump_state_plain": 'Around step {step} the in-context score falls: the model starts using what it has already read, through its state.',
        "model_circuit_unformed": "No head of this model has learned to copy: no induction head formed in its training, and layer 2 does not seek the letter to copy. After “{token}” (position {i}) it predicts “{next}” ({p}), from what it learned of how words are spelled.",
        "model_jump_unformed": "From step {a} to step {b} the loss, the solid line, goes from {loss_a} to {loss_b}: the model learns how Italian words are spelled. The in-context score, the dashed line, barely moves (from {icl_a} to {icl_b}): no head has learned to copy what it has already read.",
    },
}
registry.add_strings(STRINGS)


def figures():
    """`model.copy` as training wrote it into the page's model.json (None: not there)."""
    return model.config().get("copy")


def copiable(tokens):
    """The positions i whose next letter can be copied: tokens[i] came before at j (its last
    earlier occurrence) and tokens[j + 1] is tokens[i + 1]. [(i, j)]."""
    out = []
    for i in range(1, len(tokens) - 1):
        j = next((j for j in range(i - 1, 0, -1) if tokens[j] == tokens[i]), None)
        if j is not None and tokens[j + 1] == tokens[i + 1]:
            out.append((i, j))
    return out


def copies(text_typed):
    """{arch: the Record of each model's last checkpoint on the typed letters}."""
    return {arch: model.compute(text_typed, None, None, None if arch == "attention" else arch) for arch in ARCHS}


def marker(kind, x, y):
    if kind == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5"/>'
    if kind == "square":
        return f'<rect x="{x - 3.5:.1f}" y="{y - 3.5:.1f}" width="7" height="7"/>'
    return f'<path d="M{x:.1f},{y - 4.5:.1f} L{x + 4.5:.1f},{y + 3.5:.1f} L{x - 4.5:.1f},{y + 3.5:.1f} Z"/>'


def chart(copy, lang):
    """The accuracy by repeat length as an SVG line chart: a line and a marker shape a model, the
    legend above, the lengths longer than training shaded; its words for a screen reader."""
    lengths, accuracy = copy["lengths"], copy["accuracy"]
    first, last = lengths[0], lengths[-1]
    x = lambda L: LEFT + (W - LEFT - RIGHT) * (L - first) / ((last - first) or 1)  # noqa: E731
    y = lambda a: TOP + (H - TOP - BOTTOM) * (1 - a)  # noqa: E731
    bottom = H - BOTTOM
    parts = []
    trained = copy.get("trained_lengths")
    if trained and trained[1] < last:  # (the lengths training never saw)
        x0 = x(trained[1] + 0.5)
        parts.append(f'<rect class="untrained" x="{x0:.1f}" y="{TOP}" width="{x(last) - x0 + 6:.1f}" '
                     f'height="{bottom - TOP}"/><text class="tick untrained-label" x="{W - RIGHT}" y="{TOP - 8}" '
                     f'text-anchor="end">{esc(text(lang, "copy_untrained"))}</text>')
    for a in (0, 0.5, 1):
        parts.append(f'<line class="grid" x1="{LEFT}" y1="{y(a):.1f}" x2="{W - RIGHT}" y2="{y(a):.1f}"/>'
                     f'<text class="tick" x="{LEFT - 6}" y="{y(a) + 4:.1f}" text-anchor="end">'
                     f'{esc(percent(a, lang, "bar"))}</text>')
    for L in lengths:
        if L == first or L % 4 == 0:
            parts.append(f'<line class="axis" x1="{x(L):.1f}" y1="{bottom}" x2="{x(L):.1f}" y2="{bottom + 5}"/>'
                         f'<text class="tick" x="{x(L):.1f}" y="{bottom + 17}" text-anchor="middle">{whole(L, lang)}</text>')
    parts.append(f'<line class="axis" x1="{LEFT}" y1="{bottom}" x2="{W - RIGHT}" y2="{bottom}"/>'
                 f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}"/>')
    for arch in ARCHS:
        if arch not in accuracy:
            continue
        points = [(x(L), y(a)) for L, a in zip(lengths, accuracy[arch])]
        parts.append(f'<g class="series arch-{arch}"><polyline points="'
                     + " ".join(f"{px:.1f},{py:.1f}" for px, py in points) + '"/>'
                     + "".join(marker(MARKS[arch], px, py) for px, py in points) + "</g>")
    for n, arch in enumerate(ARCHS):  # the legend: the line, the marker, the name
        at = LEFT + 8 + 170 * n
        parts.append(f'<g class="series arch-{arch}"><line x1="{at}" y1="14" x2="{at + 26}" y2="14"/>'
                     f'{marker(MARKS[arch], at + 13, 14)}</g><text class="key" x="{at + 32}" y="18">'
                     f'{esc(text(lang, "copy_name_" + arch))}</text>')
    parts.append(f'<text class="axis-title" x="{(LEFT + W - RIGHT) / 2:.0f}" y="{H - 6}" text-anchor="middle">'
                 f'{esc(text(lang, "copy_x"))}</text><text class="axis-title" transform="translate(14 '
                 f'{(TOP + bottom) / 2:.0f}) rotate(-90)" text-anchor="middle">{esc(text(lang, "copy_y"))}</text>')
    series = "; ".join(text(lang, "copy_series", name=text(lang, "copy_name_" + a),
                            start=percent(accuracy[a][0], lang, "bar"), end=percent(accuracy[a][-1], lang, "bar"))
                       for a in ARCHS if a in accuracy)
    aria = text(lang, "copy_chart_aria", first=first, last=last, series=series)
    return (f'<svg class="copy-chart" viewBox="0 0 {W} {H}" role="img" aria-label="{esc(aria)}">'
            + "".join(parts) + "</svg>")


def table(copy, lang):
    """The chart's numbers: a row a length, a column a model; open, as the step's answer quotes them,
    and a table on a phone too (`data-narrow`: four short numbers a row)."""
    names = [a for a in ARCHS if a in copy["accuracy"]]
    head = f'<th scope="col">{esc(text(lang, "copy_col_length"))}</th>' + "".join(
        f'<th scope="col">{esc(text(lang, "copy_name_" + a))}</th>' for a in names)
    rows = "".join(f'<tr data-length="{L}"><th scope="row">{whole(L, lang)}</th>' + "".join(
        f'<td>{esc(percent(copy["accuracy"][a][n], lang, "table"))}</td>' for a in names) + "</tr>"
        for n, L in enumerate(copy["lengths"]))
    return (f'<details class="copy-numbers" open><summary>{esc(text(lang, "copy_table_summary"))}</summary>'
            f'<div class="table-wrap" role="region" tabindex="0" aria-label="{esc(text(lang, "copy_table_summary"))}">'
            f'<table class="steps copy-table" data-narrow><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div></details>')


def yours(settings, lang):
    """The student's letters: each position that can be copied, the letter that follows, and each
    model's prediction there, right or wrong; a count for each model above."""
    try:
        records = copies(settings.sentence)
    except model.Unavailable:
        return f'<p class="note error" role="alert">{esc(text(lang, "copy_unavailable"))}</p>'
    tokens = records["attention"].tokens
    where = copiable(tokens)
    heading = f'<h3>{esc(text(lang, "copy_yours"))}</h3>'
    if not where:
        return heading + f'<p class="prompt">{esc(text(lang, "copy_yours_none"))}</p>'
    scores = "".join(
        f'<li>{esc(text(lang, "copy_yours_score", name=text(lang, "copy_name_" + a), total=len(where), right=sum(records[a].next[i] == tokens[i + 1] for i, _ in where)))}</li>'
        for a in ARCHS)
    head = "".join(f'<th scope="col">{esc(text(lang, key))}</th>' for key in (
        "copy_col_position", "copy_col_letter", "copy_col_next")) + "".join(
        f'<th scope="col">{esc(text(lang, "copy_name_" + a))}</th>' for a in ARCHS)

    def guess(a, i):  # (the letter, then ✓ or ✗, said in words to a screen reader: the table fits a phone)
        g, right = records[a].next[i], records[a].next[i] == tokens[i + 1]
        return (f'<td class="arch-{a}">{esc(g)} <span class="{"right" if right else "wrong"}" aria-hidden="true">'
                f'{"✓" if right else "✗"}</span><span class="sr-only">'
                f'{esc(text(lang, "copy_right" if right else "copy_wrong"))}</span></td>')

    rows = "".join(f'<tr data-row="{i}"><td>{i}</td><td>{esc(tokens[i])}</td><td>{esc(tokens[i + 1])}</td>'
                   + "".join(guess(a, i) for a in ARCHS) + "</tr>" for i, _ in where)
    return (heading + f'<p class="hint">{esc(text(lang, "copy_yours_help"))}</p>'
            f'<ul class="copy-scores">{scores}</ul>'
            f'<div class="table-wrap" role="region" tabindex="0" aria-label="{esc(text(lang, "copy_yours"))}">'
            f'<table class="steps copy-yours" data-narrow><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>')


def draw_copy(ctx):
    settings, lang = ctx.settings, ctx.lang
    off = "" if ctx.interactive is True else " disabled"
    t = lambda key, **p: esc(text(lang, key, **p))  # noqa: E731
    try:
        config = model.config("ssm")
        copy = figures()
    except model.Unavailable:
        return registry.section("model-copy", f'<h2>{t("copy_heading")}</h2><p class="note error" role="alert">'
                                f'{t("copy_unavailable")}</p>', "copy-section")
    choices = "".join(f'<label class="arch-choice"><input type="radio" id="arch-{a}" name="arch" value="{a}"'
                      f'{" checked" if a == settings.arch else ""}{off}> {t("copy_arch_" + a)}</label>' for a in ARCHS)
    body = (f'<h2>{t("copy_heading")}</h2><p>{t("copy_intro", state=config["d_state"])}</p>'
            f'<fieldset class="arch-kinds"><legend>{t("copy_legend")}</legend>{choices}</fieldset>')
    if copy is not None:
        body += (f'<p>{t("copy_test", sequences=copy.get("sequences", ""))}</p>'
                 f'<figure class="copy-figure">{chart(copy, lang)}<figcaption>'
                 f'{t("copy_measured", low=copy["trained_lengths"][0], high=copy["trained_lengths"][1])}'
                 f'</figcaption></figure>{table(copy, lang)}')
    body += yours(settings, lang)
    return registry.section("model-copy", body, "copy-section")


registry.add(registry.View(id="model-copy", place=45, modes=("model",), explorer=False, settings=("arch",),
                           draw=draw_copy))
