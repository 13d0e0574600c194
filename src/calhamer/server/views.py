"""Who is looking: the only road from a game's truth to a person.

:func:`viewer_for` answers ``None`` for a game that does not exist and for one the user has
no part in alike, and the routes turn both into the same 404. Every player-facing answer is
built from a :class:`Viewer`; what a viewer may read is decided in ``services/`` by
``orders.visible_orders``, ``press.messages_for``, ``results.phase_result``,
``results.phase_document``, ``results.known_to`` and the functions of ``bids``, all of which
take one. For the standard game a player sees the whole
board, their own orders before adjudication and everyone's after; the gamemaster sees
everything.

Two questions are kept apart. :attr:`Viewer.is_gm` says who may use the gamemaster's
controls (pause, resume, extend, process, end, replace). :attr:`Viewer.sees_all` says who may
read everything the judge knows: the gamemaster, unless they have taken a seat themselves
(hosts often play); a seated gamemaster is told exactly what a player of their power is told
until the game is over. Every decision about what to show asks ``sees_all``, never ``is_gm``.

Having held a seat is for good (:attr:`Viewer.played`, the game log's ``gm-joined`` and
``gm-left`` entries):
a gamemaster who frees their own seat, or is between two seats, is told what every player
of the game is told and no power's own part, until the game is over; otherwise freeing the
seat for a moment would open every secret and taking it back would keep what was read.

Where the variant hides information (Kriegsplomacy, :func:`sees_everything` is False for its
players) a player is only ever shown the library's view for their power
(:func:`calhamer.views.known_position` before adjudication, :func:`calhamer.game.game_view`
after), never the truth: their own orders only, before and after adjudication.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import and_, bindparam, exists, select
from sqlalchemy.orm import Session, lazyload

from calhamer.server.models import Event, GameRow, Seat, User
from calhamer.variants import find_variant

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")  # what services.games.create_game makes

# The game-log entries of the gamemaster taking a seat (services.seats.join) and freeing
# their own (replace_player): after either, the gamemaster no longer sees all until the game
# is over. (A seat taken before the first was logged is known by the second.)
GM_SEATED, GM_LEFT = "gm-joined", "gm-left"


@dataclass(frozen=True)
class Viewer:
    user: User
    game: GameRow
    is_gm: bool
    power: str | None  # the power the user plays in this game, if any
    played: bool = False  # the gamemaster has held a seat in this game (now or before)

    @property
    def role(self) -> str:
        return "gm" if self.is_gm else "player"

    @property
    def sees_all(self) -> bool:
        """Whether the viewer may read everything: the gamemaster who plays no power and never
        has in this game, and once the game is over any gamemaster. A gamemaster in a seat
        keeps the controls (``is_gm``) but is otherwise shown what that power's player is
        shown; one who has held a seat and holds none, what every player is shown."""
        if not self.is_gm:
            return False
        return self.game.status == "finished" or (self.power is None and not self.played)


# Whether the game's gamemaster has taken a seat in it: a column of the queries below.
_PLAYED = (exists().where(Event.game_id == GameRow.id, Event.kind.in_((GM_SEATED, GM_LEFT)))
           .correlate(GameRow).label("played"))

# One query, built once: the game and the user's seat in it (the other seats are read when
# used). Every request for a game asks it, so it is not rebuilt and re-keyed each time.
_VIEWER = (
    select(GameRow, Seat.power, _PLAYED)
    .outerjoin(Seat, and_(Seat.game_id == GameRow.id, Seat.user_id == bindparam("user_id")))
    .where(GameRow.id == bindparam("game_id"))
    .options(lazyload(GameRow.seats))
    .order_by(Seat.id)
    .limit(1)
)


def viewer_for(session: Session, game_id: str, user: User | None) -> Viewer | None:
    """The user's standing in the game, or None when the game is unknown or not theirs."""
    if user is None or not GAME_ID.fullmatch(game_id):
        return None
    row = session.execute(_VIEWER, {"game_id": game_id, "user_id": user.id}).first()
    if row is None:
        return None
    game, power, played = row
    return _viewer(user, game, power, played)


def _viewer(user: User, game: GameRow, power: str | None, played: object) -> Viewer | None:
    """The viewer a user is in a game, from their seat's power (None: none) and whether the
    gamemaster has played: None when they neither run the game nor hold a seat in it."""
    is_gm = game.gm_id == user.id
    if not is_gm and power is None:
        return None
    return Viewer(user, game, is_gm, power, bool(played))


# The user and their standing in the game in one query, for a caller known by id (a live
# page's stream, which settled who is asking when it opened and asks again at every change).
_VIEWER_BY_ID = (
    select(User, GameRow, Seat.power, _PLAYED)
    .select_from(User)
    .join(GameRow, GameRow.id == bindparam("game_id"))
    .outerjoin(Seat, and_(Seat.game_id == GameRow.id, Seat.user_id == User.id))
    .where(User.id == bindparam("user_id"))
    .options(lazyload(GameRow.seats))
    .order_by(Seat.id)
    .limit(1)
)


def viewer_by_id(session: Session, game_id: str, user_id: int) -> Viewer | None:
    """The standing of user ``user_id`` in the game, as :func:`viewer_for` gives it for the
    user's row (None: no such user or game, or not theirs), in one query."""
    if not GAME_ID.fullmatch(game_id):
        return None
    row = session.execute(_VIEWER_BY_ID, {"game_id": game_id, "user_id": user_id}).first()
    if row is None:
        return None
    user, game, power, played = row
    return _viewer(user, game, power, played)


# The token's user, and whether the game exists, who runs it and the user's seat in it, in one
# query (``PendingViewer``): the user is always found when it exists, the rest only when the
# game does. The game's row itself is read by the caller, locked (``games.lock_game``).
_CALLER = (
    select(User, GameRow.id, GameRow.gm_id, Seat.power, _PLAYED)
    .select_from(User)
    .outerjoin(GameRow, GameRow.id == bindparam("game_id"))
    .outerjoin(Seat, and_(Seat.game_id == GameRow.id, Seat.user_id == User.id))
    .where(User.id == bindparam("user_id"))
    .order_by(Seat.id)
    .limit(1)
)


@dataclass(frozen=True)
class Standing:
    """A user's standing in a game, before its row is read: whether they run it, and the power
    they play (None: none)."""

    user: User
    is_gm: bool
    power: str | None
    played: bool = False  # the gamemaster has held a seat in this game (``Viewer.played``)

    def viewer(self, game: GameRow) -> Viewer:
        """The viewer this standing makes, once the game's row is read."""
        return Viewer(self.user, game, self.is_gm, self.power, self.played)


def caller_in_game(session: Session, game_id: str,
                   user_id: int) -> tuple[User | None, Standing | None]:
    """The user ``user_id`` (None when there is none) and their standing in the game (None
    when it is unknown or not theirs), read together: what ``viewer_for`` decides, in one
    query, without the game's row."""
    if not GAME_ID.fullmatch(game_id):
        return session.get(User, user_id), None
    row = session.execute(_CALLER, {"game_id": game_id, "user_id": user_id}).first()
    if row is None:
        return None, None
    user, found, gm_id, power, played = row
    if found is None:
        return user, None
    is_gm = gm_id == user.id
    if not is_gm and power is None:
        return user, None
    return user, Standing(user, is_gm, power, bool(played))


def sees_everything(viewer: Viewer) -> bool:
    """Whether the viewer may see the whole board: the gamemaster who sees all, a player (a
    seated gamemaster too) unless the variant hides information (then their own view only)."""
    return viewer.sees_all or not find_variant(viewer.game.variant).visibility.hidden_information
