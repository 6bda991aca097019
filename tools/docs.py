"""docs/parameters.md, written from the settings schema (app/settings.py): the URL parameters
and the `attention:set` keys, what each does, its values, default and an example; and from the
view registry (app/views/registry.py): the views, where each shows, and the guided paths. `make build`
writes it; tests/test_docs.py fails when the file and the schema drift apart.

    python -m tools.docs          write docs/parameters.md
    python -m tools.docs --check  exit 1 if it is not what the schema says
"""

import json
import sys
from pathlib import Path

from app import labs, settings as schema
from app.views import registry

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "docs" / "parameters.md"

HEAD = """# URL parameters and host messages

<!-- Written by `python -m tools.docs` (part of `make build`) from app/settings.py: change a
setting there, not here. -->

A link to the page reproduces a state: `?s=Il+cane+dorme&focus=1&mask=1`. A host page that
frames the widget may set the same state with a message, `attention:set`, and hears every
state back as `attention:state` (docs/DESIGN.md has the state JSON). Every parameter below is
also an option of the command line, `python -m app --<parameter>`.

A wrong value in a link falls back to its default with a note on the page; in a host message it
is ignored with a console warning (the step falls back to the explorer with a note). A matrix
in a link: a `.` decimal point, `,` between numbers, `;` between rows (`q=1,0;0,1;1,1`); in a
host message, an array of arrays of numbers. Entries are finite, |x| ≤ 10⁶. A link writes the
settings that differ from their default, and always `s`, `focus`, `mask`, `self` and `lang`.
One more parameter is no setting: `embed=1` shows the compact widget for a course page (the
embed snippets add it).
"""

MESSAGES = """
## Messages between the widget and its host page

| direction | message | meaning |
|---|---|---|
| widget → host | `{"type": "attention:resize", "height": N}` | the content is N px tall; `embed.js` sets the iframe's height |
| widget → host | `{"type": "attention:state", "state": {…}}` | after every change: the state JSON |
| host → widget | `{"type": "attention:set", "sentence": "Il cane dorme", "focus": 1}` | set any of the keys above; the widget answers with `attention:state` |

`attention:set` is taken only from the widget's parent window; its fields apply in this
order, so one message can set a sentence and pick one of its words: {order}. Messages sent
while Python is still starting are kept and applied once it is ready.
"""


def _cell(text):
    return text.replace("|", "\\|")


def _values(setting):
    """Its values in a link (the notes' words) and, when a host may set it, in a message."""
    link = setting.allowed() or {"text": "text", "index": "a word index from 0"}.get(setting.kind, "")
    return _cell(f"{link}; host: {setting.host_type()}" if setting.host else link)


VIEWS_HEAD = """
## The views and the guided paths

<!-- Written from the view registry (app/views/registry.py): each view is declared once, beside
its render function; a path is data (app/path.py). -->

Each view is a section of the page, `view-<id>`; a step of a guided path lists the views it
shows (the others step aside), and an embedded widget's `view=` is one of the views marked as a
tab. A path is named in a link by `path=` (default `formula`), its step by `step=`.

| view | element | modes | explorer | `view=` tab | follows the selected row (element) | shown on steps |
|---|---|---|---|---|---|---|
"""


def views_markdown():
    """The views' table and the paths' steps, from the registry."""
    rows = []
    for view in registry.views():
        steps = "; ".join(f"{way.id} " + ", ".join(str(n) for n, step in enumerate(way.steps, 1) if view.id in step.shows)
                          for way in registry.paths().values() if any(view.id in step.shows for step in way.steps))
        rows.append(f"| `{view.id}` | `{view.css}` | {', '.join(view.modes)} | {'yes' if view.explorer else 'no'} | "
                    f"{'yes' if view.tab else '—'} | {f'`#{view.element}`' if view.row else '—'} | {steps or '—'} |")
    paths = [f"- `path={way.id}`: {len(way.steps)} steps: "
             + "; ".join(f"{n}. {step.id} ({', '.join(step.shows) or 'the cards'})" for n, step in enumerate(way.steps, 1))
             for way in registry.paths().values()]
    return VIEWS_HEAD + "\n".join(rows) + "\n\n" + "\n".join(paths) + "\n"


def parameters_markdown():
    """The whole of docs/parameters.md."""
    rows = ["| link | host key | what it does | values | default | example |", "|---|---|---|---|---|---|"]
    for s in schema.SCHEMA:
        if s.url is None:
            continue
        host = f"`{s.host}`" if s.host else "—"
        default = "none" if s.default is None else f"`{s.default_text()}`"
        rows.append(f"| `{s.url}` | {host} | {_cell(s.help)} | {_values(s)} | {default} | "
                    f"`?{s.url}={_cell(s.example)}` |")
    order = ", ".join(s.host for s in schema.SCHEMA if s.host)
    return (HEAD + "\n## The parameters\n\n" + "\n".join(rows) + "\n" + MESSAGES.replace("{order}", order)
            + views_markdown())


# The state's JSON Schema: the core's properties are written by hand; each lab's setting that has a
# key in the state (its `state`) gets its property here, marked with the lab's id ("x-lab"), so the
# schema follows a lab's folder as it comes and goes.
STATE_SCHEMA = ROOT / "docs" / "state-v2.schema.json"


def _property(setting, lab_id):
    """A lab setting's property in the state's schema, from its kind, range and choices."""
    kinds = {"flag": {"type": "boolean"}, "text": {"type": "string"}, "index": {"type": ["integer", "null"]}}
    if setting.kind in kinds:
        prop = dict(kinds[setting.kind])
    elif setting.choices:
        prop = {"enum": list(setting.choices)}
    elif setting.kind in ("integer", "number"):
        prop = {"type": ["integer" if setting.kind == "integer" else "number"] + (["null"] if setting.nullable else []),
                "minimum": setting.low, "maximum": setting.high}
    else:
        prop = {}
    return {"description": setting.help, **prop, "x-lab": lab_id}


def state_schema_text(text):
    """docs/state-v2.schema.json's `text` with the labs' properties made current."""
    state = json.loads(text)
    properties = {k: v for k, v in state["properties"].items() if "x-lab" not in v}
    required = [k for k in state["required"] if k in properties or k not in state["properties"]]
    for lab in labs.labs():
        for setting in lab.settings:
            if setting.state is not None:
                properties[setting.state] = _property(setting, lab.id)
                required.append(setting.state)
    state["properties"], state["required"] = properties, required
    return json.dumps(state, indent=1, ensure_ascii=False) + "\n"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    written = {TARGET: parameters_markdown(), STATE_SCHEMA: state_schema_text(STATE_SCHEMA.read_text(encoding="utf-8"))}
    stale = [path for path, text in written.items() if not path.is_file() or path.read_text(encoding="utf-8") != text]
    if "--check" in argv:
        for path in stale:
            print(f"{path.relative_to(ROOT)} differs from app/settings.py and the labs: run `python -m tools.docs`",
                  file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.write_text(written[path], encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: written again.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
