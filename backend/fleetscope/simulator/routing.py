"""Shortest routes on the layout graph, computed once per pair and cached."""

import heapq
import itertools
import math
from dataclasses import dataclass

from fleetscope.simulator.scenario import Layout


@dataclass(frozen=True, slots=True)
class Route:
    """Nodes from start to goal (start included) with the straight edges between them."""

    node_ids: tuple[str, ...]
    points: tuple[tuple[float, float], ...]
    edge_ids: tuple[str, ...]  # edge i joins node i and node i + 1
    edge_lengths: tuple[float, ...]

    @property
    def length(self) -> float:
        return sum(self.edge_lengths)

    def joined(self, other: "Route") -> "Route":
        """This route followed by ``other``, which must start where this one ends."""
        if self.node_ids[-1] != other.node_ids[0]:
            raise ValueError("routes do not meet")
        return Route(
            node_ids=self.node_ids + other.node_ids[1:],
            points=self.points + other.points[1:],
            edge_ids=self.edge_ids + other.edge_ids,
            edge_lengths=self.edge_lengths + other.edge_lengths,
        )


class Router:
    def __init__(self, layout: Layout) -> None:
        self._points = {node.node_id: (node.x, node.y) for node in layout.nodes}
        self._neighbours: dict[str, list[tuple[str, float]]] = {n: [] for n in self._points}
        for a, b in layout.connections:
            length = math.dist(self._points[a], self._points[b])
            self._neighbours[a].append((b, length))
            self._neighbours[b].append((a, length))
        self._cache: dict[tuple[str, str], Route] = {}

    def point(self, node_id: str) -> tuple[float, float]:
        return self._points[node_id]

    def route(self, *, start: str, goal: str) -> Route:
        key = (start, goal)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._cache[key] = self._dijkstra(start, goal)
        return cached

    def _dijkstra(self, start: str, goal: str) -> Route:
        distances = {start: 0.0}
        previous: dict[str, str] = {}
        queue = [(0.0, start)]
        while queue:
            distance, node = heapq.heappop(queue)
            if node == goal:
                break
            if distance > distances[node]:
                continue
            for neighbour, length in self._neighbours[node]:
                candidate = distance + length
                if candidate < distances.get(neighbour, math.inf):
                    distances[neighbour] = candidate
                    previous[neighbour] = node
                    heapq.heappush(queue, (candidate, neighbour))
        if goal not in distances:
            raise ValueError(f"no route from {start} to {goal}")
        path = [goal]
        while path[-1] != start:
            path.append(previous[path[-1]])
        path.reverse()
        points = tuple(self._points[n] for n in path)
        return Route(
            node_ids=tuple(path),
            points=points,
            edge_ids=tuple(f"{a}>{b}" for a, b in itertools.pairwise(path)),
            edge_lengths=tuple(math.dist(p, q) for p, q in itertools.pairwise(points)),
        )
