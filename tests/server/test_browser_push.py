"""A pushed notice reaches the player's browser and is shown, in Chromium at a desktop's size
and a 390x844 phone's, on SQLite and PostgreSQL (issue 29, item 7).

Headless Chromium has no push service, so the two ends of it are stood in for, and nothing
between them: the page's own button (``static/notices.js``) asks for permission, registers
the service worker ``static/sw.js`` for real and hands the judge, through ``/account/push``,
the subscription ``PushManager.subscribe`` returns, which is the one thing replaced in the
page (it gives a fake push service's endpoint and keys held by the test). The judge's own
worker adjudicates, decides the notices and sends them with ``pywebpush`` (encrypted and
signed), the push service being faked at the network boundary only, as in
``test_notices.py``; the test decrypts the message as a browser would and hands it to the
registered service worker through the Chrome DevTools Protocol
(``ServiceWorker.deliverPushMessage``), as a push service would, and the page then reads the
notification the service worker showed. What this does not show: that a real push service
accepts the judge's request, or Chromium's own decryption of it (``test_notices.py`` checks
the encryption and the signature's key)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser import chromium, standard_table  # noqa: F401
from sizes import SIZES
from test_notices import Browser, PushService

from conftest import empty_tables, make_settings, serve_on_loopback

ENDPOINT = "https://push.example.net/send/france"

# PushManager.subscribe, which would reach the browser's push service, answers with the fake
# push service's endpoint and the keys the test decrypts with; what it was asked is kept.
SUBSCRIBE = """
PushManager.prototype.subscribe = function (options) {
  var key = new Uint8Array(options.applicationServerKey);
  window.subscribedWith = {userVisibleOnly: options.userVisibleOnly,
                           key: btoa(String.fromCharCode.apply(null, key))};
  var subscription = %s;
  return Promise.resolve({endpoint: subscription.endpoint,
                          toJSON: function () { return subscription; }});
};
"""

NOTIFICATIONS = """async () => {
  const registration = await navigator.serviceWorker.getRegistration("/static/");
  if (!registration) { return null; }
  return (await registration.getNotifications()).map(n => (
    {title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}));
}"""


class Judging:
    """The live server and the fake push service its worker sends through."""

    def __init__(self, base: str, service: PushService) -> None:
        self.base = base
        self.service = service

    def posts_to(self, endpoint: str) -> list[bytes]:
        return [body for url, body, _ in list(self.service.posts) if url == endpoint]


@pytest.fixture
def judging(database, database_url, clock) -> Iterator[Judging]:  # type: ignore[no-untyped-def]
    """A live server whose own worker adjudicates and sends the notices, pushing through a
    fake push service (the HTTP session ``pywebpush`` posts with)."""
    from calhamer.server.app import create_app
    from calhamer.server.services import notices

    empty_tables(database)
    settings = make_settings(database_url, clock, embedded_worker=True, worker_poll_seconds=0.2,
                             events_seconds=20.0)
    app = create_app(settings, db=database)
    service = PushService()
    with serve_on_loopback(app) as base:
        app.state.worker.sender = notices.NetSender(
            settings, notices.vapid_key(database, settings), http=service)
        yield Judging(base, service)


def _until(what: str, check: Any) -> Any:
    """Wait until ``check()`` gives something true (the worker runs in its own thread, the
    service worker in its own)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"never came: {what}")


