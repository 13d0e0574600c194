"""Boards from other judges, imported into calhamer's map format.

Each importer is a package of its own (``calhamer.boards.dpjudge`` reads DPjudge's ``.map``
files and the ``diplomacy`` package's dialect of them). The importers write map files and
variant files; they sit outside the core, which never imports them: a board they write is
loaded like any other map file (``docs/maps.md``), and ``docs/boards.md`` says how each
judge's directives are read.
"""
