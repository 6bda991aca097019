"""The generation lab's row in `make bench` (app/labs/__init__.py, `Bench`; tools/bench.py runs it).

The model writes 20 letters after 19 typed and the start token (40 tokens: generate=20), once a
checkpoint: the training slider moved round the kept checkpoints (every file read once before), each
move writing the 20 letters again with the KV cache. Until the answer is on the page against 200 ms,
alone on its page; beside it, from the engine's own figures (app/engine.py), one cached step (the
last letter's, reading a 40-row cache) against the full forward pass of the same 40 tokens, and the
engine's whole writing."""

from app.labs import Bench

STEP, FULL = "  one cached step, 40 tokens (p50 / p95)", "  the full forward pass of the 40 tokens"

BENCH = (Bench(
    group="writing",
    label="20 letters written, until the answer is on the page",
    query="?mode=model&generate=20&s=abcdefghijklmnopqrs",  # (19 letters)
    words200=False,
    budget_ms=200,
    block=0,
    parts=((STEP, FULL), (FULL, None), ("  20 letters written, the engine's own time", 200)),
    script="""
  const slider = document.getElementById('checkpoint');
  const kept = +slider.max + 1, out = [];
  const move = async () => {
    const before = JSON.parse(document.getElementById('attention-state').textContent).model.checkpoint;
    slider.value = String((+slider.value + 1) % kept);
    const t0 = performance.now();
    slider.dispatchEvent(new Event('input', {bubbles: true}));
    await answered(s => s.model && s.model.checkpoint !== before && s.model.tokens.length === 40);
    return performance.now() - t0;
  };
  for (let i = 0; i < kept; i++) await move();  // (every checkpoint's file read)
  for (let i = 0; i < count; i++) {
    await new Promise(ok => setTimeout(ok, Math.random() * 17));
    const ms = await move();
    const python = (await window.attentionExplorer.engineFigures()).python;
    out.push([ms, python.generate_step_ms, python.forward_ms, python.generate_ms]);
  }
  return out;"""),)
