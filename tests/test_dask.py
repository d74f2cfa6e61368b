"""wsd on a real Dask cluster (distributed.LocalCluster, 2 worker processes, and a cluster
started with the `dask scheduler` and `dask worker` commands): annotate gives the output of one
process, loads the model once per worker, survives a worker killed mid-run, resumes after an
interrupt, reports bad documents; the all-words training gives the model file of one process,
from the command line too."""

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from annotate_data import (
    LONG_RUN_PARTITIONS,
    journal_partitions,
    long_run_arguments,
    long_run_corpus,
    output_lines,
    save_allwords_model,
    save_bass_model,
    stop_after_first_partition,
    write_jsonl_corpus,
)
from test_cli import run

from wsd.annotate import annotate_corpus
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


def test_a_fault_raised_in_a_task_reaches_the_driver_as_its_own_class(client, tmp_path):
    """What fails a run in one process fails it on Dask: the worker's error comes back to the
    driver as the same class (a ResourceFault, not a document's ValueError), unpickled."""
    from wsd.annotate.dask_runner import map_bounded
    from wsd.features.encoders import EncoderError, load_encoder
    from wsd.resources import ResourceFault

    missing = str(tmp_path / "gone.onnx")
    with pytest.raises(EncoderError, match="gone.onnx does not exist") as raised:
        list(map_bounded(client, load_encoder, [missing], in_flight=1))
    assert isinstance(raised.value, ResourceFault)


def test_a_run_interrupted_in_one_process_resumes_on_a_local_cluster(run_inputs, tmp_path,
                                                                     run_cli):
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
    result = run_cli("annotate", str(corpus), "--model", str(model), "--out",
                     str(tmp_path), "--partition-size", "4", "--workers", "2", "--quiet")
    assert result.returncode == 0, result.stderr
    assert "annotated 60 of 62 documents" in result.stdout
    assert output_lines(tmp_path) == local_lines
    journal = journal_partitions(tmp_path)  # the first two, then the others, each once
    assert journal[:2] == ["part-00000", "part-00001"]
    assert sorted(journal) == [f"part-{n:05d}" for n in range(16)]
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["scheduler"] == "local dask cluster, 2 worker processes"
    assert manifest["counts"]["documents"] == 62 and manifest["status"] == "complete"


def test_the_worker_plugin_loads_an_all_words_model_file_without_the_path(tmp_path):
    from wsd.annotate.annotator import AllWordsAnnotator, ModelRef, annotator_for
    from wsd.annotate.dask_runner import ModelPlugin
    from wsd.systems.allwords.system import AllWordsWSD

    model = save_allwords_model(tmp_path)
    plugin = ModelPlugin(ModelRef.of(model))
    model.unlink()  # a worker elsewhere sees no such file: the plugin brings its bytes
    (tmp_path / "worker").mkdir()
    plugin.setup(SimpleNamespace(local_directory=str(tmp_path / "worker")))
    annotator = annotator_for(plugin.model)
    assert isinstance(annotator, AllWordsAnnotator)
    assert isinstance(annotator.system, AllWordsWSD) and annotator.system.models_
    assert list((tmp_path / "worker").iterdir()) == []  # the copy is gone


def test_allwords_training_on_the_cluster_saves_the_model_file_of_one_process(cluster,
                                                                             tmp_path):
    from test_allwords import QUICK, _bank_sentences, _corpus

    from wsd.cluster import joblib_on_dask
    from wsd.experiments.allwords_run import run_allwords

    xml = _corpus(tmp_path, "toy", [_bank_sentences(8), _bank_sentences(8, offset=1)])
    options = {**QUICK, "n_models": 2, "epochs": 3}
    run_allwords(train=xml, evaluate=[], model_path=tmp_path / "alone.npz", **options)
    with joblib_on_dask(scheduler=cluster.scheduler_address) as client, \
            distributed.get_task_stream(client) as tasks:
        run_allwords(train=xml, evaluate=[], model_path=tmp_path / "spread.npz", **options)
    assert tasks.data, "the words were not trained on the cluster"
    assert (tmp_path / "spread.npz").read_bytes() == (tmp_path / "alone.npz").read_bytes()


@pytest.mark.parametrize("options, message", [
    (("--jobs", "2", "--workers", "2"), "--jobs runs local processes"),
    (("--workers", "0"), "--workers must be at least 1, got 0")])
def test_wsd_allwords_checks_its_cluster_options_before_training(run_cli, tmp_path, options,
                                                                 message):
    from test_cli import assert_clean_error

    result = run_cli("allwords", *options, "--save",
                     str(tmp_path / "never.npz"))  # fmt: skip
    assert_clean_error(result, message)
    assert not (tmp_path / "never.npz").exists()


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


# ---------------------------------------------------------------- a cluster started by commands


@pytest.fixture(scope="module")
def command_cluster(tmp_path_factory):
    """A client of a cluster started as the README says: a `dask scheduler` process and a
    `dask worker` process with 2 single-threaded workers."""
    dask = shutil.which("dask", path=str(Path(sys.executable).parent))
    if dask is None:
        pytest.skip("the dask command of the [dask] extra")
    folder = tmp_path_factory.mktemp("cluster")
    address_file, log = str(folder / "scheduler.json"), open(folder / "log.txt", "w")  # noqa: SIM115
    commands = [[dask, "scheduler", "--host", "127.0.0.1", "--port", "0",
                 "--dashboard-address", ":0", "--scheduler-file", address_file],
                [dask, "worker", "--scheduler-file", address_file, "--nworkers", "2",
                 "--nthreads", "1", "--no-dashboard", "--local-directory", str(folder)]]
    scheduler, workers = (subprocess.Popen(c, stdout=log, stderr=log, cwd=folder,
                                           start_new_session=True) for c in commands)
    try:
        with distributed.Client(scheduler_file=address_file, timeout=120) as client:
            client.wait_for_workers(2, timeout=120)
            yield client
    finally:  # the worker processes at once (a graceful close waits 8 s), then the scheduler
        os.killpg(workers.pid, signal.SIGKILL)
        scheduler.terminate()
        workers.wait(60)
        scheduler.wait(60)
        log.close()


