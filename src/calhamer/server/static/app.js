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
