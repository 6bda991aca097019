"""The answers the page gives before Python is up: every state of the pre-rendered example a
student can reach with a word click or the mask / include-self switches, as changes to the
pre-rendered page, written at build time by the page's own code (app/render.py, app/contract.py).

static/early.js applies them. Each state is the pre-rendered regions' HTML of that state,
diffed with the pre-rendered one node by node: an element whose tag, attribute names and
children keep their shape only has its changed attributes and texts set; one that changes
shape is replaced whole. The ops of a region are

    [i, "@name", value]  set attribute `name` (value None: remove it) of element i
    [i, "#k", text]      set the text of child node k of element i
    [i, "outer", html]   replace element i with `html` (one element)
    [-1, "html", html]   replace the region's content

where i counts the region's descendant elements in document order as the browser parses the
pre-rendered HTML (getElementsByTagName("*")), taken before any op is applied. The state JSON
is given as the keys that differ from the pre-rendered state's, and "matrix"'s keys that
differ once for each position of the switches ("matrix": {".0.1": …}); the address as the settings' URL parameters (app/settings.py: param_pairs).
"""

import json
import re
from html.parser import HTMLParser

from app import contract, render, settings as schema

# The pre-rendered regions a state may change (ids in index.html).
REGIONS = ("settings", "sentence", "analysis")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Elements that close an open <p> in the browser's parser (which this one would not do).
CLOSES_P = {"address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figure",
            "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main", "nav", "ol",
            "p", "pre", "section", "table", "ul"}


class _Node:
    __slots__ = ("tag", "attrs", "children", "html", "camel")

    def __init__(self, tag, attrs):
        self.tag, self.attrs, self.children, self.html = tag, attrs, [], ""
        self.camel = set()  # attribute names written with capitals (SVG's viewBox), lower-cased here


class _Tree(HTMLParser):
    """Our own HTML (well-formed, no implied elements) as a tree; each element keeps its source."""

    def __init__(self, source):
        super().__init__(convert_charrefs=True)
        self.source = source
        self.root = _Node("#root", {})
        self.stack = [(self.root, 0)]
        self.lines = [0]
        for line in source.split("\n"):  # (as HTMLParser counts lines)
            self.lines.append(self.lines[-1] + len(line) + 1)
        self.feed(source)
        self.close()
        if len(self.stack) != 1:
            raise ValueError(f"unclosed <{self.stack[-1][0].tag}> in the pre-rendered HTML")

    def _offset(self):
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag, attrs):
        if tag == "tr" and self.stack[-1][0].tag == "table":
            raise ValueError("a <tr> right inside <table>: the browser adds a <tbody> the diff would miss")
        if tag in CLOSES_P and self.stack[-1][0].tag == "p":
            raise ValueError(f"a <{tag}> inside <p>: the browser closes the <p> there, the diff would not")
        node = _Node(tag, {name: "" if value is None else value for name, value in attrs})
        node.camel = {n.lower() for n in re.findall(r"\s([A-Za-z_:][-\w:.]*)", self.get_starttag_text() or "")
                      if n != n.lower()}
        self.stack[-1][0].children.append(node)
        if tag in VOID:
            node.html = self.get_starttag_text()
        else:
            self.stack.append((node, self._offset()))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        node, start = self.stack.pop()
        if node.tag != tag:
            raise ValueError(f"</{tag}> closes <{node.tag}> in the pre-rendered HTML")
        end = self.source.index(">", self._offset()) + 1
        node.html = self.source[start:end]

    def handle_comment(self, data):
        raise ValueError("a comment in the pre-rendered HTML: the browser keeps it as a node, the diff would not")

    def handle_data(self, data):
        children = self.stack[-1][0].children
        if children and isinstance(children[-1], str):
            children[-1] += data
        else:
            children.append(data)


def _count(node):
    """How many elements `node` holds (itself not counted)."""
    return sum(1 + _count(c) for c in node.children if not isinstance(c, str))


def _same_shape(a, b):
    return (a.tag == b.tag and len(a.children) == len(b.children)
            and all(isinstance(x, str) == isinstance(y, str) for x, y in zip(a.children, b.children)))


