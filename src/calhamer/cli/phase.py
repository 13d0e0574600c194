"""The commands on one phase: adjudicate, new, validate, rules and variants."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import Any

from calhamer.cli.io import (
    BAD_ORDERS,
    OK,
    VARIANT_HELP,
    UserError,
    dumps,
    full_report,
    in_map_order,
    open_source,
    power_name,
    read_json_source,
    read_phase,
    read_phase_line,
    source_name,
)
from calhamer.errors import CalhamerError
from calhamer.formats import (
    outcome_to_json,
    outcome_to_line,
    position_to_json,
    view_to_json,
)
from calhamer.game import check_orders
from calhamer.phases import adjudicate
from calhamer.position import Position
from calhamer.report import phase_report
from calhamer.rules import EDITIONS, find_rules
from calhamer.variants import find_variant
from calhamer.views import power_view


def cmd_adjudicate(args: argparse.Namespace) -> int:
    if args.rules:
        find_rules(args.rules)  # a bad edition is a user error before any input is read
    if args.jsonl:
        show = args.progress or sys.stderr.isatty()
        return _adjudicate_lines(args.file, args.rules, args.as_power, progress=show)
    doc = read_json_source(args.file)
    try:
        position, orders, rules = read_phase(doc, args.rules)
    except CalhamerError as exc:
        raise UserError(f"{source_name(args.file)}: {exc}") from None
    outcome = adjudicate(position, orders, rules)
    if args.as_power:
        # One power's view: only what the rules let that power know (calhamer.views).
        view = power_view(outcome, args.as_power)
        if args.json:
            print(dumps(view_to_json(view, rules)))
        else:
            sys.stdout.write(phase_report(view))
    elif args.json:
        print(dumps(outcome_to_json(outcome, rules)))
    else:
        sys.stdout.write(full_report(outcome))
    return OK


def _lines(source: str) -> Iterator[str]:
    if source == "-":
        yield from sys.stdin
        return
    with open_source(source) as f:
        yield from f


def _adjudicate_lines(source: str, rules_override: str | None, as_power: str | None = None,
                      *, progress: bool = False) -> int:
    """One phase document per input line, one compact output document per output line (with
    ``as_power``: that power's view). With ``progress``, a progress bar on stderr."""
    failed = False
    total = _count_lines(source) if progress else None
    with Progress(total, enabled=progress) as bar:
        for number, line in enumerate(_lines(source), start=1):
            if not line.strip():
                continue
            try:
                position, orders, rules = read_phase_line(line.rstrip("\r\n"), rules_override)
                outcome = adjudicate(position, orders, rules)
                if as_power:
                    written = dumps(view_to_json(power_view(outcome, as_power), rules),
                                    compact=True)
                else:
                    written = outcome_to_line(outcome, rules)
            except CalhamerError as exc:
                failed = True
                written = dumps({"error": f"line {number}: {exc}"}, compact=True)
            print(written, flush=True)
            bar.update()
    return BAD_ORDERS if failed else OK


def _count_lines(source: str) -> int | None:
    """How many phase documents a file holds (None for standard input, read only once)."""
    if source == "-":
        return None
    with open_source(source) as f:
        return sum(1 for line in f if line.strip())


class Progress:
    """A progress bar on stderr for long jobs: tqdm's when it is installed (the ``progress``
    extra), else a line rewritten in place. Disabled, it writes nothing."""

    def __init__(self, total: int | None, *, enabled: bool, unit: str = "phase") -> None:
        self.total, self.enabled, self.unit, self.done = total, enabled, unit, 0
        self._bar: Any = None
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self._bar = tqdm(total=total, unit=unit, file=sys.stderr, dynamic_ncols=True)

    def __enter__(self) -> Progress:
        return self

    def update(self) -> None:
        self.done += 1
        if self._bar is not None:
            self._bar.update(1)
        elif self.enabled:
            of = f"/{self.total}" if self.total is not None else ""
            sys.stderr.write(f"\r{self.done}{of} {self.unit}s")
            sys.stderr.flush()

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()
        elif self.enabled:
            sys.stderr.write("\n")


def cmd_new(args: argparse.Namespace) -> int:
    variant = find_variant(args.variant)
    rules = find_rules(args.rules or variant.default_rules).name
    start = Position.initial(variant=variant)
    print(dumps(position_to_json(start, rules)))
    return OK


def cmd_validate(args: argparse.Namespace) -> int:
    if args.rules:
        find_rules(args.rules)
    doc = read_json_source(args.file)
    try:
        position, orders, rules = read_phase(doc, args.rules)
    except CalhamerError as exc:
        raise UserError(f"{source_name(args.file)}: {exc}") from None
    if not any(orders.values()):
        print(f"{position.phase.code}: the document has no orders to check")
        return OK
    checks = check_orders(position, orders, rules)
    bad = 0
    print(f"{position.map.phase_name(position.phase)} ({position.phase.code}), rules {rules}")
    for power in in_map_order(position, checks):
        print()
        print(power_name(position, power))
        for check in checks[power]:
            if check.ok:
                print(f"    ok     {check.canonical}")
            else:
                bad += 1
                print(f"    error  {check.text.strip()}: {check.problem}")
    total = sum(len(c) for c in checks.values())
    print()
    print(f"{total - bad} of {total} orders are valid" if bad else f"all {total} orders are valid")
    return BAD_ORDERS if bad else OK


def cmd_rules(args: argparse.Namespace) -> int:
    names = [find_rules(args.edition).name] if args.edition else list(EDITIONS)
    default = find_variant("standard").default_rules
    for i, name in enumerate(names):
        if i:
            print()
        rules = EDITIONS[name]
        print(f"{name} (default)" if name == default else name)
        options = [(k, v) for k, v in rules.describe() if k != "name"]
        width = max(len(k) for k, _ in options)
        for key, value in options:
            print(f"    {key:<{width}}  {value}")
    return OK


def cmd_variants(args: argparse.Namespace) -> int:
    """List every variant by family (those built for calhamer, godip's boards, those of
    plugins), each with its title, board size, default rule edition, source and what it is;
    then the rule modules variants are composed from: each one's options, the boards it can
    be played on and the modules it cannot be played with."""
    print(variant_listing())
    print()
    print(module_listing())
    return OK


def variant_listing() -> str:
    """The variants as 'calhamer variants' lists them, by family."""
    from calhamer.variants.catalogue import FAMILIES, catalogue

    lines: list[str] = []
    family = None
    for e in catalogue():
        if e.family != family:
            family = e.family
            heading, source = FAMILIES.get(family, (family, ""))
            lines += [*([""] if lines else []), f"{heading} ({source})" if source else heading]
        if e.problem is not None:
            lines.append(f"  {e.name:<24}cannot be loaded: {e.problem}")
            continue
        lines.append(f"  {e.name:<24}{e.title}: {e.size} (rules: {e.rules})")
        lines.append(f"  {'':<24}{e.description}")
        if family != "calhamer":
            lines.append(f"  {'':<24}source: {e.source}")
    return "\n".join(lines)


def vocabulary_listing() -> list[str]:
    """The options every variant takes (the rules vocabulary), as 'calhamer variants' lists
    them."""
    from calhamer.vocabulary import OPTIONS

    lines = ["Options every variant takes, the standard rules by default (docs/variants.md): "
             "set them in a variant file's [options] or a spec "
             "(standard+standard?build_sites=owned)."]
    for option in OPTIONS.values():
        default = option.default
        shown = ("none" if default is None or default == () else str(default).lower()
                 if isinstance(default, bool) else str(default))
        lines.append(f"    option {option.name} (default {shown}): {option.meaning}")
    return lines


def module_listing() -> str:
    """The rule modules as 'calhamer variants' lists them."""
    from calhamer.map import available_maps, load_map
    from calhamer.variants.composition import REFUSES_EDITION, find_module, module_names

    boards = [load_map(name) for name in available_maps()]
    lines = vocabulary_listing()
    lines += ["", "Rule modules, combined in this order whatever order they are named in: "
              "write board+module+module (standard-dp+fog+neutrals?dp_cap=2), or a variant "
              "file (.toml: board, modules, [options], rules)."]
    for name in module_names():
        module = find_module(name)
        lines += ["", f"{name:<22}{module.module_title}"]
        for option, meaning in module.options.items():
            default = getattr(module, option)
            shown = "none" if default is None else str(default).lower()
            lines.append(f"    option {option} (default {shown}): {meaning}")
        playable = [b.name for b in boards if module.board_problem(b) is None]
        if not playable and boards:  # say what is missing, and the option that supplies it
            missing = module.board_problem(boards[0])
            lines.append(f"    boards: none as shipped; for instance, {missing}")
        elif len(playable) < len(boards):
            lines.append(f"    boards: {', '.join(playable)} (others lack what it needs)")
        for other, why in module.refuses.items():
            lines.append(f"    not with {other}: {why}")
        for other in module_names():
            theirs = find_module(other).refuses.get(name)
            if theirs is not None and other not in module.refuses:
                lines.append(f"    not with {other}: {theirs}")
        if name in REFUSES_EDITION:
            lines.append(f"    not with a rule edition: {REFUSES_EDITION[name]}")
    return "\n".join(lines)


def add_parsers(sub: Any) -> None:
    """The commands on one phase document: adjudicate, new, validate, rules, variants."""
    editions = ", ".join(EDITIONS)
    p = sub.add_parser("adjudicate", help="adjudicate a phase document",
                       description="Adjudicate a phase document and report each order's result.")
    p.add_argument("file", metavar="FILE", help="the phase document, or - for standard input")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true", help="print the output document as JSON")
    mode.add_argument("--jsonl", action="store_true",
                      help="read one phase document per line, write one output document per line")
    p.add_argument("--rules", metavar="EDITION", help=f"rule edition to use ({editions})")
    p.add_argument("--as", dest="as_power", metavar="POWER",
                   help="print only what POWER may know (its view; see docs/formats.md)")
    p.add_argument("--progress", action="store_true",
                   help="with --jsonl: show a progress bar on stderr (shown anyway when "
                   "stderr is a terminal)")
    p.set_defaults(run=cmd_adjudicate)

    p = sub.add_parser("new", help="print the starting position as a phase document",
                       description="Print a variant's starting position as a phase document "
                       "(JSON), ready for orders and 'calhamer adjudicate'.")
    p.add_argument("--variant", default="standard", help=VARIANT_HELP)
    p.add_argument("--rules", metavar="EDITION", help=f"rule edition ({editions})")
    p.set_defaults(run=cmd_new)

    p = sub.add_parser("validate", help="check the orders of a phase document",
                       description="Check each order of a phase document without "
                       "adjudicating: is it readable, and legal for its unit?")
    p.add_argument("file", metavar="FILE", help="the phase document, or - for standard input")
    p.add_argument("--rules", metavar="EDITION", help=f"rule edition to use ({editions})")
    p.set_defaults(run=cmd_validate)

    p = sub.add_parser("rules", help="list the rule editions and their options",
                       description="List the rule editions (DATC, 1971, 1982, 2000, "
                       "Alexander...) and the option each one sets; name one to see it alone.")
    p.add_argument("edition", nargs="?", metavar="EDITION", help="show only this edition")
    p.set_defaults(run=cmd_rules)

    p = sub.add_parser("variants", help="list the variants, and the rule modules they are "
                       "composed from", description="List every variant calhamer knows (those "
                       "of installed packages too): its name, its title and its default rule "
                       "edition; then the rule modules a variant may be composed from, with "
                       "their options, the boards they need and the pairs that are refused.")
    p.set_defaults(run=cmd_variants)
