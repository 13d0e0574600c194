"""notices and proposals: what each account is told and where, and votes on draws and pauses

``notice_settings`` (an account's e-mail address and a switch per kind of notice),
``push_subscriptions`` (each browser's Web Push endpoint), ``notice_marks`` (how far the
workers have told each game's players) and ``proposals`` with their ``votes``.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('notice_settings',
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=True),
    sa.Column('phase', sa.Boolean(), nullable=False),
    sa.Column('deadline', sa.Boolean(), nullable=False),
    sa.Column('press', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id')
    )
    op.create_table('push_subscriptions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('endpoint', sa.String(length=1000), nullable=False),
    sa.Column('p256dh', sa.String(length=200), nullable=False),
    sa.Column('auth', sa.String(length=100), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('endpoint')
    )
    op.create_index('ix_push_subscriptions_user', 'push_subscriptions', ['user_id'],
                    unique=False)
    op.create_table('notice_marks',
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('phase_index', sa.Integer(), nullable=False),
    sa.Column('message_id', sa.Integer(), nullable=False),
    sa.Column('warned_index', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id')
    )
    # The games there are now have told nobody of anything: their players are told what
    # comes next, not everything that came before.
    op.execute(sa.text(
        "INSERT INTO notice_marks (game_id, phase_index, message_id, warned_index) "
        "SELECT g.id, g.phase_index, COALESCE((SELECT MAX(m.id) FROM messages m "
        "WHERE m.game_id = g.id), 0), g.phase_index FROM games g"))
    op.create_table('proposals',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('phase', sa.String(length=12), nullable=False),
    sa.Column('proposer', sa.String(length=20), nullable=False),
    sa.Column('voters', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('decided_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_proposals_game', 'proposals', ['game_id', 'status'], unique=False)
    op.create_table('votes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('proposal_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=20), nullable=False),
    sa.Column('agree', sa.Boolean(), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['proposal_id'], ['proposals.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('proposal_id', 'power')
    )


def downgrade() -> None:
    op.drop_table('votes')
    op.drop_index('ix_proposals_game', table_name='proposals')
    op.drop_table('proposals')
    op.drop_table('notice_marks')
    op.drop_index('ix_push_subscriptions_user', table_name='push_subscriptions')
    op.drop_table('push_subscriptions')
    op.drop_table('notice_settings')
