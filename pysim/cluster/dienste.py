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

Zwei Dienste gibt es bei Maelstrom nicht; der Kurs hat sie für Lektion 9 (Leases, Fencing):

- ``lease`` ist ein Sperrdienst: ``acquire`` antwortet ``acquire_ok`` mit ``token`` und ``ttl``
  (die Lease gilt ``ttl`` Ticks), oder Fehler 11 (temporarily-unavailable) mit ``holder``, wenn
  ein anderer Knoten sie hält. Jede Vergabe, auch eine Verlängerung durch den Inhaber, bekommt einen
  größeren Token. ``release`` gibt die Lease frei. Vereinfacht: Der Dienst ist ein Rechner, der
  nie ausfällt, und misst mit der richtigen Zeit des Clusters. ``LeaseDienst(cluster, ttl,
  ablauf_als_termin=True)`` ist der Sperrdienst von ``pysim.leases.LeaseSim``.
- ``fence-kv`` ist ein Speicher wie eine Datei in S3: nur ``read`` und ``write``, kein ``cas``.
  Trägt eine Anfrage ein Feld ``token``, prüft er es: Ist es kleiner als der größte Token, den
  er schon sah, lehnt er ab (Fehler 22, nichts geschehen); sonst merkt er sich den Token. Eine
  Anfrage ohne ``token`` prüft er nicht.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..fehler import pruefe_ganzzahl, wert_text
from .nachricht import Nachricht

if TYPE_CHECKING:
    from ..zeit import Termin
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
            return _fehler(20, f"den Schlüssel {wert_text(key, 60)} gibt es nicht")
        return {"type": "read_ok", "value": wert}

    @staticmethod
    def _cas(
        werte: dict[Any, Any], key: Any, von: Any, zu: Any, anlegen: bool
    ) -> dict[str, Any] | None:
        """None: the cas applies (the caller stores ``zu``); otherwise the error reply."""
        wert = werte.get(_schluessel(key), _FEHLT)
        if wert is _FEHLT and not anlegen:
            return _fehler(20, f"den Schlüssel {wert_text(key, 60)} gibt es nicht")
        if wert is not _FEHLT and wert != von:
            return _fehler(22, f"der Wert ist {wert_text(wert)}, nicht {wert_text(von)}")
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


