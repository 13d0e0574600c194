"""Rule editions: each a frozen set of named policies, chosen per game.

Every policy names the DATC v3.0 issue (chapter 4) it settles, so a gamemaster can read an
edition as a list of answers. ``datc`` is the default. See ``docs/rules/editions.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import Enum

from calhamer.errors import CalhamerError


class ParadoxRule(Enum):
    """DATC 4.A.2: convoy-disruption paradoxes."""

    SZYKMAN = "szykman"  # the convoying fleets in a paradox hold (DATC v3.0 preference)
    RULE_1971 = "1971"  # a convoyed army does not cut a support of a fleet attacking its convoy
    RULE_1982 = "1982"  # ... does not cut a support of any action in a sea holding its convoy
    RULE_2000 = "2000"  # ... does not cut a support of an attack on a fleet it needs (2000/2023)
    ALEXANDER = "alexander"  # IV.5.g: judge each convoy as if its own army had no effect


class ConvoyIntent(Enum):
    """DATC 4.A.3: whether an army ordered to an adjacent province may go by convoy."""

    # Only when the unit at the destination moves the opposite way, and the convoy is not
    # disrupted (else the army goes by land: DATC 4.A.3 and 6.G.4).
    SWAP_1971 = "1971"
    # When a fleet of the army's own power convoys it, or its order says "via convoy": the
    # 2000/2023 rule and the DATC's. The 1982 rule ("intent as shown by the totality of the
    # orders") is read the same way, since an own fleet's convoy order is that intent.
    OWN_FLEET_OR_VIA = "2000"
    EXPLICIT = "explicit"  # only when the order says "via convoy" (DPTG, Alexander)


class DisorderDistance(Enum):
    """DATC 4.D.8: how civil-disorder removals measure distance, and break ties."""

    # To the nearest owned centre, crossing land and sea; ties: fleets first, then by name.
    OWNED_CENTRE_ANY_ROUTE = "2023"
    # To the nearest home centre, armies over land and fleets by sea; ties likewise.
    HOME_CENTRE_BY_TYPE = "1971"
    # As godip and vDiplomacy remove them: to the nearest home centre, owned or not, over any
    # edge whatever the unit's type; ties: fleets first, then by province code.
    HOME_DISTANCE = "home-distance"


@dataclass(frozen=True, slots=True)
class Rules:
    """The options that distinguish one rule edition from another."""

    name: str = "datc"
    # 4.A.1: a convoy with several routes is disrupted only when every route is (False: any).
    convoy_needs_all_routes_cut: bool = True
    paradox: ParadoxRule = ParadoxRule.SZYKMAN
    convoy_intent: ConvoyIntent = ConvoyIntent.OWN_FLEET_OR_VIA
    # Alexander: a "via convoy" army whose convoys all fail goes by land if it can.
    via_convoy_falls_back_to_land: bool = False
    # 4.A.5: a unit dislodged by a convoyed army from next door may retreat to its origin.
    retreat_to_convoying_attacker_origin: bool = True
    # 4.A.7: a unit dislodged without a head-to-head still bounces a third unit in the
    # attacker's origin (choice b).
    dislodged_unit_bounces_without_head_to_head: bool = True
    civil_disorder: DisorderDistance = DisorderDistance.OWNED_CENTRE_ANY_ROUTE
    # Builds are limited to home centres in the standard game.
    builds_in_home_centres_only: bool = True

    def describe(self) -> list[tuple[str, str]]:
        """(option, value) pairs, for reports and ``calhamer rules``."""
        out = []
        for f in fields(self):
            value = getattr(self, f.name)
            out.append((f.name, value.value if isinstance(value, Enum) else str(value)))
        return out

    def with_options(self, **options: object) -> Rules:
        return replace(self, **options)  # type: ignore[arg-type]


DATC = Rules()

EDITIONS: dict[str, Rules] = {
    "datc": DATC,
    "2023": replace(DATC, name="2023", paradox=ParadoxRule.RULE_2000),
    "2000": replace(
        DATC,
        name="2000",
        paradox=ParadoxRule.RULE_2000,
        retreat_to_convoying_attacker_origin=False,
        civil_disorder=DisorderDistance.HOME_CENTRE_BY_TYPE,
    ),
    "1982": replace(
        DATC,
        name="1982",
        paradox=ParadoxRule.RULE_1982,
        retreat_to_convoying_attacker_origin=False,
        civil_disorder=DisorderDistance.HOME_CENTRE_BY_TYPE,
    ),
    "1971": replace(
        DATC,
        name="1971",
        convoy_needs_all_routes_cut=False,
        paradox=ParadoxRule.RULE_1971,
        convoy_intent=ConvoyIntent.SWAP_1971,
        retreat_to_convoying_attacker_origin=False,
        civil_disorder=DisorderDistance.HOME_CENTRE_BY_TYPE,
    ),
    "alexander": replace(
        DATC,
        name="alexander",
        paradox=ParadoxRule.ALEXANDER,
        convoy_intent=ConvoyIntent.EXPLICIT,
        via_convoy_falls_back_to_land=True,
    ),
}


def find_rules(name: str | Rules | None) -> Rules:
    """The edition called ``name`` (case-insensitive); ``None`` gives the default."""
    if isinstance(name, Rules):
        return name
    if name is None:
        return DATC
    rules = EDITIONS.get(str(name).strip().lower())
    if rules is None:
        known = ", ".join(EDITIONS)
        raise CalhamerError(f"there is no rule edition {name!r}; choose one of: {known}")
    return rules
