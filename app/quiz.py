"""Guess first, then see: the quiz of the selected row (the `quiz` setting).

A student picks the word they expect to get the most attention before the answer is
shown. Generic over the record's selected row: the winners are the candidates of that
row with the largest weight, whatever produced the row (a head, a typed matrix, the
mask, the temperature). Pure functions and one small class: no DOM, so the page, the
terminal and the tests share them.

The score lives in the page's memory only (one browser tab; a reload starts at 0) and
is never sent anywhere; a host page sees it in the state JSON's `quiz` field.
"""

TIE = 1e-12  # weights this close (relative) tie for the most attention: either guess counts


def winners(row):
    """Indices of the candidates with the largest weight (several on a tie), or []."""
    idx = [j for j, c in enumerate(row.candidates) if c]
    if not idx:
        return []
    top = max(row.weights[j] for j in idx)
    return [j for j in idx if row.weights[j] >= top * (1 - TIE)]


def decisive_product(row, guess, winner):
    """The one product q_c × k_c that decided `winner` over `guess`: the component c where
    the winner's key gains most on the guess's, q_c·(k_winner,c − k_guess,c). With no
    guess, or the guess among the winners, the winner's largest product.
    Returns (c, q_c, k_winner_c, k_guess_c or None)."""
    q, keys = row.query, row.record.keys
    if guess is None or guess == winner:
        c = max(range(len(q)), key=lambda c: (q[c] * keys[winner][c], -c))
        return c, q[c], keys[winner][c], None
    c = max(range(len(q)), key=lambda c: (q[c] * (keys[winner][c] - keys[guess][c]), -c))
    return c, q[c], keys[winner][c], keys[guess][c]


def question(row):
    """What a guess answers: the asking word, its query and the keys it is compared with."""
    return row.focus, tuple(row.query), tuple(map(tuple, row.record.keys))


class Session:
    """The quiz of one browser tab: the score and the guess for the selected word.

    `guess` is the word the student committed to (None: not yet, the answer is hidden);
    `pct` their optional rough percentage; `asked` the question they answered (the row's
    word, query and keys) and `answer` its winners then: another word, sentence or head
    asks again, and so does a setting that moves the winners (a temperature change
    keeps the reveal). `right`/`tried`: the score.
    """

    __slots__ = ("guess", "pct", "asked", "answer", "right", "tried", "kept", "questions")

    def __init__(self):
        self.right = self.tried = 0
        # A graded exercise (`lock`) keeps each answered question answered: {question: (guess,
        # pct, winners)}; coming back to a word shows its answer, and it is not asked again.
        # None: an exercise link's quiz, which asks again (practice).
        self.kept = None
        self.questions = None  # a graded exercise: the questions it asks (the `questions` setting)
        self.new_question()

    def new_question(self):
        """A new word (or new winners): the answer is hidden until the next guess."""
        self.guess = self.pct = self.asked = self.answer = None

    def reset_score(self):
        self.right = self.tried = 0

    def revealed(self, row):
        """Whether the answer of `row` may be shown: guessed, or nothing to guess (no candidate)."""
        return row is None or self.guess is not None or not row.has_candidates

    def take_guess(self, row, guess, pct=None):
        """Record a guess for `row` (a candidate index), score it; True when it was right."""
        if self.guess is not None or not 0 <= guess < row.n or not row.candidates[guess]:
            return False
        self.guess, self.pct, self.asked, self.answer = guess, pct, question(row), winners(row)
        self.tried += 1
        correct = guess in self.answer
        self.right += correct
        if self.kept is not None:
            self.kept[self.asked] = (guess, pct, self.answer)
        return correct

    def follow(self, row):
        """The row shown changed: keep a revealed guess for the same question while its
        winners stand, else ask again."""
        if self.guess is not None and (row is None or question(row) != self.asked
                                       or winners(row) != self.answer):
            self.new_question()
        if self.kept is not None and self.guess is None and row is not None:
            kept = self.kept.get(question(row))
            if kept is not None and winners(row) == kept[2]:
                self.guess, self.pct, self.asked, self.answer = kept[0], kept[1], question(row), kept[2]

    def lock(self, questions=None):
        """A graded exercise of `questions` questions: answered questions stay answered (`kept`)."""
        if self.kept is None:
            self.kept = {}
        if questions is not None:
            self.questions = questions

    def answered(self):
        """The graded exercise's answers, [[word, guess, pct or None], …] in the order given."""
        return [[asked[0], guess, pct] for asked, (guess, pct, _) in (self.kept or {}).items()]

    def restore(self, saved, record):
        """A graded exercise resumed (a SCORM package's suspend_data, static/scorm.js): the
        score, and each answered word's guess kept, for the `record` on screen. What does not
        fit the record (a word out of range, a guess no candidate) is left out; the score
        is taken as it was kept, at most `tried` right."""
        self.lock()
        for item in saved.get("answered") or ():
            try:
                focus, guess, pct = (list(item) + [None, None, None])[:3]
                focus, guess = int(focus), int(guess)
                pct = None if pct is None else int(pct)
            except (TypeError, ValueError):
                continue
            if record is None or not 0 <= focus < record.n_q:
                continue
            row = record.row(focus)
            if not 0 <= guess < row.n or not row.candidates[guess]:
                continue
            self.kept[question(row)] = (guess, pct, winners(row))
        tried, right = saved.get("tried"), saved.get("right")
        if isinstance(tried, int) and isinstance(right, int) and 0 <= right <= tried:
            self.tried, self.right = tried, right

    def field(self, row):
        """The state JSON's `quiz` object (docs/DESIGN.md) for the selected `row` (or None)."""
        won = [] if row is None else winners(row)
        if self.kept is not None and self.guess is None:  # (a graded exercise: not before the guess)
            won = []
        field = {"guess": self.guess, "winners": won,
                 "correct": None if self.guess is None else self.guess in won,
                 "right": self.right, "tried": self.tried}
        if self.kept is not None:
            field["answered"] = self.answered()
        return field