def _b64url_to_std(text: str) -> str:
    import base64

    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    return base64.b64encode(raw).decode()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_pushed_notice_is_shown_by_the_service_worker(judging, chromium, size):  # noqa: F811
    """France turns push on with the page's button and switches press off: the new phase is
    pushed, shown by the service worker with the judge's title and words and the game's
    address; the press Germany sent her is never pushed, while France's press to Germany
    (who wants press) is, in the same round of notices."""
    from playwright.sync_api import expect

    table = standard_table(judging.base)
    keys = Browser()
    france = table.browse(chromium, "FRANCE", **SIZES[size])
    france.context.grant_permissions(["notifications"], origin=judging.base)
    france.add_init_script(SUBSCRIBE % json.dumps(
        {"endpoint": ENDPOINT, "expirationTime": None,
         "keys": {"p256dh": keys.p256dh, "auth": keys.auth_text}}))
    cdp = france.context.new_cdp_session(france)
    registrations: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated",
           lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")

    form = france.locator("#notices-form")
    form.locator("input[name=press]").uncheck()
    form.get_by_role("button", name="Save").click()
    expect(france.locator("#notices")).to_contain_text("Saved")
    france.locator("#push-on").click()
    expect(france.locator("#push-state")).to_have_text("on in this browser")
    expect(france.locator("#push-problem")).to_be_hidden()

    france_api = table.http.get(judging.base + "/api/notices",
                                headers=table.seats["FRANCE"].headers).json()
    assert france_api["push_subscriptions"] == 1
    assert (france_api["phase"], france_api["press"]) == (True, False)
    subscribed = france.evaluate("window.subscribedWith")
    assert subscribed == {"userVisibleOnly": True,
                          "key": _b64url_to_std(france_api["vapid_public_key"])}
    worker = _until("the service worker's registration", lambda: [
        r for r in registrations
        if r["scopeURL"] == judging.base + "/static/" and not r["isDeleted"]])
    # The game page reloads itself when the phase moves on: the notifications are read from
    # another page of the judge in the same browser (the service worker is the site's).
    reader = france.context.new_page()
    reader.goto(judging.base + "/account")
    assert reader.evaluate(NOTIFICATIONS) == []

    # Germany wants every kind, pushed to a browser of its own.
    germany_keys = Browser()
    germany_endpoint = "https://push.example.net/send/germany"
    r = table.http.post(judging.base + "/api/notices/push", headers=table.seats["GERMANY"].headers,
                        json={"endpoint": germany_endpoint, "keys": {
                            "p256dh": germany_keys.p256dh, "auth": germany_keys.auth_text}})
    assert r.status_code == 201, r.text
    table.message("GERMANY", "Shall we share Belgium?")
    table.message("FRANCE", "Perhaps.")
    assert table.process() == "F1901M"

    # Germany's press notice (of France's message) is decided with or after France's (of
    # Germany's, the earlier message) and sent after it: once Germany has both, whatever the
    # judge was to push to France has been pushed, but for the phase, waited for below.
    def germany_told() -> list[Any]:
        told = [germany_keys.decrypt(body) for body in judging.posts_to(germany_endpoint)]
        return told if sorted(n["kind"] for n in told) == ["phase", "press"] else []

    _until("Germany's phase and press notices", germany_told)
    told = _until("France's phase notice", lambda: [
        (body, n) for body in judging.posts_to(ENDPOINT)
        if (n := keys.decrypt(body))["kind"] == "phase"])
    assert [n["kind"] for n in map(keys.decrypt, judging.posts_to(ENDPOINT))] == ["phase"]
    ((pushed, notice),) = told
    assert "Fall 1901" in notice["title"] and "France has orders to give" in notice["body"]
    assert notice["url"] == f"/games/{table.id}" and notice["game"] == table.id

    # The push service hands the message to France's browser, as Chromium's would.
    cdp.send("ServiceWorker.deliverPushMessage", {
        "origin": judging.base, "registrationId": worker[-1]["registrationId"],
        "data": pushed_text(keys, pushed)})
    shown = _until("a notification", lambda: reader.evaluate(NOTIFICATIONS))
    assert shown == [
        {"title": notice["title"], "body": notice["body"], "tag": f"{table.id}:phase",
         "url": f"/games/{table.id}"}]


def pushed_text(keys: Browser, body: bytes) -> str:
    """The message as the browser's push service delivers it: the decrypted text."""
    import http_ece

    return str(http_ece.decrypt(body, private_key=keys.key, auth_secret=keys.auth,
                                version="aes128gcm").decode())
