"""Dienste, die ein Knoten fragen kann, wie Maelstroms ``lin-kv``, ``seq-kv`` und ``lww-kv``.

Alle drei sprechen dieselbe Sprache (Maelstroms doc/services.md): ``read`` (``key``) antwortet
``read_ok`` mit ``value`` oder Fehler 20 (key-does-not-exist); ``write`` (``key``, ``value``)
antwortet ``write_ok``; ``cas`` (``key``, ``from``, ``to``, optional ``create_if_not_exists``)
antwortet ``cas_ok``, Fehler 22 (precondition-failed), wenn der Wert nicht ``from`` war, oder 20.

- ``lin-kv`` ist linearisierbar: Jede Operation wirkt in einem Augenblick zwischen Anfrage und
  Antwort (hier: wenn die Anfrage ankommt).
- ``seq-kv`` ist sequentiell konsistent: Alle Operationen stehen in einer Reihenfolge, jeder Knoten
  sieht sie der Reihe nach, aber ein Lesen darf einen älteren Stand liefern als den neuesten,
  nie einen älteren als den, den dieser Knoten schon sah. Vereinfacht: Schreiben und ``cas``
  wirken hier immer auf den neuesten Stand (Maelstrom erlaubt auch ihnen alte Stände).
- ``lww-kv`` (absichtlich schlecht, wie bei Maelstrom): mehrere Kopien, jede Anfrage trifft eine
  zufällige; jedes Schreiben bekommt einen Zeitstempel, die Kopien gleichen sich alle paar Ticks
  ab, und der größere Zeitstempel gewinnt (last write wins). Lesen kann zurückspringen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .nachricht import Nachricht

if TYPE_CHECKING:
    from .cluster import Cluster

_FEHLT = object()


def _fehler(code: int, text: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "text": text}


class _Speicherdienst:
    """A key-value service as a node of the network: requests in, replies out (with latency)."""

    name = ""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        cluster.anmelden(self.name, self.empfang)

    def empfang(self, nachricht: Nachricht) -> None:
        body = nachricht.body
        typ = nachricht.typ
        if typ in ("read", "write", "cas") and "key" not in body:
            antwort = _fehler(12, f"„{typ}“ braucht ein Feld „key“")
        elif typ == "read":
            antwort = self.lies(nachricht.src, body["key"])
        elif typ == "write":
            antwort = self.schreibe(nachricht.src, body["key"], body.get("value"))
        elif typ == "cas":
            antwort = self.cas(
                nachricht.src,
                body["key"],
                body.get("from"),
                body.get("to"),
                bool(body.get("create_if_not_exists")),
            )
        else:
            antwort = _fehler(10, f"{self.name} kennt „{typ}“ nicht, nur read, write und cas")
        if "msg_id" in body:
            antwort["in_reply_to"] = body["msg_id"]
        self.cluster.sende(self.name, nachricht.src, antwort)

    # one store's rules: ``stand`` -> value, from a state of the keys
    @staticmethod
    def _lesen(werte: dict[Any, Any], key: Any) -> dict[str, Any]:
        wert = werte.get(_schluessel(key), _FEHLT)
        if wert is _FEHLT:
            return _fehler(20, f"den Schlüssel {key!r} gibt es nicht")
        return {"type": "read_ok", "value": wert}

    @staticmethod
    def _cas(
        werte: dict[Any, Any], key: Any, von: Any, zu: Any, anlegen: bool
    ) -> dict[str, Any] | None:
        """None: the cas applies (the caller stores ``zu``); otherwise the error reply."""
        wert = werte.get(_schluessel(key), _FEHLT)
        if wert is _FEHLT and not anlegen:
            return _fehler(20, f"den Schlüssel {key!r} gibt es nicht")
        if wert is not _FEHLT and wert != von:
            return _fehler(22, f"der Wert ist {wert!r}, nicht {von!r}")
        return None

    def lies(self, wer: str, key: Any) -> dict[str, Any]:
        raise NotImplementedError

    def schreibe(self, wer: str, key: Any, wert: Any) -> dict[str, Any]:
        raise NotImplementedError

    def cas(self, wer: str, key: Any, von: Any, zu: Any, anlegen: bool) -> dict[str, Any]:
        raise NotImplementedError


def _schluessel(key: Any) -> Any:
    """Keys as JSON has them: a list key becomes a tuple (hashable), like Maelstrom's JSON keys."""
    return tuple(key) if isinstance(key, list) else key


