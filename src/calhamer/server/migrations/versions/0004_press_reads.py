"""press reads: how far each account has read each conversation of a game

``press_reads`` keeps, per game, account and thread (the set of participants, or "ALL"),
the id of the last message read, so that a thread's unread marker follows a player from
browser to browser. Before this revision the browser remembered it; nothing is carried over
(every thread starts unread once).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('press_reads',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('thread', sa.String(length=200), nullable=False),
    sa.Column('last_read', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'user_id', 'thread')
    )


def downgrade() -> None:
    op.drop_table('press_reads')
