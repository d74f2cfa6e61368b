"""wsd on a real Dask cluster (distributed.LocalCluster, 2 worker processes): annotate gives the
output of one process, survives a worker killed mid-run, resumes after an interrupt, reports
bad documents; the all-words training gives the model of one process."""

import json
import os
import random
import signal

import pytest
from annotate_data import (
    output_lines,
    save_allwords_model,
    save_bass_model,
    write_allwords_corpus,
    write_jsonl_corpus,
)

from wsd.annotate import annotate_corpus
from wsd.instance import Instance
from wsd.persistence import model_kind
from wsd.resources import has_nltk_resource

distributed = pytest.importorskip("distributed", reason="the [dask] extra (distributed)")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:  # fmt: skip
        yield cluster


@pytest.fixture(scope="module")
def client(cluster):
    with distributed.Client(cluster) as client:
        yield client


@pytest.fixture(scope="module")
def run_inputs(tmp_path_factory):
    """A model, a corpus of 60 documents and 2 bad ones, and its annotation in one process."""
    folder = tmp_path_factory.mktemp("dask")
    model = save_bass_model(folder / "bass.json")
    corpus = folder / "docs.jsonl"
    write_jsonl_corpus(corpus, 60)
    with open(corpus, "ab") as stream:
        stream.write(b'{"id": "empty", "text": " "}\n{"id": "bytes", "text": "\xff"}\n')
    manifest = annotate_corpus([corpus], model, folder / "local", partition_size=4,
                               progress=False)  # fmt: skip
    return model, corpus, output_lines(folder / "local"), manifest


def test_cluster_gives_the_lines_of_one_process(cluster, run_inputs, tmp_path, capsys):
    model, corpus, local_lines, local_manifest = run_inputs
    manifest = annotate_corpus([corpus], model, tmp_path, partition_size=3,
                               scheduler=cluster.scheduler_address, progress=False)
    assert output_lines(tmp_path) == local_lines
    assert manifest["scheduler"] == f"dask cluster at {cluster.scheduler_address}"
    assert manifest["counts"]["partitions"] == 21
    for count in ("documents", "annotated", "bad", "sentences", "tokens", "tagged"):
        assert manifest["counts"][count] == local_manifest["counts"][count]
    assert manifest["bad_documents"] == local_manifest["bad_documents"]
    err = capsys.readouterr().err
    assert f"bad document {corpus}:61: empty text" in err
    assert f"bad document {corpus}:62: not UTF-8" in err


def test_a_run_interrupted_in_one_process_resumes_on_a_local_cluster(run_inputs, tmp_path):
    model, corpus, local_lines, _ = run_inputs

    def interrupt_after_two(result):
        if result.index == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        annotate_corpus([corpus], model, tmp_path, partition_size=4, progress=False,
                        on_result=interrupt_after_two)  # fmt: skip
    first = json.loads((tmp_path / "manifest.json").read_text())
    assert first["status"] == "interrupted" and list(first["partitions"]) == [
        "part-00000", "part-00001"]
    resumed = []
    manifest = annotate_corpus([corpus], model, tmp_path, partition_size=4, workers=1,
                               progress=False, on_result=lambda r: resumed.append(r.index))
    assert sorted(resumed) == list(range(2, 16))
    assert output_lines(tmp_path) == local_lines
    assert manifest["scheduler"] == "local dask cluster, 1 worker processes"
    assert manifest["counts"]["documents"] == 62 and manifest["status"] == "complete"


@pytest.mark.skipif(not (has_nltk_resource("wordnet")
                         and has_nltk_resource("averaged_perceptron_tagger_eng")),
                    reason="NLTK wordnet / averaged_perceptron_tagger_eng data absent")
def test_an_all_words_model_annotates_on_the_cluster_as_in_one_process(cluster, tmp_path):
    from wsd.allwords.text import annotate_text

    model = save_allwords_model(tmp_path)  # .npz: the worker plugin keeps the file's suffix
    texts = write_allwords_corpus(tmp_path / "docs.jsonl")
    annotate_corpus([tmp_path / "docs.jsonl"], model, tmp_path / "out", partition_size=2,
                    scheduler=cluster.scheduler_address, progress=False)  # fmt: skip
    rows = {row["id"]: row["sentences"] for row in map(json.loads, output_lines(tmp_path / "out"))}
    assert rows == {f"a{n}": annotate_text(model, text) for n, text in enumerate(texts)}


def allwords_training_data(seed: int = 0) -> list[Instance]:
    """Three ambiguous words whose sense shows in a cue word of the sentence, plus noise."""
    rng = random.Random(seed)
    filler = ["the", "a", "old", "new", "river", "money", "music", "fish", "tree", "road"]
    instances = []
    for word, senses in (("bank", "ab"), ("bass", "abc"), ("plant", "ab")):
        for n in range(30):
            sense = senses[n % len(senses)]
            tokens = [*rng.sample(filler, 4), f"cue{word}{sense}", word, *rng.sample(filler, 3)]
            instances.append(Instance(id=f"{word}.{n}", tokens=tuple(tokens), span=(5, 6),
                                      lemma=word, target_pos="NOUN",
                                      senses=(f"{word}%{sense}",)))  # fmt: skip
    return instances


def test_allwords_training_on_the_cluster_gives_the_model_of_one_process(cluster):
    from wsd.cluster import joblib_on_dask

    all_words = model_kind("AllWordsWSD")
    options = {"features": "bow", "pos_tags": "corpus", "epochs": 3, "n_models": 2}
    data = allwords_training_data()
    alone = all_words(**options, n_jobs=1).fit(data).to_dict()
    with joblib_on_dask(scheduler=cluster.scheduler_address) as client, \
            distributed.get_task_stream(client) as tasks:
        spread = all_words(**options, n_jobs=-1).fit(data).to_dict()
    assert tasks.data, "no task ran on the cluster"
    assert len(alone["models"]) == 3
    assert spread.pop("params") == {**alone.pop("params"), "n_jobs": -1}
    assert spread == alone


def test_a_worker_killed_mid_run_loses_nothing(cluster, client, run_inputs, tmp_path):
    model, corpus, local_lines, _ = run_inputs
    seen = []

    def kill_a_worker_after_the_first(result):
        seen.append(result.index)
        if len(seen) == 1:
            pids = client.run(os.getpid)
            os.kill(max(pids.values()), signal.SIGKILL)

    manifest = annotate_corpus([corpus], model, tmp_path, partition_size=2,
                               scheduler=cluster.scheduler_address, progress=False,
                               on_result=kill_a_worker_after_the_first)  # fmt: skip
    assert len(seen) > 1  # partitions finished after the kill
    assert sorted(seen) == list(range(31))
    assert output_lines(tmp_path) == local_lines
    assert manifest["status"] == "complete" and manifest["counts"]["documents"] == 62
