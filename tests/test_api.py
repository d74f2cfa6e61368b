"""The system protocol (``wsd.api``) and the registry of model-file formats: callers choose
what to do with a model by its ``scope``, and ``load_model`` reads a registered format it
knows nothing else about."""

import pytest

from wsd import persistence
from wsd.annotate.annotator import AllWordsAnnotator, OneWordAnnotator, annotator_from_model
from wsd.api import ALL_WORDS, ONE_WORD, WSDSystem, scope_of
from wsd.corpora.bundled import load_bundled
from wsd.learners.multiclass import MulticlassAveragedPerceptron
from wsd.systems.allwords import AllWordsWSD
from wsd.systems.named import SystemSettings, make_system


@pytest.fixture(scope="module")
def one_word():
    return make_system("averaged", SystemSettings(epochs=2)).fit(load_bundled("bass"))


def test_both_families_are_systems_with_their_scope(one_word):
    assert isinstance(one_word, WSDSystem) and scope_of(one_word) == ONE_WORD
    assert isinstance(AllWordsWSD(), WSDSystem) and scope_of(AllWordsWSD()) == ALL_WORDS


def test_a_learner_or_a_name_has_no_scope():
    assert scope_of(MulticlassAveragedPerceptron()) is None
    assert scope_of("lesk") is None and scope_of(None) is None


def test_the_annotator_follows_the_scope(one_word):
    assert isinstance(annotator_from_model(one_word), OneWordAnnotator)
    assert isinstance(annotator_from_model(AllWordsWSD()), AllWordsAnnotator)
    with pytest.raises(ValueError, match="cannot use a MulticlassAveragedPerceptron model"):
        annotator_from_model(MulticlassAveragedPerceptron())


class _Counted:
    """A stand-in model family with a file format of its own: the count of lines after the
    magic."""

    def __init__(self, lines: int) -> None:
        self.lines = lines


def test_load_model_reads_a_registered_format_by_its_magic(tmp_path, monkeypatch):
    monkeypatch.setattr(persistence, "_FORMATS", list(persistence._FORMATS))
    persistence.register_format(b"COUNTED\n", _Counted,
                                lambda path: _Counted(len(path.read_bytes().split(b"\n")) - 2))
    path = tmp_path / "model.counted"
    path.write_bytes(b"COUNTED\none\ntwo\nthree\n")
    assert persistence.load_model(path).lines == 3
    assert persistence.load_model(path, expected=_Counted).lines == 3
    with pytest.raises(ValueError, match=r"model\.counted' holds a _Counted model, not an "
                                         r"AllWordsWSD \(from `wsd allwords --save`\)"):
        persistence.load_model(path, expected=AllWordsWSD)


def test_the_all_words_format_is_registered_by_its_own_module():
    import wsd.systems.allwords.system  # noqa: F401  (registers the .npz format)

    (npz,) = [f for f in persistence._FORMATS if f.cls is AllWordsWSD]
    assert npz.magic == b"PK\x03\x04" and npz.load == AllWordsWSD.from_npz


def test_a_one_word_system_explains_only_its_own_word(one_word):
    """``explain`` had answered *bass.fish* for an instance of *bank*; ``predict`` refused it."""
    from wsd.instance import Instance

    bank = Instance.from_text("He sat on the <<bank>>.")
    for answer in (lambda: one_word.predict([bank]), lambda: one_word.explain(bank)):
        with pytest.raises(ValueError, match="trained for bass only"):
            answer()
    assert one_word.explain(Instance.from_text("He caught a <<bass>>.")).sense.startswith("bass.")


def test_a_one_word_system_fits_and_predicts_a_numpy_array_of_instances(one_word):
    """``if not instances`` had failed on an array (scikit-learn's cross_val_score passes X so)."""
    import numpy as np

    from wsd.systems.named import SystemSettings, make_system

    data = load_bundled("bass")
    array = np.empty(len(data), dtype=object)
    array[:] = data
    system = make_system("averaged", SystemSettings(epochs=2)).fit(array)
    assert system.predict(array[:5]) == one_word.predict(data[:5])
    with pytest.raises(ValueError, match="no training instances"):
        make_system("averaged", SystemSettings(epochs=2)).fit(array[:0])


def test_a_one_word_system_names_what_it_takes_when_given_text(one_word):
    """Text, one instance or None had failed deep inside (*'str' object has no attribute
    'lemma'*) or given [] silently."""
    from wsd.instance import Instance

    bass = Instance.from_text("He caught a <<bass>>.")
    for call, message in ((lambda: one_word.predict("text"), "not a str"),
                          (lambda: one_word.predict(["text"]), "not str"),
                          (lambda: one_word.predict(bass), "not one Instance: give \\[instance\\]"),
                          (lambda: one_word.predict(None), "not a NoneType"),
                          (lambda: one_word.explain("text"), "explain takes an instance"),
                          (lambda: one_word.fit(["a", "b"]), "fit takes instances")):
        with pytest.raises(TypeError, match=message):
            call()
    assert one_word.predict([]) == [] and one_word.predict((bass,)) == one_word.predict([bass])
