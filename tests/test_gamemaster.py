"""A game run by e-mail: orders read out of whole messages, every power's report at once, the
reports mailed through SMTP, and what is due in each phase (issue 17)."""

from __future__ import annotations

import json
import socket
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from calhamer.cli import main
from calhamer.due import adjustments_due, invalid_consequence, missing_orders
from calhamer.game import Game
from calhamer.messages import NOT_AN_ORDER, QUOTED, SIGNATURE, read_message
from test_kriegsplomacy import BUILDS_1900, SPRING_1901

KP = "kriegsplomacy"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def new_game(capsys, tmp_path: Path, variant: str = "standard") -> str:
    path = str(tmp_path / "game.json")
    assert run(capsys, "game", "new", path, "--variant", variant)[0] == 0
    return path


def give(capsys, tmp_path: Path, game: str, power: str, text: str) -> tuple[int, str, str]:
    source = tmp_path / f"{power}.txt"
    source.write_text(text)
    return run(capsys, "game", "orders", game, power, str(source))


GERMAN_MAIL = """Hi GM, my orders for Spring 1901:

A Munich -> Ruhr
F Kie - Den.
- A Ber - Kie
Thanks

Cheers,
Bob
--
Bob Smith, Berlin
"""


# -- 1. orders read out of a whole message -------------------------------------------------------


def test_a_message_is_sorted_into_orders_and_lines_set_aside() -> None:
    position = Game.new().current
    read = read_message(position, GERMAN_MAIL + "> On Monday you wrote\n> A Par - Bur\n",
                        "GERMANY")
    assert read.order_texts() == ["A Munich -> Ruhr", "F Kie - Den.", "A Ber - Kie"]
    assert [(line.number, line.set_aside) for line in read.ignored] == [
        (1, NOT_AN_ORDER), (6, NOT_AN_ORDER), (8, NOT_AN_ORDER), (9, NOT_AN_ORDER),
        (10, SIGNATURE), (11, SIGNATURE), (12, SIGNATURE), (13, SIGNATURE)]


def test_quoted_replies_and_prose_are_set_aside_but_orders_that_fail_are_kept() -> None:
    position = Game.new().current
    text = ("Dear GM,\nA Munchen -> Ruhr\nA quick note: I trust Austria.\nParis holds\n"
            "Army Pqris - Bur\nOn Mon, 3 Mar 2025, GM <gm@example.org> wrote:\nA Par - Pic\n")
    read = read_message(position, text, "FRANCE")
    assert read.order_texts() == ["A Munchen -> Ruhr", "Paris holds", "Army Pqris - Bur"]
    assert [(line.text, line.set_aside) for line in read.ignored] == [
        ("Dear GM,", NOT_AN_ORDER), ("A quick note: I trust Austria.", NOT_AN_ORDER),
        ("On Mon, 3 Mar 2025, GM <gm@example.org> wrote:", QUOTED), ("A Par - Pic", QUOTED)]


def test_a_whole_email_is_read_from_its_plain_text_body() -> None:
    position = Game.new().current
    text = ("From: Anne <anne@example.org>\nTo: gm@example.org\nSubject: F orders\n"
            "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: "
            "quoted-printable\n\nBonjour,\nA Par - Bur\nA Mar - Spa\n--=20\nAnne\n")
    read = read_message(position, text, "FRANCE")
    assert read.headers["Subject"] == "F orders"
    assert read.order_texts() == ["A Par - Bur", "A Mar - Spa"]
    assert [line.text for line in read.ignored] == ["Bonjour,", "-- ", "Anne"]


def test_a_coloured_arpiesse_order_that_fails_is_kept_as_an_order() -> None:
    position = Game.new("arpiesse").current
    read = read_message(position, "Hello\nRed A Zzz H\n", "FRANCE")
    assert read.order_texts() == ["Red A Zzz H"]
    assert [line.text for line in read.ignored] == ["Hello"]


