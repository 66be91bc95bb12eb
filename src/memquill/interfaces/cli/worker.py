"""The background worker command: drain once (``--burst``) or run until signalled."""

from __future__ import annotations

import logging
import signal
import sys
import threading
from types import FrameType
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer

from memquill.interfaces.cli.common import (
    AsJson,
    Db,
    _emit_json,
    _guard,
    _memory,
    app,
    db_path,
)

if TYPE_CHECKING:
    from memquill.maintain.worker import DrainReport, Worker


@app.command()
@_guard
def worker(
    burst: Annotated[bool, typer.Option("--burst", help="Drain the jobs due now, then exit.")] = False,
    poll: Annotated[float, typer.Option(min=0.01, help="Seconds to sleep when no job is due.")] = 1.0,
    lease: Annotated[
        float | None,
        typer.Option(
            min=1.0,
            help="Seconds a claimed job stays leased (default: MEMQUILL_JOB_LEASE_S, else 60).",
            show_default=False,
        ),
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log one line per batch.")] = False,
    db: Db = None,
    as_json: AsJson = False,
) -> None:
    """Run background jobs on a database until SIGTERM/SIGINT (or, with --burst, until idle)."""
    _log_to_stderr(verbose)
    with _memory(db) as mem:
        w = mem.warm_up().worker(lease_s=lease)
        log.info("worker %s on %s (%s)", w.name, db_path(db), "burst" if burst else "until stopped")
        report = w.drain() if burst else _run_until_signalled(w, poll)
    summary = {"done": report.done, "failed": report.failed, "dead": report.dead, "kinds": report.kinds}
    if as_json:
        _emit_json(summary)
        return
    kinds = ", ".join(f"{k}={n}" for k, n in sorted(report.kinds.items()))
    typer.echo(
        f"{'drained' if burst else 'stopped'}: {report.done} done, {report.failed} failed "
        f"(will retry), {report.dead} dead" + (f" [{kinds}]" if kinds else "")
    )


log = logging.getLogger("memquill.cli")


def _run_until_signalled(w: Worker, poll: float) -> DrainReport:
    """``run_forever`` on a thread; SIGTERM/SIGINT set the stop event, the batch in hand finishes.

    The main thread only joins, so the signal handler never runs while it holds the event's
    lock (setting an Event from a handler that interrupted that Event's ``wait`` can deadlock).
    """
    stop = threading.Event()
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(w.run_forever(stop, poll_s=poll))
        except BaseException as exc:  # re-raised on the main thread, where _guard renders it
            outcome.append(exc)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    thread = threading.Thread(target=run, name="memquill-worker")
    signals = (signal.SIGTERM, signal.SIGINT)
    main = threading.current_thread() is threading.main_thread()
    previous = {sig: signal.signal(sig, on_signal) for sig in signals} if main else {}
    try:
        thread.start()
        log.info("worker running; SIGTERM/SIGINT stop it after the batch in hand")
        while thread.is_alive():
            thread.join(0.2)
    finally:
        stop.set()
        thread.join()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    log.info("worker stopped")
    result = outcome[0]
    if isinstance(result, BaseException):
        raise result
    return cast("DrainReport", result)


def _log_to_stderr(verbose: bool) -> None:
    """Warnings (failed and dead jobs) always; with ``-v`` one INFO line per batch too."""
    logging.basicConfig(
        level=logging.WARNING, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if verbose:
        logging.getLogger("memquill").setLevel(logging.INFO)
