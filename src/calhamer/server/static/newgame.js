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

// The rule modules and their options belong to "a board with rule modules": shown only when
// that is the choice, and each module's options only while the module is ticked. A variant
// from the list comes with its own options, and a variant file names its own. Without this
// script every module and option is shown, and the server reads only those that apply.
(function () {
  "use strict";
  var form = document.getElementById("new-game");
  var modules = document.getElementById("modules");
  if (!form || !modules) return;
  var sources = form.querySelectorAll("input[name=source]");
  function show() {
    var chosen = form.querySelector("input[name=source]:checked");
    modules.hidden = !chosen || chosen.value !== "modules";
    Array.prototype.forEach.call(modules.querySelectorAll(".module"), function (m) {
      var box = m.querySelector("input[name=modules]");
      Array.prototype.forEach.call(m.querySelectorAll(".option"), function (option) {
        option.hidden = !box || !box.checked;
      });
    });
  }
  Array.prototype.forEach.call(sources, function (s) { s.addEventListener("change", show); });
  modules.addEventListener("change", show);
  // Choosing a board or a module is choosing to compose: its radio follows.
  var board = form.querySelector("select[name=board]");
  var composing = form.querySelector("input[name=source][value=modules]");
  function compose() { if (composing && !composing.checked) { composing.checked = true; } show(); }
  if (board) board.addEventListener("change", compose);
  var preset = form.querySelector("select[name=variant]");
  var listed = form.querySelector("input[name=source][value=preset]");
  if (preset && listed) preset.addEventListener("change", function () { listed.checked = true; show(); });
  show();
})();
