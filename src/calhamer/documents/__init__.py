"""Typed documents: the pydantic models of everything calhamer reads and writes.

- :mod:`calhamer.documents.phase`: the phase document (``PhaseDocument``) and the output
  document (``OutputDocument``, with each power's ``ViewDocument``);
- :mod:`calhamer.documents.game`: the game file (``GameDocument``);
- :mod:`calhamer.documents.maps`: the map file, TOML (``MapFile``);
- :mod:`calhamer.documents.state`: ``VariantState``, the base of each variant's own fields;
- :mod:`calhamer.documents.base`: what they share, and one-line errors with the field path;
- :mod:`calhamer.documents.schemas`: their JSON Schemas, as published in ``docs/schemas/``.

The library (``calhamer.formats``, ``calhamer.game``, ``calhamer.map``), the command line and
the web API all read documents through these models. This package is where calhamer imports
pydantic; ``import calhamer`` does not load it, and this module imports none of its
submodules, so that a variant loading its state model loads nothing more.
"""
