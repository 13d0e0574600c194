"""The new-game form: a gamemaster composes a variant from a board, rule modules and options,
or uploads a variant file; a variant that cannot be played is refused on the form with the
reason, never a traceback. The API takes a composed variant's text likewise."""

from __future__ import annotations

import html
from pathlib import Path

from browser import chromium, live_server  # noqa: F401
from sqlalchemy import func, select
from test_pages import Browser

from calhamer.server.models import GameRow, PhaseRow
from calhamer.server.services.games import VARIANT_LENGTH, unservable_reason
from calhamer.variants import find_variant
from calhamer.variants.composition import module_names

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "variants"

FORM = {"name": "", "gm_name": "Gamemaster", "rules": "", "press": "full", "movement": "60",
        "retreat": "30", "adjustment": "30"}


def post_form(browser: Browser, fields: dict | None = None, modules: list[str] | None = None,
              upload: tuple[str, bytes] | None = None):  # type: ignore[no-untyped-def]
    """The new-game form sent as a browser sends it (multipart, the modules' boxes repeated)."""
    data: list[tuple[str, str]] = [("csrf_token", browser.csrf)]
    data += list({**FORM, **(fields or {})}.items())
    data += [("modules", m) for m in modules or []]
    files = {"variant_file": (upload[0], upload[1], "application/toml")} if upload else None
    if files is None:  # still multipart, as the form's enctype says
        files = {"variant_file": ("", b"", "application/octet-stream")}
    return browser.client.post("/games", data=dict_of(data), files=files)


def dict_of(pairs: list[tuple[str, str]]) -> dict[str, str | list[str]]:
    out: dict[str, str | list[str]] = {}
    for key, value in pairs:
        if key in out:
            previous = out[key]
            out[key] = [*(previous if isinstance(previous, list) else [previous]), value]
        else:
            out[key] = [value] if key == "modules" else value
    return out


def game_rows(database) -> list[GameRow]:  # type: ignore[no-untyped-def]
    with database.transaction() as session:
        rows = list(session.scalars(select(GameRow)))
        session.expunge_all()
        return rows


def first_phase(database, game_id: str) -> dict:  # type: ignore[no-untyped-def]
    with database.transaction() as session:
        row = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game_id)).one()
        return dict(row.position)


def refused_on_the_form(r, *fragments: str) -> str:  # type: ignore[no-untyped-def]
    assert r.status_code == 400, r.text
    assert "Traceback" not in r.text and 'id="new-game"' in r.text
    error = html.unescape(r.text.split('<p class="error" role="alert">')[1].split("</p>")[0])
    for fragment in fragments:
        assert fragment in error, error
    return error


def test_the_form_offers_boards_modules_their_options_and_refusals(app) -> None:
    page = Browser(app).get("/").text
    assert 'enctype="multipart/form-data"' in page
    for name in module_names():
        assert f'<input type="checkbox" name="modules" value="{name}">' in page
    for option in ("dp_cap", "dp_per_phase", "dp_per_center", "buyable"):
        assert f'name="opt_{option}"' in page
    assert '<input type="checkbox" name="opt_colour_exchange" value="true">' in page
    for board in ("standard", "standard-dp", "kriegsplomacy", "superdiplomacy"):
        assert f'<option value="{board}"' in page
    text = html.unescape(page)
    assert "Not with colours: Arpiesse decides a clash" in text
    assert "Not with a rule edition:" in text
    assert 'type="file" name="variant_file"' in page


def test_a_gamemaster_composes_a_variant_from_modules_and_options(app, database) -> None:
    gm = Browser(app)
    gm.get("/")
    r = post_form(gm, {"source": "modules", "board": "standard-dp", "opt_dp_cap": "2",
                       "opt_colour_exchange": "true"},  # an unticked module's option: unused
                  modules=["neutrals", "fog"])
    assert r.status_code == 200, r.text
    assert "you are the gamemaster" in r.text
    [game] = game_rows(database)
    assert game.variant == "standard-dp+fog+neutrals?dp_cap=2"
    assert game.rules == "datc"
    # Named after the variant's title, cut to what the games table stores.
    assert game.name.startswith("Fog of war, with espionage and counter-espionage, neutral")
    assert game.name.endswith("…") and len(game.name) <= 80
    position = first_phase(database, game.id)
    assert position["variant"] == game.variant
    variant = find_variant(game.variant)
    assert variant.visibility.hidden_information and variant.bids is not None
    assert type(variant).dp_cap == 2


