"""Kruijswijk's guess-and-check resolver (DATC v3.0 section 5.F), knowing no rules.

A decision is an integer node. A subclass supplies :meth:`decide`, which evaluates one
node's condition and asks :meth:`resolve` for any other node it needs, and
:meth:`backup_rule`, which settles a cycle that has no single consistent resolution.

``resolve`` guesses "fails" the first time a node is visited; if the recursion comes back to
it, the guess is used and the cycle recorded. Back at the ancestor of the whole cycle, the
node is decided again guessing "succeeds": one answer for both guesses means the cycle has
exactly one resolution; two answers (or none) call the backup rule.
"""

from __future__ import annotations

from calhamer._build import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
class GuessResolver:
    __slots__ = ("_cycle", "_guess_based", "_hits", "resolution", "resolved", "visited")

    def __init__(self, size: int) -> None:
        self.resolution = [False] * size
        self.resolved = [False] * size
        # Made on the first search (most decisions of a phase are settled before it, and a
        # list of every province costs more than the check).
        self.visited: list[bool] = []
        self._cycle: list[int] = []
        self._guess_based = False
        self._hits = 0

    def decide(self, node: int) -> bool:  # pragma: no cover - abstract
        """The value of ``node``'s condition, asking :meth:`resolve` for the nodes it needs."""
        raise NotImplementedError

    def backup_rule(self, cycle: list[int]) -> None:  # pragma: no cover - abstract
        """Settle every node of ``cycle`` (set ``resolution`` and ``resolved``)."""
        raise NotImplementedError

    def settle(self, node: int, value: bool) -> None:
        self.resolution[node] = value
        self.resolved[node] = True

    def resolve(self, node: int) -> bool:
        if self.resolved[node]:
            return self.resolution[node]
        cycle = self._cycle
        if node in cycle:
            # Part of a cycle not yet settled: answer with the value remembered for it.
            self._guess_based = True
            return self.resolution[node]
        visited = self.visited
        if not visited:
            visited = self.visited = [False] * len(self.resolved)
        if visited[node]:
            # The recursion came back here: a cyclic dependency. Answer with the guess.
            cycle.append(node)
            self._guess_based = True
            self._hits += 1
            return self.resolution[node]

        visited[node] = True
        old_len = len(cycle)
        old_guess_based = self._guess_based
        old_hits = self._hits
        self._guess_based = False
        self.resolution[node] = False
        first = self.decide(node)

        if not self._guess_based:
            # Nothing depended on a guess: the answer is final (settled, written out: this is
            # how nearly every decision ends).
            self._guess_based = old_guess_based
            visited[node] = False
            self.resolution[node] = first
            self.resolved[node] = True
            return first

        if node in cycle:
            self._hits -= 1
        if self._hits == old_hits:
            # This node is the ancestor of the whole cycle: try the other guess.
            del cycle[old_len:]
            self.resolution[node] = True
            second = self.decide(node)
            if first == second:
                del cycle[old_len:]
                self._guess_based = old_guess_based
                visited[node] = False
                self.settle(node, first)
                return first
            # Zero or two resolutions: the backup rule decides the cycle.
            members = cycle[old_len:]
            if node not in members:
                members.append(node)
            self.backup_rule(members)
            del cycle[old_len:]
            self._guess_based = old_guess_based
            visited[node] = False
            return self.resolve(node)

        # Inside a cycle whose ancestor is further up: remember this answer and unwind.
        if node not in cycle:
            cycle.append(node)
        self.resolution[node] = first
        visited[node] = False
        return first
