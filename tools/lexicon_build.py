"""Build the generated lexicons from real lexical resources (CPython only; `make lexicon`).

Never shipped to the browser. Writes `lexicon/gpl/it.txt` and `lexicon/cc-by-sa/en.txt`
(the format is in docs/lexicon-format.md) and, beside each, the words of the frequency
list that were left out and why (`*-left-out.txt`, not loaded by the page).

Resources (installed by `make lexicon`; licences in lexicon/*/LICENCE.md and the README):

- wordfreq (PyPI): which forms are frequent: the 10,000 most frequent Italian and English
  word forms are the ones that must get a card (a few thousand more are added while the
  file stays small).
- Apertium's Italian analyser (`apertium-ita`, the `ita-spa.automorf.bin` of Debian's
  `apertium-spa-ita`, run by `lttoolbox`'s lt-proc): every reading (lemma, part of
  speech, gender) of an Italian form. It is the only file of that package used: none of
  the pair's bilingual dictionaries.
- FreeDict's Italian→English and English→Italian dictionaries (Debian `dict-freedict-ita-eng`,
  `dict-freedict-eng-ita`, read from their dictd files): the English translations of each
  Italian noun lemma (its Italian→English entries, then the English headwords whose
  translations include it), whose WordNet classes decide whether it is a living being.
  A noun with a row in lexicon/it.csv takes the class of that row's card instead; a noun
  FreeDict lacks takes the class of its English cognate (professore → professor), else is
  a person when the analyser knows a feminine of it (alunno: alunna).
- Princeton WordNet 3.0 (Debian `wordnet-base`): for English, the part of speech a form
  is used in most (the sense-tagged counts of its index files); for nouns of both
  languages, the lexicographer class of the most frequent sense (noun.person,
  noun.animal, noun.plant, noun.act, noun.time, ...).
- Faker (PyPI, MIT): real lists of first names, cities and countries.

The card rule set is CARD below with the functions that pick a class; README
"The card rules" says it in prose.
"""

import argparse
import collections
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APERTIUM = Path("/usr/share/apertium")
WORDNET = Path("/usr/share/wordnet")
FREEDICT = Path("/usr/share/dictd")
TOP = 10000  # the forms that must all have a card
EXTRA = 10000  # more forms, while they are words the resources know

# The card of each class: alive, action, thing, function (the same numbers as the
# hand-written rows of lexicon/it.csv and en.csv for the same kind of word).
CARD = {
    "article": (0, 0, 0, 1),
    "preposition": (0, 0, 0.1, 0.9),
    "conjunction": (0, 0.1, 0, 0.8),
    "pronoun-person": (0.7, 0, 0, 0.9),
    "pronoun": (0, 0, 0.2, 0.9),
    "quantifier": (0.1, 0, 0.2, 0.8),
    "auxiliary": (0, 0.4, 0, 0.6),
    "modal": (0, 0.6, 0, 0.4),
    "verb": (0, 1, 0, 0),
    "person": (1, 0.05, 0, 0),
    "animal": (0.95, 0.05, 0.1, 0),
    "plant": (0.5, 0, 0.6, 0),
    "thing": (0, 0, 1, 0),
    "abstract": (0, 0.2, 0.8, 0),
    "event": (0, 0.3, 0.7, 0),
    "time": (0, 0.1, 0.7, 0.2),
    "adverb": (0, 0.3, 0.1, 0.5),
    "adjective": (0.1, 0.1, 0.3, 0.4),
    "number": (0, 0, 0.3, 0.6),
    "interjection": (0, 0.2, 0, 0.5),
    "name": (0.9, 0.05, 0.1, 0),
    "place": (0, 0, 1, 0),
}

# WordNet noun lexicographer file number -> class.
NOUN_CLASS = {5: "animal", 18: "person", 20: "plant", 4: "event", 11: "event", 28: "time",
              7: "abstract", 9: "abstract", 10: "abstract", 12: "abstract", 16: "abstract",
              19: "abstract", 22: "abstract", 24: "abstract", 26: "abstract", 14: "abstract"}

