// Push notifications: register the service worker, subscribe this browser with the judge's
// key, and hand the subscription to the judge (templates/_notices.html).
(function () {
  "use strict";
  var box = document.getElementById("push");
  if (!box) { return; }
  var button = document.getElementById("push-on");
  var problem = document.getElementById("push-problem");
  var state = document.getElementById("push-state");

  function say(text) { problem.textContent = text; problem.hidden = false; }

  function keyBytes(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { out[i] = raw.charCodeAt(i); }
    return out;
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    button.disabled = true;
    say("This browser cannot take push notifications; choose e-mail above instead.");
    return;
  }

  button.addEventListener("click", function () {
    button.disabled = true;
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") {
        throw new Error("notifications are blocked for this site in the browser's settings");
      }
      return navigator.serviceWorker.register("/static/sw.js");
    }).then(function (registration) {
      return registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key)});
    }).then(function (subscription) {
      return fetch("/account/push", {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": box.dataset.csrf},
        body: JSON.stringify(subscription.toJSON())});
    }).then(function (response) {
      if (!response.ok) { throw new Error("the judge did not keep the subscription"); }
      state.textContent = "on in this browser";
      problem.hidden = true;
    }).catch(function (error) {
      say("Push notifications could not be turned on: " + (error && error.message ? error.message : error) + ".");
    }).then(function () { button.disabled = false; });
  });
})();
