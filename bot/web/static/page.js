"use strict";
// Keeps the page current: every change of the fight arrives as the page's fragments (already escaped HTML made
// by the server) over Server-Sent Events; EventSource reconnects by itself.
(function () {
  var url = document.documentElement.getAttribute("data-events");
  if (!url || !window.EventSource) {
    return;
  }
  var again = Number(document.documentElement.getAttribute("data-again")) || 5; // seconds
  var parts = ["title", "round", "now", "waiting", "clock", "order", "results"];
  var source = new EventSource(url);
  source.addEventListener("state", function (event) {
    var shown = JSON.parse(event.data);
    parts.forEach(function (id) {
      var element = document.getElementById(id);
      if (element && typeof shown[id] === "string" && element.innerHTML !== shown[id]) {
        element.innerHTML = shown[id];
      }
    });
    document.documentElement.setAttribute("data-version", String(shown.v));
  });
  // A refused reconnection (too many pages at once after the server restarted; the link revoked meanwhile)
  // ends an EventSource for good: the page loads again a little later, and shows the fight or says why not.
  source.addEventListener("error", function () {
    if (source.readyState === EventSource.CLOSED) {
      window.setTimeout(function () {
        window.location.reload();
      }, again * 1000);
    }
  });
  // The link was revoked or the fight's page expired: say so, and stop asking.
  source.addEventListener("gone", function (event) {
    source.close();
    var now = document.getElementById("now");
    if (now) {
      now.textContent = JSON.parse(event.data).said;
    }
    document.documentElement.setAttribute("data-gone", "");
  });
})();