# English closed classes (WordNet has only nouns, verbs, adjectives and adverbs).
EN_CLOSED = {
    "article": "the a an",
    "preposition": "of to in on at by for with from into onto under over about after before through amongst "
                   "between near behind above below across against along among around beside besides "
                   "beyond despite during except inside outside per since than toward towards upon "
                   "via within without throughout underneath unlike until till amid",
    "conjunction": "and or but nor so yet because although though unless whereas whether if while "
                   "once either neither",
    "pronoun-person": "i you he she we they me him us them myself yourself himself herself ourselves "
                      "themselves yourselves who whom whoever someone somebody anyone anybody everyone "
                      "everybody nobody",
    "pronoun": "it its itself this that these those what which whatever whichever something anything "
               "everything nothing there here when where why how whenever wherever however mine yours "
               "hers ours theirs others",
    "quantifier": "some any all each every both few many much more most several such no none other "
                  "another own enough less least",
    "auxiliary": "is are was were be been being am has have had having",
    "modal": "can cannot could will would shall should may might must do does did",
}
EN_POSSESSIVE = "my your his her our their whose"
IT_PERSON_PRONOUNS = {"io", "tu", "lui", "lei", "noi", "voi", "loro", "egli", "ella", "essi", "esse",
                      "esso", "essa", "chi", "qualcuno", "nessuno", "ognuno", "chiunque", "me", "te",
                      "sé", "costui", "costei", "colui", "colei"}

# Italian derivational endings and the English ones of the same Latin or Greek origin
# (professore → professor, presidente → president, nazione → nation, artista → artist): a
# noun FreeDict lacks takes the class of its English cognate when WordNet has it. Bare final
# vowels are not among them: they find false friends (mare → mar, moda → mod, veto → vet).
COGNATE_ENDINGS = [("zione", "tion"), ("sione", "sion"), ("ologo", "ologist"), ("ista", "ist"),
                   ("auta", "aut"), ("ario", "ary"), ("aria", "ary"), ("ore", "or"), ("ente", "ent"),
                   ("ante", "ant"), ("ato", "ate"), ("ata", "ate"), ("ico", "ic"), ("ica", "ic"),
                   ("ota", "ot"), ("ale", "al"), ("ile", "il"), ("ia", "y"), ("tà", "ty")]
COGNATE_SPELLING = [("tt", "ct"), ("zi", "ti")]  # dottore → doctor, paziente → patient
# Endings of a masculine noun and of its feminine (alunno → alunna, conte → contessa).
FEMININE_ENDINGS = [("tore", "trice"), ("o", "a"), ("e", "essa"), ("e", "a"), ("a", "essa")]

# Apertium part-of-speech tag -> class; the first tag in this order is the form's most
# frequent use (a function word before an adverb, before a noun, before an adjective,
# before a verb form: "dopo" preposition, "vicino" adverb, "parte/porto/lavoro" nouns,
# "vivo" adjective).
IT_ORDER = ["det", "pr", "prn", "rel", "cnjcoo", "cnjsub", "cnjadv", "vbser", "vbhaver", "vbmod",
            "vaux", "preadv", "predet", "adv", "num", "n", "adj", "vblex", "ij"]
IT_TAG_CLASS = {"det": "article", "pr": "preposition", "prn": "pronoun", "rel": "pronoun",
                "cnjcoo": "conjunction", "cnjsub": "conjunction", "cnjadv": "conjunction",
                "vbser": "auxiliary", "vbhaver": "auxiliary", "vbmod": "modal", "vaux": "auxiliary",
                "preadv": "adverb", "predet": "quantifier", "adv": "adverb", "num": "number",
                "adj": "adjective", "vblex": "verb", "ij": "interjection"}


