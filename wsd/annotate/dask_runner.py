"""Dask schedulers: a local cluster of worker processes (``--workers N``) or an existing one
(``--scheduler tcp://HOST:PORT``), running the same task as the embedded scheduler.

The model travels once per worker, in a worker plugin (workers that join or restart later
get it too), never with the tasks; tasks carry only a partition and the model's reference.
At most ``2 * workers + 1`` partitions are in flight, so the driver's memory is bounded by
partitions, not by the corpus. A worker that dies takes its tasks with it and Dask runs them
again elsewhere: a task is a pure function of its partition, so the output is the same.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

from distributed import Client, WorkerPlugin, as_completed

from wsd.annotate.annotator import Annotator, ModelRef, load_checked, preload
from wsd.annotate.documents import Partition
from wsd.annotate.process import PartitionResult, annotate_partition
from wsd.cluster import dask_client

T = TypeVar("T")
R = TypeVar("R")


class ModelPlugin(WorkerPlugin):
    """Loads the model on each worker from the file's bytes (the workers need not see it)."""

    def __init__(self, model: ModelRef) -> None:
        self.model = model
        self.payload = Path(model.path).read_bytes()
        self.name = f"wsd-model-{model.sha256[:16]}"

    def setup(self, worker: Any) -> None:
        preload(self.model, lambda: self._load(worker.local_directory))

    def _load(self, folder: str) -> Annotator:
        with tempfile.TemporaryDirectory(dir=folder) as temporary:
            copy = Path(temporary) / Path(self.model.path).name  # the suffix names the format
            copy.write_bytes(self.payload)
            return load_checked(copy, self.model.sha256)


def map_bounded(
    client: Client, task: Callable[..., R], items: Iterable[T], *args: Any, in_flight: int
) -> Iterator[R]:
    """``task(item, *args)`` for every item on the cluster, results as they complete, with at
    most ``in_flight`` items submitted and not yet returned."""
    pending = iter(items)
    running = as_completed()
    for item in islice(pending, in_flight):
        running.add(client.submit(task, item, *args, pure=False))
    for future in running:
        result = future.result()
        future.release()
        for item in islice(pending, 1):
            running.add(client.submit(task, item, *args, pure=False))
        yield result


def run_dask(
    partitions: Iterable[Partition],
    model: ModelRef,
    workers: int | None = None,
    scheduler: str | None = None,
) -> Iterator[PartitionResult]:
    """The result of every partition, in the order they complete, computed on Dask."""
    with dask_client(workers, scheduler) as client:
        client.register_plugin(ModelPlugin(model))
        n_workers = max(1, len(client.nthreads()))
        yield from map_bounded(client, annotate_partition, partitions, model,
                               in_flight=2 * n_workers + 1)  # fmt: skip
