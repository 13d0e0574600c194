// The service worker of calhamer's push notifications: show each notice the judge sends,
// and open its game when it is clicked.
self.addEventListener("push", function (event) {
  var notice = {title: "calhamer", body: "", url: "/"};
  try { notice = event.data ? event.data.json() : notice; } catch (e) { notice.body = event.data ? event.data.text() : ""; }
  event.waitUntil(self.registration.showNotification(notice.title, {
    body: notice.body, tag: (notice.game || "") + ":" + (notice.kind || ""),
    data: {url: notice.url || "/"}}));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.matchAll({type: "window"}).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url.indexOf(url) !== -1 && "focus" in windows[i]) { return windows[i].focus(); }
    }
    return self.clients.openWindow(url);
  }));
});
