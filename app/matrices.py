"""Matrices a student types, pastes or gets at random: reading them, their limits, examples.

Two written forms (docs/DESIGN.md, "URL parameters"):

- In a link: `.` decimal point, `,` between numbers, `;` between rows: `1,0;0,1`.
- On the page, friendlier (`parse`):
  * `[[1, 0], [0, 1]]`: the inner brackets are the rows;
  * `[2,85; 0; 2,1; 0]` (a vector as the page writes it): one row;
  * several lines: one row a line;
  * one line without brackets: `;` separates rows (`1 0; 0 1`, `1,0;0,1`).
  Inside a row numbers are separated by `;` (then a comma is the Italian decimal mark),
  or by spaces (a comma at the end of a number is a separator, one inside it the decimal
  mark: `1, 0,5` is 1 and 0.5), or, with neither, by commas (`1,0` is two numbers; write
  `1.5` for one and a half).
- One cell (`parse_cell`): one number, `.` or `,` as the decimal mark, `−` or `-`.

Every entry must be finite with |x| ≤ 10⁶; matrix mode allows at most 16 rows and 8
columns. A problem raises `Unreadable(key, **params)`: a string key of app/i18n.py and
what to fill it with, so the page says it in its language and keeps what was typed.
"""

import random

MAX_ABS = 1e6  # largest |entry| accepted
MAX_ROWS = 16  # n ≤ 16 rows in matrix mode
MAX_COLS = 8  # d_k, d_v ≤ 8
RANDOM_SHAPE = (8, 4)  # the random example: Q, K, V each 8×4 (seed 003's exercise)
RANDOM_LOW, RANDOM_HIGH = -2, 2  # …with whole numbers drawn uniformly from −2…2
_NUMBER_CHARS = set("0123456789+-.eE")


class Unreadable(Exception):
    """What cannot be read, as a string key of app/i18n.py and its parameters."""

    def __init__(self, key, **params):
        super().__init__(key)
        self.key, self.params = key, params


def number(token, decimal_comma=True):
    """One entry: a finite number with |x| ≤ 10⁶, or raise Unreadable."""
    raw = token.strip()
    text = raw.replace("−", "-").replace("\u2009", "")
    if decimal_comma:
        text = text.replace(",", ".")
    if not text:
        raise Unreadable("cell_empty")
    if text.lower().lstrip("+-") in ("inf", "infinity", "nan", "∞"):
        raise Unreadable("cell_not_finite", value=raw)
    if not set(text) <= _NUMBER_CHARS:
        raise Unreadable("cell_not_number", value=raw)
    try:
        value = float(text)
    except ValueError:
        raise Unreadable("cell_not_number", value=raw) from None
    if value != value or abs(value) == float("inf"):
        raise Unreadable("cell_not_finite", value=raw)
    if abs(value) > MAX_ABS:
        raise Unreadable("cell_too_big", value=raw)
    return value + 0.0  # -0 → 0


def parse_cell(text):
    """One number typed in a cell ('1,5', '-2', '1e3'); '1,2,3' or '1 2' is more than one."""
    raw = text.strip()
    if raw.count(",") > 1 or ";" in raw or len(raw.split()) > 1 or (raw.count(",") == 1 and "." in raw):
        raise Unreadable("cell_many", value=raw)
    return number(raw)


def row_tokens(text):
    """The numbers of one row as text with `.` as the decimal mark (see the module's rules)."""
    text = text.strip().strip("[]").strip()
    if ";" in text:
        return [t.strip().replace(",", ".") for t in text.split(";") if t.strip()]
    pieces = [p for p in text.split() if p != ","]
    if len(pieces) > 1:
        return [(p[:-1] if p.endswith(",") else p).replace(",", ".") for p in pieces]
    return [t.strip() for t in text.split(",")] if text else []


def _row(text):
    return [number(t, decimal_comma=False) for t in row_tokens(text)]


def rows_of(text):
    """The row texts of a typed or pasted matrix."""
    text = text.strip()
    if "[[" in text.replace(" ", "").replace("\n", ""):
        inner = text.strip()[1:-1] if text.strip().startswith("[") and text.strip().endswith("]") else text
        parts, depth, start = [], 0, None
        for at, ch in enumerate(inner):
            if ch == "[":
                depth += 1
                if depth == 1:
                    start = at + 1
            elif ch == "]":
                depth -= 1
                if depth == 0 and start is not None:
                    parts.append(inner[start:at])
        return parts
    if text.startswith("[") and "\n" not in text:
        return [text]
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1:
        return lines
    return [part for part in text.split(";") if part.strip()]


def parse(text, max_rows=MAX_ROWS, max_cols=MAX_COLS):
    """A typed or pasted matrix as a tuple of rows of floats; raise Unreadable."""
    if not text or not text.strip():
        raise Unreadable("matrix_empty")
    rows = []
    for i, line in enumerate(rows_of(text)):
        try:
            values = _row(line)
        except Unreadable as problem:
            problem.params.setdefault("row", i + 1)
            raise
        if values:
            rows.append(tuple(values))
    return checked(rows, max_rows, max_cols)


