"""Serve Attention Explorer locally (CPython only): python3 -m tools.serve [--port 8000]

Serves only what the page loads (index.html, embed.js, sw.js, pyscript.toml, app/, lexicon/,
static/, vendor/) and the licences the bundle ships (LICENSE, LICENSES/, THIRD-PARTY.md),
with their MIME types (`.wasm` application/wasm, so Python's wasm compiles as it downloads;
`.js` text/javascript; `.mjs` too, for `make bench`'s stock Pyodide: the page has no `.mjs`).
`file://` does not work for Pyodide, hence this server.

The files only a bundle has (tools/bundle.py: its list `files.json`, the teachers' guide pages,
the `.gz` copies it adds) are served from a bundle this server makes of the working tree, made
again each time `files.json` is asked for: so the page's package button (static/package.js) and
its link to the guide work here as on a published copy.

Transfer: a file's pre-compressed FILE.br / FILE.gz (made by the vendor step) is sent
when the browser accepts it; other text files over 1 KB are gzipped on the fly. Every
answer allows any origin to read it (Access-Control-Allow-Origin: *), as GitHub Pages does,
so that a widget in a frame sandboxed without allow-same-origin loads. Caching:
`vendor/` folders are versioned (a new runtime gets a new folder name), so their files are
cached for a year as immutable; everything else revalidates (ETag, answered by 304).
"""

import argparse
import email.utils
import functools
import gzip
import http.server
import os
import posixpath
import re
import shutil
import sys
import tempfile
import threading
import urllib.parse
from pathlib import Path

from tools import bundle, guide
from tools.bundle import PUBLIC

ROOT = Path(__file__).resolve().parent.parent
TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".py": "text/plain; charset=utf-8",
    ".toml": "text/plain; charset=utf-8",
    ".csv": "text/csv; charset=utf-8",
    ".json": "application/json",
    ".zip": "application/zip",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
}
COMPRESSIBLE = {".wasm", ".mjs", ".js", ".css", ".html", ".py", ".toml", ".csv", ".json", ".txt"}
IMMUTABLE = "public, max-age=31536000, immutable"
# A page's policy is the one its <meta> says (index.html's allows its inline style and script by
# their hashes: tools/build.py); a page with none gets this one.
META_CSP = re.compile(rb'<meta http-equiv="Content-Security-Policy" content="([^"]*)"')
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'; worker-src 'self' blob:; style-src 'self'; "
       "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
       "form-action 'self'")
REVALIDATE = "no-cache"


@functools.lru_cache(maxsize=64)
def _policy(path, mtime_ns):
    """The Content-Security-Policy of the page at `path` (its <meta>'s, else CSP)."""
    with open(path, "rb") as f:
        found = META_CSP.search(f.read())
    return found[1].decode() if found else CSP


@functools.lru_cache(maxsize=256)
def _gzipped(path, mtime_ns):
    with open(path, "rb") as f:
        return gzip.compress(f.read(), 6, mtime=0)


class _Bundle:
    """A bundle of the working tree in a folder of its own, made when first needed."""

    def __init__(self):
        self.lock, self.folder = threading.Lock(), None

    def path(self, root, rel):
        """The bundle's file `rel` (made again first when `rel` is its file list), or None."""
        made = rel in (bundle.FILE_LIST, *(page for page, _ in guide.PAGES.values())) or (
            rel.endswith(".gz") and bundle.GZIPPED_TOO.match(rel[:-3]))
        if not made:
            return None
        with self.lock:
            if self.folder is None or rel == bundle.FILE_LIST:
                if self.folder is not None:
                    shutil.rmtree(self.folder.parent, ignore_errors=True)
                self.folder, _ = bundle.make_bundle(tempfile.mkdtemp(prefix="attention-serve-"), Path(root))
            path = self.folder / rel
        return str(path) if path.is_file() else None


