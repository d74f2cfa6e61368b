"""The embedded scheduler: partitions annotated one after the other in this process (no Dask)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from wsd.annotate.annotator import ModelRef
from wsd.annotate.documents import Partition
from wsd.annotate.process import PartitionResult, annotate_partition


def run_local(partitions: Iterable[Partition], model: ModelRef) -> Iterator[PartitionResult]:
    """The result of every partition, in order, lazily (one partition in memory at a time)."""
    for partition in partitions:
        yield annotate_partition(partition, model)
