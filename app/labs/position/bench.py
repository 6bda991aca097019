"""The position lab's row in `make bench` (app/labs/__init__.py, `Bench`; tools/bench.py runs it).

At 200 words on the lab's step 3, the kind and the offset changed in turn by their own controls
(controls.py), each computing the record again and drawing the step's views: until the answer is
on the page, against the mask's change beside it."""

from app.labs import Bench

BENCH = (Bench(
    group="position",
    label="Setting change (position / offset), 200 words, the lab's step 3",
    query="&path=position&step=3",
    block=8,  # (the 4 kinds, each with an offset)
    script="""
  const kinds = ["rope", "sinusoidal", "alibi", "none"];
  const handler = [];
  for (let i = 0; i < count; i++) {
    await new Promise(ok => setTimeout(ok, Math.random() * 17));
    const t0 = performance.now();
    if (i % 2 === 0) {
      const kind = kinds[(i / 2) % kinds.length];
      document.querySelector(`input[name="position"][value="${kind}"]`).click();
      await answered(s => s.position && s.position.kind === kind);
    } else {
      const to = (+document.getElementById('offset').value + 3) % 50;
      const box = document.getElementById('offset');
      box.value = String(to);
      box.dispatchEvent(new Event('change', {bubbles: true}));
      await answered(s => s.position && s.position.offset === to);
    }
    handler.push(performance.now() - t0);
  }
  return handler;"""),)
