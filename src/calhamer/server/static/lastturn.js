// The "last turn" toggle: the orders of the phase adjudicated last, with their results (moves,
// supports, convoys, failed ones faded and crossed), drawn on the current map, and hidden
// again. They are not drawn here: they are that phase's own result map's orders layer (the
// picture /games/{id}/phases/{code}/picture, which the server draws as the viewer may see it;
// in a game that hides information, from their stored view of the phase), so the toggle shows
// exactly what the results show the viewer, nothing more. On the inline map (a player's) the
// layer is added to the map; elsewhere (the gamemaster's picture, a finished game's) the
// picture is redrawn with it. While the last turn is shown, the orders being entered are not.
(function () {
  "use strict";
  var toggle = document.getElementById("last-turn");
  var board = document.getElementById("board");
  if (!toggle || !board || !window.fetch || !window.DOMParser || !window.XMLSerializer) return;
  var note = document.getElementById("last-turn-note");
  var NS = "http://www.w3.org/2000/svg";
  var ID = "last-turn-orders";
  var loading = null, shown = false, plain = null;

  // The result map's orders, as a <g> of their own (ids prefixed: they would clash).
  function layer() {
    if (!loading) {
      loading = fetch(toggle.dataset.picture, {credentials: "same-origin"}).then(function (r) {
        if (!r.ok) throw new Error("the last phase's map could not be read");
        return r.text();
      }).then(function (text) {
        var doc = new DOMParser().parseFromString(text, "image/svg+xml");
        var got = doc.getElementById("orders");
        var g = doc.createElementNS(NS, "g");
        g.setAttribute("id", ID);
        g.setAttribute("class", "last-turn");
        while (got && got.firstChild) g.appendChild(got.firstChild);
        Array.prototype.forEach.call(g.querySelectorAll("[id]"), function (el) {
          el.setAttribute("id", "last-" + el.getAttribute("id"));
        });
        return g;
      });
      loading.catch(function () { loading = null; });
    }
    return loading;
  }
  function inline() { return board.querySelector("#map svg"); }
  function picture() { return board.querySelector("figure.picture img"); }

  // Draw (or take away) the layer on whatever map the page shows now.
  function apply() {
    var svg = inline(), img = picture();
    if (svg) {
      var old = svg.getElementById ? svg.getElementById(ID) : svg.querySelector("#" + ID);
      svg.classList.toggle("showing-last", shown);
      if (!shown) { if (old) old.remove(); return Promise.resolve(); }
      return layer().then(function (g) {
        if (!shown || svg.querySelector("#" + ID)) return;
        svg.insertBefore(document.importNode(g, true), svg.querySelector("#map-legend"));
      });
    }
    if (!img) return Promise.resolve();
    if (!shown) {
      if (plain) img.src = plain;
      return Promise.resolve();
    }
    if (!plain) plain = img.getAttribute("src");
    return Promise.all([
      fetch(plain, {credentials: "same-origin"}).then(function (r) { return r.text(); }),
      layer()
    ]).then(function (got) {
      if (!shown) return;
      var doc = new DOMParser().parseFromString(got[0], "image/svg+xml");
      var root = doc.documentElement;
      var current = doc.getElementById("orders");
      if (current) current.remove();  // the orders being given now: not with the last turn's
      root.insertBefore(doc.importNode(got[1], true), doc.getElementById("legend"));
      img.src = "data:image/svg+xml;charset=utf-8," +
        encodeURIComponent(new XMLSerializer().serializeToString(root));
    });
  }
  function set(on) {
    shown = on;
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    toggle.textContent = on ? toggle.dataset.hide : toggle.dataset.show;
    board.classList.toggle("last-turn-shown", on);
    apply().then(function () {
      return on ? layer() : null;
    }).then(function (g) {
      note.hidden = !(g && !g.firstChild);
      note.textContent = note.hidden ? "" : "You saw no orders in the last turn.";
    }).catch(function () {
      note.hidden = false;
      note.textContent = "The last turn's orders could not be read; try again.";
    });
  }
  toggle.hidden = false;
  toggle.addEventListener("click", function () { set(!shown); });
  var holder = document.getElementById("map");
  if (holder) holder.addEventListener("map-ready", function () { if (shown) apply(); });
})();