def test_the_edition_chosen_with_modules_is_part_of_the_variant(app, database) -> None:
    gm = Browser(app)
    gm.get("/")
    r = post_form(gm, {"source": "modules", "board": "standard", "rules": "1971",
                       "name": "Painted"}, modules=["colours"])
    assert r.status_code == 200, r.text
    [game] = game_rows(database)
    assert (game.variant, game.rules, game.name) == ("standard+colours?rules=1971", "1971",
                                                     "Painted")


def test_modules_that_are_a_preset_make_a_game_of_the_preset(app, database) -> None:
    gm = Browser(app)
    gm.get("/")
    r = post_form(gm, {"source": "modules", "board": "kriegsplomacy"},
                  modules=["flexible-builds", "fog"])
    assert r.status_code == 200, r.text
    assert [g.variant for g in game_rows(database)] == ["kriegsplomacy"]


def test_a_refused_pair_is_shown_on_the_form_with_the_reason(app, database) -> None:
    gm = Browser(app)
    gm.get("/")
    r = post_form(gm, {"source": "modules", "board": "superdiplomacy"},
                  modules=["stacks", "colours"])
    refused_on_the_form(r, "stacks cannot be played with colours", "dice")
    # The form comes back as it was sent: the board and the boxes still chosen.
    assert '<input type="checkbox" name="modules" value="stacks" checked>' in r.text
    assert '<input type="checkbox" name="modules" value="colours" checked>' in r.text
    assert '<option value="superdiplomacy" selected>' in r.text
    assert '<input type="radio" name="source" value="modules" checked>' in r.text
    assert game_rows(database) == []


def test_every_refusal_of_the_form_gives_its_reason(app, database) -> None:
    gm = Browser(app)
    gm.get("/")
    cases = [
        ({"board": "superdiplomacy"}, ["stacks", "flexible-builds"],
         "stacks cannot be played with flexible-builds"),
        ({"board": "superdiplomacy", "rules": "alexander"}, ["stacks"],
         "stacks cannot be played with a rule edition"),
        ({"board": "standard"}, ["neutrals"], "no minor powers"),
        ({"board": "standard-dp", "opt_dp_cap": "lots"}, ["neutrals"],
         "option dp_cap must be a whole number"),
        ({"board": "standard-dp", "opt_dp_cap": "2&dp_per_phase=9"}, ["neutrals"],
         "is not a value"),
        ({"board": "standard-dp", "opt_buyable": "hold,fly"}, ["neutrals"],
         "'fly' is not an order kind"),
        ({"board": "../../etc/passwd.toml"}, ["fog"], "choose a board among"),
        ({"board": "standard"}, ["weather"], "there is no rule module 'weather'"),
    ]
    for fields, modules, said in cases:
        r = post_form(gm, {"source": "modules", **fields}, modules=modules)
        refused_on_the_form(r, said)
    assert game_rows(database) == []


def test_a_long_composed_name_is_stored_whole(app, database) -> None:
    """games.variant takes 200 characters (migration 0005): four modules on a board fit."""
    gm = Browser(app)
    gm.get("/")
    r = post_form(gm, {"source": "modules", "board": "kriegsplomacy"},
                  modules=["fog", "colours", "flexible-builds"])
    assert r.status_code == 200, r.text
    [game] = game_rows(database)
    assert game.variant == "kriegsplomacy+fog+colours+flexible-builds"
    assert len(game.variant) > 40


def test_a_name_longer_than_the_column_is_refused_with_the_reason(monkeypatch) -> None:
    import calhamer.server.services.games as games

    monkeypatch.setattr(games, "VARIANT_LENGTH", 20)
    said = unservable_reason("standard-dp+fog+neutrals?dp_cap=2")
    assert said is not None and "stores at most 20" in said
    assert VARIANT_LENGTH == 200


def test_an_uploaded_variant_file_makes_the_game(app, database) -> None:
    gm = Browser(app)
    gm.get("/")
    data = (EXAMPLES / "fog-dp.toml").read_bytes()
    r = post_form(gm, {"source": "file"}, upload=("fog-dp.toml", data))
    assert r.status_code == 200, r.text
    [game] = game_rows(database)
    assert game.variant == "fog-dp"  # these modules on this board are a preset
    assert game.name == "Fog of war with DP neutrals"  # the file's title
    assert first_phase(database, game.id)["variant"] == "fog-dp"


