"""A plain static host for the bundle, as teachers have (CPython only; benchmarks and tests).

Python's own `http.server`: no compression, no cache headers beyond Last-Modified, only
correct MIME types (`.wasm` application/wasm, `.js` text/javascript, as GitHub Pages sends
them). It counts the bytes it sends and records the paths asked for, so a benchmark can
report what a first visit really costs on such a host.

`strict_server` is the same host with a learning platform's file types: Moodle's file area
(its table in lib/classes/filetypes.php) sends `.js` as application/x-javascript and any
extension it does not know as document/unknown, with X-Content-Type-Options: nosniff. This
one knows fewer still (only what a page's own files need a type for: HTML, JavaScript, CSS,
text, images), so `.wasm`, `.zip`, `.gz`, `.json`, `.toml`, `.py` … are all document/unknown;
`unknown="application/octet-stream"` makes it the other common kind of such host.
"""

import functools
import http.server
import posixpath
import threading


class Counter:
    """Bytes sent and paths requested since the last `reset()`."""

    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with self.lock:
            self.bytes, self.paths = 0, []

    def add(self, size):
        with self.lock:
            self.bytes += size


class _CountingWriter:
    def __init__(self, inner, counter):
        self.inner, self.counter = inner, counter

    def write(self, data):
        self.counter.add(len(data))
        return self.inner.write(data)

    def __getattr__(self, name):
        return getattr(self.inner, name)


class PlainHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript",
                      ".json": "application/json", ".toml": "text/plain", ".csv": "text/csv",
                      ".py": "text/plain", ".gz": "application/gzip", ".zip": "application/zip"}
    counter = None

    def setup(self):
        super().setup()
        self.wfile = _CountingWriter(self.wfile, self.counter)

    def send_head(self):
        with self.counter.lock:
            self.counter.paths.append(self.path)
        return super().send_head()

    def log_message(self, format, *args):
        pass


class StrictHandler(PlainHandler):
    """A learning platform's file area: the few types it knows, document/unknown for the rest."""
    KNOWN = {".html": "text/html", ".js": "application/x-javascript", ".css": "text/css",
             ".txt": "text/plain", ".csv": "text/csv", ".png": "image/png", ".svg": "image/svg+xml"}

    UNKNOWN = "document/unknown"

    def guess_type(self, path):
        return self.KNOWN.get(posixpath.splitext(path)[1].lower(), self.UNKNOWN)

    def end_headers(self):
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()


def plain_server(root, host="127.0.0.1", port=0, handler=PlainHandler):
    """(server, counter) serving `root` plainly (`handler`: StrictHandler for a learning
    platform's types); the server runs in a thread of its own."""
    counter = Counter()
    handler = type("Plain", (handler,), {"counter": counter})
    server = http.server.ThreadingHTTPServer((host, port), functools.partial(handler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, counter


def strict_server(root, host="127.0.0.1", port=0, unknown=StrictHandler.UNKNOWN):
    """(server, counter) serving `root` with a learning platform's file types (StrictHandler),
    `unknown` for every extension it does not know."""
    return plain_server(root, host, port, type("Strict", (StrictHandler,), {"UNKNOWN": unknown}))
