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
  // A refused reconnection (too many pages at once after the server restarted; the link revoked meanwhile; a
  // reverse proxy's 502 while the bot restarts) ends an EventSource for good: the page loads again once the page
  // server answers for the link, and shows the fight or says why not. Until then it keeps what it shows: a page
  // reloaded onto a proxy's error would stay there, with nothing to bring it back.
  function answered(status) {
    return status === 200 || status === 404 || status === 410;
  }
  function reloadWhenAnswered() {
    window.setTimeout(function () {
      window
        .fetch(window.location.href, { method: "HEAD", cache: "no-store" })
        .then(function (response) {
          if (answered(response.status)) {
            window.location.reload();
          } else {
            reloadWhenAnswered();
          }
        })
        .catch(reloadWhenAnswered);
    }, again * 1000);
  }
  source.addEventListener("error", function () {
    if (source.readyState === EventSource.CLOSED) {
      reloadWhenAnswered();
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