def test_cli_on_a_dask_scheduler_loads_the_model_once_per_worker(command_cluster, run_inputs,
                                                                  tmp_path):
    model, corpus, local_lines, _ = run_inputs
    client = command_cluster
    copy = tmp_path / "bass.json"  # a model file these workers have not loaded yet
    copy.write_bytes(model.read_bytes())

    def count_model_loads():
        import wsd.annotate.annotator as annotator

        load = annotator.annotator_from_model
        annotator.loads = 0

        def counted(loaded):
            annotator.loads += 1
            return load(loaded)

        annotator.annotator_from_model = counted

    def model_loads():
        import wsd.annotate.annotator as annotator

        return annotator.loads

    client.run(count_model_loads)
    with distributed.get_task_stream(client) as tasks:
        result = run("annotate", str(corpus), "--model", str(copy), "--out",
                     str(tmp_path / "out"), "--partition-size", "4", "--quiet",
                     "--scheduler", client.scheduler.address)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert output_lines(tmp_path / "out") == local_lines
    partitions = [t for t in tasks.data if t["key"].startswith("annotate_partition")]
    assert len(partitions) == 16 and len({t["worker"] for t in partitions}) == 2
    assert list(client.run(model_loads).values()) == [1, 1]  # 16 tasks, 2 loads


def test_cli_on_a_dask_scheduler_stopped_with_ctrl_c_resumes_in_one_process(
        command_cluster, tmp_path, run_cli):  # fmt: skip
    model = save_bass_model(tmp_path / "bass.json")
    corpus, expected = long_run_corpus(tmp_path, model)
    args = long_run_arguments(corpus, model, tmp_path / "out")
    returncode, err = stop_after_first_partition(
        (*args, "--scheduler", command_cluster.scheduler.address), tmp_path / "out",
        signal.SIGINT)  # fmt: skip
    assert returncode == 130 and "Traceback" not in err, err
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["status"] == "interrupted"
    assert 1 <= len(manifest["partitions"]) < LONG_RUN_PARTITIONS
    result = run_cli("annotate", *args)
    assert result.returncode == 0, result.stderr
    assert output_lines(tmp_path / "out") == expected


@pytest.mark.skipif(not (has_nltk_resource("wordnet")
                         and has_nltk_resource("averaged_perceptron_tagger_eng")),
                    reason="NLTK wordnet / averaged_perceptron_tagger_eng data absent")
def test_cli_allwords_on_dask_saves_the_model_file_of_one_process(command_cluster, tmp_path,
                                                                  monkeypatch):
    from test_allwords import _bank_sentences, _corpus

    import wsd.cluster
    from wsd.cli import main

    xml = _corpus(tmp_path, "toy", [_bank_sentences(8), _bank_sentences(8, offset=1)])
    tasks_per_run = []
    cluster_client = wsd.cluster.dask_client

    @contextlib.contextmanager
    def watched_client(workers, scheduler):  # records the tasks each cluster ran
        with cluster_client(workers, scheduler) as client:
            with distributed.get_task_stream(client) as tasks:
                yield client
            tasks_per_run.append(tasks.data)

    monkeypatch.setattr(wsd.cluster, "dask_client", watched_client)

    def train(name, *where):
        args = ["allwords", "--train", str(xml), "--save", str(tmp_path / name),
                "--models", "2", "--epochs", "3", "--quiet", *where]
        assert main(args) == 0
        return (tmp_path / name).read_bytes()

    alone = train("alone.npz")
    assert tasks_per_run == []
    assert train("scheduler.npz", "--scheduler", command_cluster.scheduler.address) == alone
    assert train("workers.npz", "--workers", "2") == alone
    assert len(tasks_per_run) == 2 and all(tasks_per_run), "not trained on the clusters"


class _StuckClient:
    """A client whose event loop a Ctrl-C left stuck: closing it times out."""

    def __init__(self):
        self.calls = []

    def __enter__(self):
        self.calls.append("enter")
        return self

    def __exit__(self, *exc):
        self.calls.append("exit")
        raise TimeoutError("timed out after 60 s.")  # Dask's own timeout, waited out

    def close(self, timeout=None):
        self.calls.append(("close", timeout))
        raise TimeoutError(f"timed out after {timeout} s.")


def test_a_client_stuck_after_ctrl_c_gives_back_the_interrupt_not_a_timeout():
    from wsd.cluster import CLOSE_AFTER_ERROR_S, _closed

    stuck = _StuckClient()
    with pytest.raises(KeyboardInterrupt), _closed(stuck):
        raise KeyboardInterrupt
    assert stuck.calls == ["enter", ("close", CLOSE_AFTER_ERROR_S)]  # not the 60 s exit
    with pytest.raises(TimeoutError), _closed(_StuckClient()):  # no error: the usual exit,
        pass  # whose failure is reported
