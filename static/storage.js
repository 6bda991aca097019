/* Attention Explorer: the storage PyScript needs to start, where the browser refuses it.

   PyScript's core opens an IndexedDB store on every start (its "Loading Storage" step, and
   one more for its file-system helpers when its module loads), and opens a BroadcastChannel
   when its module loads. Where the browser denies storage to this page (a widget framed by a
   course site on another site while third-party cookies are blocked, a sandboxed frame, a
   private window), that open fails, and the store's error handler throws while handling it,
   or the channel's constructor throws (Firefox): PyScript never starts. This page keeps
   nothing there, so when the browser's IndexedDB cannot be had, or cannot open a database,
   the database handed out lives in memory for as long as the page does; and a channel that
   cannot be made is one that reaches this page's other channels of its name only. Where
   they work, nothing changes.

   Why a shim rather than a patch to the vendored PyScript: the failure is in a dependency
   PyScript bundles minified (@webreflection/idb-map), in two places, and a patch would have
   to be made again for every PyScript update; the shim needs nothing from PyScript's
   insides, only the part of IndexedDB a key-value store uses (an object store's get,
   getKey, getAllKeys, put, delete, clear, count).

   Loaded with `defer` before PyScript's module script (index.html): deferred scripts and
   module scripts run in document order, so this runs first without holding up the first
   paint. Plain JavaScript, no dependencies; written for a worker's global scope too
   (`self`), though no worker of the page loads it yet. */
