"""The beyond lab's row in `make bench` (app/labs/__init__.py, `Bench`; tools/bench.py runs it), at 200
words, until the answer is on the page, against the mask's change beside it: its step 1, the mixer
changed in turn by its own radio buttons (views.py), each computing the record again under the mixer
(both forms) and drawing the step's views."""

from app.labs import Bench

BENCH = (
    Bench(
        group="mixer",
        label="Setting change (the beyond lab's mixer), 200 words, its step 1",
        query="&path=beyond&step=1",
        block=6,  # (the mixers in turn, each answer told by its kind)
        script="""
  const kinds = ["linear", "softmax", "retention", "softmax", "selective", "softmax"];
  const handler = [];
  for (let i = 0; i < count; i++) {
    await new Promise(ok => setTimeout(ok, Math.random() * 17));
    const kind = kinds[i % kinds.length];
    const t0 = performance.now();
    document.getElementById(`mixer-${kind}`).click();
    await answered(s => kind === "softmax" ? s.mixer === null : s.mixer !== null && s.mixer.kind === kind);
    handler.push(performance.now() - t0);
  }
  return handler;"""),
)
