"""What a node can reach through its data, for the tests that prove a node holds no
reference to the cluster, its front or the clock (Raft's and the CRDTs' nodes)."""

from __future__ import annotations

import gc


def verweise(start: object) -> list[object]:
    """Everything reachable from ``start`` through data (attributes, containers, closures),
    but not through the node's gate (``_netz``, which the cluster guards), classes, modules
    or the globals of functions."""
    gesehen = {id(start)}
    offen = [start]
    gefunden = []
    while offen:
        objekt = offen.pop()
        gefunden.append(objekt)
        for weiter in gc.get_referents(objekt):
            if id(weiter) in gesehen or isinstance(weiter, type | type(gc)):
                continue
            if type(weiter).__name__ == "_Tor":  # the gate: object slots only pysim reads
                continue
            if isinstance(weiter, dict) and "__builtins__" in weiter:  # a module's globals
                continue
            gesehen.add(id(weiter))
            offen.append(weiter)
    return gefunden
