// The app's modules compiled ahead of time for the browser's Python (run by
// `python3 -m tools.build prerender`, i.e. `make build`): node tools/bytecode.mjs OUT.zip FILE.py...
//
// Python in the browser compiles every module from source at each start (~70 ms for the
// app here). This compiles them with the very Python the page runs (Pyodide from
// node_modules, the same build as vendor/) into "checked-hash" .pyc files, zipped as
// __pycache__/NAME.cpython-3XX.pyc under each module's folder. PyScript unpacks the zip
// into app/ (pyscript.toml); Python then uses a .pyc only while it carries the hash of the
// .py beside it, so a module edited after the build is simply compiled from source again.
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [out, ...sources] = process.argv.slice(2);
const pyodide = await loadPyodide();
for (const [i, path] of sources.entries()) pyodide.FS.writeFile(`/tmp/${i}`, readFileSync(path));
pyodide.globals.set("sources", JSON.stringify(sources));
const zipped = pyodide.runPython(`
import importlib.util, io, json, marshal, sys, zipfile

class Utf8Name(zipfile.ZipInfo):
    """A member whose name is flagged UTF-8: the page's trimmed stdlib has no cp437 codec,
    zipfile's reading of names without the flag."""

    def _encodeFilenameFlags(self):
        return self.filename.encode("utf-8"), self.flag_bits | 0x800


buffer = io.BytesIO()
with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
    for i, path in sorted(enumerate(json.loads(sources)), key=lambda item: item[1]):
        with open(f"/tmp/{i}", "rb") as f:
            data = f.read()
        folder, _, name = path.rpartition("/")
        code = compile(data, path, "exec", dont_inherit=True)
        # importlib's layout of a checked-hash pyc: magic, flags (0b11), source hash, code
        pyc = (importlib.util.MAGIC_NUMBER + (0b11).to_bytes(4, "little")
               + importlib.util.source_hash(data) + marshal.dumps(code))
        member = f"{folder.partition('/')[2]}/__pycache__/{name[:-3]}.{sys.implementation.cache_tag}.pyc".lstrip("/")
        info = Utf8Name(member, date_time=(2020, 1, 1, 0, 0, 0))
        out.writestr(info, pyc, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
buffer.getvalue()
`);
writeFileSync(out, zipped.toJs());
zipped.destroy();
