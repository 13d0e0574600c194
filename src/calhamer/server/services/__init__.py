"""What the judge does, as plain functions over a database session, one module per concern.

The routes and the worker import the module they need (``from calhamer.server.services
import orders``). Every function that acts for someone takes a
:class:`~calhamer.server.views.Viewer`, made by :func:`~calhamer.server.views.viewer_for`,
which is the only place that decides who may see a game. Nothing here adjudicates by itself:
the library's :class:`calhamer.game.Game` does, and these modules store what it returns.

The modules depend on each other one way only, each on those before it:

- ``sessions``: each login a row, ended one by one or all at once;
- ``limits``: sliding windows on new games and guests (and sign-ups), kept in the database;
- ``common``: the refusals (NotFound, Conflict, Invalid), a phase's position and variant;
- ``games``: creating, finding and locking games, deadlines, the game log;
- ``expiry``: games nobody played, deleted under their row's lock;
- ``seats``: who plays which power, joining by invitation, replacing a player;
- ``orders``: checking and saving orders, ready marks, which orders a viewer may read;
- ``controls``: the gamemaster's pause, resume, extend, process and end;
- ``bids``: the DP variants' secret bids and the gamemaster's tally;
- ``results``: positions and adjudicated phases as a viewer may see them, stored views;
- ``press``: messages;
- ``adjudication``: due games and adjudicating a phase (the workers).
"""