class LeaseDienst:
    """``lease``: ein Sperrdienst mit Leases von ``ttl`` Ticks und wachsenden Fencing Tokens.

    - ``ttl``: wie lange eine Lease gilt (ohne: ``TTL``, 5 Ticks),
    - ``ablauf_als_termin``: Der Dienst lässt eine Lease mit einem eigenen Termin im Kalender
      ablaufen (eine Anfrage, die in ihrem letzten Tick vor diesem Termin ankommt, findet sie
      noch vergeben), wie ``pysim.leases.LeaseSim``; ohne: Er prüft beim Fragen, ob ``bis``
      erreicht ist (ab ihrem letzten Tick ist sie frei).

    Wer mitschreiben will, was der Dienst tut (``pysim.leases``), überschreibt ``vergeben``,
    ``abgewiesen``, ``abgelaufen`` und ``freigegeben``; sie tun hier nichts.
    """

    name = "lease"
    #: How long a lease lasts, in ticks of the cluster's true time (without ``ttl``).
    TTL = 5
    #: Answers a ``release`` with ``release_ok``. ``pysim.leases.LeaseSim``'s lock service does
    #: not: its clients wait for no answer (a message less per client and run).
    BESTAETIGT_FREIGABE = True

    def __init__(
        self, cluster: Cluster, ttl: int | None = None, *, ablauf_als_termin: bool = False
    ) -> None:
        self.cluster = cluster
        self.ttl = self.TTL if ttl is None else pruefe_ganzzahl(ttl, "Die Dauer (ttl)", 1)
        self.ablauf_als_termin = ablauf_als_termin
        self.halter: str | None = None
        self.bis = 0
        self.token = 0
        self._ablauf: Termin | None = None
        cluster.anmelden(self.name, self.empfang)

    def empfang(self, nachricht: Nachricht) -> None:
        jetzt = self.cluster.zeit.now
        wer, typ = nachricht.src, nachricht.typ
        frei = self.halter is None or (not self.ablauf_als_termin and jetzt >= self.bis)
        if typ == "acquire":
            if frei or self.halter == wer:
                self.token += 1
                self.halter, self.bis = wer, jetzt + self.ttl
                if self.ablauf_als_termin:
                    if self._ablauf is not None:
                        self._ablauf.absagen()
                    self._ablauf = self.cluster.zeit.schedule(self.ttl, self._laeuft_ab)
                self.vergeben(wer, self.token, self.bis)
                antwort = {"type": "acquire_ok", "token": self.token, "ttl": self.ttl}
            else:
                assert self.halter is not None  # not free: someone holds it
                self.abgewiesen(wer, self.halter)
                antwort = {
                    **_fehler(11, f"{self.halter} hält die Lease noch {self.bis - jetzt} Ticks"),
                    "holder": self.halter,
                }
        elif typ == "release":
            galt = self.halter == wer and not frei
            if self.halter == wer:
                self.halter = None
                if self._ablauf is not None:
                    self._ablauf.absagen()
                    self._ablauf = None
            self.freigegeben(wer, nachricht.body.get("token"), galt)
            if not self.BESTAETIGT_FREIGABE:
                return
            antwort = {"type": "release_ok"}
        else:
            antwort = _fehler(10, f"lease kennt „{typ}“ nicht, nur acquire und release")
        if "msg_id" in nachricht.body:
            antwort["in_reply_to"] = nachricht.body["msg_id"]
        # built here, of numbers and texts only: it goes out without a copy (``frisch``)
        self.cluster.sende(self.name, wer, antwort, frisch=True)

    def _laeuft_ab(self) -> None:
        halter, self.halter, self._ablauf = self.halter, None, None
        if halter is not None:
            self.abgelaufen(halter, self.token)

    # --- what a front records (nothing here) ---

    def vergeben(self, wer: str, token: int, bis: int) -> None:
        """``wer`` bekam eben die Lease mit ``token``, gültig bis ``bis``."""

    def abgewiesen(self, wer: str, halter: str) -> None:
        """``wer`` fragte, aber ``halter`` hält die Lease."""

    def abgelaufen(self, wer: str, token: int) -> None:
        """Die Lease ``token`` von ``wer`` ist eben abgelaufen (nur ``ablauf_als_termin``)."""

    def freigegeben(self, wer: str, token: object, galt: bool) -> None:
        """``wer`` gab seine Lease frei (``token`` aus der Anfrage, wenn sie eins trug);
        ``galt``: Sie galt noch (sonst war sie schon abgelaufen oder nicht seine)."""


class FencingKV(_Speicherdienst):
    """``fence-kv``: ``read`` und ``write`` (kein ``cas``); ein älterer ``token`` wird abgelehnt."""

    name = "fence-kv"

    def __init__(self, cluster: Cluster) -> None:
        super().__init__(cluster)
        self.werte: dict[Any, Any] = {}
        self.hoechster: int | None = None

    def empfang(self, nachricht: Nachricht) -> None:
        token = nachricht.body.get("token")
        if nachricht.typ == "cas":
            antwort = _fehler(10, "fence-kv kennt kein cas, nur read und write")
        elif token is not None and (not isinstance(token, int) or isinstance(token, bool)):
            antwort = _fehler(12, f"„token“ ist eine ganze Zahl, nicht {wert_text(token, 60)}")
        elif token is not None and self.hoechster is not None and token < self.hoechster:
            antwort = _fehler(
                22,
                f"Token {wert_text(token, 60)} ist älter als Token {wert_text(self.hoechster, 60)}",
            )
        else:
            if token is not None:
                self.hoechster = token
            super().empfang(nachricht)
            return
        if "msg_id" in nachricht.body:
            antwort["in_reply_to"] = nachricht.body["msg_id"]
        self.cluster.sende(self.name, nachricht.src, antwort)

    def lies(self, wer: str, key: Any) -> dict[str, Any]:
        return self._lesen(self.werte, key)

    def schreibe(self, wer: str, key: Any, wert: Any) -> dict[str, Any]:
        self.werte[_schluessel(key)] = wert
        return {"type": "write_ok"}


#: The services a cluster can offer, by name.
DIENSTE: dict[str, Any] = {d.name: d for d in (LinKV, SeqKV, LwwKV, LeaseDienst, FencingKV)}
