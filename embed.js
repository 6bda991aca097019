/* Attention Explorer host script: sizes every <iframe data-attention-explorer> to its
   content. It trusts a size message only from that iframe's own window and origin.
   Plain JavaScript, no dependencies. Usage: <script src=".../embed.js" defer></script> */
(function () {
  "use strict";
  addEventListener("message", function (event) {
    var data = event.data;
    if (!data || data.type !== "attention:resize" || typeof data.height !== "number" ||
        !isFinite(data.height)) return;
    var frames = document.querySelectorAll("iframe[data-attention-explorer]");
    for (var i = 0; i < frames.length; i++) {
      var frame = frames[i];
      if (frame.contentWindow !== event.source) continue;
      if (new URL(frame.src, location.href).origin !== event.origin) return;
      frame.style.height = Math.max(120, Math.min(Math.ceil(data.height), 20000)) + "px";
      return;
    }
  });
})();
