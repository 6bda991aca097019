"""The beyond lab's rows in `make bench` (app/labs/__init__.py, `Bench`; tools/bench.py runs them), at 200
words, until the answer is on the page: its step 1, the mixer changed in turn by its own radio buttons
(views.py), each computing the record again under the mixer (both forms) and drawing the step's
views, against the mask's change beside it; and its step 2, the state moved one word by the stepper's
buttons (stepper.py), alone against 16 ms."""

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
    Bench(
        group="state",
        label="One step of the state (the beyond lab's stepper), 200 words, its step 2",
        query="&path=beyond&step=2&mixer=selective&mixer_step=100",
        budget_ms=16,
        block=0,
        script="""
  // (the words read are no part of the state: the view's line "after word t of n" says them)
  const at = () => (document.querySelector('#view-mixer-state .mixer-at') || {}).textContent;
  const moved = (before) => new Promise(ok => {
    const done = () => at() !== before && !document.querySelector('#app[data-answering]');
    if (done()) return ok();
    new MutationObserver((_, watch) => { if (done()) { watch.disconnect(); ok(); } })
      .observe(document.getElementById('app'), {childList: true, characterData: true, subtree: true, attributes: true});
  });
  const handler = [];
  for (let i = 0; i < count; i++) {
    await new Promise(ok => setTimeout(ok, Math.random() * 17));
    const before = at(), button = i % 2 ? "mixer-next" : "mixer-back";
    const t0 = performance.now();
    document.getElementById(button).click();
    await moved(before);
    handler.push(performance.now() - t0);
  }
  return handler;"""),
)