class LinKV(_Speicherdienst):
    """``lin-kv``: ein Stand, jede Operation wirkt, wenn sie ankommt."""

    name = "lin-kv"

    def __init__(self, cluster: Cluster) -> None:
        super().__init__(cluster)
        self.werte: dict[Any, Any] = {}

    def lies(self, wer: str, key: Any) -> dict[str, Any]:
        return self._lesen(self.werte, key)

    def schreibe(self, wer: str, key: Any, wert: Any) -> dict[str, Any]:
        self.werte[_schluessel(key)] = wert
        return {"type": "write_ok"}

    def cas(self, wer: str, key: Any, von: Any, zu: Any, anlegen: bool) -> dict[str, Any]:
        fehler = self._cas(self.werte, key, von, zu, anlegen)
        if fehler:
            return fehler
        self.werte[_schluessel(key)] = zu
        return {"type": "cas_ok"}


class SeqKV(_Speicherdienst):
    """``seq-kv``: die Stände der Reihe nach; ein Knoten liest einen Stand ab dem, den er sah."""

    name = "seq-kv"

    def __init__(self, cluster: Cluster) -> None:
        super().__init__(cluster)
        self.staende: list[dict[Any, Any]] = [{}]
        self.gesehen: dict[str, int] = {}

    def _neu(self, wer: str, werte: dict[Any, Any]) -> None:
        self.staende.append(werte)
        self.gesehen[wer] = len(self.staende) - 1

    def lies(self, wer: str, key: Any) -> dict[str, Any]:
        ab = self.gesehen.get(wer, 0)
        stand = self.cluster.zufall.randint(ab, len(self.staende) - 1)
        self.gesehen[wer] = stand
        return self._lesen(self.staende[stand], key)

    def schreibe(self, wer: str, key: Any, wert: Any) -> dict[str, Any]:
        self._neu(wer, {**self.staende[-1], _schluessel(key): wert})
        return {"type": "write_ok"}

    def cas(self, wer: str, key: Any, von: Any, zu: Any, anlegen: bool) -> dict[str, Any]:
        fehler = self._cas(self.staende[-1], key, von, zu, anlegen)
        if fehler:
            self.gesehen[wer] = len(self.staende) - 1  # it read the newest state to decide
            return fehler
        self._neu(wer, {**self.staende[-1], _schluessel(key): zu})
        return {"type": "cas_ok"}


class LwwKV(_Speicherdienst):
    """``lww-kv``: ``kopien`` Kopien, die sich alle ``abgleich`` Ticks angleichen (last write wins)."""

    name = "lww-kv"

    def __init__(self, cluster: Cluster, kopien: int = 3, abgleich: int = 5) -> None:
        super().__init__(cluster)
        self.kopien: list[dict[Any, tuple[tuple[int, int], Any]]] = [{} for _ in range(kopien)]
        self.abgleich = abgleich
        self._naechster_abgleich_geplant = False

    def _kopie(self) -> int:
        return self.cluster.zufall.randrange(len(self.kopien))

    def _plane_abgleich(self) -> None:
        if not self._naechster_abgleich_geplant:
            self._naechster_abgleich_geplant = True
            self.cluster.zeit.schedule(self.abgleich, self._gleiche_ab)

    def _gleiche_ab(self) -> None:
        self._naechster_abgleich_geplant = False
        alle: dict[Any, tuple[tuple[int, int], Any]] = {}
        for kopie in self.kopien:
            for key, (stempel, wert) in kopie.items():
                if key not in alle or stempel > alle[key][0]:
                    alle[key] = (stempel, wert)
        for kopie in self.kopien:
            kopie.update(alle)

    def _werte(self, kopie: int) -> dict[Any, Any]:
        return {key: wert for key, (_, wert) in self.kopien[kopie].items()}

    def _setze(self, kopie: int, key: Any, wert: Any) -> None:
        # A roughly synchronised clock: the time plus a little skew per copy.
        stempel = (self.cluster.zeit.now + self.cluster.zufall.randint(0, 2), kopie)
        self.kopien[kopie][_schluessel(key)] = (stempel, wert)
        self._plane_abgleich()

    def lies(self, wer: str, key: Any) -> dict[str, Any]:
        return self._lesen(self._werte(self._kopie()), key)

    def schreibe(self, wer: str, key: Any, wert: Any) -> dict[str, Any]:
        self._setze(self._kopie(), key, wert)
        return {"type": "write_ok"}

    def cas(self, wer: str, key: Any, von: Any, zu: Any, anlegen: bool) -> dict[str, Any]:
        kopie = self._kopie()
        fehler = self._cas(self._werte(kopie), key, von, zu, anlegen)
        if fehler:
            return fehler
        self._setze(kopie, key, zu)
        return {"type": "cas_ok"}


#: The services a cluster can offer, by name.
DIENSTE: dict[str, type[_Speicherdienst]] = {d.name: d for d in (LinKV, SeqKV, LwwKV)}
