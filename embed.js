/* Attention Explorer host script: sizes every <iframe data-attention-explorer> to its
   content. It trusts a size message only from that iframe's own window and origin (for an
   iframe sandboxed without allow-same-origin, whose origin is opaque, from its window and
   the opaque origin "null"). Widgets from several deployments on one page are fine: each
   iframe is matched by its window, and loading this script twice changes nothing.
   Plain JavaScript, no dependencies. Usage: <script src=".../embed.js" defer></script> */
(function () {
  "use strict";
  if (window.attentionExplorerEmbed) return;
  window.attentionExplorerEmbed = true;
  function originOf(frame) {
    /* (any page such a frame goes to could resize it too: only within the bounds below) */
    if (frame.hasAttribute("sandbox") && !/(^|\s)allow-same-origin(\s|$)/i.test(frame.getAttribute("sandbox")))
      return "null";
    return new URL(frame.src, location.href).origin;
  }
  addEventListener("message", function (event) {
    var data = event.data;
    if (!data || data.type !== "attention:resize" || typeof data.height !== "number" ||
        !isFinite(data.height)) return;
    var frames = document.querySelectorAll("iframe[data-attention-explorer]");
    for (var i = 0; i < frames.length; i++) {
      var frame = frames[i];
      if (frame.contentWindow !== event.source) continue;
      if (originOf(frame) !== event.origin) return;
      frame.style.height = Math.max(120, Math.min(Math.ceil(data.height), 20000)) + "px";
      return;
    }
  });
})();
