"""Alembic migrations of the web judge's schema, run by ``Database.migrate``."""