def _diff(a, b, index, ops):
    """Ops turning element a (number `index`) into b; returns the next element's number."""
    for name in sorted(set(a.attrs) | set(b.attrs)):
        if a.attrs.get(name) != b.attrs.get(name):
            if name in a.camel | b.camel:  # (setAttribute would add a second, lower-case one)
                raise ValueError(f"<{a.tag}>'s {name} changes: an attribute with capitals cannot be set by name")
            ops.append([index, "@" + name, b.attrs.get(name)])
    at = index + 1
    for k, (x, y) in enumerate(zip(a.children, b.children)):
        if isinstance(x, str):
            if x != y:
                ops.append([index, f"#{k}", y])
        elif _same_shape(x, y):
            at = _diff(x, y, at, ops)
        else:
            ops.append([at, "outer", y.html])
            at += 1 + _count(x)
    return at


def region_ops(before, after):
    """The ops turning a region's content `before` into `after` (HTML texts)."""
    a, b = _Tree(before).root, _Tree(after).root
    if not _same_shape(a, b):
        return [[-1, "html", after]]
    ops = []
    _diff(a, b, -1, ops)
    return ops


def _state_changes(base, state):
    """The keys of the state JSON `state` that differ from `base` (both parsed)."""
    changes = {key: value for key, value in state.items() if key != "matrix" and base.get(key) != value}
    if state.get("matrix") != base.get("matrix"):
        changes["matrix"] = {key: value for key, value in state["matrix"].items()
                             if base["matrix"].get(key) != value}
    return changes


def regions(settings, tokens):
    """The pre-rendered regions' HTML for `settings` (as index.html has them: controls disabled
    but for those answered early), its state JSON and what the live region says."""
    record = contract.compute(settings, tokens)
    row = contract.selected_row(settings, record)
    html = {"settings": render.render_settings(settings, interactive="early"),
            "sentence": render.render_words(settings, tokens, record, interactive="early"),
            "analysis": render.render_analysis(settings, tokens, record, row, interactive=False)}
    state = contract.state_json(contract.build_state(settings, tokens, record))
    return html, state, render.row_announcement(row, tokens, settings.lang)


def key(focus, mask, include_self):
    """A state's name in static/early.js: "5.0.1" is focus 5, mask off, include-self on."""
    return f"{focus}.{int(mask)}.{int(include_self)}"


def early_states(settings, tokens):
    """Every state of the example `settings` reachable by a word click and the two switches,
    as changes to it (see the module's docstring)."""
    base_html, base_state, _ = regions(settings, tokens)
    base = json.loads(base_state)
    masks = (False, True) if schema.mask_possible(settings) else (settings.mask,)
    states, matrix = {}, {}
    for mask in masks:
        for include_self in (False, True):
            for focus in range(len(tokens)):
                shown = settings.copy(focus=focus, mask=mask, include_self=include_self)
                html, state, announce = regions(shown, tokens)
                changes = _state_changes(base, json.loads(state))
                # (the matrix is the switches', the same for every word: given once for them)
                matrix[key("", mask, include_self)] = changes.pop("matrix", {})
                states[key(focus, mask, include_self)] = {
                    "ops": {name: region_ops(base_html[name], html[name]) for name in REGIONS},
                    "state": changes,
                    "say": announce,
                    "query": [list(pair) for pair in schema.param_pairs(shown)],
                }
    return {"base": key(settings.focus, settings.mask, settings.include_self),
            "params": list(schema.URL_KEYS), "matrix": matrix, "states": states}


def at_first(data):
    """The part of early_states' `data` index.html carries (tools/build.py): every word's state
    with the switches as pre-rendered, so a first word click needs no request (on a phone's slow
    line each costs ~0.6 s); static/early.js fetches the rest when a switch first asks for it."""
    switches = data["base"][data["base"].index("."):]
    return {**data, "matrix": {k: v for k, v in data["matrix"].items() if k == switches},
            "states": {k: v for k, v in data["states"].items() if k.endswith(switches)}}


def early_json(lang):
    """static/early.json's text: the early states of the page's default example in `lang`."""
    from app import lexicon
    settings = schema.default_settings(lang)
    tokens, _ = schema.check_sentence(settings.sentence, lexicon.load_lexicon(lang))
    return json.dumps(early_states(settings, tokens), ensure_ascii=False, separators=(",", ":"))