def checked(rows, max_rows=MAX_ROWS, max_cols=MAX_COLS, cols=None):
    """Rows (of floats) if rectangular and within the limits; raise Unreadable."""
    if not rows:
        raise Unreadable("matrix_empty")
    width = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != width:
            raise Unreadable("matrix_ragged", row=i + 1, count=len(row), first=width)
    if len(rows) > max_rows:
        raise Unreadable("matrix_too_many_rows", count=len(rows), limit=max_rows)
    if width > max_cols:
        raise Unreadable("matrix_too_many_cols", count=width, limit=max_cols)
    if cols is not None and width != cols:
        raise Unreadable("matrix_width", count=width, expected=cols)
    return tuple(tuple(float(v) for v in row) for row in rows)


def from_url(text, max_rows=MAX_ROWS, max_cols=MAX_COLS):
    """A matrix written in a link: `1,0;0,1` (`.` decimal point); raise Unreadable."""
    rows = [tuple(number(t, decimal_comma=False) for t in part.split(","))
            for part in text.strip().split(";") if part.strip()]
    return checked(rows, max_rows, max_cols)


def from_json(value, max_rows=MAX_ROWS, max_cols=MAX_COLS):
    """A matrix sent by a host page: a list of lists of numbers; raise Unreadable."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(r, (list, tuple)) for r in value):
        raise Unreadable("matrix_empty")
    rows = []
    for row in value:
        for x in row:
            if isinstance(x, bool) or not isinstance(x, (int, float)):
                raise Unreadable("cell_not_number", value=str(x)[:20])
            if x != x or abs(x) == float("inf"):
                raise Unreadable("cell_not_finite", value=str(x))
            if abs(x) > MAX_ABS:
                raise Unreadable("cell_too_big", value=str(x))
        rows.append(tuple(float(x) for x in row))
    return checked(rows, max_rows, max_cols)


def shortest(x):
    """A number in its shortest round-trip form: 1, 0.5, 2.25 (no trailing .0)."""
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x)


def to_url(rows):
    """`1,0;0,1`: the link form, numbers in their shortest round-trip form."""
    return ";".join(",".join(shortest(v) for v in row) for row in rows)


def to_text(rows, lang):
    """The page's form of a matrix for a text box: one row a line, numbers separated by
    spaces (Italian decimal comma in Italian)."""
    lines = [" ".join(shortest(v) for v in row) for row in rows]
    text = "\n".join(lines)
    return text.replace(".", ",") if lang == "it" else text


def random_example(seed):
    """(Q, K, V), each 8×4 whole numbers drawn uniformly from −2…2 by a generator seeded
    with `seed`: the same seed gives the same matrices (also in the browser)."""
    rng = random.Random(seed)
    n, d = RANDOM_SHAPE
    return tuple(tuple(tuple(float(rng.randint(RANDOM_LOW, RANDOM_HIGH)) for _ in range(d))
                       for _ in range(n)) for _ in range(3))


# Worked examples: (id, Q, K, V). The first is the lesson's (seed 003): 3 tokens, d_k = 2,
# K = Q. Its weights are [0,40; 0,20; 0,40], [0,20; 0,40; 0,40], [0,25; 0,25; 0,50] and
# out₁ ≈ [6,02; 3,98].
EXAMPLES = (
    ("lesson", ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0)), ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0)),
     ((10.0, 0.0), (0.0, 10.0), (5.0, 5.0))),
    # Cross-attention: two queries from one sequence ask three keys of another.
    ("cross", ((2.0, 0.0), (0.0, 2.0)), ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0)),
     ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))),
)
DEFAULT_EXAMPLE = EXAMPLES[0]


def resolve(q=None, k=None, v=None, seed=None):
    """(Q, K, V) of matrix mode: a seed gives the random example; else the typed ones,
    missing K → K = Q, missing V → V = K; none given → the lesson's example."""
    if seed is not None:
        return random_example(seed)
    if q is None:
        _, q0, k0, v0 = DEFAULT_EXAMPLE
        return q0, k0 if k is None else k, v0 if v is None else v
    k = q if k is None else k
    v = k if v is None else v
    return q, k, v


def shape_problem(q, k, v):
    """A Unreadable for Q, K, V that cannot be multiplied, or None."""
    if len(q[0]) != len(k[0]):
        return Unreadable("shape_qk", dq=len(q[0]), dk=len(k[0]))
    if len(k) != len(v):
        return Unreadable("shape_kv", nk=len(k), nv=len(v))
    return None


def differs(expected_text, value):
    """Whether `value` differs from the number a student typed by more than half a unit
    of the typed number's last digit ('0,36' vs 0,4011 → True; '0,4' vs 0,4011 → False)."""
    raw = expected_text.strip().replace("−", "-").replace(",", ".")
    typed = float(raw)
    mantissa = raw.lower().split("e")[0]
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    exponent = int(raw.lower().split("e")[1]) if "e" in raw.lower() else 0
    half = 0.5 * 10.0 ** (exponent - decimals)
    return abs(value - typed) > half * (1 + 1e-9)
