"""Tests of the ``calhamer`` command line: every subcommand, its output and its exit status."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from calhamer.cli import main
from calhamer.formats import position_to_json
from calhamer.position import Position

ORDERS = {
    "ENGLAND": ["F Lon - NTH", "F Edi - Nwg", "A Lvp - Yor"],
    "FRANCE": ["A Par - Bur", "A Mar S A Par - Bur", "F Bre - MAO"],
    "GERMANY": ["A Mun - Bur", "A Ber - Kie", "F Kie - Den"],
    "ITALY": ["A Ven - Tryolia"],
}


def start_doc(orders: dict[str, list[str]] | None = None) -> dict:
    doc = position_to_json(Position.initial(), "datc")
    if orders is not None:
        doc["orders"] = orders
    return doc


def write(tmp_path: Path, name: str, content: object) -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_user_error(code: int, out: str, err: str, *fragments: str) -> None:
    """Exit 2, nothing on stdout, one line on stderr naming the problem, no traceback."""
    assert code == 2
    assert out == ""
    assert err.startswith("calhamer: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err


# -- new, rules --------------------------------------------------------------------------------


def test_new_prints_the_start_as_a_phase_document(capsys) -> None:
    code, out, _ = run(capsys, "new")
    doc = json.loads(out)
    assert code == 0
    assert (doc["variant"], doc["rules"], doc["phase"]) == ("standard", "datc", "S1901M")
    assert doc["units"]["RUSSIA"] == ["A MOS", "F SEV", "F STP/SC", "A WAR"]
    assert sum(len(u) for u in doc["units"].values()) == 22
    assert json.loads(run(capsys, "new", "--rules", "Alexander")[1])["rules"] == "alexander"


def test_new_refuses_unknown_variant_and_edition(capsys) -> None:
    assert_user_error(*run(capsys, "new", "--variant", "chess"), "there is no variant 'chess'")
    assert_user_error(*run(capsys, "new", "--rules", "1066"), "choose one of: datc, 2023")


def test_rules_lists_every_edition_and_its_options(capsys) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0
    for name in ("datc (default)", "2023", "2000", "1982", "1971", "alexander"):
        assert f"\n{name}\n" in f"\n{out}"
    assert "    paradox" in out and "szykman" in out
    code, out, _ = run(capsys, "rules", "1971")
    assert code == 0 and out.startswith("1971\n") and "alexander" not in out
    assert_user_error(*run(capsys, "rules", "1066"), "there is no rule edition '1066'")


# -- adjudicate ----------------------------------------------------------------------------------


def test_adjudicate_prints_the_text_report(capsys, tmp_path) -> None:
    path = write(tmp_path, "s1901.json", start_doc(ORDERS))
    code, out, err = run(capsys, "adjudicate", path)
    assert (code, err) == (0, "")
    assert out.startswith("Spring 1901 Movement (S1901M)\n")
    assert "Bounced 1v2 with A PAR" in out
    assert 'Invalid: "Tryolia" is not a province (column 9); did you mean Tyrolia (TYR)?' in out
    assert "Next: Fall 1901 Movement (F1901M)" in out


def test_adjudicate_json_output_document(capsys, tmp_path) -> None:
    path = write(tmp_path, "s1901.json", start_doc(ORDERS))
    code, out, _ = run(capsys, "adjudicate", path, "--json")
    doc = json.loads(out)
    assert code == 0
    assert doc["phase"] == "S1901M"
    mun = doc["results"]["GERMANY"][0]
    assert (mun["order"], mun["result"], mun["reason"]) == (
        "A Mun - Bur", "fails", "bounced 1v2 with A PAR")
    assert set(mun) == {"order", "canonical", "result", "reason"}
    assert doc["dislodged"] == []
    assert doc["next"]["phase"] == "F1901M" and doc["next"]["rules"] == "datc"
    assert "A BUR" in doc["next"]["units"]["FRANCE"]
    assert "winner" not in doc


def test_adjudicate_reads_standard_input(capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(start_doc(ORDERS))))
    code, out, _ = run(capsys, "adjudicate", "-", "--json")
    assert code == 0 and json.loads(out)["next"]["phase"] == "F1901M"


def test_adjudicate_rules_option_overrides_the_document(capsys, tmp_path) -> None:
    path = write(tmp_path, "s1901.json", start_doc(ORDERS))
    code, out, _ = run(capsys, "adjudicate", path, "--json", "--rules", "1971")
    assert code == 0 and json.loads(out)["next"]["rules"] == "1971"
    assert_user_error(*run(capsys, "adjudicate", path, "--rules", "1066"),
                      "there is no rule edition '1066'")


def test_adjudicate_jsonl_writes_one_line_per_document(capsys, monkeypatch) -> None:
    bad_province = start_doc({"ENGLAND": ["F Lon - Nth"]})
    bad_province["units"]["ENGLAND"] = ["F Lonodn"]
    lines = [
        json.dumps(start_doc(ORDERS)),
        "{not json",
        "",
        json.dumps(bad_province),
        json.dumps(start_doc({"FRANCE": ["A Par - Pic"]})),
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    code, out, err = run(capsys, "adjudicate", "-", "--jsonl")
    assert code == 1 and err == ""
    out_lines = out.splitlines()
    assert len(out_lines) == 4  # the blank input line gives no output line
    assert all(" " not in line.split('"')[0] for line in out_lines)  # compact
    docs = [json.loads(line) for line in out_lines]
    assert docs[0]["next"]["phase"] == "F1901M"
    assert docs[1] == {"error": docs[1]["error"]}
    assert docs[1]["error"].startswith("line 2: not valid JSON: ")
    assert docs[2]["error"].startswith("line 4: ")
    assert "did you mean London (LON)" in docs[2]["error"]
    assert docs[3]["results"]["FRANCE"][0]["result"] == "succeeds"


def test_adjudicate_jsonl_from_a_file_all_good(capsys, tmp_path) -> None:
    path = write(tmp_path, "many.jsonl", "\n".join(json.dumps(start_doc(ORDERS)) for _ in range(3)))
    code, out, _ = run(capsys, "adjudicate", path, "--jsonl", "--rules", "2000")
    assert code == 0
    assert [json.loads(line)["next"]["rules"] for line in out.splitlines()] == ["2000"] * 3


# -- user errors -----------------------------------------------------------------------------------


def test_bad_json_reports_line_and_column(capsys, tmp_path) -> None:
    path = write(tmp_path, "bad.json", '{\n  "phase": "S1901M",\n  "units": {,}\n}\n')
    assert_user_error(*run(capsys, "adjudicate", path), "bad.json is not valid JSON",
                      "(line 3, column 13)")


def test_unknown_province_gets_a_suggestion(capsys, tmp_path) -> None:
    doc = start_doc()
    doc["units"]["FRANCE"] = ["A Pqris", "F Bre"]
    path = write(tmp_path, "doc.json", doc)
    assert_user_error(*run(capsys, "adjudicate", path), "'Pqris' is not a province",
                      "did you mean Paris (PAR)")


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"rules": "1066"}, "there is no rule edition '1066'"),
        ({"variant": "chess"}, "there is no variant 'chess'"),
        ({"phase": "Spring 1901"}, "is not a phase code"),
        ({"units": {"ATLANTIS": ["A PAR"]}}, "'ATLANTIS' is not a power"),
        ({"units": ["A PAR"]}, '"units" must map each power'),
        ({"dislodged": {"FRANCE": [{"attacker_from": "BUR"}]}}, 'are written {"unit": "F ANK"'),
        ({"colour": "red"}, "unknown keys in the phase document: colour"),
    ],
)
def test_bad_documents_are_user_errors(capsys, tmp_path, change, fragment) -> None:
    doc = {**start_doc(), **change}
    path = write(tmp_path, "doc.json", doc)
    assert_user_error(*run(capsys, "adjudicate", path), "doc.json: ", fragment)
    assert_user_error(*run(capsys, "validate", path), fragment)


def test_a_document_that_is_not_an_object(capsys, tmp_path) -> None:
    path = write(tmp_path, "list.json", "[1, 2]")
    assert_user_error(*run(capsys, "adjudicate", path), "must be a JSON object")


def test_missing_and_unreadable_files(capsys, tmp_path) -> None:
    missing = str(tmp_path / "nope.json")
    assert_user_error(*run(capsys, "adjudicate", missing), "nope.json: no such file")
    assert_user_error(*run(capsys, "adjudicate", missing, "--jsonl"), "no such file")
    assert_user_error(*run(capsys, "validate", missing), "no such file")
    assert_user_error(*run(capsys, "game", "show", missing), "no such file")
    assert_user_error(*run(capsys, "adjudicate", str(tmp_path)), "is a directory")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b'{"phase": "\xff"}')
    assert_user_error(*run(capsys, "adjudicate", str(binary)), "is not UTF-8 text")


def test_usage_errors_are_one_line(capsys) -> None:
    assert_user_error(*run(capsys), "the following arguments are required")
    assert_user_error(*run(capsys, "adjudicate"), "calhamer adjudicate --help")
    assert_user_error(*run(capsys, "frobnicate"), "invalid choice: 'frobnicate'")
    assert_user_error(*run(capsys, "adjudicate", "x", "--json", "--jsonl"), "not allowed with")


def test_help_and_version_exit_zero(capsys) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "adjudicate" in out and "game" in out
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("calhamer ")


# -- validate -------------------------------------------------------------------------------------


def test_validate_marks_each_order(capsys, tmp_path) -> None:
    orders = {"England": ["F Lon - Nth", "A Lvp - Yrk", "F Edi - Lon"], "FRA": ["A Par - Gas"]}
    path = write(tmp_path, "doc.json", start_doc(orders))
    code, out, err = run(capsys, "validate", path)
    assert code == 1 and err == ""
    assert "\nEngland\n    ok     F LON - NTH\n" in out
    assert '    error  A Lvp - Yrk: "Yrk" is not a province (column 9); did you mean ' in out
    assert "    error  F Edi - Lon: London (LON) is not next to Edinburgh (EDI)" in out
    assert "\nFrance\n    ok     A PAR - GAS\n" in out
    assert out.rstrip().endswith("2 of 4 orders are valid")


def test_validate_flags_illegal_orders_and_passes_good_ones(capsys, tmp_path) -> None:
    path = write(tmp_path, "doc.json", start_doc({"FRANCE": ["A Par - Mun", "F Bre - Mar"]}))
    code, out, _ = run(capsys, "validate", path)
    assert code == 1 and out.count("    error  ") == 2
    path = write(tmp_path, "good.json", start_doc({"ITALY": ["A Ven H", "F Nap - Ion"]}))
    code, out, _ = run(capsys, "validate", path)
    assert code == 0 and out.rstrip().endswith("all 2 orders are valid")
    path = write(tmp_path, "none.json", start_doc())
    code, out, _ = run(capsys, "validate", path)
    assert code == 0 and "no orders to check" in out


def test_validate_a_retreat_phase_from_stdin(capsys, monkeypatch) -> None:
    doc = {
        "phase": "F1901R",
        "units": {"FRANCE": ["A BUR", "A PIC"], "GERMANY": ["A BER"]},
        "centers": {},
        "dislodged": {"GERMANY": [{"unit": "A MUN", "attacker_from": "BUR"}]},
        "orders": {"GERMANY": ["A Mun R Bur", "A Mun R Ruh"]},
    }
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(doc)))
    code, out, _ = run(capsys, "validate", "-")
    assert code == 1
    assert "error  A Mun R Bur: cannot retreat to Burgundy (BUR)" in out
    assert "ok     A MUN R RUH" in out


# -- whole games ----------------------------------------------------------------------------------


def orders_file(tmp_path: Path, name: str, *lines: str) -> str:
    return write(tmp_path, name, "\n".join(lines) + "\n")


def test_a_short_game_by_command_line(capsys, tmp_path, monkeypatch) -> None:
    game = str(tmp_path / "game.json")
    code, out, _ = run(capsys, "game", "new", game)
    assert code == 0 and "S1901M" in out and "rules datc" in out

    # Spring 1901: England moves out, France and Germany bounce in Burgundy.
    eng = orders_file(tmp_path, "eng.txt", "F Lon - Nth", "F Edi - Nwg", "", "A Lvp - Yorkk")
    code, out, err = run(capsys, "game", "orders", game, "england", eng)
    assert code == 0
    assert out.splitlines()[:3] == [
        "ok     F LON - NTH",
        "ok     F EDI - NWG",
        'error  line 4: A Lvp - Yorkk: "Yorkk" is not a province (column 9); '
        "did you mean Yorkshire (YOR)?",
    ]
    assert "Stored 3 orders for England in S1901M." in out
    assert err.startswith("calhamer: warning: 1 of 3 orders of England are invalid")
    # A corrected order sheet replaces the first one.
    eng = orders_file(tmp_path, "eng.txt", "F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor")
    assert run(capsys, "game", "orders", game, "ENG", eng)[0] == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("A Par - Bur\nA Mar - Spa\n"))
    assert run(capsys, "game", "orders", game, "France", "-")[0] == 0
    ger = orders_file(tmp_path, "ger.txt", "A Mun - Bur", "F Kie - Hol")
    assert run(capsys, "game", "orders", game, "GERMANY", ger)[0] == 0

    code, out, _ = run(capsys, "game", "show", game)
    assert code == 0 and "Orders received: England (3), France (2), Germany (2)" in out

    code, out, _ = run(capsys, "game", "process", game)
    assert code == 0
    assert out.startswith("Spring 1901 Movement (S1901M)")
    assert "Bounced 1v1 with A MUN" in out and "Next: Fall 1901 Movement (F1901M)" in out

    # Fall 1901: England convoys into Norway; Germany takes Holland; then the winter builds.
    eng = orders_file(tmp_path, "eng2.txt", "F NTH C A YOR - NWY", "A YOR - NWY")
    assert run(capsys, "game", "orders", game, "ENGLAND", eng)[0] == 0
    code, out, _ = run(capsys, "game", "process", game)
    assert code == 0 and "Next: Winter 1901 Adjustments (W1901A)" in out

    code, out, _ = run(capsys, "game", "show", game)
    assert out.startswith(f"Game {game}: Standard Diplomacy, rules datc\n"
                          "Winter 1901 Adjustments (W1901A)\n")
    assert "England: A NWY, F NTH, F NWG" in out
    assert "England       4 centres   3 units" in out
    assert "Germany       4 centres   3 units" in out
    assert "Last phase\n\nFall 1901 Movement (F1901M)" in out

    build = orders_file(tmp_path, "build.txt", "Build F Lon", "Build A Edi")
    code, out, _ = run(capsys, "game", "orders", game, "ENGLAND", build)
    assert code == 0 and "ok     BUILD F LON" in out  # the second build is legal by itself
    code, out, _ = run(capsys, "game", "process", game)
    assert code == 0 and "Next: Spring 1902 Movement (S1902M)" in out

    code, out, _ = run(capsys, "game", "export", game, "--phase", "s1901m")
    doc = json.loads(out)
    assert doc["phase"] == "S1901M" and doc["orders"]["FRANCE"] == ["A Par - Bur", "A Mar - Spa"]
    out_path = tmp_path / "w1901.json"
    code, out, _ = run(capsys, "game", "export", game, "--phase", "W1901A", "-o", str(out_path))
    assert (code, out) == (0, "")
    exported = json.loads(out_path.read_text())
    assert exported["orders"] == {"ENGLAND": ["Build F Lon", "Build A Edi"]}
    # The exported phase adjudicates to the same next phase.
    code, out, _ = run(capsys, "adjudicate", str(out_path), "--json")
    assert json.loads(out)["next"]["phase"] == "S1902M"
    code, out, _ = run(capsys, "game", "export", game)
    assert json.loads(out)["phase"] == "S1902M" and json.loads(out)["orders"] == {}

    saved = json.loads(Path(game).read_text())
    assert [p["phase"] for p in saved["phases"]] == ["S1901M", "F1901M", "W1901A", "S1902M"]


def test_game_keeps_bad_lines_verbatim_in_the_file(capsys, tmp_path) -> None:
    game = str(tmp_path / "game.json")
    run(capsys, "game", "new", game)
    lines = ("A Vie - Tyrolea", "  F Tri -> Adriatic  ", "Russia: A War - Gal", "# hold Budapest")
    run(capsys, "game", "orders", game, "AUSTRIA", orders_file(tmp_path, "a.txt", *lines))
    stored = json.loads(Path(game).read_text())["phases"][0]["orders"]["AUSTRIA"]
    assert stored == list(lines)
    code, out, _ = run(capsys, "game", "process", game)
    assert code == 0 and "A Vie - Tyrolea" in out and "F TRI - ADR" in out
    results = json.loads(Path(game).read_text())["phases"][0]["results"]["AUSTRIA"]
    assert [r["order"] for r in results[:3]] == list(lines[:3])
    assert [r["result"] for r in results[:3]] == ["invalid", "succeeds", "invalid"]


def test_game_new_refuses_to_overwrite_without_force(capsys, tmp_path) -> None:
    game = tmp_path / "game.json"
    game.write_text("precious")
    assert_user_error(*run(capsys, "game", "new", str(game)), "already exists; use --force")
    assert game.read_text() == "precious"
    code, _, _ = run(capsys, "game", "new", str(game), "--force", "--rules", "2023")
    assert code == 0 and json.loads(game.read_text())["rules"] == "2023"


def test_game_errors(capsys, tmp_path) -> None:
    game = str(tmp_path / "game.json")
    run(capsys, "game", "new", game)
    before = Path(game).read_text()
    orders = orders_file(tmp_path, "o.txt", "A Par H")
    assert_user_error(*run(capsys, "game", "orders", game, "Atlantis", orders),
                      "'Atlantis' is not a power of this game; the powers are AUSTRIA")
    assert_user_error(*run(capsys, "game", "orders", game, "FRANCE", str(tmp_path / "no.txt")),
                      "no.txt: no such file")
    assert_user_error(*run(capsys, "game", "export", game, "--phase", "F1905M"),
                      "phase F1905M is not in this game; its phases are S1901M")
    assert_user_error(*run(capsys, "game", "export", game, "--phase", "autumn"),
                      "is not a phase code")
    assert Path(game).read_text() == before
    assert_user_error(*run(capsys, "game", "new", str(tmp_path / "x.json"), "--variant", "chess"),
                      "there is no variant 'chess'")
    not_game = write(tmp_path, "phase.json", start_doc())
    assert_user_error(*run(capsys, "game", "show", not_game), "not a calhamer game file")
    broken = write(tmp_path, "broken.json", '{"format": "calhamer-game/1",\n "phases": [}')
    assert_user_error(*run(capsys, "game", "process", broken), "(line 2, column 13)")
    assert_user_error(*run(capsys, "game", "new", str(tmp_path / "no" / "dir.json")),
                      "cannot write")


def test_game_process_refuses_a_finished_game(capsys, tmp_path) -> None:
    game = tmp_path / "game.json"
    run(capsys, "game", "new", str(game))
    doc = json.loads(game.read_text())
    position = doc["phases"][0]["position"]
    centres = [c for codes in position["centers"].values() for c in codes]
    position["centers"] = {"FRANCE": centres[:18], "GERMANY": centres[18:]}
    game.write_text(json.dumps(doc))
    code, out, _ = run(capsys, "game", "show", str(game))
    assert code == 0 and "France has won with 18 centres." in out
    assert_user_error(*run(capsys, "game", "process", str(game)),
                      "the game is over: France has won")


# -- the installed console script ------------------------------------------------------------------


def _script() -> str:
    found = shutil.which("calhamer") or str(Path(sys.executable).parent / "calhamer")
    if not Path(found).exists():
        pytest.skip("the calhamer console script is not installed")
    return found


def test_installed_console_script(tmp_path) -> None:
    script = _script()
    new = subprocess.run([script, "new"], capture_output=True, text=True, check=True)
    doc = json.loads(new.stdout)
    doc["orders"] = {"FRANCE": ["A Par - Bur"], "GERMANY": ["A Mun - Bur"]}
    done = subprocess.run([script, "adjudicate", "-", "--json"], input=json.dumps(doc),
                          capture_output=True, text=True)
    assert done.returncode == 0
    assert json.loads(done.stdout)["results"]["FRANCE"][0]["reason"] == "bounced 1v1 with A MUN"
    failed = subprocess.run([script, "adjudicate", str(tmp_path / "missing.json")],
                            capture_output=True, text=True)
    assert failed.returncode == 2 and failed.stdout == ""
    assert failed.stderr == f"calhamer: {tmp_path / 'missing.json'}: no such file\n"


def test_python_dash_m_calhamer_runs_the_command_line() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "calhamer", "variants"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "standard" in done.stdout and "kriegsplomacy" in done.stdout
