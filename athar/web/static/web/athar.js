/* athar: the only script. Quick exit replaces the current history entry so Back does not
   return here; without JavaScript the plain link still leaves. Confirmation for reveals. */
(function () {
  "use strict";
  function leave(event) {
    if (event) { event.preventDefault(); }
    document.body.style.display = "none";
    window.location.replace("https://www.google.com/");
  }
  document.addEventListener("DOMContentLoaded", function () {
    var exit = document.getElementById("quick-exit");
    if (exit) { exit.addEventListener("click", leave); }
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && event.shiftKey) { leave(event); }
    });
  });
})();
