/* Attention Explorer service worker (registered by static/transfer.js only on hosts that
   send files uncompressed). It hands the page files decompressed by the browser's
   DecompressionStream from the FILE.gz shipped beside them (tools/bundle.py):
   - the versioned runtime folders, vendor/pyodide-…/ and vendor/pyscript-…/: a name there
     never changes content, so the result is kept in the Cache API;
   - the app's entry script and the generated lexicons (app/main.py, lexicon/….txt): only when
     FILE itself, asked with HEAD, still has the size of the .gz's content and is not newer
     than the .gz, so a file edited after the bundle was made is always served as it is
     now. The result is kept with what HEAD said of FILE (size, Last-Modified): a later
     visit still asks HEAD, and uses the kept copy only while that is unchanged. The
     teacher's override lists (lexicon/*.csv) are never compressed, nor the app's archive
     (app/app.zip, deflated already);
   - a lab's archive (app/labs/<id>.zip, fetched the first time a student opens the lab): from
     the network as it is now, a copy kept in the Cache API; when the network cannot be reached,
     the kept copy, so a lab once opened opens again offline.
   Anything else, a missing .gz or any doubt goes to the network untouched. */
const CACHE = "attention-explorer-runtime";
const CHECKED_CACHE = "attention-explorer-files";  /* app and lexicon files, each with what HEAD said */
const LABS_CACHE = "attention-explorer-labs";  /* each lab's archive, as the network last gave it */
const TYPES = { ".wasm": "application/wasm", ".js": "text/javascript",
                ".json": "application/json", ".zip": "application/zip", ".css": "text/css",
                ".py": "text/plain; charset=utf-8", ".txt": "text/plain; charset=utf-8" };
const VERSIONED = /^vendor\/(pyodide|pyscript)-[^/]+\/[^/]+$/;
const CHECKED = /^(app\/main\.py|lexicon\/[\w/-]+\.txt)$/;
const LAB = /^app\/labs\/[\w-]+\.zip$/;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (request.method !== "GET" || url.origin !== scope.origin || url.search ||
      !url.pathname.startsWith(scope.pathname)) return;
  const path = url.pathname.slice(scope.pathname.length);
  const type = TYPES[path.slice(path.lastIndexOf("."))];
  if (!type) return;
  if (VERSIONED.test(path)) event.respondWith(versioned(request, type));
  else if (CHECKED.test(path)) event.respondWith(checked(request, type));
  else if (LAB.test(path)) event.respondWith(lab(request));
});

/* A lab's archive: the network's answer (the browser's HTTP cache rules as for any file), a
   successful one kept; the kept copy only when the network cannot be reached at all. */
async function lab(request) {
  const cache = await caches.open(LABS_CACHE).catch(() => null);
  try {
    const answer = await fetch(request);
    if (answer.ok && cache) await cache.put(request.url, answer.clone()).catch(() => {});
    return answer;
  } catch (offline) {
    const kept = cache && await cache.match(request.url).catch(() => null);
    if (kept) return kept;
    throw offline;
  }
}

/* FILE.gz's content, or null. A host that labels .gz as Content-Encoding: gzip has had it
   decoded already. */
async function unpacked(url) {
  const packed = await fetch(url + ".gz");
  if (!packed.ok) return null;
  const body = packed.headers.get("Content-Encoding") ? packed.body
    : packed.body.pipeThrough(new DecompressionStream("gzip"));
  return { bytes: await new Response(body).arrayBuffer(), modified: packed.headers.get("Last-Modified") };
}

async function versioned(request, type) {
  let cache = null;
  try {
    cache = await caches.open(CACHE);
    const kept = await cache.match(request.url);
    if (kept) return kept;
  } catch (e) { /* no storage: decompress every time */ }
  try {
    if (cache) {
      /* The decompressed stream goes straight into the cache and the answer is read back
         from it: this worker keeps no whole copy of the file, where ~30 MB of dead buffers
         (the runtime) would wait for a collection that an idle service worker does not have.
         A .gz that does not decompress fails the put: the plain file then. */
      const packed = await fetch(request.url + ".gz");
      if (packed.ok) {
        const body = packed.headers.get("Content-Encoding") ? packed.body
          : packed.body.pipeThrough(new DecompressionStream("gzip"));
        await cache.put(request.url, new Response(body, { headers: { "Content-Type": type } }));
        await dropOtherVersions(cache, request.url);
        const kept = await cache.match(request.url);
        if (kept) return kept;
      }
    } else {
      const file = await unpacked(request.url);
      if (file) return new Response(file.bytes, { headers: { "Content-Type": type } });
    }
  } catch (e) { /* fall back to the plain file */ }
  return fetch(request);
}

/* Another version of the same runtime: gone. */
async function dropOtherVersions(cache, url) {
  const folder = url.slice(0, url.lastIndexOf("/") + 1);
  const kind = folder.replace(/(\/vendor\/[a-z]+-)[^/]*\/$/, "$1");  /* …/vendor/pyodide- */
  for (const old of await cache.keys())
    if (old.url.startsWith(kind) && !old.url.startsWith(folder)) await cache.delete(old);
}

async function checked(request, type) {
  try {
    const head = await fetch(request.url, { method: "HEAD", cache: "no-store" });
    const size = head.headers.has("Content-Length") ? Number(head.headers.get("Content-Length")) : -1;
    const modified = head.headers.get("Last-Modified");
    /* What the server says of FILE now: a copy made when it said the same is still FILE. */
    const said = `${size} ${modified}`;
    const cache = await caches.open(CHECKED_CACHE).catch(() => null);
    const kept = cache && await cache.match(request.url);
    if (head.ok && kept && kept.headers.get("X-File") === said) return kept;
    const file = head.ok && size >= 0 && await unpacked(request.url);
    if (file && size === file.bytes.byteLength && !(Date.parse(modified) > Date.parse(file.modified))) {
      const whole = () => new Response(file.bytes, { headers: { "Content-Type": type, "X-File": said } });
      if (cache) await cache.put(request.url, whole()).catch(() => {});
      return whole();
    }
    if (cache) await cache.delete(request.url).catch(() => {});
  } catch (e) { /* fall back to the plain file */ }
  return fetch(request);
}
