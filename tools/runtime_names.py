"""The vendored runtime's modules under `.js` names (CPython only; used by `tools.build vendor`).

Pyodide ships its modules as `pyodide.mjs` and `pyodide.asm.mjs`. A browser runs a module
script or a module worker only when its host labels it with a JavaScript type, and many hosts
know no `.mjs`: Debian's nginx sends it as application/octet-stream, Moodle's file area as
document/unknown. Every host knows `.js`. So the vendor step copies each of Pyodide's modules
under a `.js` name (RENAMED) and rewrites every place the runtime's code names one of them (its
`import()` of pyodide.asm, the check of its own stack frames), so that what it loads is the
renamed file. The source map comment goes: no map is shipped.

A runtime that brings any other `.mjs` (a new module, or one renamed) is refused, naming it:
its file would meet the same hosts. tests/test_build.py checks the result.
"""

import json
import re

# Pyodide's module (node_modules/pyodide/NAME) → the name it is vendored and served under.
RENAMED = {"pyodide.mjs": "pyodide.js", "pyodide.asm.mjs": "pyodide.asm.js"}
SOURCE_MAP = re.compile(r"^//# sourceMappingURL=.*$\n?", re.M)
MJS = re.compile(r"[\w.$/-]*\.mjs\b")


def vendored_name(name):
    """The name `name` (a file of Pyodide's package) has in vendor/."""
    return RENAMED.get(name, name)


def rewritten(text):
    """A module's text with every name of RENAMED replaced by its `.js` name, and no source map
    comment."""
    for old, new in sorted(RENAMED.items(), key=lambda item: -len(item[0])):
        text = text.replace(old, new)
    return SOURCE_MAP.sub("", text)


def refused(package_files, texts):
    """Why this runtime cannot be vendored, or []: a `.mjs` file of the package that RENAMED
    does not rename (`package_files`: its file names), or a `.mjs` still named in the
    rewritten `texts` ({vendored name: text})."""
    problems = [f"node_modules/pyodide/{name}: a module RENAMED (tools/runtime_names.py) does not rename"
                for name in sorted(package_files) if name.endswith(".mjs") and name not in RENAMED]
    problems += [f"node_modules/pyodide/{name} is missing (RENAMED names it)"
                 for name in sorted(RENAMED) if name not in package_files]
    for name, text in sorted(texts.items()):
        left = sorted(set(MJS.findall(text)))
        if left:
            problems.append(f"{name} still names {', '.join(left)} after the renaming")
    return problems


def lock_without_packages(text):
    """pyodide-lock.json as the page's runtime gets it: its `info` (the ABI, the platform, the Python
    version, which Pyodide reads when it starts) with no packages. The page loads no Pyodide package
    (docs/DESIGN.md), and the list of 354 was 25 kB of a first visit's bytes, gzipped."""
    lock = json.loads(text)
    return json.dumps({"info": lock["info"], "packages": {}}, separators=(",", ":")) + "\n"