# Frequent words the resources lack (written here, with their class): for Italian, the
# everyday words among the 10,000 most frequent forms that the Apertium analyser does not know.
SUPPLEMENT = {
    "it": {
        "interjection": "ciao ok okay ehi boh beh mah grazie ah ahah oh eh uh bah hey oddio vabbè ehm",
        "thing": "computer email internet sport asse bici bollettino bollo brigata brividi caffè campeggio "
                 "cantieri capoluogo carcere caserma cauzione condominio contanti contributo contributi "
                 "corna costume costumi dimora dose dosi fisco fotocamera galera globo insalata lotto "
                 "merenda mutande pacco panna pianeti poltrona puzza salone sella sito siti tavolino targa "
                 "telecamera telecamere tessera vettura bersaglio cadavere cadaveri polizia banco banchi",
        "abstract": "appunti favola fretta dolcezza leggerezza stanchezza schiavitù nausea tregua regia tifo "
                    "ipocrisia cortesia scudetto",
        "event": "bombardamento bombardamenti corteo gita lavaggio lite passeggiata rapimento risveglio "
                 "strage ricovero scatto scatti raduno esordio",
        "time": "mattino stanotte capodanno vigilia ferie medioevo",
        "person": "carabinieri coglione dea maresciallo membro membri minorenni onorevole partigiani prefetto "
                  "procuratore profughi prof rettore seguaci signorina soldati tifosi titolare titolari "
                  "vicepresidente blogger follower",
        "verb": "accennato accorge ammazzare annullare annullato beccato buttare butta conviene dispiace "
                "divenire divenne divenuta divenuto diviene dubito gode godere iscriversi lottare mollare "
                "picchiato rapito reca recarsi richiamare richiamato richiama rifare rimediare risiede "
                "rovinare rovinato scattare segna segnare spetta stupisce tacere tradito vieta vietato "
                "redatto respinto",
        "adjective": "accorto affini apposito apposita assente azzurro azzurra azzurri beato beata bollente "
                     "celeste complessivo complessiva dritto dritta esatta estivo estiva imponente indifferente "
                     "inedito inediti invernale invernali medesimo medesima medievale napoletano napoletana "
                     "napoletani obbligatorio obbligatoria offensivo opportuno postale prive progressivo seri "
                     "simbolico stradale stradali triennale siciliano siciliana siciliani toscano piemontese "
                     "ligure genovese fiorentino sardo pugliese bolognese ignorante ignoranti deluso "
                     "televisivo televisiva televisivi televisive",
        "quantifier": "parecchi parecchie svariate svariati altrui",
        "adverb": "altronde assieme attorno benissimo chissà dapprima eccome frattempo intorno malissimo "
                  "oramai peraltro stavolta sennò",
        "conjunction": "ossia ebbene laddove purché anziché difatti",
        "preposition": "presso sino",
    },
    "en": {"interjection": "hello hi ok okay yes bye thanks please", "pronoun": "let's"},
}
# Places a names list lacks: the regions of Italy and large cities, in Italian.
PLACES = {
    "it": "Abruzzo Basilicata Calabria Campania Emilia-Romagna Friuli Lazio Liguria Lombardia Marche "
          "Molise Piemonte Puglia Sardegna Sicilia Toscana Trentino Umbria Veneto Europa Africa America "
          "Asia Oceania Parigi Londra Berlino Madrid Lisbona Vienna Praga Atene Bruxelles Mosca Pechino "
          "Tokyo Istanbul Gerusalemme Amsterdam Barcellona Ginevra Strasburgo Budapest",
    "en": "Europe Africa America Asia Australia London Paris Berlin Rome Madrid Tokyo Moscow Beijing "
          "Chicago Boston",
}


# --- resources -------------------------------------------------------------------------

def frequent_forms(lang, n):
    """The n most frequent word forms of a language (letters only, lower case)."""
    import wordfreq
    out = []
    for w in wordfreq.top_n_list(lang, n * 2):
        if w.isalpha() and w == w.lower():
            out.append(w)
        if len(out) == n:
            break
    return out


def lt_proc(binary, lines):
    """Run Apertium's lt-proc on lines (one a line); its output lines in the same order."""
    text = "".join(f"{w}\n" for w in lines)
    out = subprocess.run(["lt-proc", str(binary)], input=text, capture_output=True, text=True,
                         check=True).stdout
    return out.rstrip("\n").split("\n")


def readings(line):
    """[(lemma, [tags]), ...] of one lt-proc analysis line `^form/lemma<t>.../...$`."""
    body = line.strip()
    body = body[1:-1] if body.startswith("^") and body.endswith("$") else body
    parts = body.split("/")[1:]
    out = []
    for p in parts:
        if p.startswith("*"):
            continue
        first = p.split("+")[0]  # dammelo: dare<vblex>+mi<prn>+lo<prn>
        m = re.match(r"([^<]*)((?:<[^>]+>)*)", first)
        out.append((m.group(1), re.findall(r"<([^>]+)>", m.group(2))))
    return out


