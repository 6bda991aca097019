// Python compiled ahead of time for the browser's Python, with the very Python the page runs
// (Pyodide from node_modules, the same build as vendor/). Two uses:
//
//   node tools/bytecode.mjs app OUT.zip FILE.py...   (`make build`: tools.build prerender)
//     The app's archive (app/app.zip): each module compiled, NAME.pyc in the module's folder
//     (FILE.py paths start with app/, which the archive leaves out), with no source beside it:
//     Python imports a .pyc alone, and the sources would be nearly half of the archive's bytes,
//     which a host that compresses nothing sends as they are. Each .pyc still carries the hash
//     of the source it was compiled from (a "checked-hash" header), so `make build` can tell a
//     stale archive. The engine unpacks it into app/ (pyscript.toml): one request instead of one
//     per module.
//
//   node tools/bytecode.mjs stdlib IN.zip OUT.zip     (`make setup`: tools.build vendor)
//     The trimmed standard library: each NAME.py of IN.zip becomes NAME.pyc in OUT.zip, with no
//     source beside it (Python's zip importer takes a .pyc alone). Python in the browser
//     otherwise compiles ~170 library modules from source at every first start: about 1.3 s
//     of a 3.2 s start on this project's test machine.
//
// Both are compiled for size as well as speed, since every byte is downloaded: optimize=2 (no
// docstrings, no asserts: what `python -OO` does, which the standard library is tested with)
// and without column positions (PYTHONNODEBUGRANGES: a traceback still names file and line,
// without the ^^^ under the expression). The .py sources stay the reference, in the repository:
// a traceback in the browser names the module and the line, without the line's text.
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [mode, ...args] = process.argv.slice(2);
if (mode !== "app" && mode !== "stdlib") {
  console.error("usage: node tools/bytecode.mjs app OUT.zip FILE.py... | stdlib IN.zip OUT.zip");
  process.exit(2);
}
const pyodide = await loadPyodide({ env: { PYTHONNODEBUGRANGES: "1" } });
let out;
if (mode === "app") {
  const sources = args.slice(1);
  out = args[0];
  for (const [i, path] of sources.entries()) pyodide.FS.writeFile(`/tmp/${i}`, readFileSync(path));
  pyodide.globals.set("sources", JSON.stringify(sources));
} else {
  out = args[1];
  pyodide.FS.writeFile("/tmp/stdlib.zip", readFileSync(args[0]));
}
pyodide.globals.set("mode", mode);
const zipped = pyodide.runPython(`
import importlib.util, io, json, marshal, sys, zipfile

class Utf8Name(zipfile.ZipInfo):
    """A member whose name is flagged UTF-8: the page's trimmed stdlib has no cp437 codec,
    zipfile's reading of names without the flag."""

    def _encodeFilenameFlags(self):
        return self.filename.encode("utf-8"), self.flag_bits | 0x800


def pyc(data, path, flags):
    """importlib's layout of a hash-based pyc: magic, flags, source hash, code."""
    code = compile(data, path, "exec", dont_inherit=True, optimize=2)
    return (importlib.util.MAGIC_NUMBER + flags.to_bytes(4, "little")
            + importlib.util.source_hash(data) + marshal.dumps(code))


buffer = io.BytesIO()
if mode == "app":
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for i, path in sorted(enumerate(json.loads(sources)), key=lambda item: item[1]):
            with open(f"/tmp/{i}", "rb") as f:
                data = f.read()
            folder, _, name = path.rpartition("/")
            folder = folder.partition("/")[2]
            member = f"{folder}/{name[:-3]}.pyc".lstrip("/")
            info = Utf8Name(member, date_time=(2020, 1, 1, 0, 0, 0))
            out.writestr(info, pyc(data, path, 0b11), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
else:
    # Stored, as the source zip was: the server's compression then works across files.
    with zipfile.ZipFile("/tmp/stdlib.zip") as source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as out:
        for name in source.namelist():
            data = source.read(name)
            if name.endswith(".py"):
                data, name = pyc(data, name, 0b01), name[:-3] + ".pyc"
            out.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data)
buffer.getvalue()
`);
writeFileSync(out, zipped.toJs());
zipped.destroy();
