/* Attention Explorer service worker (registered by static/transfer.js only on hosts that
   send files uncompressed). For Python's runtime in the vendor/pyodide-... folder it fetches
   FILE.gz (shipped next to every big runtime file) and hands the page the file
   decompressed by the browser's DecompressionStream; the result is kept in the Cache API
   (the folder is versioned, so a name never changes content). Anything else, or a
   missing .gz, goes to the network untouched. */
const CACHE = "attention-explorer-runtime";
const TYPES = { ".wasm": "application/wasm", ".mjs": "text/javascript", ".json": "application/json",
                ".zip": "application/zip" };

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (request.method !== "GET" || url.origin !== scope.origin || url.search ||
      !url.pathname.startsWith(scope.pathname + "vendor/pyodide-")) return;
  const type = TYPES[url.pathname.slice(url.pathname.lastIndexOf("."))];
  if (type) event.respondWith(runtimeFile(request, type));
});

async function runtimeFile(request, type) {
  let cache = null;
  try {
    cache = await caches.open(CACHE);
    const kept = await cache.match(request.url);
    if (kept) return kept;
  } catch (e) { /* no storage: decompress every time */ }
  try {
    const packed = await fetch(request.url + ".gz");
    if (packed.ok) {
      /* A host that labels .gz as Content-Encoding: gzip has had it decoded already. */
      const body = packed.headers.get("Content-Encoding") ? packed.body
        : packed.body.pipeThrough(new DecompressionStream("gzip"));
      const response = new Response(body, { headers: { "Content-Type": type } });
      if (!cache) return response;
      const bytes = await response.arrayBuffer();
      const whole = () => new Response(bytes, { headers: { "Content-Type": type } });
      await cache.put(request.url, whole()).catch(() => {});
      const folder = request.url.slice(0, request.url.lastIndexOf("/") + 1);
      for (const old of await cache.keys())  /* another runtime version: gone */
        if (!old.url.startsWith(folder)) await cache.delete(old);
      return whole();
    }
  } catch (e) { /* fall back to the plain file */ }
  return fetch(request);
}