def test_game_orders_reads_a_message_and_lists_what_it_set_aside(capsys, tmp_path) -> None:
    game = new_game(capsys, tmp_path)
    code, out, err = give(capsys, tmp_path, game, "germany",
                          GERMAN_MAIL.replace("A Munich", "A Munchen"))
    assert code == 0
    assert out.splitlines()[:6] == [
        "ignored line 1: Hi GM, my orders for Spring 1901: (not an order)",
        'error  line 3: A Munchen -> Ruhr: "Munchen" is not a province (column 3); '
        "did you mean Munich (MUN)?",
        "ok     F KIE - DEN",
        "ok     A BER - KIE",
        "ignored line 6: Thanks (not an order)",
        "ignored line 8: Cheers, (not an order)",
    ]
    assert "ignored line 10: -- (signature)" in out
    assert "Stored 3 orders for Germany in S1901M." in out
    assert "Set aside 6 lines that are not orders (not stored)." in out
    assert "(the unit holds)" in err
    stored = Game.load(game).orders["GERMANY"]
    assert stored == ["A Munchen -> Ruhr", "F Kie - Den.", "A Ber - Kie"]


def test_game_orders_every_line_stores_the_text_as_given(capsys, tmp_path) -> None:
    game = new_game(capsys, tmp_path)
    code, out, _ = run(capsys, "game", "orders", game, "germany", "--every-line",
                       str(_file(tmp_path, "g.txt", "Hi GM\nA Mun - Ruh\n")))
    assert code == 0 and "error  line 1: Hi GM" in out and "ignored" not in out
    assert Game.load(game).orders["GERMANY"] == ["Hi GM", "A Mun - Ruh"]


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# -- 2. every power's report, game show --json, show --phase for the gamemaster --------------------


def _kriegsplomacy_year(capsys, tmp_path: Path) -> str:
    """A Kriegsplomacy game played through Winter 1900 and Spring 1901 by the command line."""
    game = new_game(capsys, tmp_path, KP)
    for orders in (BUILDS_1900, SPRING_1901):
        for power, lines in orders.items():
            assert give(capsys, tmp_path, game, power, "\n".join(lines) + "\n")[0] == 0
        assert run(capsys, "game", "process", game)[0] == 0
    assert run(capsys, "game", "process", game)[0] == 0  # S1901R, nothing to retreat
    return game


def test_game_reports_writes_each_powers_own_report_and_picture(capsys, tmp_path) -> None:
    game = _kriegsplomacy_year(capsys, tmp_path)
    folder = tmp_path / "out"
    code, out, _ = run(capsys, "game", "reports", game, "-o", str(folder), "--phase", "S1901M")
    assert code == 0 and "Wrote 8 reports (7 powers and the gamemaster's)" in out
    names = sorted(p.name for p in folder.iterdir())
    assert "S1901M-france.txt" in names and "S1901M-france.svg" in names
    assert "S1901M-gamemaster.txt" in names and len(names) == 16
    france = (folder / "S1901M-france.txt").read_text()
    _, shown, _ = run(capsys, "game", "show", game, "--as", "france", "--phase", "S1901M")
    assert france == shown  # the same text as the one-power command
    assert "as France sees it" in france
    # Fog of war: France's report names none of Turkey's orders, its picture no Turkish unit.
    assert "F ANK" not in france and "Turkey\n" not in france
    assert (folder / "S1901M-france.svg").read_text().startswith("<svg")
    assert "F ANK" in (folder / "S1901M-gamemaster.txt").read_text()


def test_game_reports_without_a_phase_give_the_board_now(capsys, tmp_path) -> None:
    game = _kriegsplomacy_year(capsys, tmp_path)
    folder = tmp_path / "now"
    assert run(capsys, "game", "reports", game, "-o", str(folder))[0] == 0
    austria = (folder / "F1901M-austria.txt").read_text()
    assert "Your units (3)" in austria and "Last phase" in austria
    assert "Orders missing" not in austria  # who has ordered is the gamemaster's to know
    assert "Orders missing: Austria, England" in (folder / "F1901M-gamemaster.txt").read_text()


def test_game_show_phase_without_as_is_the_gamemasters_full_report(capsys, tmp_path) -> None:
    game = _kriegsplomacy_year(capsys, tmp_path)
    code, out, _ = run(capsys, "game", "show", game, "--phase", "S1901M")
    assert code == 0
    assert "Spring 1901 Movement (S1901M)" in out and "As the players are told it" in out
    assert "F ANK - BLA" in out and "F LON - ENG" in out