class WordNet:
    """Princeton WordNet 3.0's index and data files: part of speech and noun classes."""

    POS = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}

    def __init__(self, root=WORDNET):
        self.index = {}  # (lemma, pos) -> (tagged sense count, first synset offset)
        for pos, name in self.POS.items():
            for line in open(root / f"index.{name}", encoding="latin-1"):
                if line.startswith(" "):
                    continue
                f = line.split()
                lemma, p_cnt = f[0], int(f[3])
                rest = f[4 + p_cnt:]
                senses, offsets = int(rest[0]), rest[2:]
                self.index[(lemma, pos)] = (senses, offsets)
        self.exceptions = {}
        for pos, name in (("n", "noun"), ("v", "verb"), ("a", "adj")):
            for line in open(root / f"{name}.exc", encoding="latin-1"):
                f = line.split()
                self.exceptions.setdefault((f[0], pos), f[1])
        self.count = collections.Counter()  # (lemma, pos) -> times tagged in SemCor
        for line in open(root / "cntlist.rev", encoding="latin-1"):
            key, _, tagged = line.split()
            lemma, rest = key.split("%")
            pos = "nvaar"[int(rest[0]) - 1]
            self.count[(lemma, pos)] += int(tagged)
        self.noun_file = {}  # synset offset -> lexicographer file, None for a proper name
        self.hypernyms = {}  # synset offset -> its hypernyms' offsets
        for line in open(root / "data.noun", encoding="latin-1"):
            if not line.startswith(" "):
                f = line.split(" ", 5)
                self.noun_file[f[0]] = None if f[4][:1].isupper() else int(f[1])
                self.hypernyms[f[0]] = re.findall(r" @i? (\d{8}) n ", line.split("|")[0])

    SUFFIXES = {"n": [("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
                      ("men", "man"), ("ies", "y"), ("s", "")],
                "v": [("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
                      ("ing", ""), ("s", "")],
                "a": [("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
                "r": []}

    def base_forms(self, form, pos):
        """WordNet's morphy: the lemmas a form can be an inflection of, in this part of speech."""
        out = []
        if (form, pos) in self.index:
            out.append(form)
        exc = self.exceptions.get((form, pos))
        if exc and (exc, pos) in self.index:
            out.append(exc)
        for end, repl in self.SUFFIXES[pos]:
            if form.endswith(end) and len(form) > len(end) + 1:
                base = form[: -len(end)] + repl
                if (base, pos) in self.index:
                    out.append(base)
                if pos == "v" and end in ("ed", "ing") and len(base) > 2 and base[-1] == base[-2]:
                    if (base[:-1], pos) in self.index:  # stopped -> stop
                        out.append(base[:-1])
        return out

    def uses(self, form):
        """[(times tagged, is a noun, senses, pos, lemma), ...] of a form, most used first."""
        out = []
        for pos in self.POS:
            for lemma in self.base_forms(form, pos):
                senses, _ = self.index[(lemma, pos)]
                out.append((self.count[(lemma, pos)], pos == "n", senses, pos, lemma))
                break
        return sorted(out, reverse=True)

    def noun_class(self, lemma):
        """The class of a noun's most frequent sense, or None when WordNet lacks the noun."""
        entry = self.index.get((lemma, "n"))
        if entry is None:
            return None
        senses = [o for o in entry[1] if self.noun_file[o] is not None]  # Sweet (a name) < sweet
        if not senses:
            return "thing"
        cls = NOUN_CLASS.get(self.noun_file[senses[0]], "thing")
        if cls in ("person", "animal", "plant") and not self.is_organism(senses[0]):
            return "thing"  # wing, tail, feather: in noun.animal, but parts of a living being
        return cls

    ORGANISM = "00004475"  # organism, being

    def is_organism(self, offset, seen=None):
        """Whether a noun synset is a kind of organism (person, animal, plant) in WordNet."""
        seen = seen if seen is not None else set()
        if offset == self.ORGANISM:
            return True
        seen.add(offset)
        return any(self.is_organism(h, seen) for h in self.hypernyms.get(offset, ()) if h not in seen)


# --- English ---------------------------------------------------------------------------

def english(forms, wn):
    """{form: class} and {form: reason left out} for the English forms."""
    closed = {}
    for cls, words in EN_CLOSED.items():
        for w in words.split():
            closed.setdefault(w, cls)
    for w in EN_POSSESSIVE.split():
        closed.setdefault(w, "possessive")
    classes, left, alternative = {}, {}, {}
    for form in forms:
        if form in closed:
            classes[form] = closed[form]
            continue
        uses = wn.uses(form)
        if not uses:
            left[form] = "not in WordNet (a name, a foreign word or a fragment)"
            continue
        pos, lemma = uses[0][-2:]
        if lemma != form and form.endswith("ing") and wn.count[(form, "n")] >= 10:
            pos, lemma = "n", form  # building, meeting, feeling: the noun is the usual reading
        if pos == "n":
            classes[form] = wn.noun_class(lemma) or "thing"
        elif pos == "v":
            classes[form] = "verb"
        elif pos == "a":
            classes[form] = "adjective"
        else:
            classes[form] = "adverb"
        for use in uses[1:]:
            if use[0] > 0 and use[-2] == "v" and pos != "v":
                alternative[form] = "verb"  # a noun that is also a verb: test, work
            elif use[0] > 0 and use[-2] == "n" and pos == "v":
                alternative[form] = wn.noun_class(use[-1]) or "thing"  # nurse, play
    return classes, left, alternative


def dictd(name):
    """[(headword, [translation, ...]), ...] of a FreeDict dictionary in dictd format.

    The `.index` file has a line for each entry: headword (folded to lower case), then the
    offset and length of its text in the `.dict.dz` file (gzip), in base 64. The text is the
    headword as written (Argentine) with its pronunciation, then the senses, one a line
    (`1. ...` when there are several), each a list of translations separated by commas.
    """
    import gzip
    digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    def b64(text):
        n = 0
        for c in text:
            n = n * 64 + digits.index(c)
        return n

    data = gzip.open(FREEDICT / f"{name}.dict.dz").read()
    out = []
    for line in open(FREEDICT / f"{name}.index", encoding="utf-8"):
        key, offset, length = line.rstrip("\n").split("\t")
        if key.startswith("00database"):  # the dictionary's own description
            continue
        first, *senses = data[b64(offset): b64(offset) + b64(length)].decode("utf-8").split("\n")
        head = re.sub(r" /[^/]*/$", "", first)  # without the pronunciation
        senses = [re.sub(r"^\d+\. ", "", s) for s in senses]
        out.append((head, [t.strip() for s in senses for t in s.split(",") if t.strip()]))
    return out


def translate(nouns, analyser):
    """{Italian noun lemma: its English translations, best first} from FreeDict.

    First the Italian→English entries of the lemma itself, then those of its other forms
    (genitori, infermiera), then the headwords of the English→Italian entries whose
    translations include the lemma or one of its forms. The analyser gives the noun lemmas
    of FreeDict's Italian words.
    """
    ita_eng, eng_ita = dictd("freedict-ita-eng"), dictd("freedict-eng-ita")
    words = sorted({head for head, _ in ita_eng} | {w for _, ws in eng_ita for w in ws})
    words = [w for w in words if w.isalpha()]  # one word a line for the analyser
    lemmas = {w: [lemma for lemma, tags in readings(line) if tags and tags[0] == "n"]
              for w, line in zip(words, lt_proc(analyser, words))}
    wanted = set(nouns)
    own, other_form, reverse = (collections.defaultdict(list) for _ in range(3))
    for head, english_words in ita_eng:
        for lemma in wanted.intersection([head] + lemmas.get(head, [])):
            (own if lemma == head else other_form)[lemma].extend(english_words)
    for head, italian_words in eng_ita:
        forms = italian_words + [lemma for w in italian_words for lemma in lemmas.get(w, [])]
        for lemma in wanted.intersection(forms):
            reverse[lemma].append(head)
    return {lemma: list(dict.fromkeys(own[lemma] + other_form[lemma] + reverse[lemma]))
            for lemma in wanted if own[lemma] or other_form[lemma] or reverse[lemma]}


def english_class(word, wn):
    """The WordNet class of an English translation as a noun: of the word or its base form
    (parents), else of the last word of a phrase (working man). None for a name (Moscow,
    Argentine: WordNet's lower-case argentine is a fish), when WordNet lacks the noun, or
    never tags it while it tags another part of speech of the word: FreeDict lists
    adjectives and verbs among the nouns (vicino: adjacent, neighbour, close; comico: comic)."""
    if word[:1].isupper():
        return None
    word = re.sub(r"^(the|a|an|to) ", "", word.replace("\u2010", "-").lower())
    for candidate in (word.replace(" ", "_"), word.split()[-1]):
        uses = wn.uses(candidate)
        noun = next((use for use in uses if use[3] == "n"), None)
        if noun:
            return None if noun[0] == 0 and uses[0][0] > 0 else wn.noun_class(noun[4])
    return None


def translation_class(translations, wn):
    """The class of a noun from the classes of its English translations: the first one's,
    unless most of them disagree on whether it is a living being (operaio: hand, laborer,
    worker, workman is a person; partito: party, faction, side, supporters is not)."""
    classes = [c for c in (english_class(t, wn) for t in translations) if c]
    alive = [c for c in classes if c in ("person", "animal")]
    other = [c for c in classes if c not in ("person", "animal")]
    if len(alive) == len(other):
        return classes[0] if classes else None
    return (alive if len(alive) > len(other) else other)[0]


def cognate_class(lemma, wn):
    """The WordNet class of the English cognate of an Italian noun (professore → professor),
    or None: the lemma's derivational ending is changed to the English one (COGNATE_ENDINGS)."""
    for italian_end, english_end in COGNATE_ENDINGS:
        if lemma.endswith(italian_end) and len(lemma) > len(italian_end) + 2:
            stems = [lemma[: -len(italian_end)]]
            for a, b in COGNATE_SPELLING:
                stems += [stem.replace(a, b) for stem in stems if a in stem]
            stems += [re.sub(r"([bcdfglmnprstvz])\1", r"\1", stem) for stem in stems]  # femminista
            for stem in stems:
                if (stem + english_end, "n") in wn.index:
                    return wn.noun_class(stem + english_end)
    return None


def override_classes(analyser):
    """{Italian noun lemma: class} of the hand-written rows of lexicon/it.csv whose card is the
    card of a noun class: the row's word gives its class to the other forms of its lemma
    (maestro → maestri, maestre; re → regina). First names are not nouns: the row of marco
    says nothing of marchi."""
    from app.lexicon import parse_lexicon
    rows, _ = parse_lexicon((ROOT / "lexicon" / "it.csv").read_text(encoding="utf-8"))
    card_class = {CARD[cls]: cls for cls in ("thing", "abstract", "event", "time", "plant", "animal",
                                             "person")}
    people = first_names()
    words = [w for w in rows if w.isalpha() and tuple(rows[w]) in card_class and w.capitalize() not in people]
    classes = {}
    for word, line in zip(words, lt_proc(analyser, words)):
        for lemma, tags in readings(line):
            if tags and tags[0] == "n":
                classes.setdefault(lemma, card_class[tuple(rows[word])])
    return classes


def with_feminine(nouns, analyser):
    """The noun lemmas that have a feminine form (alunno: alunna, conte: contessa, lavoratore:
    lavoratrice): beings with a sex, people or animals. The form must have no other reading
    than the lemma's feminine noun (corsa, modella, informatica have others), and not be
    the name of a place (svizzera, indiana)."""
    places = {p.lower() for p in place_names()}
    forms = sorted({noun[: -len(end)] + feminine for noun in nouns
                    for end, feminine in FEMININE_ENDINGS if noun.endswith(end)} - places)
    found = set()
    for form, line in zip(forms, lt_proc(analyser, forms)):
        analyses = {(lemma, tuple(tags)) for lemma, tags in readings(line)}
        if len(analyses) == 1:
            [(lemma, tags)] = analyses
            if tags[:3] == ("n", "f", "sg") and lemma != form:
                found.add(lemma)
    return found & set(nouns)


def noun_classes(nouns, analyser, wn):
    """{Italian noun lemma: class}: the class lexicon/it.csv gives the lemma, else the one its
    FreeDict translations give, else its English cognate's, else a person when it has a
    feminine form; a lemma none gives is left out (a thing)."""
    english_of = translate(nouns, analyser)
    override = override_classes(analyser)
    gendered = with_feminine(nouns, analyser)
    classes = {}
    for noun in nouns:
        cls = (override.get(noun) or translation_class(english_of.get(noun, []), wn)
               or cognate_class(noun, wn) or ("person" if noun in gendered else None))
        if cls:
            classes[noun] = cls
    return classes


# --- Italian ---------------------------------------------------------------------------

def italian(forms, wn):
    """{form: class} and {form: reason left out} for the Italian forms."""
    ita = APERTIUM / "apertium-spa-ita"
    analyses = lt_proc(ita / "ita-spa.automorf.bin", forms)
    chosen, living_noun = {}, {}  # living_noun: adjectives that are also nouns (medico)
    other_readings = {}  # form -> [(lemma, tags)] of its noun and verb readings
    for form, line in zip(forms, analyses):
        best = None
        for lemma, tags in readings(line):
            if not tags or tags[0] not in IT_ORDER:
                continue
            rank = IT_ORDER.index(tags[0])
            if best is None or rank < best[0]:
                best = (rank, lemma, tags)
        if best:
            chosen[form] = best
            other_readings[form] = [(lemma, tags) for lemma, tags in readings(line)
                                    if tags and tags[0] in ("n", "vblex") and tags[0] != best[2][0]]
            nouns = [lemma for lemma, tags in readings(line) if tags and tags[0] == "n"]
            if best[2][0] == "adj" and nouns:
                living_noun[form] = (IT_ORDER.index("n"), nouns[0], ["n"])
    # Living beings: noun lemma -> English (FreeDict, or a cognate) -> WordNet class (noun_classes).
    nouns = sorted({lemma for _, lemma, tags in list(chosen.values()) + list(living_noun.values())
                    if tags[0] == "n"} | {lemma for rs in other_readings.values() for lemma, tags in rs
                                          if tags[0] == "n"})
    noun_class = noun_classes(nouns, ita / "ita-spa.automorf.bin", wn)
    classes, left, alternative = {}, {}, {}
    for form in forms:
        if form not in chosen:
            left[form] = "unknown to the Italian analyser (a name, a foreign word or a fragment)"
            continue
        _, lemma, tags = chosen[form]
        if form in living_noun:  # a noun of a living being before an adjective: medico, amico
            noun = living_noun[form][1]
            if noun_class.get(noun) in ("person", "animal"):
                lemma, tags = noun, ["n"]
        tag = tags[0]
        if tag == "n":
            classes[form] = noun_class.get(lemma, "thing")
        elif tag in ("prn", "rel") and (lemma in IT_PERSON_PRONOUNS or form in IT_PERSON_PRONOUNS):
            classes[form] = "pronoun-person"
        elif tag == "det" and "pos" in tags:
            classes[form] = "possessive"
        elif tag == "det" and "ind" in tags:
            classes[form] = "quantifier"
        else:
            classes[form] = IT_TAG_CLASS[tag]
        for other, other_tags in other_readings.get(form, []):
            if other_tags[0] == "vblex" and tag != "vblex":
                alternative[form] = "verb"  # parte, visita, sistema
            elif other_tags[0] == "n" and tag == "vblex":
                alternative[form] = noun_class.get(other, "thing")
    return classes, left, alternative


def loanwords(forms, wn):
    """{form: class} of the forms the Italian analyser lacks that are common English words
    (account, computer, weekend): they get their English card."""
    import wordfreq
    english_ones = [w for w in forms if wordfreq.zipf_frequency(w, "en") >= 3.5
                    and wordfreq.zipf_frequency(w, "en") > wordfreq.zipf_frequency(w, "it")]
    classes, _, _ = english(english_ones, wn)
    return classes


# --- names ---------------------------------------------------------------------------

def first_names():
    """Faker's Italian and English first names."""
    from faker.providers.person.en_US import Provider as PersonEN
    from faker.providers.person.it_IT import Provider as PersonIT
    return set(PersonIT.first_names_male) | set(PersonIT.first_names_female) | \
        set(PersonEN.first_names_male) | set(PersonEN.first_names_female)


def place_names():
    """Faker's Italian cities and countries, English countries and US states."""
    from faker.providers.address.en_US import Provider as AddressEN
    from faker.providers.address.it_IT import Provider as AddressIT
    return set(AddressIT.cities) | set(AddressIT.countries) | set(AddressEN.countries) | \
        set(AddressEN.states)


def names(lang, common_words):
    """(first names, places) common in the language: Faker's lists, kept when wordfreq knows them.

    A first name that is also a place stays a name (Marco, Rose); a place that is also a
    common word of the language is dropped (Bra, Ala, Rose).
    """
    import wordfreq

    people, places = first_names(), place_names()
    common_people = {n for n in people if " " not in n and wordfreq.zipf_frequency(n, lang) >= 2.5}
    common_places = {p for p in places if " " not in p and wordfreq.zipf_frequency(p, lang) >= 3.0}
    common_places = {p for p in common_places if p.lower() not in common_words} | set(PLACES[lang].split())
    return sorted(common_people), sorted(common_places - common_people)


CARD["possessive"] = (0.1, 0, 0, 0.9)

HEAD = {
    "it": ["Lessico italiano generato da `make lexicon` (tools/lexicon_build.py): non modificare a mano,",
           "le correzioni vanno in lexicon/it.csv, che vince su questo file. Formato: docs/lexicon-format.md.",
           "Licenza: LICENCE.md in questa cartella."],
    "en": ["English lexicon generated by `make lexicon` (tools/lexicon_build.py): do not edit by hand,",
           "corrections go in lexicon/en.csv, which wins over this file. Format: docs/lexicon-format.md.",
           "Licence: LICENCE.md in this folder."],
}


def number(v):
    return ("%g" % v)


def write(path, lang, classes, alternative, people, places):
    """Write the lexicon file: one `= card class [other class]` line, then its words, for each class."""
    by_class = collections.defaultdict(list)
    for w, c in classes.items():
        by_class[(c, alternative.get(w, ""))].append(w)
    by_class[("name", "")] = people
    by_class[("place", "")] = places
    lines = [f"# {h}" for h in HEAD[lang]]
    for cls, other in sorted(by_class):
        words = sorted(set(by_class[(cls, other)]))
        if not words:
            continue
        lines.append(("= " + " ".join(number(v) for v in CARD[cls]) + f" {cls} {other}").rstrip())
        lines.extend(words)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def build(lang):
    wn = WordNet()
    forms = frequent_forms(lang, TOP + EXTRA)
    classes, left, alternative = (italian if lang == "it" else english)(forms, wn)
    if lang == "it":
        loans = loanwords(list(left), wn)
        classes.update(loans)
        for w in loans:
            left.pop(w)
    for cls, words in SUPPLEMENT[lang].items():
        for w in words.split():
            if w not in classes:
                classes[w] = cls
                left.pop(w, None)
    top = set(forms[:TOP])
    kept = {w: c for w, c in classes.items() if w in top or c not in ("thing",) or len(w) > 2}
    people, places = names(lang, set(kept))
    folder = ROOT / "lexicon" / ("gpl" if lang == "it" else "cc-by-sa")
    write(folder / f"{lang}.txt", lang, kept, alternative, people, places)
    listed = {n.lower(): "first name" for n in people} | {p.lower(): "place" for p in places}
    left_top = {w: (f"a {listed[w]}: gets its card when typed with a capital (names list)"
                    if w in listed else r) for w, r in left.items() if w in top}
    (folder / f"{lang}-left-out.txt").write_text(
        f"# {lang}: forms among the {TOP} most frequent that have no card in {lang}.txt, and why.\n"
        "# Names among them get a card at run time when capitalised (names list, or the name rule).\n"
        + "".join(f"{w}\t{r}\n" for w, r in sorted(left_top.items())), encoding="utf-8")
    print(f"{lang}: {len(kept)} forms, {len(people)} names, {len(places)} places; "
          f"{len(left_top)} of the top {TOP} left out")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("langs", nargs="*", default=["it", "en"])
    args = parser.parse_args(argv)
    for lang in args.langs:
        build(lang)


if __name__ == "__main__":
    sys.exit(main())
