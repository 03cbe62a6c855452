/* athar: the only script.

   Quick exit: the button's form POSTs to the quick-exit address (works without JavaScript). With
   JavaScript the page hides at once and the same address is asked for with location.replace, so
   this page's history entry is replaced; the server signs out, flushes the session and sends the
   browser to a neutral site. Shift+Escape does the same.

   Back-forward cache: a page shown to a signed-in person ("data-private" on <body>) that the
   browser restores from memory is hidden and asked for again, so after a sign-out the server
   answers instead of the memory (the server also sends no-store on such pages).

   Progress pages (an ingest, an import): an element with data-follow="N" reloads the page every N
   seconds while the work runs, instead of a <meta http-equiv="refresh"> that no one can stop
   (WCAG 2.2.1); its button stops it. Without JavaScript the page has a "Refresh now" link. */
(function () {
  "use strict";
  function leave(event, form) {
    if (event) { event.preventDefault(); }
    document.body.style.display = "none";
    window.location.replace(form.getAttribute("action"));
  }
  document.addEventListener("DOMContentLoaded", function () {
    var exit = document.getElementById("quick-exit");
    var form = exit && exit.form;
    if (!form) { return; }
    form.addEventListener("submit", function (event) { leave(event, form); });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && event.shiftKey) { leave(event, form); }
    });
  });
  document.addEventListener("DOMContentLoaded", function () {
    var follow = document.querySelector("[data-follow]");
    if (!follow) { return; }
    var seconds = parseInt(follow.getAttribute("data-follow"), 10) || 5;
    var timer = window.setTimeout(function () { window.location.reload(); }, seconds * 1000);
    var stop = follow.querySelector("[data-follow-stop]");
    if (stop) {
      stop.hidden = false;
      stop.addEventListener("click", function () { window.clearTimeout(timer); stop.hidden = true; });
    }
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.body.hasAttribute("data-private")) {
      document.body.style.display = "none";
      window.location.reload();
    }
  });
})();
