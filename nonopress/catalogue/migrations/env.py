"""Alembic's environment for the catalogue: run on the connection the catalogue opened.

The catalogue never runs Alembic from the command line: :func:`nonopress.catalogue.database.
upgrade` hands its own connection in ``config.attributes``, so SQLite's pragmas and the
caller's transaction apply to the migration too.
"""

from __future__ import annotations

from alembic import context

from nonopress.catalogue.schema import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by copying
    version_table="catalogue_version",
)
with context.begin_transaction():
    context.run_migrations()
