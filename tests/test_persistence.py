"""Versioned JSON model files: round trips, nesting, and clear errors for wrong files."""

import json
import pickle

import pytest

from wsd.learners import MulticlassAveragedPerceptron, MulticlassPerceptron, Perceptron
from wsd.persistence import (
    FORMAT,
    VERSION,
    load_model,
    object_from_dict,
    register_model,
    save_model,
)

X = [{"w=fish": 1.0, "w=striped": 0.5}, {"w=play": 1.0, "w=jazz": 2.0},
     {"w=fish": 1.0, "w=smoked": 1.0}, {"w=play": 0.5, "w=guitar": 1.0},
     {"w=sea": 1.0, "pos=NN": 1.0}, {"w=band": 1.0, "pos=NN": 1.0}]
Y = ["bass%fish", "bass%music", "bass%fish", "bass%music", "bass%fish", "bass%music"]


@register_model
class TinyPipeline:
    """A composite model as a pipeline would be: its own settings plus a nested learner."""

    def __init__(self, prefix, learner):
        self.prefix = prefix
        self.learner = learner

    def to_dict(self):
        return {"kind": "TinyPipeline", "prefix": self.prefix, "learner": self.learner.to_dict()}

    @classmethod
    def from_dict(cls, data):
        return cls(data["prefix"], object_from_dict(data["learner"]))


@pytest.fixture
def model():
    return MulticlassAveragedPerceptron(epochs=3, seed=4).fit(X, Y)


def test_round_trip_predicts_identically_and_keeps_training_state(model, tmp_path):
    path = save_model(model, tmp_path / "bass.json")
    header = json.loads(path.read_text(encoding="utf-8"))
    assert (header["format"], header["version"], header["kind"]) == (
        FORMAT, VERSION, "MulticlassAveragedPerceptron")
    loaded = load_model(path)
    assert type(loaded) is MulticlassAveragedPerceptron
    assert loaded.get_params() == model.get_params()
    assert loaded.predict(X) == model.predict(X)
    assert (loaded.decision_function(X) == model.decision_function(X)).all()
    assert loaded.weights() == model.weights()
    assert loaded.history_ == model.history_
    # Training continues exactly as if the model had never left memory.
    assert loaded.partial_fit(X, Y).weights() == model.partial_fit(X, Y).weights()


def test_labels_and_feature_names_survive_json(tmp_path):
    features = [{"wörd=Bäss": 1.5, "3": 1.0}, {"wörd=bass": 1.0, "": 2.0}]
    model = MulticlassPerceptron(epochs=2).fit(features, [7, 3])
    loaded = MulticlassPerceptron.load(model.save(tmp_path / "m.json"))
    assert loaded.classes_ == [3, 7]
    assert loaded.predict(features) == model.predict(features) == [7, 3]
    assert loaded.weights() == model.weights()


def test_unfitted_learner_round_trip(tmp_path):
    loaded = load_model(save_model(MulticlassPerceptron(epochs=4, seed=9), tmp_path / "u.json"))
    assert loaded.get_params()["epochs"] == 4 and loaded.get_params()["seed"] == 9
    assert not hasattr(loaded, "classes_")


def test_nested_models_round_trip(model, tmp_path):
    path = save_model(TinyPipeline("ctx", model), tmp_path / "pipeline.json")
    loaded = load_model(path)
    assert loaded.prefix == "ctx"
    assert loaded.learner.predict(X) == model.predict(X)


def test_load_checks_the_expected_kind(model, tmp_path):
    path = model.save(tmp_path / "m.json")
    with pytest.raises(ValueError, match=r"m\.json' holds a MulticlassAveragedPerceptron "
                                         r"model, not a Perceptron$"):
        Perceptron.load(path)
    assert isinstance(MulticlassPerceptron.load(path), MulticlassAveragedPerceptron)


