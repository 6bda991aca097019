"""A plain static host for the bundle, as teachers have (CPython only; benchmarks and tests).

Python's own `http.server`: no compression, no cache headers beyond Last-Modified, only
correct MIME types (`.wasm`, `.mjs`: what Pyodide needs and what GitHub Pages or an LMS
send). It counts the bytes it sends and records the paths asked for, so a benchmark can
report what a first visit really costs on such a host.
"""

import functools
import http.server
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
                      ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
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


def plain_server(root, host="127.0.0.1", port=0):
    """(server, counter) serving `root` plainly; call server.serve_forever in a thread."""
    counter = Counter()
    handler = type("Plain", (PlainHandler,), {"counter": counter})
    server = http.server.ThreadingHTTPServer((host, port), functools.partial(handler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, counter
