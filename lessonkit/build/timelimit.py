"""A time limit for each block the build runs: an endless loop fails the build.

Cells, consoles and exercise checks run in the build's own thread (the kernel is
shared with the browser, where ``Stopp`` ends a run). At build time nobody can
press ``Stopp``, so ``time_limit`` does it: when the limit passes it cancels the
awaiting task (a cell stuck in ``await``) and raises ``BuildTimeout`` in the
running thread (a cell stuck in a Python loop). The caller asks ``expired`` and
reports the block with file and line. A blocking C call (a long ``time.sleep``)
is interrupted only when it returns.

The limit counts the processor time of the block's thread, not the clock: on a
machine busy with other work (two cores shared with a browser, CI) a block gets a
smaller share of the processor and takes longer, but does no more work, so the
same build passes or fails alike. A block that waits without computing (an
``await`` that never ends: less than a tenth of its processor time used) is stopped
by the clock, after ``WALL_FACTOR`` times the limit.
"""

from __future__ import annotations

import asyncio
import ctypes
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

#: Seconds of processor time a single block (a cell, a console's setup, one exercise) may
#: use at build time.
TIME_LIMIT = 30.0
#: A block that waits is stopped after this many times ``TIME_LIMIT`` on the clock.
WALL_FACTOR = 10


class BuildTimeout(BaseException):
    """Raised inside a block that ran past its time limit (a BaseException: code that
    catches ``Exception`` must not swallow it)."""


@dataclass
class Limit:
    seconds: float
    expired: bool = False
    #: Expired by the clock (the block waited) rather than by its processor time.
    waited: bool = False

    @property
    def wall_seconds(self) -> float:
        return self.seconds * WALL_FACTOR


def _cpu_clock(thread_id: int) -> Callable[[], float]:
    """The processor time used so far by the thread ``thread_id`` (a ``threading.get_ident``),
    readable from another thread; where the platform has no such clock, the wall clock."""
    try:
        clock = time.pthread_getcpuclockid(thread_id)
        time.clock_gettime(clock)
    except (AttributeError, OSError):  # not POSIX threads (e.g. Windows): count the clock
        return time.monotonic
    return lambda: time.clock_gettime(clock)


def _raise_in(thread_id: int, exc: type[BaseException] | None) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc else None
    )


class _Dropped(BaseException):
    """Takes the place of a ``BuildTimeout`` not yet delivered, and is caught at once."""


def _drop_pending(thread_id: int) -> None:
    """Drop a pending ``BuildTimeout`` of this thread. Clearing it (``SetAsyncExc`` with
    NULL) would leave CPython 3.11's flag of a pending exception set for good, and a trace
    function set later (``pysim.cluster.grenze``) would then spin on the first line it
    traces. Delivering an exception caught right here resets the flag."""
    try:
        _raise_in(thread_id, _Dropped)
        for _ in range(2):
            pass
    except _Dropped:
        pass


@contextmanager
def time_limit(seconds: float = TIME_LIMIT) -> Iterator[Limit]:
    """Stop the code inside after ``seconds``; ``Limit.expired`` says whether it was.

    First the awaiting task is cancelled (a cell stuck in ``await``). If the event
    loop does not get to that within a second, the thread is busy in Python code
    (a loop): then ``BuildTimeout`` is raised in it. Never both: an exception
    raised while the event loop itself runs would break the loop.
    """
    limit = Limit(seconds)
    thread_id = threading.get_ident()
    try:
        task: asyncio.Task[object] | None = asyncio.current_task()
        loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        task, loop = None, None
    lock = threading.Lock()
    state = {"active": True, "cancelled": False, "raised": False}

    def cancel() -> None:  # in the event loop's own thread
        if state["active"] and task is not None:
            state["cancelled"] = True
            task.cancel()

    def interrupt() -> None:
        with lock:
            if state["active"] and not state["cancelled"]:
                state["raised"] = True
                _raise_in(thread_id, BuildTimeout)

    def stop() -> None:
        with lock:
            if not state["active"]:
                return
            limit.expired = True
            if loop is None:
                state["raised"] = True
                _raise_in(thread_id, BuildTimeout)
                return
            loop.call_soon_threadsafe(cancel)
        later = threading.Timer(1.0, interrupt)
        later.daemon = True
        later.start()

    cpu = _cpu_clock(thread_id)
    cpu_start, wall_start = cpu(), time.monotonic()
    done = threading.Event()

    def watch() -> None:
        # Look often enough that a stopped block is stopped soon after its limit.
        interval = min(0.1, seconds / 10)
        while not done.wait(interval):
            used = cpu() - cpu_start
            # Past the clock's limit, a block that used less than a tenth of its processor
            # time waited (an `await` or a sleep that never ends): the clock stops it. One
            # that computed keeps its processor limit, however busy the machine (under
            # load, its share of a core may take longer than the clock's limit to use up).
            if time.monotonic() - wall_start > limit.wall_seconds and used < seconds / 10:
                limit.waited = True
            elif used <= seconds:
                continue
            stop()
            return

    watcher = threading.Thread(target=watch, name="lessonkit-time-limit", daemon=True)
    watcher.start()
    try:
        yield limit
    except (BuildTimeout, asyncio.CancelledError):
        if not limit.expired:
            raise
    finally:
        done.set()
        with lock:
            state["active"] = False
            if state["raised"]:
                _drop_pending(thread_id)  # drop an exception not yet delivered
            if state["cancelled"] and task is not None:
                task.uncancel()
