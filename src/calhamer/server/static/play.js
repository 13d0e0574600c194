// The game page's play helpers: confirmations for the gamemaster's controls that cannot be
// taken back, the press form's recipients ("all" or powers, never both), and the header's
// count of unread press kept in step with the threads as they are read.
(function () {
  "use strict";

  // A button with data-confirm asks first; declining sends nothing.
  document.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (button && button.dataset.confirm && !window.confirm(button.dataset.confirm)) {
      event.preventDefault();
    }
  }, true);

  // "all" and named powers exclude each other: ticking one side unticks the other.
  var form = document.getElementById("press-form");
  if (form) {
    var boxes = Array.prototype.slice.call(form.querySelectorAll('input[name="to"]'));
    boxes.forEach(function (box) {
      box.addEventListener("change", function () {
        if (!box.checked) return;
        boxes.forEach(function (other) {
          if ((box.value === "ALL") !== (other.value === "ALL")) other.checked = false;
        });
      });
    });
  }

  // The header's unread count follows the threads' own markers as threads are opened.
  var link = document.getElementById("press-unread");
  var press = document.getElementById("press");
  if (link && press && window.MutationObserver) {
    var recount = function () {
      var total = 0;
      press.querySelectorAll("details.thread .unread").forEach(function (mark) {
        var n = parseInt(mark.textContent, 10);
        if (!mark.hidden && n > 0) total += n;
      });
      link.querySelector(".count").textContent = String(total);
      link.hidden = total === 0;
    };
    new MutationObserver(recount).observe(press, {
      subtree: true, attributes: true, attributeFilter: ["hidden"], childList: true,
      characterData: true,
    });
  }
})();