def test_a_bad_uploaded_file_is_refused_on_the_form_naming_the_field(app, database) -> None:
    gm = Browser(app)
    gm.get("/")
    cases = [
        (b'board = "standard"\nmodules = ["fog"\n', "the variant file is not TOML"),
        (b'board = "standard"\nmodules = ["fog"]\nspies = 2\n',
         "unknown fields in a variant file: spies"),
        (b'board = "standard"\nmodules = "fog"\n', '"modules" must be a list'),
        (b'board = "standard-dp"\nmodules = ["neutrals"]\n[options]\ndp_cap = 2.5\n',
         "options.dp_cap"),
        (b'board = "boards/mine.toml"\nmodules = ["fog"]\n', "not one of the web judge's maps"),
        (b'board = "superdiplomacy"\nmodules = ["colours", "stacks"]\n',
         "stacks cannot be played with colours"),
        (b"\xff\xfe not text", "not UTF-8"),
        (b"#" * 20_000, "over 16000 bytes"),
    ]
    for data, said in cases:
        refused_on_the_form(post_form(gm, {"source": "file"}, upload=("v.toml", data)), said)
    refused_on_the_form(post_form(gm, {"source": "file"}), "choose a variant file")
    assert game_rows(database) == []


def test_the_api_takes_a_composed_variant_and_plays_it(judge, database) -> None:
    gm = judge.user("gm")
    r = judge.client.post("/api/games", json={"variant": "standard+colours+fog"},
                          headers=gm.headers)
    assert r.status_code == 201, r.text
    judge.game = game = r.json()
    assert game["variant"] == "arpiesse-fog"  # these modules on this board are a preset
    france = judge.join("FRANCE")
    view = judge.client.get(f"/api/games/{game['id']}", headers=france.headers).json()
    assert set(view["position"]["units"]) == {"FRANCE"}  # fog: only its own units
    assert "Red A PAR" in view["position"]["units"]["FRANCE"]
    r = judge.orders(france, ["Red A PAR - BUR", "A MAR - SPA"])
    assert r.status_code == 200 and all(c["ok"] for c in r.json()["checks"]), r.text
    judge.process_now(gm)
    with database.transaction() as session:
        count = session.scalar(select(func.count()).select_from(PhaseRow))
    assert count == 2


def test_the_api_reads_no_file_of_the_servers_disk(judge) -> None:
    gm = judge.user("gm")
    for variant, said in [
        ("examples/variants/fog-dp.toml", "uploaded on the new-game form"),
        ("/etc/x.toml+fog", "is not a variant name"),
        ("standard+stacks+colours", "stacks cannot be played with colours"),
    ]:
        r = judge.client.post("/api/games", json={"variant": variant}, headers=gm.headers)
        assert r.status_code == 400, r.text
        assert said in r.json()["detail"]
        assert unservable_reason(variant) == r.json()["detail"]


# -- in a real browser ------------------------------------------------------------------------


def test_in_chromium_a_refused_pair_then_a_composed_game_and_an_upload(
        live_server, chromium, tmp_path, database) -> None:  # noqa: F811
    from playwright.sync_api import expect

    gm = chromium.new_context().new_page()
    gm.goto(live_server + "/")
    gm.fill("input[name=name]", "Super colours")
    gm.fill("input[name=gm_name]", "Alice")
    gm.check("input[name=source][value=modules]")
    gm.select_option("select[name=board]", "superdiplomacy")
    gm.check("input[name=modules][value=stacks]")
    gm.check("input[name=modules][value=colours]")
    gm.get_by_role("button", name="Create the game").click()
    expect(gm.locator("p.error")).to_contain_text("stacks cannot be played with colours")
    # The choices come back as they were made; untick colours, tick fog, and it is played.
    expect(gm.locator("input[name=modules][value=stacks]")).to_be_checked()
    expect(gm.locator("select[name=board]")).to_have_value("superdiplomacy")
    gm.uncheck("input[name=modules][value=colours]")
    gm.check("input[name=modules][value=fog]")
    gm.fill("input[name=name]", "Super fog")
    gm.get_by_role("button", name="Create the game").click()
    expect(gm.locator("h1")).to_have_text("Super fog")
    expect(gm.locator("main")).to_contain_text("superdiplomacy-fog")

    other = chromium.new_context().new_page()
    other.goto(live_server + "/")
    other.fill("input[name=gm_name]", "Bea")
    other.check("input[name=source][value=file]")
    other.set_input_files("input[name=variant_file]", str(EXAMPLES / "fog-dp.toml"))
    other.get_by_role("button", name="Create the game").click()
    expect(other.locator("h1")).to_have_text("Fog of war with DP neutrals")
    expect(other.locator("main")).to_contain_text("fog-dp")
    # fog with stacks on that board is the superdiplomacy-fog preset
    assert sorted(g.variant for g in game_rows(database)) == ["fog-dp", "superdiplomacy-fog"]
