"""sessions and limits: each login a row that can be ended, and games found by age

``login_sessions``: one row per browser login and per API token (a digest of the credential,
when it was made and last seen, from which address), so that logging out, a new return
link and a guest's sign-up end sessions, and a user can see and end theirs. The credentials
signed before this revision have no row: each gets one when it is next used, so nobody is
logged out by the upgrade. ``ix_games_created``: the lobby pages its lists by age, and the
workers look for old games nobody has played. The limits on new games and guests count in
``login_failures`` under scopes of their own, so they need no table.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('login_sessions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('last_seen', sa.DateTime(), nullable=False),
    sa.Column('address', sa.String(length=64), nullable=False),
    sa.Column('agent', sa.String(length=120), nullable=False),
    sa.Column('ended_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('key')
    )
    with op.batch_alter_table('login_sessions', schema=None) as batch_op:
        batch_op.create_index('ix_login_sessions_created', ['created_at'], unique=False)
        batch_op.create_index('ix_login_sessions_user', ['user_id'], unique=False)
    # Not a batch: on SQLite a batch would copy ``games``, which other tables refer to.
    op.create_index('ix_games_created', 'games', ['created_at'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_games_created', table_name='games')
    with op.batch_alter_table('login_sessions', schema=None) as batch_op:
        batch_op.drop_index('ix_login_sessions_user')
        batch_op.drop_index('ix_login_sessions_created')
    op.drop_table('login_sessions')
    # The limits' own scopes leave rows behind in login_failures that 0005 does not count.
    op.execute(sa.text("DELETE FROM login_failures WHERE scope IN "
                       "('game-user', 'game-addr', 'guest-addr')"))
