/* static/storage.js against the store PyScript really uses (@webreflection/idb-map, from
   node_modules, as PyScript bundles it), in Node: each case prints "ok NAME" or throws.
   Run by tests/test_storage_shim.py. Usage: node tests/storage_shim.mjs CASE */
import { readFileSync } from "node:fs";
import vm from "node:vm";

const here = new URL(".", import.meta.url);
const shim = readFileSync(new URL("../static/storage.js", here), "utf8");
const check = (ok, what) => { if (!ok) throw new Error(what); };

/* The page's global scope: `indexedDB` as a browser that refuses it has it (see the cases). */
function load(indexedDB) {
  if (indexedDB === undefined) delete globalThis.indexedDB;
  else Object.defineProperty(globalThis, "indexedDB", { configurable: true, writable: true, value: indexedDB });
  delete globalThis.attentionExplorer;
  globalThis.self = globalThis;
  vm.runInThisContext(shim);
}

/* A factory whose open fails as Chromium's does for a third-party frame: an error event. */
function refusing() {
  return {
    open() {
      const req = new EventTarget();
      req.onerror = null;
      setTimeout(() => {
        req.error = new DOMException("The user denied permission to access the database.", "UnknownError");
        const event = new Event("error", { cancelable: true });
        if (req.onerror) req.onerror(event);
      }, 0);
      return req;
    }
  };
}

/* A factory whose open throws, as in a frame sandboxed without allow-same-origin. */
function throwing() {
  return { open() { throw new DOMException("access to the Indexed Database API is denied in this context.", "SecurityError"); } };
}

async function store() {
  const { default: IDBMap } = await import(new URL("../node_modules/@webreflection/idb-map/index.js", here));
  const { default: SyncMap } = await import(new URL("../node_modules/@webreflection/idb-map/sync.js", here));
  return { IDBMap, SyncMap };
}

/* What PyScript's start does with it: a Map kept in step with its store, then every call. */
async function exercise() {
  const { IDBMap, SyncMap } = await store();
  const map = new IDBMap("pyscript@1");
  await map.set("b", { packages: ["x"] });
  await map.set("a", 1);
  await map.set(10, "ten");
  await map.set(9, "nine");
  check(await map.get("b").then((v) => v.packages[0]) === "x", "get");
  check(await map.has("a") && !(await map.has("zzz")), "has");
  check(JSON.stringify(await map.keys()) === JSON.stringify([9, 10, "a", "b"]), "keys in IndexedDB's order: " + JSON.stringify(await map.keys()));
  check(await map.size === 4, "size");
  await map.delete("a");
  check(await map.size === 3, "delete");
  const kept = { n: 1 };
  await map.set("copy", kept);
  kept.n = 2;
  check((await map.get("copy")).n === 1, "a value is copied when stored");
  await map.clear();
  check(await map.size === 0, "clear");
  const synced = new SyncMap("pyscript@2");
  await synced.sync();
  synced.set("k", "v");
  await synced.sync();
  const again = new SyncMap("pyscript@2");  /* the same name later in the page: what was stored */
  await again.sync();
  check(again.get("k") === "v", "a second store of the same name sees the first's entries");
  await again.close();
  check(globalThis.attentionExplorer.memoryDatabases.size === 2, "databases in memory");
}

const cases = {
  async missing() { load(undefined); await exercise(); },
  async refused() { load(refusing()); await exercise(); },
  async throws() { load(throwing()); await exercise(); },
  async channel() {
    load(undefined);
    const Native = globalThis.BroadcastChannel;
    globalThis.BroadcastChannel = function () { throw new DOMException("Access is denied for this document.", "SecurityError"); };
    try {
      vm.runInThisContext(shim);
      const a = new BroadcastChannel("x"), b = new BroadcastChannel("x"), c = new BroadcastChannel("y");
      const got = [];
      b.onmessage = (e) => got.push(["b", e.data]);
      c.onmessage = (e) => got.push(["c", e.data]);
      a.postMessage({ hello: 1 });
      const closed = new BroadcastChannel("x");
      closed.onmessage = () => got.push(["closed"]);
      a.postMessage(2);
      closed.close();
      await new Promise((done) => setTimeout(done, 20));
      check(JSON.stringify(got) === JSON.stringify([["b", { hello: 1 }], ["b", 2]]), "channels of the name only, none closed: " + JSON.stringify(got));
    } finally {
      globalThis.BroadcastChannel = Native;
    }
  },
};

const name = process.argv[2];
await cases[name]();
console.log("ok " + name);
process.exit(0);
