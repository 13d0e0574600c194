"""bids and power views: a table for bids, and each power's stored view of a phase

Bids (DP variants) move from rows of ``orders`` keyed ``"<POWER>:bids"`` to a table of their
own, ``bids``. ``power_views`` keeps each power's view of every adjudicated phase of a game
that hides information (Kriegsplomacy), made by the worker in the transaction that
adjudicates the phase, so that reading results never adjudicates; the phases adjudicated
before this migration get theirs here, from their records.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import itertools
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None

BIDS_KEY = ":bids"  # how 0001 kept a power's bids in ``orders``

# The tables as this revision knows them (not the models, which may change later).
_games = sa.table("games", sa.column("id", sa.String), sa.column("variant", sa.String),
                  sa.column("rules", sa.String))
_seats = sa.table("seats", sa.column("game_id", sa.String), sa.column("power", sa.String))
_phases = sa.table("phases", sa.column("id", sa.Integer), sa.column("game_id", sa.String),
                   sa.column("index", sa.Integer), sa.column("code", sa.String),
                   sa.column("position", sa.JSON), sa.column("results", sa.JSON))
_orders = sa.table("orders", sa.column("id", sa.Integer), sa.column("phase_id", sa.Integer),
                   sa.column("power", sa.String), sa.column("lines", sa.JSON),
                   sa.column("ready", sa.Boolean), sa.column("updated_at", sa.DateTime))
_bids = sa.table("bids", sa.column("game_id", sa.String), sa.column("phase", sa.String),
                 sa.column("power", sa.String), sa.column("bids", sa.JSON),
                 sa.column("updated_at", sa.DateTime))
_views = sa.table("power_views", sa.column("game_id", sa.String),
                  sa.column("phase", sa.String), sa.column("power", sa.String),
                  sa.column("view", sa.JSON))


def upgrade() -> None:
    op.create_table('bids',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('phase', sa.String(length=12), nullable=False),
    sa.Column('power', sa.String(length=20), nullable=False),
    sa.Column('bids', sa.JSON(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'phase', 'power')
    )
    op.create_table('power_views',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('phase', sa.String(length=12), nullable=False),
    sa.Column('power', sa.String(length=20), nullable=False),
    sa.Column('view', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'phase', 'power')
    )
    connection = op.get_bind()
    _move_bids(connection)
    _store_views(connection)


def _move_bids(connection: sa.Connection) -> None:
    rows = connection.execute(
        sa.select(_orders.c.id, _orders.c.power, _orders.c.lines, _orders.c.updated_at,
                  _phases.c.game_id, _phases.c.code)
        .join(_phases, _phases.c.id == _orders.c.phase_id)
        .where(_orders.c.power.like(f"%{BIDS_KEY}"))
    ).all()
    for row in rows:
        connection.execute(_bids.insert().values(
            game_id=row.game_id, phase=row.code, power=row.power.removesuffix(BIDS_KEY),
            bids=list(row.lines or []), updated_at=row.updated_at,
        ))
    if rows:
        connection.execute(_orders.delete().where(_orders.c.id.in_([r.id for r in rows])))


def _store_views(connection: sa.Connection) -> None:
    """Every seat's view of every adjudicated phase of the games that hide information."""
    from calhamer.errors import CalhamerError
    from calhamer.server.services.results import recorded_views
    from calhamer.variants import find_variant

    for game in connection.execute(sa.select(_games)).all():
        try:
            if not find_variant(game.variant).visibility.hidden_information:
                continue
        except CalhamerError:
            continue
        powers = list(connection.scalars(
            sa.select(_seats.c.power).where(_seats.c.game_id == game.id)))
        phases = connection.execute(
            sa.select(_phases).where(_phases.c.game_id == game.id).order_by(_phases.c.index)
        ).all()
        for phase, following in itertools.pairwise(phases):
            if phase.results is None:
                continue
            orders: dict[str, Any] = {
                r.power: list(r.lines) for r in connection.execute(
                    sa.select(_orders.c.power, _orders.c.lines)
                    .where(_orders.c.phase_id == phase.id))
            }
            views = recorded_views(game.variant, game.rules, phase.code, phase.position,
                                   orders, phase.results, following.code, following.position,
                                   powers)
            for power, view in views.items():
                connection.execute(_views.insert().values(
                    game_id=game.id, phase=phase.code, power=power, view=view))


def downgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(_bids, _phases.c.id.label("phase_id"))
        .join(_phases, sa.and_(_phases.c.game_id == _bids.c.game_id,
                               _phases.c.code == _bids.c.phase))
    ).all()
    for row in rows:
        connection.execute(_orders.insert().values(
            phase_id=row.phase_id, power=row.power + BIDS_KEY, lines=list(row.bids),
            ready=False, updated_at=row.updated_at or datetime(1970, 1, 1),
        ))
    op.drop_table('power_views')
    op.drop_table('bids')
