// Check each order line as it is typed (the page works without this: saving shows the same).
(function () {
  "use strict";
  var form = document.getElementById("orders-form");
  var list = document.getElementById("feedback");
  if (!form || !list || !window.fetch) return;
  var box = form.querySelector("textarea[name=orders]");
  var timer = null;
  function show(checks) {
    list.textContent = "";
    checks.forEach(function (c) {
      var li = document.createElement("li");
      if (c.set_aside) {  // not an order (a greeting, a signature): not stored
        li.className = "aside";
        li.textContent = "\u2013 " + c.text.trim() + " (" + c.set_aside + ", set aside)";
        list.appendChild(li);
        return;
      }
      li.className = c.ok ? "ok" : "bad";
      li.textContent = c.ok ? "\u2713 " + c.canonical : "\u2717 " + c.text.trim() + ": " + c.problem;
      list.appendChild(li);
    });
  }
  function check() {
    fetch(form.dataset.check, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": form.dataset.csrf},
      body: JSON.stringify({orders: box.value.split("\n")})
    }).then(function (r) { return r.ok ? r.json() : null; })
      .then(function (checks) { if (checks) show(checks); })
      .catch(function () {});
  }
  box.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(check, 350);
  });
})();

// Orders by clicking the map: static/map.js.

// Live pages. The server sends an event whenever what this viewer may see of the game changes
// (a phase adjudicated, a message, a ready mark): the page then reloads, unless something typed
// here would be lost, in which case it says so. A new phase is also told by a browser
// notification, if the player allowed them (by turning push notifications on, in "Being
// told" on the page).
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) return;
  var banner = document.getElementById("live-banner");
  // What the page was drawn from: a change made before the stream connects still counts.
  var first = null;
  try { first = JSON.parse(live.dataset.state || "null"); } catch (e) { first = null; }
  // The phase this tab last showed: a new one is told once, whether the page learns of it
  // from an event or from a reload (the gamemaster's "process now" reloads it too).
  var key = "calhamer-phase:" + live.dataset.events;
  function told(phase) {
    var before = null;
    try { before = sessionStorage.getItem(key); sessionStorage.setItem(key, phase); }
    catch (e) { return; }
    if (before === null || before === phase || !window.Notification ||
        Notification.permission !== "granted") return;
    try { new Notification("calhamer: " + document.title, {body: "A new phase: " + phase}); }
    catch (e) { /* a browser that only notifies from a service worker */ }
  }
  told(live.dataset.phase);
  function typing() {
    var boxes = document.querySelectorAll("main textarea");
    for (var i = 0; i < boxes.length; i++) {
      if (boxes[i].value !== boxes[i].defaultValue) return true;
    }
    return false;
  }
  var source = new EventSource(live.dataset.events);
  source.addEventListener("state", function (event) {
    var state;
    try { state = JSON.parse(event.data); } catch (e) { return; }
    if (first === null) {
      first = state;
      if (state.phase === live.dataset.phase) return;
    } else if (state.state === first.state && state.messages === first.messages &&
               state.phase === first.phase) {
      return;
    }
    told(state.phase);
    if (typing()) { banner.hidden = false; first = state; return; }
    source.close();
    window.location.reload();
  });
  source.addEventListener("gone", function () { source.close(); });

})();

// The deadline in the reader's own time zone, and a countdown to it.
(function () {
  "use strict";
  var at = document.getElementById("deadline");
  var left = document.getElementById("countdown");
  if (!at || !left) return;
  var deadline = new Date(at.dataset.deadline);
  if (isNaN(deadline.getTime())) return;
  at.textContent = deadline.toLocaleString(undefined, {
    weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
    timeZoneName: "short"
  });
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var s = Math.floor((deadline.getTime() - Date.now()) / 1000);
    if (s <= 0) { left.textContent = "now"; return; }
    var d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600);
    var m = Math.floor(s % 3600 / 60);
    left.textContent = "in " + (d ? d + " d " : "") + pad(h) + ":" + pad(m) + ":" + pad(s % 60);
    setTimeout(tick, 1000);
  }
  tick();
})();

// Stepping through the history with the arrow keys (the links say the same).
(function () {
  "use strict";
  var steps = document.getElementById("steps");
  if (!steps) return;
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || /INPUT|TEXTAREA/.test(event.target.tagName)) return;
    var link = event.key === "ArrowLeft" ? document.getElementById("previous")
      : event.key === "ArrowRight" ? document.getElementById("next") : null;
    if (link) link.click();
  });
})();

// Press as conversations: each thread shows how many of its messages the account has not read
// (the server keeps what was read, per account, so the marker follows the player from browser
// to browser); opening a thread tells the server it was read up to its latest message. Threads
// left open stay open when the page reloads (a live page reloads on each new message).
(function () {
  "use strict";
  var threads = document.querySelectorAll("details.thread");
  var press = document.getElementById("press");
  if (!threads.length || !press) return;
  var game = window.location.pathname;
  function get(store, key) { try { return store.getItem(key); } catch (e) { return null; } }
  function set(store, key, value) { try { store.setItem(key, value); } catch (e) { /* private */ } }
  Array.prototype.forEach.call(threads, function (thread) {
    var key = game + "#" + thread.dataset.thread;
    var marker = thread.querySelector(".unread");
    var told = null;
    function read() {
      marker.hidden = true;
      thread.classList.remove("has-unread");
      if (told === thread.dataset.last) return;
      told = thread.dataset.last;
      var body = new URLSearchParams({thread: thread.dataset.thread, last: thread.dataset.last});
      // keepalive: the mark still reaches the server when a reply's page load follows at once
      fetch(press.dataset.read, {method: "POST", body: body, keepalive: true,
                                 credentials: "same-origin",
                                 headers: {"X-CSRF-Token": press.dataset.csrf}})
        .catch(function () { told = null; });
    }
    if (get(window.sessionStorage, "calhamer-open:" + key) === "1") thread.open = true;
    if (thread.open) read();
    thread.addEventListener("toggle", function () {
      set(window.sessionStorage, "calhamer-open:" + key, thread.open ? "1" : "0");
      if (thread.open) read();
    });
  });
})();