class Handler(http.server.BaseHTTPRequestHandler):
    root = str(ROOT)
    public = PUBLIC
    bundle = None  # the server's _Bundle (make_server), for the files only a bundle has
    quiet = False
    cors = True
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self._serve(body=True)

    def do_HEAD(self):
        self._serve(body=False)

    def _serve(self, body):
        url_path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        rel = posixpath.normpath(url_path).lstrip("/")
        if rel in ("", "."):
            rel = "index.html"
        if ".." in rel.split("/"):
            return self._error(404, "Not part of the page")
        path = os.path.join(self.root, *rel.split("/"))
        made = self.bundle.path(self.root, rel) if self.bundle and not os.path.isfile(path) else None
        if made:
            path = made
        elif not rel.startswith(self.public):
            return self._error(404, "Not part of the page")
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path):
            return self._error(404, "Not found")

        stat = os.stat(path)
        ext = os.path.splitext(path)[1]
        etag = f'W/"{stat.st_mtime_ns:x}-{stat.st_size:x}"'
        cache = IMMUTABLE if rel.startswith("vendor/") else REVALIDATE
        headers = {"ETag": etag, "Cache-Control": cache, "Vary": "Accept-Encoding",
                   "Last-Modified": email.utils.formatdate(stat.st_mtime, usegmt=True)}
        if etag in self.headers.get("If-None-Match", ""):
            return self._send(304, headers, b"", body=False)

        accepted = {part.split(";")[0].strip() for part in self.headers.get("Accept-Encoding", "").split(",")}
        data, encoding = None, None
        for enc, suffix in (("br", ".br"), ("gzip", ".gz")):
            if enc in accepted and os.path.isfile(path + suffix):
                with open(path + suffix, "rb") as f:
                    data, encoding = f.read(), enc
                break
        if data is None and "gzip" in accepted and ext in COMPRESSIBLE and stat.st_size > 1024:
            data, encoding = _gzipped(path, stat.st_mtime_ns), "gzip"
        if data is None:
            with open(path, "rb") as f:
                data = f.read()
        headers["Content-Type"] = TYPES.get(ext, "application/octet-stream")
        if ext == ".html":
            headers["Content-Security-Policy"] = _policy(path, stat.st_mtime_ns)
            headers["Referrer-Policy"] = "no-referrer"
        if encoding:
            headers["Content-Encoding"] = encoding
        self._send(200, headers, data, body)

    def _error(self, code, message):
        data = f"{code} {message}\n".encode()
        self._send(code, {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}, data, True)

    def _send(self, code, headers, data, body):
        try:
            self.send_response(code)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)) if code != 304 else "0")
            self.send_header("X-Content-Type-Options", "nosniff")
            # A widget framed with sandbox="allow-scripts" alone has an opaque origin ("null"):
            # its module scripts and fetches are then cross-origin requests, answered only
            # with this header (GitHub Pages sends it too). The files are public anyway.
            if self.cors:
                self.send_header("Access-Control-Allow-Origin", "*")
            self.end_headers()
            if body and code != 304:
                self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser went away (or cancelled a request): nothing to do

    def log_message(self, format, *args):
        if not self.quiet:
            super().log_message(format, *args)


def make_server(host="127.0.0.1", port=8000, root=ROOT, quiet=False, extra_public=(), cors=True):
    """A threading HTTP server for the page; `extra_public` adds path prefixes (benchmarks);
    cors=False answers as a host that sends no Access-Control-Allow-Origin (tests)."""
    handler = type("PageHandler", (Handler,), {"root": str(root), "quiet": quiet, "cors": cors,
                                               "public": PUBLIC + tuple(extra_public), "bundle": _Bundle()})
    return _Server((host, port), handler)


def changed_copy(folder, changes):
    """`folder` made to serve the page as ROOT has it but for `changes`, {path: (old, new)}: that
    file's text with `old` (found there once) replaced by `new`. Every other file is a link to
    ROOT's. For benchmarks and tests that serve the page with one thing changed; returns `folder`."""
    def fill(source, target, rel):
        target.mkdir(parents=True, exist_ok=True)
        for child in source.iterdir():
            path = f"{rel}{child.name}"
            if not rel and not path.startswith(PUBLIC) and f"{path}/" not in PUBLIC:
                continue
            if path in changes:
                old, new = changes[path]
                text = child.read_text(encoding="utf-8")
                if text.count(old) != 1:
                    raise ValueError(f"{path} does not hold {old!r} once")
                (target / child.name).write_text(text.replace(old, new), encoding="utf-8")
            elif any(name.startswith(path + "/") for name in changes):
                fill(child, target / child.name, path + "/")
            else:
                os.symlink(child, target / child.name)
    fill(ROOT, Path(folder), "")
    return Path(folder)


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A browser that closed a kept-alive connection between requests is no error."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Serve Attention Explorer locally.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    parser.add_argument("--quiet", action="store_true", help="do not log every request")
    args = parser.parse_args(argv)
    if not (ROOT / "vendor").is_dir():
        sys.exit("vendor/ is missing: run `make serve` (or `npm ci && python3 -m tools.build vendor`).")
    server = make_server(args.host, args.port, quiet=args.quiet)
    host, port = server.server_address[:2]
    print(f"Attention Explorer: http://{host}:{port}/  (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
