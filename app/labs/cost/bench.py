"""The cost lab's rows in `make bench` (app/labs/__init__.py, `Bench`; tools/bench.py runs them),
each at 200 words, until the answer is on the page, against the mask's change beside it:

- its step 3, the pattern changed in turn by its own radio buttons (views.py), each computing the
  record again and drawing the step's views, the grid among them;
- its step 6 with B = 16, FlashAttention's block size typed in its view (17, then 16), each drawing
  again the table of the selected row's 13 blocks (flash_view.py; the record stays)."""

from app.labs import Bench

BENCH = (
    Bench(
        group="pattern",
        label="Setting change (the cost lab's pattern), 200 words, its step 3",
        query="&path=cost&step=3",
        block=6,  # (its patterns in turn, each answer told by its cells)
        script="""
  const kinds = ["window", "full", "local_global", "full", "bigbird", "full"];
  const handler = [];
  for (let i = 0; i < count; i++) {
    await new Promise(ok => setTimeout(ok, Math.random() * 17));
    const kind = kinds[i % kinds.length];
    const t0 = performance.now();
    document.getElementById(`pattern-${kind}`).click();
    await answered(s => s.cost && (kind === "full" ? 2 * s.cost.cells > s.cost.full : 2 * s.cost.cells < s.cost.full));
    handler.push(performance.now() - t0);
  }
  return handler;"""),
    Bench(
        group="flash",
        label="Setting change (FlashAttention's B, 16 / 17), 200 words, the cost lab's step 6",
        query="&path=cost&step=6&flash=16",
        block=6,
        script="""
  const handler = [];
  for (let i = 0; i < count; i++) {
    await new Promise(ok => setTimeout(ok, Math.random() * 17));
    const t0 = performance.now();
    const to = i % 2 === 0 ? 17 : 16;
    const box = document.getElementById('flash-block');
    box.value = String(to);
    box.dispatchEvent(new Event('change', {bubbles: true}));
    await answered(s => s.flash && s.flash.block === to);
    handler.push(performance.now() - t0);
  }
  return handler;"""),
)
