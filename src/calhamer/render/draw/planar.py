"""A first layout with no crossing links: the board's graph embedded in the plane.

A board is a map, so its adjacency graph is planar but for a few links (canals, bridges,
trade routes). The links are added one batch at a time while the graph stays planar
(networkx's planarity test, which also gives an embedding: the order of each province's
neighbours around it); the links left out are the ones that cannot be borders and are drawn
as connectors. The largest face of the embedding becomes the rim, set on a circle, and every
other province is put at the mean of its neighbours (Tutte's barycentric drawing), which
draws a planar graph with no crossing links.
"""

from __future__ import annotations

import math
from typing import Any

from calhamer.render.draw.graph import Board, Point


def planar_start(board: Board, group: list[int]) -> dict[int, Point] | None:
    """A crossing-free drawing of ``group`` (None for fewer than four provinces)."""
    if len(group) < 4:
        return None
    import networkx as nx  # the draw extra; imported only here

    members = set(group)
    links = [(a, b) for a, b in board.pairs() if a in members]
    common = {(a, b): len(board.adjacent[a] & board.adjacent[b]) for a, b in links}
    # Borders first: a link with many common neighbours lies inside the map's mesh.
    links.sort(key=lambda e: (-common[e], (e[0], e[1]) not in board.army_pairs, e))
    graph = nx.Graph()
    graph.add_nodes_from(sorted(group))
    _add_planar(nx, graph, links)
    _, embedding = nx.check_planarity(graph)
    rim = _outer_face(embedding)
    return _barycentric(group, graph, rim)




def _add_planar(nx: Any, graph: Any, links: list[tuple[int, int]]) -> None:
    """Add ``links`` to ``graph`` in order, leaving out those that would make it non-planar
    (halving a batch that fails: few links fail, so few tests are made)."""
    def add(batch: list[tuple[int, int]]) -> None:
        graph.add_edges_from(batch)
        if nx.check_planarity(graph)[0]:
            return
        graph.remove_edges_from(batch)
        if len(batch) == 1:
            return
        half = len(batch) // 2
        add(batch[:half])
        add(batch[half:])

    size = max(8, len(links) // 8)
    for i in range(0, len(links), size):
        add(links[i:i + size])


def _outer_face(embedding: Any) -> list[int]:
    """The face with the most provinces (the first such, in a fixed order)."""
    seen: set[tuple[int, int]] = set()
    best: list[int] = []
    for u in sorted(embedding.nodes):
        for v in embedding.neighbors_cw_order(u):
            if (u, v) in seen:
                continue
            face = embedding.traverse_face(u, v, mark_half_edges=seen)
            if len(set(face)) > len(set(best)):
                best = face
    out: list[int] = []
    for p in best:
        if p not in out:
            out.append(p)
    return out


def _barycentric(group: list[int], graph: Any, rim: list[int]) -> dict[int, Point]:
    """Tutte's drawing: the rim on a circle, every other province at the mean of its
    neighbours (Gauss-Seidel until nothing moves)."""
    radius = max(1.0, len(rim) / (2 * math.pi)) * 1.5
    pos: dict[int, Point] = {p: (0.0, 0.0) for p in group}
    for i, p in enumerate(rim):
        a = 2 * math.pi * i / len(rim)
        pos[p] = (radius * math.cos(a), radius * math.sin(a))
    inner = [p for p in sorted(group) if p not in set(rim)]
    near = {p: sorted(graph.neighbors(p)) for p in inner}
    for _ in range(600):
        biggest = 0.0
        for p in inner:
            nb = near[p]
            if not nb:
                continue
            x = sum(pos[q][0] for q in nb) / len(nb)
            y = sum(pos[q][1] for q in nb) / len(nb)
            ox, oy = pos[p]
            biggest = max(biggest, abs(x - ox) + abs(y - oy))
            pos[p] = (x, y)
        if biggest < 1e-6:
            break
    return pos
