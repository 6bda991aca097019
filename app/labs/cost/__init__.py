"""The cost lab: which cells attention computes (window, local + global, BigBird, linear), what that
costs as the text grows, and FlashAttention's tiles; its path `path=cost` (docs/DESIGN.md, "Cost of
the pattern"). The patterns' maths is the core's (app/patterns.py: the generation lab's window
shares it), FlashAttention's recurrence too (app/flash.py: the state's `flash`)."""

from app import patterns
from app.flash import MAX_BLOCK
from app.labs import Lab
from app.setting import MAX_LIMIT, Bad, Setting


def take_global(settings, value, change):
    """The global words as "0,5": whole numbers from 0, kept sorted and once each."""
    parts = [p.strip() for p in str(value).split(",") if p.strip()]
    if not all(p.isdigit() and int(p) <= MAX_LIMIT for p in parts):
        raise Bad("attention:set: 'global' must be word indices such as \"0,5\"; ignored")
    return settings.copy(global_tokens=",".join(str(n) for n in sorted({int(p) for p in parts})))


LAB = Lab(
    id="cost",
    owns=("pattern", "window", "global_tokens", "random_keys", "flash", "flash_step"),
    paths=("cost",),
    tabs={"flash": {"place": 42, "it": "Blocchi", "en": "Blocks"}},
    settings=(
        # The cost lab's pattern (docs/DESIGN.md, "Cost of the pattern"; app/attention.py,
        # pattern_cells): which cells are computed at all. Its controls live in the lab's own view
        # (app/labs/cost/views.py), not among the other settings.
        Setting(attr="pattern",
                help=("which cells are computed: full (every one), window (|i − j| ≤ window), local_global (the "
                      "window and the global words), bigbird (those and random keys from seed) or linear "
                      "(every cell, φ(q)·φ(k) instead of softmax)"),
                example="window",
                url="pattern", host="pattern", control="pattern", kind="choice", default="full",
                choices=patterns.PATTERNS),
        Setting(attr="global_tokens",
                help="the cost lab's global words, counted from 0 (local_global and bigbird): each sees every word "
                     "and every word sees it",
                example="0,5",
                url="global", host="global", control=None, kind="text", default="", take=take_global),
        Setting(attr="random_keys",
                help="bigbird: how many random keys each row adds, drawn from seed (none: 2)",
                example="2",
                url="random", host="random", control="random", kind="integer", default=None,
                low=0, high=MAX_LIMIT, nullable=True),
        # FlashAttention's tiles (docs/DESIGN.md, "Cost of the pattern"; app/flash.py): the selected
        # row computed over blocks of B keys. `flash_step` is how many blocks its table has reached
        # (the student steps through them from the first; none: the first; "All blocks": the number
        # of blocks). A new block size starts again at block 1 (its `clears`).
        Setting(attr="flash",
                help=("FlashAttention's block size B: the selected row is also computed over blocks of B keys, "
                      "one line a block, ending at the same output (none: off)"),
                example="2",
                url="flash", host="flash", control="flash", kind="integer", default=None,
                low=1, high=MAX_BLOCK, nullable=True, clears=("flash_step",)),
        Setting(attr="flash_step",
                help=("how many of FlashAttention's blocks its table shows, one more at each step (none: the "
                      "first; the number of blocks: all)"),
                example="1",
                url="flash_step", host="flash_step", control=None, kind="integer", default=None,
                low=1, high=MAX_LIMIT, nullable=True),
    ),
    clicks={"flash-prev": "flash_view.previous_block", "flash-next": "flash_view.next_block",
            "flash-all": "flash_view.all_blocks"},
    changes={"global-word": "views.toggle_global"},
)
