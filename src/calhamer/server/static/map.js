// Orders by clicking (or tapping) the map. The picture is drawn inline so that its provinces can
// be clicked; the page asks /options for the orders the player may give (made from what their
// power knows, nothing more). A click on one of one's own units selects it and opens a small
// menu of order kinds beside it (a bottom sheet on a phone); the kind chosen decides what the
// next clicks mean, so a click never completes an order the player did not choose:
// - move (the default): a click on a lit province moves (or attacks) there; a click on another
//   of one's own units starts that unit's order instead; a second click on the unit holds;
// - support and convoy: the unit to support or convoy, then its destination (the supported unit
//   again: a support to hold).
// A chosen order replaces that unit's line in the order box, and whatever the box says is drawn
// on the map as the result maps draw orders: the two stay in step.
(function () {
  "use strict";
  var holder = document.getElementById("map");
  var form = document.getElementById("orders-form");
  if (!holder || !form || !window.fetch || !window.DOMParser) return;
  var box = form.querySelector("textarea[name=orders]");
  var menu = document.getElementById("map-choices");  // the menu: the kinds, then the list
  var choices = document.getElementById("map-list");
  var kinds = document.getElementById("map-kinds");
  var title = document.getElementById("map-menu-title");
  var prompt = document.getElementById("map-prompt");
  var svg = null, units = [], byProvince = {}, selected = null, kind = null, clicks = [];
  var drawTimer = null, drawn = 0;
  // The picture's own ids, which would clash with the page's (#board, #orders): prefixed.
  var OWN = /^(prov|unit|sc|dislodged|build)-/;
  function phone() { return window.matchMedia && window.matchMedia("(max-width: 40rem)").matches; }

  function norm(text) { return text.trim().replace(/\s+/g, " ").toUpperCase(); }
  function area(code) { return svg ? svg.getElementById("prov-" + code) : null; }
  function mark(cls, codes) {
    if (!svg) return;
    Array.prototype.forEach.call(svg.querySelectorAll("." + cls), function (el) {
      el.classList.remove(cls);
    });
    codes.forEach(function (code) { var el = area(code); if (el) el.classList.add(cls); });
  }
  function namespace(root) {
    Array.prototype.forEach.call(root.querySelectorAll("[id]"), function (el) {
      if (!OWN.test(el.id)) el.id = "map-" + el.id;
    });
    Array.prototype.forEach.call(root.querySelectorAll("[fill^='url(#']"), function (el) {
      el.setAttribute("fill", el.getAttribute("fill").replace("url(#", "url(#map-"));
    });
  }
  // The highlights' fills (map.css): hatching for a province to click, dots for the selection.
  function patterns(root) {
    var NS = "http://www.w3.org/2000/svg";
    function el(name, attrs, parent) {
      var e = document.createElementNS(NS, name);
      Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
      if (parent) parent.appendChild(e);
      return e;
    }
    var defs = el("defs", {});
    root.insertBefore(defs, root.firstChild);
    var lit = el("pattern", {id: "map-lit", patternUnits: "userSpaceOnUse", width: "6", height: "6",
                             patternTransform: "rotate(45)"}, defs);
    el("rect", {width: "6", height: "6", fill: "#ffffff"}, lit);
    el("rect", {width: "1.6", height: "6", fill: "#1d232a"}, lit);
    var chosen = el("pattern", {id: "map-chosen", patternUnits: "userSpaceOnUse", width: "5",
                                height: "5"}, defs);
    el("rect", {width: "5", height: "5", fill: "#ffffff"}, chosen);
    el("circle", {cx: "2.5", cy: "2.5", r: "1.1", fill: "#1d232a"}, chosen);
  }
  // The kind of an order, from its text: what the menu offers.
  function kindOf(order) {
    var text = " " + norm(order.text) + " ";
    if (/ S /.test(text)) return "support";
    if (/ C /.test(text)) return "convoy";
    if (order.path.length) return / R /.test(text) ? "retreat" : "move";
    if (/ H $/.test(text)) return "hold";
    if (/ D $/.test(text) || /^ (DISBAND|REMOVE) /.test(text)) return "disband";
    return "other";
  }
  var LABEL = {move: "Move", retreat: "Retreat", support: "Support", convoy: "Convoy",
               hold: "Hold", disband: "Disband"};
  // The unit (or centre) a line of the box gives an order to, if any.
  function unitOf(line) {
    var text = norm(line);
    if (!text) return null;
    for (var i = 0; i < units.length; i++) {
      var u = units[i];
      for (var j = 0; j < u.orders.length; j++) {
        if (norm(u.orders[j].text) === text) return u;
      }
      var head = norm(u.heading);
      if (text === head || text.indexOf(head + " ") === 0) return u;
    }
    return null;
  }
  function fromBox() {
    var ordered = [];
    box.value.split("\n").forEach(function (line) {
      var u = unitOf(line);
      if (u && ordered.indexOf(u.province) < 0) ordered.push(u.province);
    });
    mark("ordered", ordered);
    clearTimeout(drawTimer);
    drawTimer = setTimeout(draw, 250);
  }
  // The box's orders drawn on the map, by the same drawing as the result maps (the server's).
  function draw() {
    var asked = ++drawn;
    fetch(holder.dataset.draft, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": form.dataset.csrf},
      body: JSON.stringify({orders: box.value.split("\n").slice(0, 200)})
    }).then(function (r) { return r.ok ? r.text() : null; }).then(function (text) {
      if (!text || asked !== drawn || !svg) return;
      var doc = new DOMParser().parseFromString(text, "image/svg+xml");
      var got = doc.getElementById("orders");
      var old = svg.getElementById("map-orders");
      var layer = got ? document.importNode(got, true) : null;
      if (layer) layer.id = "map-orders";
      if (old && layer) old.parentNode.replaceChild(layer, old);
      else if (old) old.remove();
      else if (layer) svg.insertBefore(layer, svg.getElementById("map-legend"));
      holder.dataset.drawn = String(asked);
    }).catch(function () {});
  }
  function ofKind() {
    return selected.orders.filter(function (o) { return kindOf(o) === kind; });
  }
  function candidates() {
    return ofKind().filter(function (o) {
      for (var i = 0; i < clicks.length; i++) if (o.path[i] !== clicks[i]) return false;
      return true;
    });
  }
  function nextSteps() {
    var next = [];
    candidates().forEach(function (o) {
      var code = o.path[clicks.length];
      if (code && next.indexOf(code) < 0) next.push(code);
    });
    return next;
  }
  function hideMenu() { menu.hidden = true; holder.classList.remove("choosing"); }
  function reset() {
    selected = null; kind = null; clicks = [];
    mark("selected", []); mark("target", []);
    choices.textContent = ""; kinds.textContent = "";
    hideMenu();
    prompt.textContent = units.length ? "Click one of your units on the map." : "";
  }
  function apply(order) {
    var unit = selected;
    var kept = box.value.split("\n").filter(function (line) {
      return line.trim() && unitOf(line) !== unit;
    });
    kept.push(order.text);
    box.value = kept.join("\n");
    box.dispatchEvent(new Event("input"));  // the box checks its lines, and the map follows
    reset();
    prompt.textContent = "Entered: " + order.text + ". Click another unit.";
  }
  function button(parent, text, cls, act) {
    var b = document.createElement("button");
    b.type = "button"; b.textContent = text;
    if (cls) b.className = cls;
    b.addEventListener("click", function (event) { event.stopPropagation(); act(); });
    parent.appendChild(b);
    return b;
  }
  // The menu beside the unit: the order kinds, and the orders of the chosen kind as a list.
  function place() {
    menu.hidden = false;
    holder.classList.add("choosing");
    if (phone()) {
      menu.style.left = ""; menu.style.top = "";  // a bottom sheet (map.css)
      uncover();
      return;
    }
    var el = area(selected.province);
    if (!el) return;
    // Beside the unit, on whichever side hides least of the provinces lit to click.
    var at = el.getBoundingClientRect(), frame = holder.getBoundingClientRect();
    var w = menu.offsetWidth, h = menu.offsetHeight, gap = 8;
    var lit = Array.prototype.map.call(svg.querySelectorAll(".target"), function (t) {
      return t.getBoundingClientRect();
    });
    function clamp(v, lo, hi) { return Math.max(lo, Math.min(v, hi)); }
    var spots = [
      [at.right + gap, at.top], [at.left - w - gap, at.top],
      [at.left, at.bottom + gap], [at.left, at.top - h - gap]
    ].map(function (p) {
      return [clamp(p[0] - frame.left, 0, Math.max(0, frame.width - w)),
              clamp(p[1] - frame.top, 0, Math.max(0, frame.height - h))];
    });
    function hidden(p) {
      var x = p[0] + frame.left, y = p[1] + frame.top, sum = 0;
      [at].concat(lit).forEach(function (r) {
        var dx = Math.min(x + w, r.right) - Math.max(x, r.left);
        var dy = Math.min(y + h, r.bottom) - Math.max(y, r.top);
        if (dx > 0 && dy > 0) sum += dx * dy;
      });
      return sum;
    }
    var best = spots[0];
    spots.forEach(function (p) { if (hidden(p) < hidden(best)) best = p; });
    menu.style.left = best[0] + "px"; menu.style.top = best[1] + "px";
  }
  // On a phone the sheet covers the bottom of the screen: the unit tapped (and what is around
  // it, where the next tap goes) is scrolled to the middle of what stays in sight.
  function uncover() {
    var el = area(selected.province);
    if (!el) return;
    var r = el.getBoundingClientRect(), free = menu.getBoundingClientRect().top;
    var frame = holder.querySelector(".map-frame");
    var middle = r.top + r.height / 2, want = free / 2;
    if (frame && holder.classList.contains("zoomed")) {
      var before = frame.scrollTop;
      frame.scrollTop += middle - want;
      middle -= frame.scrollTop - before;
      var across = r.left + r.width / 2 - frame.getBoundingClientRect().left;
      frame.scrollLeft += across - frame.clientWidth / 2;
    }
    if (Math.abs(middle - want) > 1) window.scrollBy(0, middle - want);
  }
  function show() {
    var next = nextSteps();
    var found = candidates();
    mark("selected", [selected.province].concat(clicks));
    mark("target", next);
    title.textContent = selected.heading;
    kinds.textContent = "";
    var seen = [];
    selected.orders.forEach(function (o) {
      var k = kindOf(o);
      if (o.path.length) {
        if (seen.indexOf(k) >= 0) return;
        seen.push(k);
        var b = button(kinds, LABEL[k] || k, k === kind ? "kind on" : "kind", function () {
          kind = k; clicks = []; show();
        });
        b.setAttribute("aria-pressed", k === kind ? "true" : "false");
      } else {
        button(kinds, k === "other" ? o.text : LABEL[k] + " (" + o.text + ")", "kind",
               function () { apply(o); });
      }
    });
    button(kinds, "Cancel", "kind cancel", reset);
    var say = {move: "click a lit province to move there", retreat: "click a lit province to retreat there",
               support: clicks.length ? "click where it goes, or it again to support its hold"
                 : "click the unit to support",
               convoy: clicks.length ? "click where the army goes" : "click the army to convoy"};
    prompt.textContent = selected.heading + ": " + (kind ? say[kind] + ", or " : "") +
      "choose an order." + (kind === "move" || kind === "retreat" ? " Click it again to hold." : "");
    choices.textContent = "";
    (kind ? found : selected.orders).forEach(function (o) { button(choices, o.text, "", function () { apply(o); }); });
    place();
  }
  function select(unit) {
    selected = unit; clicks = [];
    var first = unit.orders.filter(function (o) { return o.path.length; })[0];
    kind = first ? kindOf(first) : null;
    show();
  }
  function holdOf(unit) {
    return unit.orders.filter(function (o) { return kindOf(o) === "hold"; })[0];
  }
  function clicked(code) {
    if (!selected) { if (byProvince[code]) select(byProvince[code]); else reset(); return; }
    if (code === selected.province && !clicks.length) {  // the hold gesture: the unit again
      var hold = holdOf(selected);
      if (hold) apply(hold); else reset();
      return;
    }
    var complete = candidates().filter(function (o) { return o.path.length === clicks.length; });
    if (clicks.length && code === clicks[clicks.length - 1] && complete.length === 1) {
      apply(complete[0]);  // the supported unit again: a support to hold
      return;
    }
    var moving = kind === "move" || kind === "retreat";
    // While moving, one's own unit starts its own order (a move there is still in the list).
    if (kind && nextSteps().indexOf(code) >= 0 && !(moving && byProvince[code])) {
      clicks.push(code);
      var found = candidates();
      var done = found.filter(function (o) { return o.path.length === clicks.length; });
      if (done.length === 1 && !nextSteps().length) { apply(done[0]); return; }
      show();
      return;
    }
    if (byProvince[code]) { select(byProvince[code]); return; }
    reset();
  }
  // On a phone the map is drawn larger than the screen, in a frame that scrolls (labels
  // readable, provinces big enough for a finger), first showing the player's own units; a
  // button shows the whole map instead, and back.
  function zoomable() {
    var toggle = document.getElementById("map-zoom");
    if (!toggle || !phone()) return;
    toggle.hidden = false;
    function set(on) {
      holder.classList.toggle("zoomed", on);
      toggle.textContent = on ? "Whole map" : "Zoom in";
      toggle.setAttribute("aria-pressed", on ? "true" : "false");
      if (on) centre();
    }
    toggle.addEventListener("click", function () { set(!holder.classList.contains("zoomed")); });
    set(true);
  }
  function centre() {
    var frame = holder.querySelector(".map-frame") || holder;
    var mine = svg.querySelectorAll(".mine");
    if (!mine.length) return;
    var box = frame.getBoundingClientRect(), x = 0, y = 0;
    Array.prototype.forEach.call(mine, function (el) {
      var r = el.getBoundingClientRect();
      x += r.left + r.width / 2 - box.left; y += r.top + r.height / 2 - box.top;
    });
    frame.scrollLeft = x / mine.length - frame.clientWidth / 2;
    frame.scrollTop = y / mine.length - frame.clientHeight / 2;
  }
  Promise.all([
    fetch(holder.dataset.picture, {credentials: "same-origin"}).then(function (r) { return r.text(); }),
    fetch(holder.dataset.options, {credentials: "same-origin"}).then(function (r) { return r.json(); })
  ]).then(function (got) {
    var doc = new DOMParser().parseFromString(got[0], "image/svg+xml");
    var root = doc.documentElement;
    if (!root || root.nodeName !== "svg") return;
    Array.prototype.forEach.call(root.querySelectorAll("style"), function (s) { s.remove(); });
    svg = document.importNode(root, true);
    namespace(svg);
    patterns(svg);
    svg.removeAttribute("width"); svg.removeAttribute("height");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", holder.dataset.alt || "The map");
    var frame = holder.querySelector(".picture");
    if (frame) frame.remove();
    (holder.querySelector(".map-frame") || holder).appendChild(svg);
    holder.classList.add("clickable");
    holder.dispatchEvent(new Event("map-ready"));  // the "last turn" toggle draws on it too
    units = got[1].units || [];
    units.forEach(function (u) { byProvince[u.province] = u; });
    svg.addEventListener("click", function (event) {
      var el = event.target.closest ? event.target.closest("[id^='prov-']") : null;
      if (el) clicked(el.id.slice(5));
    });
    mark("mine", units.map(function (u) { return u.province; }));
    box.addEventListener("input", fromBox);
    document.addEventListener("keydown", function (event) { if (event.key === "Escape") reset(); });
    fromBox();
    reset();
    zoomable();
  }).catch(function () {});
})();

// The guest's return link: open on the first visit, folded after (it fills a phone's screen).
(function () {
  "use strict";
  var link = document.getElementById("return-link");
  if (!link) return;
  var key = "calhamer-return-seen";
  try {
    if (localStorage.getItem(key)) link.open = false;
    localStorage.setItem(key, "1");
  } catch (e) { /* storage refused: the box stays as it is */ }
})();
