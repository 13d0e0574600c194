"""longer variant names: a composed variant is stored by its spec text

A game's variant is a shipped variant's name or, for a variant composed from rule modules,
its canonical text (``kriegsplomacy+fog+colours+flexible-builds?colour_exchange=true``), which
outgrows the 40 characters ``games.variant`` had. The column now takes 200.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch mode: SQLite changes a column's type by copying the table
    with op.batch_alter_table('games') as batch:
        batch.alter_column('variant', existing_type=sa.String(length=40),
                           type_=sa.String(length=200), existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.alter_column('variant', existing_type=sa.String(length=200),
                           type_=sa.String(length=40), existing_nullable=False)
