"""How a number is written, in one place: the digits of each kind of number, the language's
decimal mark and the rounding rule. The views, the state JSON's display strings, the CSVs, the
picture, the terminal and the notebook all write numbers through here (app/i18n.py re-exports
`num`, `percent`, `short` and `half_up`, which the rest imports from there).

The rule (README, "Numbers on the page"): write the number with 15 significant digits, then
round half up to the digits shown, each number on its own: 0.2875 → 0.288, 28.75 % → 28.8 %.
A kind is named where a number is written (`percent(w, lang, "table")`); `DIGITS` says how
many digits that kind shows, so changing one entry changes every output of that kind.
"""

import functools

DIGITS = {
    "value": 3,  # dot products, logits, e^logit, weights, outputs: 0,998
    "bar": 0,  # percentages of the bars, the matrix's cells and the heads' cards: 42%
    "table": 1,  # percentages of the steps table, its CSV, the state JSON and the texts that quote it: 42,4%
    "card": 2,  # a word's card, and the values the texts quote from it: 0,9
    "loss": 2,  # the trained model's loss and in-context score on its curve: 3,21
    "axis": 1,  # the curve's axis ticks: 3,5
    "full": 6,  # a number as typed or shown whole (an editor's cell, a logit written out): 0,99751
    # the numbers a hand check starts from (LayerNorm's mean, √(var + ε), x₀, γ, β): a digit more than
    # the "value" it arrives at, so that working it from them lands on that value, or one unit off
    "operand": 4,
}
MARKS = {"it": ",", "en": "."}  # the decimal mark of each language (the minus sign is always −)
THOUSANDS = {"it": ".", "en": ","}  # the mark between groups of three digits of a whole number
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def digits(kind):
    """The digits of `kind` (a name of DIGITS, or already a count)."""
    return DIGITS[kind] if isinstance(kind, str) else kind


POWERS = tuple(float(10 ** d) for d in range(23))  # 10**d, each exact as a float
QUICK_BELOW = 1e15  # |x| × 10**decimals under this: the quick route may decide (its whole part is exact)


def half_up(x, decimals):
    """|x| × 10**decimals as a whole number, by the page's rounding rule.

    Plain float formatting would give 0.287 for 0.2875 (0.28749999… in binary); the rule's 15
    significant digits give 0.288. Integer arithmetic on those digits: the browser's trimmed
    standard library has no `decimal`.

    The quick route first: y = |x| × 10**decimals in floats is within 5.3e-15·y of the rule's
    15 digits × 10**decimals (those digits are within 5e-15·|x| of x, the product within 1.2e-16),
    so unless y lies within 1e-13·(y + 1) of a half, both round to the same whole number. Near a
    half, the digits decide. (A page of numbers is most of a redraw's work: the quick route is
    about three times as fast.)
    """
    if decimals < len(POWERS):
        y = abs(x) * POWERS[decimals]
        if y < QUICK_BELOW:  # (NaN and infinities fail this and go the long way, as before)
            whole = int(y)
            rest = y - whole  # (exact: y < 2**50)
            if abs(rest - 0.5) > 1e-13 * (y + 1.0):
                return whole + (rest > 0.5)
    mantissa, exponent = format(abs(x), ".14e").split("e")  # d.dddddddddddddd, 15 digits
    whole_digits = int(mantissa.replace(".", ""))
    shift = int(exponent) - 14 + decimals  # |x|·10**decimals = whole_digits · 10**shift
    if shift >= 0:
        return whole_digits * 10 ** shift
    whole, rest = divmod(whole_digits, 10 ** -shift)
    return whole + (1 if 2 * rest >= 10 ** -shift else 0)


@functools.lru_cache(maxsize=8192)  # cards repeat the same few values: format each once
def _num(x, lang, decimals):
    whole = half_up(x, decimals)
    text = str(whole).rjust(decimals + 1, "0")
    s = text[:len(text) - decimals] + ("." + text[len(text) - decimals:] if decimals else "")
    if x < 0 and whole:
        s = "−" + s  # no "−0,000"
    return s.replace(".", MARKS[lang]) if lang in MARKS else s


def num(x, lang, kind="value"):
    """A number with the digits of `kind`, the language's decimal mark and a true minus sign,
    rounded by `half_up`'s rule (1,995 ÷ 2 = 0,9975 shows as 0,998)."""
    return _num(x, lang, digits(kind))


def percent(weight, lang, kind="bar"):
    """100 × weight, rounded half up on its own to the digits of `kind`, with '%': 42% · 42,4%."""
    return num(100.0 * weight, lang, kind) + "%"


def short(x, lang, kind="value"):
    """A number with at most the digits of `kind` and no trailing zeros: 0,9 · 1 · 0,125."""
    s = num(x, lang, kind)
    mark = MARKS.get(lang, ".")
    if mark in s:
        s = s.rstrip("0").rstrip(mark)
    return "0" if s in ("−0", "") else s


def whole(n, lang):
    """A whole number with the language's thousands mark: 1.843.200 · 1,843,200."""
    return f"{n:,}".replace(",", THOUSANDS.get(lang, ","))


def exact(x, lang):
    """Every digit the float `x` holds (the shortest form that reads back as the same number, as
    Python's repr finds it), with the language's decimal mark and a true minus sign: two numbers
    that differ in the last bit are written differently. A whole value has no decimals (0, not
    0.0), and a power of ten is written out: 3,2686241359674123 × 10⁻¹⁷."""
    mantissa, _, exponent = repr(float(x)).partition("e")
    if mantissa.endswith(".0"):
        mantissa = mantissa[:-2]
    if mantissa == "-0":
        mantissa = "0"
    said = mantissa.replace("-", "−").replace(".", MARKS.get(lang, "."))
    return said + (" × 10" + str(int(exponent)).translate(SUPERSCRIPT) if exponent else "")


def shown_sum(weights, lang, kind):
    """What the percentages of `weights`, each shown alone with the digits of `kind`, add up to
    ("101%"), or None when they make 100 (each is rounded on its own: 3 × 33,3% = 99,9%)."""
    units = [half_up(100.0 * w, digits(kind)) for w in weights]
    whole = 100 * 10 ** digits(kind)
    if not units or sum(units) == whole:
        return None
    return num(sum(units) / 10 ** digits(kind), lang, kind) + "%"


def whole_percent(weight):
    """100 × weight as a whole number by the rule (a matrix cell: 42), taking the quick float
    route except within 1e-9 of a half, where the rule decides (the grid has n² cells)."""
    x = 100.0 * weight
    if abs(x - int(x) - 0.5) < 1e-9:
        return half_up(x, 0)
    return int(x + 0.5)
