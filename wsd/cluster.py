"""Dask clusters for work beyond one process: a local cluster of N worker processes or an
existing one at an address, and joblib's ``Parallel`` sent to it.

Dask (the ``[dask]`` extra) is imported only when a cluster is asked for.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any


def wants_cluster(workers: int | None, scheduler: str | None) -> bool:
    """Whether ``workers`` / ``scheduler`` ask for a Dask cluster, checked before any work:
    ValueError for fewer than 1 worker or both, ImportError naming the extra without Dask."""
    if workers is not None and workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    if workers and scheduler:
        raise ValueError("give --workers or --scheduler, not both")
    if not workers and not scheduler:
        return False
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as err:
        raise ImportError("--workers and --scheduler need Dask: pip install "
                          "'wsd-perceptron[dask]'") from err
    return True


@contextlib.contextmanager
def dask_client(workers: int | None = None, scheduler: str | None = None) -> Iterator[Any]:
    """A ``distributed.Client`` of the cluster at ``scheduler``, or of a new local cluster of
    ``workers`` single-threaded processes (closed on exit)."""
    if not wants_cluster(workers, scheduler):
        raise ValueError("give --workers N or --scheduler ADDRESS")
    from distributed import Client, LocalCluster  # the optional [dask] extra

    tornado_log = logging.getLogger("tornado.application")
    tornado_log.addFilter(_interrupted_sync_filter)
    try:
        if scheduler:
            with _closed(Client(scheduler)) as client:
                yield client
            return
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=logging.ERROR)
        with _closed(cluster), _closed(Client(cluster)) as client:
            yield client
    finally:
        tornado_log.removeFilter(_interrupted_sync_filter)


# How long a client or cluster may take to close after a Ctrl-C or an error stopped the work.
CLOSE_AFTER_ERROR_S = 5


@contextlib.contextmanager
def _closed(thing: Any) -> Iterator[Any]:
    """``with thing`` (a Dask client or cluster), but after a Ctrl-C or an error, whose
    interrupted call may leave its event loop stuck, closing gets ``CLOSE_AFTER_ERROR_S``
    and its failure is not reported: a plain exit would wait out Dask's timeout (60 s) and
    raise a TimeoutError in place of the interruption."""
    entered = thing.__enter__()
    try:
        yield entered
    except BaseException:
        with contextlib.suppress(Exception):
            thing.close(timeout=CLOSE_AFTER_ERROR_S)
            thing.__exit__(None, None, None)  # closed already: resets Dask's current client
        raise
    thing.__exit__(None, None, None)


def _interrupted_sync_filter(record: logging.LogRecord) -> bool:
    """Drop the error ``distributed`` logs when Ctrl-C interrupts a blocking client call (its
    ``sync`` cancel callback fails with a NameError), so an interrupted run ends with one line;
    every other record passes."""
    return "sync.<locals>.cancel" not in record.getMessage()


@contextlib.contextmanager
def joblib_on_dask(workers: int | None = None, scheduler: str | None = None) -> Iterator[Any]:
    """Inside, ``joblib.Parallel`` runs its tasks on a Dask cluster (a new local one of
    ``workers`` processes, or the one at ``scheduler``), whatever its ``n_jobs``: code that
    parallelises with joblib, like the all-words training, runs on a cluster unchanged and
    gives the same results. With neither, nothing changes (yields None)."""
    if not wants_cluster(workers, scheduler):
        yield None
        return
    import joblib  # joblib: only for work sent to Dask

    # the client named, not Dask's default one (which may be another cluster's)
    with dask_client(workers, scheduler) as client, \
            joblib.parallel_config(backend="dask", client=client):
        yield client
