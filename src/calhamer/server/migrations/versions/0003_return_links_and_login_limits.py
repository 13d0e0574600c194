"""return links and login limits: a guest's return-link nonce, and failed logins

``users.return_nonce``: a guest's return link is signed over it, so a new nonce revokes the
old link; the guests made before this revision get one here. ``login_failures``: the
sliding window of failed logins, by user name and by client address.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None

_users = sa.table("users", sa.column("id", sa.Integer), sa.column("username", sa.String),
                  sa.column("return_nonce", sa.String))


def upgrade() -> None:
    op.create_table('login_failures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('scope', sa.String(length=10), nullable=False),
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('login_failures', schema=None) as batch_op:
        batch_op.create_index('ix_login_failures_at', ['at'], unique=False)
        batch_op.create_index('ix_login_failures_key', ['scope', 'key', 'at'], unique=False)
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('return_nonce', sa.String(length=32), nullable=True))
    connection = op.get_bind()
    guests = connection.scalars(sa.select(_users.c.id).where(_users.c.username.is_(None)))
    for user_id in list(guests):
        connection.execute(_users.update().where(_users.c.id == user_id)
                           .values(return_nonce=secrets.token_urlsafe(16)))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # SQLite drops a column itself (3.35 and later); a batch would copy ``users``, which
        # other tables refer to, and the foreign keys forbid dropping the original.
        op.execute("ALTER TABLE users DROP COLUMN return_nonce")
    else:
        op.drop_column('users', 'return_nonce')
    with op.batch_alter_table('login_failures', schema=None) as batch_op:
        batch_op.drop_index('ix_login_failures_key')
        batch_op.drop_index('ix_login_failures_at')
    op.drop_table('login_failures')