def write(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("model.pkl", pickle.dumps({"weights": 1}), "pickle"),
        ("notes.txt", "weights: 1, 2, 3", "neither an .npz archive .* nor a JSON object"),
        ("model.npz", b"\x93NUMPY not a zip", "neither an .npz archive"),
        ("empty.json", b"", "is empty"),
        ("utf16.json", '{"format": 1}'.encode("utf-16"), "not UTF-8"),
        ("hand.json", '{"format": ', "not a JSON model file: .*hand.json:1: not valid JSON"),
        ("other.json", json.dumps({"format": "sklearn", "version": 1}), "not a wsd model file"),
        ("list.json", "[1, 2]", "not a wsd model file"),
        ("future.json", json.dumps({"format": FORMAT, "version": VERSION + 1, "kind": "X"}),
         f"version {VERSION + 1}.*upgrade"),
        ("noversion.json", json.dumps({"format": FORMAT, "kind": "X"}), "no valid format version"),
        ("kind.json", json.dumps({"format": FORMAT, "version": 1, "kind": "Oracle"}),
         "unknown model kind 'Oracle'.*MulticlassPerceptron"),
        ("broken.json", json.dumps({"format": FORMAT, "version": 1,
                                    "kind": "MulticlassPerceptron", "params": {},
                                    "state": {"classes": ["a", "b"]}}),
         "could not be loaded"),
    ],
)
def test_wrong_files_give_clear_errors_naming_the_file(tmp_path, name, content, message):
    path = write(tmp_path, name, content)
    with pytest.raises(ValueError, match=message) as error:
        load_model(path)
    assert name in str(error.value)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("class_counts", [1, 1, 7], "state.class_counts has 3 values for 2 classes"),
    ("class_counts", ["7", True], r"state.class_counts\[0\] must be an integer from 0"),
    ("class_counts", [2, -1], r"state.class_counts\[1\] must be an integer from 0"),
])
def test_a_model_files_per_class_lists_are_checked_at_load(tmp_path, field, value, message):
    """A list of class counts too long had loaded and failed at the first prediction with an
    IndexError; ``"7"`` and ``true`` had been read as counts."""
    model = MulticlassPerceptron(epochs=1, prior=1.0).fit([{"x": 1}, {"y": 1}], ["a", "b"])
    path = save_model(model, tmp_path / "m.json")
    data = json.loads(path.read_text())
    data["state"][field] = value
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=f"m.json' could not be loaded: {message}"):
        load_model(path)


@pytest.mark.parametrize("path", [None, 3, b"model.json"])
def test_a_path_of_another_type_is_a_type_error_naming_the_argument(path):
    with pytest.raises(TypeError, match="load_model takes the model file's path"):
        load_model(path)


def test_a_path_with_a_tilde_is_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    model = MulticlassPerceptron(epochs=1).fit([{"x": 1}, {"y": 1}], ["a", "b"])
    save_model(model, tmp_path / "m.json")
    assert load_model("~/m.json").predict([{"x": 1}]) == model.predict([{"x": 1}])


def test_save_paths_name_the_file_given_never_the_temporary_one(tmp_path, monkeypatch):
    """A missing folder had named the hidden ``.x.json.*.tmp``; ``~`` had been a folder of the
    working directory; ``""`` had failed renaming over ``.``."""
    model = MulticlassPerceptron(epochs=1).fit([{"x": 1}, {"y": 1}], ["a", "b"])
    with pytest.raises(FileNotFoundError) as error:
        save_model(model, tmp_path / "nodir" / "x.json")
    assert error.value.filename == str(tmp_path / "nodir" / "x.json")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert save_model(model, "~/home.json") == tmp_path / "home.json"
    assert load_model(tmp_path / "home.json").predict([{"x": 1}]) == model.predict([{"x": 1}])
    with pytest.raises(ValueError, match="names no file"):
        save_model(model, "")
    with pytest.raises(ValueError, match="path is empty"):
        load_model("")


def test_a_write_protected_file_is_not_replaced(tmp_path, monkeypatch):
    """The rename that writes a file had replaced one the user may not write (``chmod 444``),
    where a shell's > refuses."""
    import os

    from wsd.persistence import check_output_path

    model = MulticlassPerceptron(epochs=1).fit([{"x": 1}, {"y": 1}], ["a", "b"])
    kept = tmp_path / "keep.json"
    kept.write_text("mine\n")
    real = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if (
        str(path) == str(kept) and mode & os.W_OK) else real(path, mode, **kw))  # as non-root
    with pytest.raises(ValueError, match="--out '.*keep.json' is write-protected"):
        check_output_path(kept, "--out")
    with pytest.raises(PermissionError, match="write-protected") as error:
        save_model(model, kept)
    assert error.value.filename == str(kept) and kept.read_text() == "mine\n"
    assert not list(tmp_path.glob(".keep.json.*"))


def test_saving_an_unregistered_object_is_refused(tmp_path):
    class Unknown:
        def to_dict(self):
            return {"kind": "Unknown"}

    with pytest.raises(ValueError, match="not a registered model kind"):
        save_model(Unknown(), tmp_path / "x.json")


def test_every_model_kind_loads_in_a_fresh_process_that_imported_nothing():
    """``load_model`` must find each registered class itself (a user loads a voted-perceptron
    file without importing ``wsd.learners.voted``); the kinds are read from the source."""
    import ast
    import subprocess
    import sys
    from pathlib import Path

    import wsd

    kinds = sorted(
        node.name
        for path in Path(wsd.__file__).parent.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and any(
            "register_model" in ast.unparse(decorator) for decorator in node.decorator_list)
    )  # fmt: skip
    assert {"AllWordsWSD", "MulticlassVotedPerceptron", "SupervisedWSD"} <= set(kinds)
    check = ("import sys; from wsd.persistence import model_kind; "
             "print(' '.join(model_kind(k).__name__ for k in sys.argv[1:]))")
    result = subprocess.run([sys.executable, "-c", check, *kinds], capture_output=True,
                            text=True, check=False)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == kinds
