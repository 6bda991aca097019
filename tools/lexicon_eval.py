"""Evaluate the committed lexicons on the hand-written set (CPython only; `make lexicon-eval`).

Reads tests/data/lexicon-eval.txt (its header says the format), runs each sentence through
app/lexicon.py exactly as the page does (tokenize, then lookup), and prints the
dominant-feature accuracy, the share of words that fell to the default guess, and every
word whose card is wrong. A card is right when the annotated feature has the card's largest
value (a tie counts for each feature in it). Exits non-zero when a target is missed:
accuracy >= 95 %, default-guess share <= 3 %.
"""

import argparse
import sys
from pathlib import Path

from app.attention import FEATURES
from app.lexicon import load_lexicon, lookup, tokenize

ROOT = Path(__file__).resolve().parent.parent
EVAL_SET = ROOT / "tests" / "data" / "lexicon-eval.txt"
LETTERS = {"L": 0, "A": 1, "T": 2, "F": 3}  # alive, action, thing, function
ACCURACY_TARGET = 0.95
DEFAULT_TARGET = 0.03


class Case:
    """One annotated sentence: language, text, and the expected feature of each word."""

    def __init__(self, lang, text, expected, line):
        self.lang, self.text, self.expected, self.line = lang, text, expected, line


def read_set(path=EVAL_SET):
    """The annotated sentences of the evaluation file."""
    cases = []
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        lang, text, marks = (part.strip() for part in line.split("|"))
        cases.append(Case(lang, text, marks.split(), no))
    return cases


def is_word(token):
    return any(c.isalpha() for c in token.text)


def evaluate(cases, lexicons):
    """(words, right, default guesses, wrong list, problems) over all cases."""
    words = right = defaults = 0
    wrong, problems = [], []
    for case in cases:
        tokens = [t for t in lookup(tokenize(case.text, case.lang), lexicons[case.lang]) if is_word(t)]
        if len(tokens) != len(case.expected):
            problems.append(f"line {case.line}: {len(tokens)} words, {len(case.expected)} marks: "
                            f"{[t.text for t in tokens]}")
            continue
        for tok, mark in zip(tokens, case.expected):
            words += 1
            top = max(tok.card)
            if tok.card[LETTERS[mark]] == top:
                right += 1
            else:
                got = "".join(k for k, i in LETTERS.items() if tok.card[i] == top)
                how = "lexicon" if tok.known else f"guess: {tok.guess}"
                wrong.append(f"{case.lang} {tok.text!r}: expected {mark} ({FEATURES[LETTERS[mark]]}), "
                             f"card {tok.card} -> {got} ({how}) in «{case.text}»")
            if not tok.known and tok.guess == "noun":
                defaults += 1
    return words, right, defaults, wrong, problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=EVAL_SET)
    args = parser.parse_args(argv)
    cases = read_set(args.set)
    lexicons = {lang: load_lexicon(lang) for lang in ("it", "en")}
    words, right, defaults, wrong, problems = evaluate(cases, lexicons)
    for p in problems:
        print("set problem:", p)
    langs = {c.lang for c in cases}
    print(f"Lexicon evaluation: {len(cases)} sentences ({', '.join(sorted(langs))}), {words} words")
    accuracy = right / words if words else 0.0
    share = defaults / words if words else 1.0
    print(f"dominant-feature accuracy  {accuracy:7.1%}  (target >= {ACCURACY_TARGET:.0%})")
    print(f"default-guess share        {share:7.1%}  (target <= {DEFAULT_TARGET:.0%})")
    print(f"wrong ({len(wrong)}):")
    for w in wrong:
        print("  " + w)
    ok = not problems and accuracy >= ACCURACY_TARGET and share <= DEFAULT_TARGET
    print("result:", "ok" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
