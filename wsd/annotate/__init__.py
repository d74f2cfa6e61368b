"""Batch sense-tagging of corpora, in one process or on a Dask cluster (``wsd annotate``).

One module per job: ``listing`` (the input files, folders walked), ``documents`` (reading
documents, cutting partitions), ``annotator`` (the
model, loaded once per process), ``process`` (annotating one partition: the task),
``output`` (partition files and the manifest), ``local`` and ``dask_runner`` (schedulers),
``run`` (the whole run, behind the CLI).
"""

from wsd.annotate.annotator import Annotator, load_annotator
from wsd.annotate.run import annotate_corpus

__all__ = ["Annotator", "annotate_corpus", "load_annotator"]