(function (scope) {
  "use strict";
  var told = false;
  function tell(reason) {
    if (told || !scope.console) return;
    told = true;
    console.info("Attention Explorer: no IndexedDB here (" + reason + "); PyScript keeps its store in memory.");
  }
  function reasonOf(error) { return String(error && error.message || error); }

  /* A request: an EventTarget with IndexedDB's on… attributes and result. */
  function request(source) {
    var req = new EventTarget();
    req.result = undefined;
    req.error = null;
    req.source = source || null;
    req.transaction = null;
    req.readyState = "pending";
    ["success", "error", "upgradeneeded", "blocked"].forEach(function (type) {
      req["on" + type] = null;
      req.addEventListener(type, function (event) {
        if (typeof req["on" + type] === "function") req["on" + type].call(req, event);
      });
    });
    return req;
  }
  function fire(target, type, extra) {
    var event = new Event(type);
    for (var key in extra || {}) event[key] = extra[key];
    if (target.readyState !== undefined) target.readyState = "done";
    target.dispatchEvent(event);
  }
  function copy(value) {
    return typeof structuredClone === "function" ? structuredClone(value) : value;
  }
  /* IndexedDB's order of keys: numbers (by value), then dates, strings, anything else. */
  function rank(key) {
    return typeof key === "number" ? 0 : key instanceof Date ? 1 : typeof key === "string" ? 2 : 3;
  }
  function compareKeys(a, b) {
    var ra = rank(a), rb = rank(b);
    if (ra !== rb) return ra - rb;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /* One database: object stores, each a Map from key to value. */
  function MemoryDatabase(name) {
    this.name = name;
    this.version = 1;
    this.stores = new Map();
    var stores = this.stores;
    this.objectStoreNames = {
      get length() { return stores.size; },
      contains: function (store) { return stores.has(store); },
      item: function (i) { return Array.from(stores.keys())[i] || null; }
    };
    this.onabort = this.onclose = this.onerror = this.onversionchange = null;
  }
  MemoryDatabase.prototype.createObjectStore = function (store) {
    if (!this.stores.has(store)) this.stores.set(store, new Map());
    return new MemoryStore(this.stores.get(store), null);
  };
  MemoryDatabase.prototype.deleteObjectStore = function (store) { this.stores.delete(store); };
  MemoryDatabase.prototype.transaction = function (names, mode) {
    return new MemoryTransaction(this, [].concat(names), mode || "readonly");
  };
  MemoryDatabase.prototype.close = function () {};

  /* A transaction completes once the requests made in it have answered (and none is left). */
  function MemoryTransaction(db, names, mode) {
    var tx = new EventTarget(), pending = 0, done = false;
    tx.db = db;
    tx.mode = mode;
    tx.objectStoreNames = names;
    tx.error = null;
    ["complete", "error", "abort"].forEach(function (type) {
      tx["on" + type] = null;
      tx.addEventListener(type, function (event) {
        if (typeof tx["on" + type] === "function") tx["on" + type].call(tx, event);
      });
    });
    tx.objectStore = function (store) {
      if (!db.stores.has(store)) throw new DOMException("No objectStore named " + store, "NotFoundError");
      return new MemoryStore(db.stores.get(store), tx);
    };
    var settle = function () {
      setTimeout(function () {
        if (done || pending) return;
        done = true;
        fire(tx, "complete");
      }, 0);
    };
    tx.started = function () { pending++; };
    tx.answered = function () { pending--; settle(); };
    tx.commit = function () {};
    tx.abort = function () {};
    settle();
    return tx;
  }

  function MemoryStore(map, tx) {
    this.map = map;
    this.transaction = tx;
  }
  MemoryStore.prototype.answer = function (compute) {
    var req = request(this), tx = this.transaction;
    req.transaction = tx;
    if (tx) tx.started();
    Promise.resolve().then(function () {
      try {
        req.result = compute();
        fire(req, "success");
      } catch (error) {
        req.error = error;
        fire(req, "error");
      }
      if (tx) tx.answered();
    });
    return req;
  };
  MemoryStore.prototype.get = function (key) {
    var map = this.map;
    return this.answer(function () { return map.has(key) ? copy(map.get(key)) : undefined; });
  };
  MemoryStore.prototype.getKey = function (key) {
    var map = this.map;
    return this.answer(function () { return map.has(key) ? key : undefined; });
  };
  MemoryStore.prototype.getAllKeys = function () {
    var map = this.map;
    return this.answer(function () { return Array.from(map.keys()).sort(compareKeys); });
  };
  MemoryStore.prototype.getAll = function () {
    var map = this.map;
    return this.answer(function () {
      return Array.from(map.keys()).sort(compareKeys).map(function (key) { return copy(map.get(key)); });
    });
  };
  MemoryStore.prototype.put = function (value, key) {
    var map = this.map, kept = copy(value);  /* copied when called, as IndexedDB does */
    return this.answer(function () { map.set(key, kept); return key; });
  };
  MemoryStore.prototype.add = function (value, key) {
    var map = this.map, kept = copy(value);
    return this.answer(function () {
      if (map.has(key)) throw new DOMException("Key already exists in the object store.", "ConstraintError");
      map.set(key, kept);
      return key;
    });
  };
  MemoryStore.prototype.delete = function (key) {
    var map = this.map;
    return this.answer(function () { map.delete(key); return undefined; });
  };
  MemoryStore.prototype.clear = function () {
    var map = this.map;
    return this.answer(function () { map.clear(); return undefined; });
  };
  MemoryStore.prototype.count = function () {
    var map = this.map;
    return this.answer(function () { return map.size; });
  };

  var databases = new Map();  /* name -> MemoryDatabase, for the page's lifetime */

  /* Open `name` in memory, answering through `req`: the first time upgradeneeded, then (once its
     versionchange transaction has completed) success; later, success at once. */
  function openInMemory(name, req) {
    req = req || request(null);
    setTimeout(function () {
      var db = databases.get(name);
      var succeed = function () {
        req.transaction = null;
        fire(req, "success");
      };
      req.result = db;
      if (db) return succeed();
      databases.set(name, req.result = db = new MemoryDatabase(name));
      var upgrade = req.transaction = db.transaction([], "versionchange");
      upgrade.addEventListener("complete", succeed);
      fire(req, "upgradeneeded", { oldVersion: 0, newVersion: 1 });
      req.readyState = "pending";
    }, 0);
    return req;
  }

  /* The browser's open, relayed through a request of ours, which falls back to memory when
     the browser's fails. */
  function relayed(factory, open, args) {
    var name = String(args[0]), req = request(null), real;
    try {
      real = open.apply(factory, args);
    } catch (error) {
      tell(reasonOf(error));
      return openInMemory(name, req);
    }
    real.onupgradeneeded = function (event) {
      req.result = real.result;
      req.transaction = real.transaction;
      fire(req, "upgradeneeded", { oldVersion: event.oldVersion, newVersion: event.newVersion });
      req.readyState = "pending";
    };
    real.onsuccess = function () {
      req.result = real.result;
      req.transaction = null;
      fire(req, "success");
    };
    real.onblocked = function (event) { fire(req, "blocked", { oldVersion: event.oldVersion, newVersion: event.newVersion }); };
    real.onerror = function (event) {
      event.preventDefault();
      tell(real.error ? reasonOf(real.error) : "it could not open a database");
      openInMemory(name, req);
    };
    return req;
  }

  var factory = null;
  try {
    factory = scope.indexedDB || null;
  } catch (error) {
    tell(reasonOf(error));  /* reading it throws: a sandboxed frame in some browsers */
  }
  if (factory && typeof factory.open === "function") {
    var open = factory.open;
    try {
      Object.defineProperty(factory, "open", {
        configurable: true, writable: true,
        value: function () { return relayed(factory, open, arguments); }
      });
    } catch (error) { /* a factory that cannot be changed: left as it is */ }
  } else {
    if (!told) tell("this browser has none");
    var memory = {
      open: function (name) { return openInMemory(String(name)); },
      deleteDatabase: function (name) {
        databases.delete(String(name));
        var req = request(null);
        setTimeout(function () { fire(req, "success"); }, 0);
        return req;
      },
      cmp: function (a, b) { return a < b ? -1 : a > b ? 1 : 0; },
      databases: function () { return Promise.resolve([]); }
    };
    try {
      Object.defineProperty(scope, "indexedDB", { configurable: true, enumerable: true, get: function () { return memory; } });
    } catch (error) { /* cannot be replaced: PyScript will say why it cannot start */ }
  }
  /* A BroadcastChannel that cannot be made (missing, or its constructor refused): channels of
     this page only. */
  var Channel = scope.BroadcastChannel;
  var usable = false;
  try { if (typeof Channel === "function") { new Channel("attention-explorer-probe").close(); usable = true; } }
  catch (error) { if (scope.console) console.info("Attention Explorer: no BroadcastChannel here (" + reasonOf(error) + "); channels reach this page only."); }
  if (!usable) {
    var channels = new Set();
    var LocalChannel = function (name) {
      var channel = new EventTarget(), open = true;
      channel.name = String(name);
      channel.onmessage = channel.onmessageerror = null;
      channel.addEventListener("message", function (event) {
        if (typeof channel.onmessage === "function") channel.onmessage.call(channel, event);
      });
      channel.postMessage = function (data) {
        if (!open) throw new DOMException("BroadcastChannel is closed", "InvalidStateError");
        var message = copy(data);
        channels.forEach(function (other) {
          if (other === channel || other.name !== channel.name) return;
          setTimeout(function () {
            if (channels.has(other)) other.dispatchEvent(new MessageEvent("message", { data: message }));
          }, 0);
        });
      };
      channel.close = function () { open = false; channels.delete(channel); };
      channels.add(channel);
      return channel;
    };
    try {
      Object.defineProperty(scope, "BroadcastChannel", { configurable: true, writable: true, value: LocalChannel });
    } catch (error) { /* cannot be replaced */ }
  }

  /* The page's one namespace (docs/DESIGN.md); the tests read which databases are in memory. */
  (scope.attentionExplorer = scope.attentionExplorer || {}).memoryDatabases = databases;
})(typeof self !== "undefined" ? self : this);
