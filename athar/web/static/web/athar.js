/* athar: the only script.

   Quick exit: the button's form POSTs to the quick-exit address (works without JavaScript). With
   JavaScript the page hides at once and the same address is asked for with location.replace, so
   this page's history entry is replaced; the server signs out, flushes the session and sends the
   browser to a neutral site. Shift+Escape does the same.

   Back-forward cache: a page shown to a signed-in person ("data-private" on <body>) that the
   browser restores from memory is hidden and asked for again, so after a sign-out the server
   answers instead of the memory (the server also sends no-store on such pages). */
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
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.body.hasAttribute("data-private")) {
      document.body.style.display = "none";
      window.location.reload();
    }
  });
})();
