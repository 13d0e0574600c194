// The new-game form: the chosen variant's (or board's) thumbnail and description beside its
// list, read from the gallery (variants) and the list of boards' pictures. Without this
// script the gallery under the lists shows them all.
(function () {
  "use strict";
  [["variant", "variant-preview", "#boards-gallery li[data-variant]", "variant"],
   ["board", "board-preview", "#board-previews li[data-board]", "board"]].forEach(function (set) {
    var select = document.querySelector("#new-game select[name=" + set[0] + "]");
    var figure = document.getElementById(set[1]);
    if (!select || !figure) return;
    var known = {};
    Array.prototype.forEach.call(document.querySelectorAll(set[2]), function (li) {
      known[li.dataset[set[3]]] = li;
    });
    var img = figure.querySelector("img");
    var caption = figure.querySelector("figcaption");
    function show() {
      var option = select.options[select.selectedIndex];
      var li = option && known[option.value];
      if (!li) { figure.hidden = true; return; }
      figure.hidden = false;
      if (li.dataset.thumb) {
        img.hidden = false;
        img.src = li.dataset.thumb;
        img.alt = "The board of " + option.textContent + " at the start";
        caption.textContent = li.dataset.about;
      } else {
        img.hidden = true;
        img.removeAttribute("src");
        caption.textContent = "No picture: this board has no drawing yet. " + li.dataset.about;
      }
    }
    select.addEventListener("change", show);
    show();
  });
})();
