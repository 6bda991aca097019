"""Serve Attention Explorer locally (CPython only): python3 -m tools.serve [--port 8000]

Serves only what the page loads (index.html, pyscript.toml, app/, lexicon/, static/,
vendor/), with the MIME types Pyodide needs (`.wasm` application/wasm, `.mjs`
text/javascript). `file://` does not work for Pyodide, hence this server.
"""

import argparse
import functools
import http.server
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PUBLIC = ("index.html", "embed.js", "pyscript.toml", "app/", "lexicon/", "static/", "vendor/")
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
}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    quiet = False

    def _public(self):
        path = self.path.split("?", 1)[0].split("#", 1)[0].lstrip("/")
        if path and not path.startswith(PUBLIC):
            self.send_error(404, "Not part of the page")
            return False
        return True

    def do_GET(self):
        if self._public():
            try:
                super().do_GET()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the browser went away (or cancelled a request): nothing to do

    def do_HEAD(self):
        if self._public():
            super().do_HEAD()

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format, *args):
        if not self.quiet:
            super().log_message(format, *args)


def make_server(host="127.0.0.1", port=8000, root=ROOT, quiet=False):
    handler = functools.partial(type("H", (Handler,), {"quiet": quiet}), directory=str(root))
    return http.server.ThreadingHTTPServer((host, port), handler)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Serve Attention Explorer locally.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    parser.add_argument("--quiet", action="store_true", help="do not log every request")
    args = parser.parse_args(argv)
    if not (ROOT / "vendor" / "pyodide" / "pyodide.mjs").exists():
        sys.exit("vendor/ is missing: run `make serve` (or `npm ci && python3 -m tools.build`).")
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