def test_game_show_json_for_the_gamemaster_and_for_one_power(capsys, tmp_path) -> None:
    game = _kriegsplomacy_year(capsys, tmp_path)
    code, out, _ = run(capsys, "game", "show", game, "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["position"]["phase"] == "F1901M" and doc["variant"] == KP
    assert doc["orders_missing"] == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY",
                                     "RUSSIA", "TURKEY"]
    assert doc["last"]["phase"] == "S1901R"
    code, out, _ = run(capsys, "game", "show", game, "--json", "--as", "France")
    mine = json.loads(out)
    assert mine["power"] == "FRANCE"
    assert set(mine["position"]["units"]) == {"FRANCE"}  # only its own units
    assert "orders_missing" not in mine
    code, out, _ = run(capsys, "game", "show", game, "--json", "--phase", "S1901M")
    assert json.loads(out)["outcome"]["phase"] == "S1901M"


# -- 3. mail through SMTP -------------------------------------------------------------------------


class _Inbox:
    """An SMTP handler keeping every message it is given."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], bytes]] = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((list(envelope.rcpt_tos), envelope.content))
        return "250 OK"


@pytest.fixture
def smtp_server():
    from aiosmtpd import controller as controller_module  # the test extra installs it
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    inbox = _Inbox()
    controller = controller_module.Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


ADDRESSES = {p.lower(): f"{p.lower()}@example.org" for p in BUILDS_1900}


def test_game_mail_sends_each_power_only_its_own_report(capsys, tmp_path, smtp_server) -> None:
    inbox, port = smtp_server
    game = _kriegsplomacy_year(capsys, tmp_path)
    addresses = [a for p, email in ADDRESSES.items() if p != "turkey"
                 for a in ("--address", f"{p}={email}")]
    code, out, _ = run(capsys, "game", "settings", game, "--smtp", f"127.0.0.1:{port}",
                       "--from", "gm@example.org", "--gamemaster", "gm@example.org", *addresses)
    assert code == 0 and "No address yet for Turkey." in out
    assert Game.load(game).settings["mail"]["addresses"]["FRANCE"] == "france@example.org"
    code, out, err = run(capsys, "game", "mail", game, "--phase", "S1901M")
    assert code == 1  # Turkey has no address
    assert "sent      France <france@example.org>" in out
    assert "not sent  Turkey: no address in the mail settings" in out
    assert "1 report not sent" in err
    assert len(inbox.messages) == 7  # six powers and the gamemaster
    by_address = {to[0]: message_from_bytes(data, policy=policy.default)
                  for to, data in inbox.messages}
    france = by_address["france@example.org"]
    assert france["Subject"] == "game.json: S1901M, report for France"
    body = france.get_body(preferencelist=("plain",)).get_content()
    assert "as France sees it" in body
    assert "F ANK" not in body  # Turkey's fleet: hidden from France
    pictures = [part for part in france.iter_attachments()]
    assert [p.get_filename() for p in pictures] == ["S1901M-france.svg"]
    assert b"<svg" in pictures[0].get_content()
    gm = by_address["gm@example.org"].get_body(preferencelist=("plain",)).get_content()
    assert "F ANK - BLA" in gm


def test_game_mail_without_settings_or_with_a_dead_server_is_a_clear_error(capsys,
                                                                           tmp_path) -> None:
    game = new_game(capsys, tmp_path)
    code, _, err = run(capsys, "game", "mail", game)
    assert code == 2 and "this game has no mail settings" in err and "Traceback" not in err
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nobody listens there
    assert run(capsys, "game", "settings", game, "--smtp", f"127.0.0.1:{port}", "--from",
               "gm@example.org", "--address", "france=anne@example.org")[0] == 0
    code, _, err = run(capsys, "game", "mail", game)
    assert code == 2 and f"cannot reach the SMTP server 127.0.0.1:{port}" in err
    code, _, err = run(capsys, "game", "settings", game, "--address", "france=not an address")
    assert code == 2 and "is not an e-mail address" in err
    code, _, err = run(capsys, "game", "settings", game, "--address", "narnia=a@b.org")
    assert code == 2 and "'narnia' is not a power of this game" in err


def test_game_mail_dry_run_sends_nothing(capsys, tmp_path, smtp_server) -> None:
    inbox, port = smtp_server
    game = new_game(capsys, tmp_path)
    run(capsys, "game", "settings", game, "--smtp", f"127.0.0.1:{port}", "--from",
        "gm@example.org", "--address", "france=anne@example.org")
    code, out, _ = run(capsys, "game", "mail", game, "--dry-run", "--only", "france")
    assert code == 0 and out.startswith("would send  France <anne@example.org>")
    assert inbox.messages == []


# -- 4. what is due --------------------------------------------------------------------------------


def _standard_winter() -> Game:
    game = Game.new()
    for orders in ({"FRANCE": ["A Par - Bur", "A Mar - Spa", "F Bre - Mao"],
                    "ITALY": ["A Ven - Tyr"]},
                   {"FRANCE": ["A Bur - Bel", "A Spa H", "F Mao - Por"],
                    "ITALY": ["A Tyr - Mun"], "GERMANY": ["A Mun - Ruh"]}):
        for power, lines in orders.items():
            game.set_orders(power, lines)
        game.process()
    return game


def test_the_winter_list_of_builds_and_removals_owed() -> None:
    game = _standard_winter()
    assert game.current.phase.code == "W1901A"
    due = {a.power: a.describe(a.power.title()) for a in adjustments_due(game.current)}
    assert due == {
        "FRANCE": "France: 3 builds (may build in Brest, Marseilles, Paris)",
        "GERMANY": "Germany: 1 removal",
        "ITALY": "Italy: 1 build (may build in Venice)",
    }
    assert adjustments_due(Game.new().current) == []  # nothing is owed outside winter


def test_game_show_lists_builds_removals_and_missing_orders(capsys, tmp_path) -> None:
    path = str(tmp_path / "game.json")
    _standard_winter().save(path)
    code, out, _ = run(capsys, "game", "show", path)
    assert code == 0
    assert "Builds and removals due:\n    France: 3 builds (may build in Brest, Marseilles, " \
        "Paris)\n" in out
    assert "    Germany: 1 removal\n" in out and "Orders missing: France, Germany, Italy" in out
    code, out, _ = run(capsys, "game", "show", path, "--as", "france")
    assert "Due from you:\n    You: 3 builds (may build in Brest, Marseilles, Paris)" in out
    assert "Germany: 1 removal" not in out and "Orders missing" not in out


def test_missing_orders_names_the_powers_that_owe_orders_and_sent_none() -> None:
    game = Game.new()
    game.set_orders("france", ["A Par H"])
    assert missing_orders(game.current, game.orders) == [
        "AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def test_warnings_say_what_happens_to_a_bad_order_in_each_kind_of_phase(capsys,
                                                                         tmp_path) -> None:
    game = Game.new()
    for orders in ({"FRANCE": ["A Par - Bur"], "ITALY": ["A Ven - Tyr"]},
                   {"FRANCE": ["A Bur - Mun"], "ITALY": ["A Tyr S A Bur - Mun"]}):
        # Spring: France takes Burgundy; Fall: Germany's army in Munich is dislodged.
        for power, lines in orders.items():
            game.set_orders(power, lines)
        game.process()
    path = str(tmp_path / "game.json")
    game.save(path)
    assert game.current.phase.is_retreat
    assert invalid_consequence(game.current) == "the unit is disbanded"
    from calhamer.due import without_orders

    assert without_orders(game.current, "GERMANY") == "your dislodged units are disbanded"
    code, _, err = give(capsys, tmp_path, path, "germany", "A Mun R Pqris\n")
    assert code == 0
    assert "will be judged invalid (the unit is disbanded)" in err and "holds" not in err
    winter = _standard_winter()
    assert invalid_consequence(winter.current, "FRANCE") == "no unit is built for it"
    assert invalid_consequence(Game.new().current) == "the unit holds"


def test_over_building_is_caught_when_the_orders_are_given(capsys, tmp_path) -> None:
    path = str(tmp_path / "game.json")
    _standard_winter().save(path)
    code, out, err = give(capsys, tmp_path, path, "france",
                          "Build A Par\nBuild A Mar\nBuild F Bre\nBuild A Par\n")
    assert code == 0
    assert "error  line 4: Build A Par: " in out  # the same shape as every other error
    assert "(no unit is built for it)" in err


# -- 5. smaller items -----------------------------------------------------------------------------


def test_game_bids_echoes_a_line_per_bid(capsys, tmp_path) -> None:
    game = new_game(capsys, tmp_path, "dp")
    code, out, _ = run(capsys, "game", "bids", game, "france",
                       str(_file(tmp_path, "b.txt", "1 DP: A Bel H\n\n9 DP: A Zzz H\n")))
    assert code == 0
    lines = out.splitlines()
    assert lines[:2] == ["ok     1 DP: A Bel H",
                         'error  line 3: 9 DP: A Zzz H: "Zzz" is not a province (column 3)']
    assert any(line.startswith("error  line 3: 9 DP: A Zzz H") for line in lines)


def test_verify_speaks_of_dice_only_in_a_game_that_throws_them(capsys, tmp_path) -> None:
    game = new_game(capsys, tmp_path)
    run(capsys, "game", "process", game)
    code, out, _ = run(capsys, "verify", game)
    assert code == 0 and "All 1 processed phases come out exactly as recorded." in out
    assert "seed" not in out
    dice = str(tmp_path / "sd.json")
    assert run(capsys, "game", "new", dice, "--variant", "superdiplomacy")[0] == 0
    run(capsys, "game", "process", dice)
    code, out, _ = run(capsys, "verify", dice)
    assert code == 0 and "(every dice seed matches its commitment)" in out


def test_render_refuses_a_jpg_rather_than_writing_svg_into_it(capsys, tmp_path) -> None:
    game = new_game(capsys, tmp_path)
    target = tmp_path / "map.jpg"
    code, out, err = run(capsys, "render", game, "-o", str(target))
    assert code == 2 and out == "" and not target.exists()
    assert "calhamer draws SVG and PNG pictures, not JPG" in err
    assert f"-o {tmp_path / 'map'}.png" in err
    # Asked for in so many words, SVG may go under any name.
    assert run(capsys, "render", game, "-o", str(target), "--format", "svg")[0] == 0
    assert target.read_text().startswith("<svg")


def test_the_dp_report_lists_players_orders_as_given_and_missing_ones_as_holds() -> None:
    from calhamer.report import phase_report

    game = Game.new("standard-dp")
    game.set_orders("FRANCE", ["A Par - Pic", "f bre - mao", "A Mar - Pqris"])
    game.set_bids("FRANCE", ["3 DP: A Bel - Pic"])
    report = phase_report(game.process())
    france = report.split("France\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert [line.strip()[:14].strip()
            for line in france] == ["A Par - Pic", "F Bre - Mao", "A Mar - Pqris", "A Mar H"]
    assert france[3].endswith("Holds (no valid order given)")
    assert france[2].split(None, 4)[-1].startswith('Invalid: "Pqris" is not a province')
    assert "    A Lvp H                 Holds (no valid order given)" in report
    # A neutral unit no one bought an order for holds by the rules, as the ruleset writes it.
    assert "    A Hol H                 Succeeds" in report


def test_superdiplomacy_pictures_exist_as_its_rules_document_says(capsys, tmp_path) -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "rules" / "superdiplomacy.md")
    text = doc.read_text(encoding="utf-8")
    assert "No map picture" not in text and "## 12. Pictures" in text
    game = new_game(capsys, tmp_path, "superdiplomacy")
    target = tmp_path / "sd.svg"
    assert run(capsys, "render", game, "-o", str(target))[0] == 0
    svg = target.read_text()
    assert 'id="prov-ICE"' in svg and 'id="prov-SWI"' in svg  # the new sectors are drawn
    assert "2 units" in svg  # a starting stack of two, with its count


def _jsonl(tmp_path: Path, count: int) -> str:
    from calhamer.formats import position_to_json
    from calhamer.position import Position

    line = json.dumps({**position_to_json(Position.initial(), "datc"),
                       "orders": {"FRANCE": ["A Par - Bur"]}})
    return str(_file(tmp_path, "phases.jsonl", (line + "\n") * count))


def test_adjudicate_jsonl_shows_progress_on_stderr_only_when_asked(capsys, tmp_path) -> None:
    source = _jsonl(tmp_path, 3)
    code, out, err = run(capsys, "adjudicate", "--jsonl", source)
    assert code == 0 and len(out.splitlines()) == 3 and err == ""  # not a terminal: silent
    code, out, err = run(capsys, "adjudicate", "--jsonl", "--progress", source)
    assert code == 0 and len(out.splitlines()) == 3  # stdout holds the documents only
    assert "3/3" in err


def test_progress_without_tqdm_is_a_line_of_its_own(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "tqdm", None)  # as if not installed
    code, _, err = run(capsys, "adjudicate", "--jsonl", "--progress", _jsonl(tmp_path, 2))
    assert code == 0 and err.endswith("\r2/2 phases\n")


def test_every_subcommand_has_a_description_and_a_line_in_help(capsys) -> None:
    import argparse

    from calhamer.cli import build_parser

    def walk(parser: argparse.ArgumentParser, path: str) -> list[tuple[str, str, str]]:
        found = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                helps = {c.dest: c.help for c in action._choices_actions}
                for name, sub in action.choices.items():
                    found.append((f"{path} {name}", sub.description or "", helps.get(name) or ""))
                    found += walk(sub, f"{path} {name}")
        return found

    commands = walk(build_parser(), "calhamer")
    assert {"calhamer game mail", "calhamer game reports", "calhamer game settings"} <= {
        c for c, _, _ in commands}
    assert [c for c, description, _ in commands if not description] == []
    assert [c for c, _, line in commands if not line] == []


def test_a_kriegsplomacy_power_is_told_only_its_own_winter_dues(capsys, tmp_path) -> None:
    game = new_game(capsys, tmp_path, KP)  # Winter 1900: every power builds its units
    code, out, _ = run(capsys, "game", "show", game, "--as", "france")
    assert code == 0
    assert "Due from you:\n    You: 3 builds (may build in Brest, Marseilles, Paris)\n" in out
    assert "Austria: 3 builds" not in out and "Orders missing" not in out
    code, out, _ = run(capsys, "game", "show", game)
    assert "    Austria: 3 builds (may build in Budapest, Trieste, Vienna)" in out
    assert "    Russia: 4 builds" in out
    # A bad build is flagged as any error, and the warning says what really happens.
    code, out, err = give(capsys, tmp_path, game, "france",
                          "Dear GM,\nBuild F Bre\nBuild F Mar\nBuild A Par\nBuild A Pqris\n")
    assert "ignored line 1: Dear GM, (not an order)" in out
    assert "error  line 5: Build A Pqris:" in out
    assert "(no unit is built for it)" in err


# -- docs/gamemaster.md, played as written ---------------------------------------------------

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "gamemaster.md"


def _guide_steps() -> list[tuple[str, str, list[str]]]:
    """The guide's files (``<!-- file: NAME -->`` before a block) and its commands (``$``
    lines of ``console`` blocks, each with the output lines shown after it), in order."""
    lines = GUIDE.read_text(encoding="utf-8").splitlines()
    steps: list[tuple[str, str, list[str]]] = []
    pending: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("<!-- file: "):
            pending = line.removeprefix("<!-- file: ").removesuffix(" -->").strip()
        elif line.startswith("```"):
            kind = line[3:].strip()
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            body = lines[i + 1:end]
            if pending is not None:
                steps.append(("file", pending, body))
                pending = None
            elif kind == "console":
                for text in body:
                    if text.startswith("$ "):
                        steps.append(("run", text[2:], []))
                    else:
                        steps[-1][2].append(text)
            i = end
        i += 1
    return steps


def test_the_gamemasters_guide_plays_as_written(capsys, tmp_path, monkeypatch) -> None:
    import shlex

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CALHAMER_SMTP_PASSWORD", raising=False)
    steps = _guide_steps()
    assert sum(kind == "run" for kind, _, _ in steps) > 40
    for kind, what, shown in steps:
        if kind == "file":
            (tmp_path / what).write_text("\n".join(shown) + "\n", encoding="utf-8")
            continue
        argv = shlex.split(what)
        assert argv[0] == "calhamer"
        code, out, err = run(capsys, *argv[1:])
        assert code == 0, f"{what}\n{out}{err}"
        printed = [line.rstrip() for line in (out + err).splitlines()]
        at = 0
        for expected in (e.rstrip() for e in shown):
            if expected in ("", "..."):
                continue
            while at < len(printed) and printed[at] != expected:
                at += 1
            assert at < len(printed), f"{what}: {expected!r} is not printed (in order)\n{out}{err}"
            at += 1


def test_what_happens_without_orders_fits_the_phase() -> None:
    from calhamer.due import without_orders

    assert without_orders(Game.new().current, "FRANCE") == "your units hold"
    winter = _standard_winter()
    assert without_orders(winter.current, "FRANCE") == "no unit is built for you"
    assert without_orders(winter.current, "GERMANY") == (
        "the units you must remove are chosen by the civil-disorder rule")
    assert without_orders(winter.current, "RUSSIA") == "you have nothing to build or remove"
    kp = Game.new(KP)  # Winter 1900: each power builds, from what it knows
    assert without_orders(kp.current, "FRANCE") == "no unit is built for you"


def test_an_order_with_a_wrong_colour_claim_is_flagged_not_set_aside() -> None:
    position = Game.new("arpiesse").current
    read = read_message(position, "Hi\nPurple A Mar H\nthanks\n", "FRANCE")
    assert read.order_texts() == ["Purple A Mar H"]
    assert [line.text for line in read.ignored] == ["Hi", "thanks"]
