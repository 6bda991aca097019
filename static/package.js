/* Attention Explorer: the page's package button, without a server. The browser builds a zip of the
   page's own files (the list the bundle writes of itself, files.json: tools/bundle.py): a SCORM
   1.2 or 2004 package of the exercise on screen (the same files, imsmanifest.xml and files.json as
   tools/scorm.py's: the bundle less LEFT_OUT, launched with scorm=<its version>), or the plain
   folder `make bundle` writes. It fetches each file, stores the compressed ones as they are
   (STORED), deflates the rest (CompressionStream "deflate-raw"; stored too where the browser has
   none), and writes the zip itself: local headers, CRC-32, central directory.
   static/page.js loads this file the first time the button is pressed (its helper `package`).
   Also a CommonJS module for the tests (tests/js/package.test.mjs). Plain JavaScript. */
(function (global) {
  "use strict";

  var STORED = [".gz", ".br"];  /* compressed already: stored as they are (tools/scorm.py, STORED) */
  /* What a package leaves out of the bundle: the .gz copies sw.js serves, the trained model's files
     (tools/scorm.py, LEFT_OUT: the same pattern, and why). */
  var LEFT_OUT = /^(vendor\/pyodide-[^\/]+\/.+\.gz|app\/main\.py\.gz|lexicon\/.+\.txt\.gz|model\/.+)$/;
  var FILE_LIST = "files.json";
  var LAUNCH = "index.html", TITLE = "Attention Explorer";
  var NAMESPACES = {
    "1.2": [["", "http://www.imsproject.org/xsd/imscp_rootv1p1p2"], ["adlcp", "http://www.adlnet.org/xsd/adlcp_rootv1p2"]],
    "2004": [["", "http://www.imsglobal.org/xsd/imscp_v1p1"], ["adlcp", "http://www.adlnet.org/xsd/adlcp_v1p3"],
             ["adlseq", "http://www.adlnet.org/xsd/adlseq_v1p3"], ["adlnav", "http://www.adlnet.org/xsd/adlnav_v1p3"],
             ["imsss", "http://www.imsglobal.org/xsd/imsss"]]
  };
  var SCHEMA_VERSION = { "1.2": "1.2", "2004": "2004 4th Edition" };
  var SCORM_TYPE = { "1.2": "adlcp:scormtype", "2004": "adlcp:scormType" };

  /* -- CRC-32 (IEEE 802.3, as zip uses) ------------------------------------------------ */
  var TABLE = (function () {
    var table = new Uint32Array(256);
    for (var n = 0; n < 256; n++) {
      var c = n;
      for (var k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
    return table;
  })();
  function crc32(bytes, crc) {
    var c = (crc === undefined ? 0 : crc) ^ 0xFFFFFFFF;
    for (var i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]) & 0xFF] ^ (c >>> 8);
    return (c ^ 0xFFFFFFFF) >>> 0;
  }

  /* -- the manifest ---------------------------------------------------------------------- */
  function attr(text) {
    return '"' + String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;").replace(/\t/g, "&#9;") + '"';
  }
  function escape(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }
  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }
  /* imsmanifest.xml for `version` ("1.2", "2004"), the bundle's `files`, the launch's `parameters`
     ("?…") and `digest` (hex SHA-256 of version + parameters: the manifest's identifier). */
  function manifest(version, files, parameters, digest, title) {
    title = title || TITLE;
    var ns = NAMESPACES[version].map(function (p) { return "xmlns" + (p[0] ? ":" + p[0] : "") + '="' + p[1] + '"'; }).join(" ");
    var entries = files.map(function (name) { return "      <file href=" + attr(name) + "/>"; }).join("\n");
    return '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<manifest identifier="attention-explorer-' + digest.slice(0, 12) + '" version="1" ' + ns + ">\n" +
      "  <metadata>\n    <schema>ADL SCORM</schema>\n" +
      "    <schemaversion>" + SCHEMA_VERSION[version] + "</schemaversion>\n  </metadata>\n" +
      '  <organizations default="organization">\n' +
      '    <organization identifier="organization">\n' +
      "      <title>" + escape(title) + "</title>\n" +
      '      <item identifier="exercise" identifierref="sco" isvisible="true" parameters=' + attr(parameters) + ">\n" +
      "        <title>" + escape(title) + "</title>\n" +
      "      </item>\n    </organization>\n  </organizations>\n" +
      "  <resources>\n" +
      '    <resource identifier="sco" type="webcontent" ' + SCORM_TYPE[version] + '="sco" href="' + LAUNCH + '">\n' +
      entries + "\n    </resource>\n  </resources>\n</manifest>\n";
  }

  /* The files of a package made from the bundle's list `files`. */
  function packageFiles(files) {
    return files.filter(function (name) { return !LEFT_OUT.test(name); });
  }
  /* The text of a package's files.json, as Python's json.dumps(…, indent=0) writes the bundle's
     (non-ASCII characters as \uXXXX). */
  function fileList(files) {
    var quote = function (name) {
      return JSON.stringify(name).replace(/[\u007f-\uffff]/g, function (c) {
        return "\\u" + ("000" + c.charCodeAt(0).toString(16)).slice(-4);
      });
    };
    return '{\n"files": [\n' + files.map(quote).join(",\n") + "\n]\n}\n";
  }
  /* The launch's parameters of a package of `version`: the exercise's, then scorm=<version>. */
  function launchParameters(parameters, version) {
    return parameters + (parameters.length > 1 ? "&" : "") + "scorm=" + version;
  }

  /* -- the zip ------------------------------------------------------------------------- */
  function deflate(bytes) {
    if (typeof CompressionStream === "undefined") return Promise.resolve(null);
    try {
      var stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"));
      return new Response(stream).arrayBuffer().then(function (b) { return new Uint8Array(b); }, function () { return null; });
    } catch (error) {  /* (no "deflate-raw" in this browser: stored) */
      return Promise.resolve(null);
    }
  }
  function stored(name) {
    return STORED.some(function (end) { return name.slice(-end.length) === end; });
  }
  /* One zip entry: {name, bytes} → {name, method, crc, size, data} (deflated unless STORED, or
     when deflating would not make it smaller). */
  function entry(name, bytes) {
    var crc = crc32(bytes);
    var packed = stored(name) ? Promise.resolve(null) : deflate(bytes);
    return packed.then(function (data) {
      if (data && data.length < bytes.length) return { name: name, method: 8, crc: crc, size: bytes.length, data: data };
      return { name: name, method: 0, crc: crc, size: bytes.length, data: bytes };
    });
  }
  var DOS_TIME = 0, DOS_DATE = (1980 - 1980) << 9 | 1 << 5 | 1;  /* 1980-01-01 00:00: the same zip for the same files */
  /* The zip of `entries` (made by `entry`) as a Blob. UTF-8 names (flag bit 11); no zip64 (a
     package is far from 4 GB and 65,535 files). */
  function zip(entries) {
    var encoder = new TextEncoder(), parts = [], central = [], offset = 0;
    entries.forEach(function (e) {
      var name = encoder.encode(e.name);
      var local = new DataView(new ArrayBuffer(30));
      local.setUint32(0, 0x04034b50, true);
      local.setUint16(4, 20, true);
      local.setUint16(6, 0x0800, true);
      local.setUint16(8, e.method, true);
      local.setUint16(10, DOS_TIME, true);
      local.setUint16(12, DOS_DATE, true);
      local.setUint32(14, e.crc, true);
      local.setUint32(18, e.data.length, true);
      local.setUint32(22, e.size, true);
      local.setUint16(26, name.length, true);
      local.setUint16(28, 0, true);
      parts.push(local.buffer, name, e.data);
      var dir = new DataView(new ArrayBuffer(46));
      dir.setUint32(0, 0x02014b50, true);
      dir.setUint16(4, 20, true);
      dir.setUint16(6, 20, true);
      dir.setUint16(8, 0x0800, true);
      dir.setUint16(10, e.method, true);
      dir.setUint16(12, DOS_TIME, true);
      dir.setUint16(14, DOS_DATE, true);
      dir.setUint32(16, e.crc, true);
      dir.setUint32(20, e.data.length, true);
      dir.setUint32(24, e.size, true);
      dir.setUint16(28, name.length, true);
      dir.setUint32(42, offset, true);
      central.push(dir.buffer, name);
      offset += 30 + name.length + e.data.length;
    });
    var size = central.reduce(function (sum, part) { return sum + part.byteLength; }, 0);
    var end = new DataView(new ArrayBuffer(22));
    end.setUint32(0, 0x06054b50, true);
    end.setUint16(8, entries.length, true);
    end.setUint16(10, entries.length, true);
    end.setUint32(12, size, true);
    end.setUint32(16, offset, true);
    return new Blob(parts.concat(central, [end.buffer]), { type: "application/zip" });
  }

  /* -- the page's files -------------------------------------------------------------------- */
  function fetchBytes(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error(url + ": " + response.status);
      return response.arrayBuffer();
    }).then(function (b) { return new Uint8Array(b); });
  }
  /* A .gz copy a host sent decoded (Content-Encoding: gzip on .gz files) is gzipped again, so the
     package's copy is what its name says. */
  function asGzip(name, bytes) {
    if (name.slice(-3) !== ".gz" || (bytes[0] === 0x1f && bytes[1] === 0x8b) || typeof CompressionStream === "undefined") {
      return Promise.resolve(bytes);
    }
    var stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
    return new Response(stream).arrayBuffer().then(function (b) { return new Uint8Array(b); });
  }

  /* Build the zip of `kind` ("1.2", "2004" or "bundle") of the page whose folder is `root` (a URL
     ending in /), launched with `parameters` ("?…"); `progress(done, total)` after each file.
     A promise of {blob, name}. */
  function build(root, kind, parameters, progress) {
    return fetch(new URL("files.json", root).href, { credentials: "same-origin", cache: "no-cache" }).then(function (r) {
      if (!r.ok) throw new Error("files.json: " + r.status);
      return r.json();
    }).then(function (list) {
      var bundle = kind === "bundle", files = bundle ? list.files : packageFiles(list.files);
      var total = files.length, done = 0, entries = new Array(total), next = 0;
      var prefix = bundle ? "attention-explorer/" : "";
      function worker() {  /* a few files at a time: the network and the compressor overlap */
        if (next >= total) return Promise.resolve();
        var i = next++, name = files[i];
        var bytes = !bundle && name === FILE_LIST ? Promise.resolve(new TextEncoder().encode(fileList(files)))
          : fetchBytes(new URL(name, root).href);
        return bytes.then(function (bytes) {
          return asGzip(name, bytes);
        }).then(function (bytes) {
          return entry(prefix + name, bytes);
        }).then(function (e) {
          entries[i] = e;
          done++;
          if (progress) progress(done, total);
          return worker();
        });
      }
      return Promise.all([worker(), worker(), worker(), worker()]).then(function () {
        if (bundle) return { blob: zip(entries), name: "attention-explorer.zip" };
        var launch = launchParameters(parameters, kind), data = new TextEncoder().encode(kind + launch);
        return crypto.subtle.digest("SHA-256", data).then(function (digest) {
          var xml = new TextEncoder().encode(manifest(kind, files, launch, hex(digest)));
          return entry("imsmanifest.xml", xml).then(function (m) {
            return { blob: zip([m].concat(entries)),
                     name: kind === "1.2" ? "attention-explorer-scorm12.zip" : "attention-explorer-scorm2004.zip" };
          });
        });
      });
    });
  }

  var api = { crc32: crc32, manifest: manifest, entry: entry, zip: zip, build: build, STORED: STORED,
              packageFiles: packageFiles, fileList: fileList, launchParameters: launchParameters };
  if (typeof module === "object" && module.exports) module.exports = api;
  else (global.attentionExplorer = global.attentionExplorer || {}).packager = api;
})(this);
