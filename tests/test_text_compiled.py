"""The fast raw-text path gives NLTK's answers: the Treebank tokenizer copy, the perceptron
tagger copy and the compiled lexicon (``wsd.knowledge.compiled``) against NLTK itself, and
whole texts disambiguated through the compiled lexicon and through NLTK."""

import json
import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_allwords import _bank_sentences, _corpus, _load

from wsd.resources import has_nltk_resource
from wsd.text.treebank import span_tokenize

HAS_WORDNET = has_nltk_resource("wordnet")
HAS_TAGGER = has_nltk_resource("averaged_perceptron_tagger_eng")
needs_both = pytest.mark.skipif(not (HAS_WORDNET and HAS_TAGGER),
                                reason="NLTK wordnet or averaged_perceptron_tagger_eng data absent")
TEXT = ('We ate ice cream in New York, then looked up the banks\' rates. "Earth\'s crust," '
        "she said, (roughly) 3.5 km-deep -- isn't it? The geese were flying over 1984's "
        "best-selling books; Dr. Smith can't cannot gonna stop.\nThe pitchers threw faster "
        "balls than ever, and the court ruled on the interest.\nOf the and or.")


def _nltk_spans(text):
    from nltk.tokenize import TreebankWordTokenizer

    try:
        return list(TreebankWordTokenizer().span_tokenize(text))
    except ValueError:
        return "error"


def _our_spans(text):
    try:
        return span_tokenize(text)
    except ValueError:
        return "error"


def test_treebank_copy_on_hand_written_text():
    for line in [*TEXT.splitlines(), "", '"Quoted" and \'\'twice\'\' said.', "A ... B!? C;D"]:
        assert _our_spans(line) == _nltk_spans(line)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list("ab Cd\"'`(),.:;!?-$%&@#[]{}<>0123\n\t")
                               + ["can", "not", "n't", "'ll", "gon", "na", "'t", "is"]),
                max_size=30))
def test_treebank_copy_matches_nltk(pieces):
    text = "".join(pieces)
    assert _our_spans(text) == _nltk_spans(text)


def test_treebank_rules_left_out_only_where_they_cannot_apply():
    """A rule runs only where the text holds what its pattern needs (a contraction's word in
    any case; in non-ASCII text every contraction, as an ignored case matches the dotless ı)."""
    from nltk.tokenize import TreebankWordTokenizer

    from wsd.text.treebank import tokenize

    for text in ["I CanNot go, gimme 'Tis it", "'twas D'ye MORE'N wanna go", "gımme gonna",
                 "Gotta lemme cannot.", 'He said "no" (twice): it\'s done\'', "a--b ... ;"]:
        assert tokenize(text) == TreebankWordTokenizer().tokenize(text), text


@pytest.mark.skipif(not HAS_TAGGER, reason="NLTK averaged_perceptron_tagger_eng data absent")
def test_sentences_tagged_together_as_one_by_one():
    from wsd.text.tagger import penn_tags, sentences_penn_tags

    sentences = [s.split() for s in TEXT.splitlines()] + [[], ["Bank"], "zzq the ran".split()]
    assert sentences_penn_tags(sentences) == [penn_tags(tokens) for tokens in sentences]


def test_sentences_without_tokens_need_no_tagger(monkeypatch):
    import wsd.text.tagger as tagger

    def missing():
        raise AssertionError("the tagger was loaded")

    monkeypatch.setattr(tagger, "_tagger", missing)
    assert tagger.sentences_penn_tags([[], []]) == [[], []]
    assert tagger.sentences_penn_tags([]) == []


@pytest.mark.skipif(not HAS_TAGGER, reason="NLTK averaged_perceptron_tagger_eng data absent")
@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["the", "The", "bank", "banks", "run", "runs", "1984", "12",
                                 "well-known", "-x", "quickly", ",", ".", "Smith", "ate",
                                 "ice", "cream", "zzzq", "", "A"]), max_size=15))
def test_tagger_copy_matches_nltk_pos_tag(tokens):
    import nltk

    from wsd.text.tagger import penn_tags

    assert penn_tags(tokens) == [tag for _, tag in nltk.pos_tag(tokens)]


@pytest.fixture(scope="module")
def lexicon():
    """The compiled lexicon in the user's cache (compiled here once per machine if missing)."""
    if not (HAS_WORDNET and HAS_TAGGER):
        pytest.skip("NLTK wordnet or averaged_perceptron_tagger_eng data absent")
    from wsd.knowledge import lexicon_compiler

    found = lexicon_compiler.ensure()
    assert found is not None
    return found


def _sample_forms(wordnet) -> list[tuple[str, str]]:
    """Words to look up: exception forms, a sample of lemmas, their inflections, misses."""
    rng = random.Random(0)
    forms = []
    for letter in "nvar":
        exceptions = sorted(wordnet._exception_map[letter])
        names = sorted(n for n in wordnet.all_lemma_names(letter))
        picked = rng.sample(exceptions, min(200, len(exceptions))) + rng.sample(names, 300)
        inflected = [n + suffix for n in picked[-100:] for suffix in ("s", "es", "ed", "ing",
                                                                      "er", "est", "men")]
        forms += [(f, letter) for f in picked + inflected + ["zzzq", "", "ies", "s"]]
    return forms


@needs_both
def test_base_forms_kept_per_form_answer_as_computed_and_stay_bounded(lexicon, monkeypatch):
    """``_morphy`` keeps each form's answer: the same as computed afresh, a caller's list is its
    own, and the table starts afresh when it is full."""
    from nltk.corpus import wordnet

    from wsd.knowledge import compiled

    monkeypatch.setattr(compiled, "MAX_KEPT_FORMS", 50)
    monkeypatch.setattr(lexicon, "_base_forms", {})
    for form, letter in _sample_forms(wordnet)[:400]:
        first = lexicon._morphy(form, letter)
        first.append("changed by the caller")
        assert lexicon._morphy(form, letter) == list(lexicon._base_forms_of(form, letter, True))
        assert "changed by the caller" not in lexicon._morphy(form, letter)
        assert len(lexicon._base_forms) <= 50


@needs_both
def test_lemmas_spelled_as_a_form_read_from_rows_as_nltk_lists_them(lexicon, monkeypatch):
    """``spelled_lemmas`` of the compiled rows against NLTK's synset and lemma objects, and
    ``tagged_count`` / ``only_proper`` over it against their sums written from NLTK's."""
    from nltk.corpus import wordnet

    from wsd.knowledge import lexicon as lexicon_module

    def nltk_pairs(form, letter):
        return [(lemma.name(), lemma.count()) for synset in wordnet.synsets(form, letter)
                for lemma in synset.lemmas() if lemma.name().lower() == form.lower()]

    forms = _sample_forms(wordnet)[::3] + [("Bank", "n"), ("banks", "n"), ("thomas", "n"),
                                           ("US", "n"), ("gone", "v"), ("better", "a")]
    for form, letter in forms:
        assert lexicon.spelled_lemmas(form, letter) == nltk_pairs(form, letter), (form, letter)
    monkeypatch.setattr(lexicon_module, "wordnet", lambda: lexicon)
    for form, letter in forms[:300]:
        pairs = nltk_pairs(form, letter)
        counted = lexicon_module._semcor_count.__wrapped__  # tagged_count's, uncached
        assert counted(form, letter, False) == sum(c for _, c in pairs)
        assert counted(form, letter, True) == sum(c for name, c in pairs if name == form)
        lower = [name for name, _ in pairs if name.lower() == form]
        assert lexicon_module.only_proper.__wrapped__(form, letter) == (
            bool(lower) and all(name[:1].isupper() for name in lower)), (form, letter)


@needs_both
def test_compiled_wordnet_answers_like_nltk(lexicon):
    from nltk.corpus import wordnet

    for form, letter in _sample_forms(wordnet):
        assert lexicon._morphy(form, letter) == wordnet._morphy(form, letter), (form, letter)
        assert lexicon.morphy(form) == wordnet.morphy(form), form
        ours, theirs = lexicon.synsets(form, letter), wordnet.synsets(form, letter)
        assert [s.name() for s in ours] == [s.name() for s in theirs], (form, letter)
        for our, their in zip(ours[:2], theirs[:2], strict=False):
            assert (our.pos(), our.offset(), our.lexname(), our.definition(), our.examples()) \
                == (their.pos(), their.offset(), their.lexname(), their.definition(),
                    their.examples())  # fmt: skip
            assert [(lem.name(), lem.count()) for lem in our.lemmas()] == \
                [(lem.name(), lem.count()) for lem in their.lemmas()]  # fmt: skip
    assert set(lexicon.all_lemma_names("v")) == set(wordnet.all_lemma_names("v"))


@needs_both
def test_compiled_senses_related_glosses_and_signatures_match_nltk(lexicon):
    from wsd.knowledge.inventory import WordNetInventory
    from wsd.systems.lesk import SimplifiedLesk

    ours, theirs = WordNetInventory(wordnet=lexicon), WordNetInventory()
    our_lesk = SimplifiedLesk(ours, related=True)
    their_lesk = SimplifiedLesk(theirs, related=True)
    words = [("bank", "NOUN"), ("earth", "NOUN"), ("Earth", "NOUN"), ("run", "VERB"),
             ("ran", "VERB"), ("good", "ADJ"), ("well", "ADV"), ("ice_cream", "NOUN"),
             ("look_up", "VERB"), ("ddc", "NOUN"), ("geese", "NOUN"), ("new_york", "NOUN"),
             ("interest", "NOUN"), ("pitcher", "NOUN"), ("court", "NOUN"), ("quick", "ADJ")]
    for lemma, pos in words:
        senses = ours.senses(lemma, pos)
        assert senses == theirs.senses(lemma, pos), lemma
        for sense in senses:
            # the same glosses; NLTK's order changes from one process to the next (its
            # pointers are sets of (pos, offset) and str hashes are salted)
            assert sorted(ours.related_glosses(sense)) == sorted(theirs.related_glosses(sense))
            assert our_lesk._word_set(sense) == their_lesk._word_set(sense), sense.id


def test_senses_read_from_the_compiled_rows_are_those_of_its_lemma_objects(lexicon):
    """``WordNetInventory.senses`` from the rows (``exact_senses``) against the senses of the
    lemma objects it had built: lemmas, their inflections, case variants, several words."""
    from wsd.knowledge.inventory import WordNetInventory

    inventory = WordNetInventory(wordnet=lexicon)
    rng = random.Random(0)
    words = ["bank", "Earth", "earth", "ran", "geese", "ice cream", "look_up", "New York",
             "ddc", "zzzq", "", "a", "US", "best", "ai"]
    for letter in "nvar":
        words += rng.sample(sorted(lexicon.all_lemma_names(letter)), 150)
    for word in words + [w + "s" for w in words[-100:]]:
        for pos in (None, "NOUN", "VERB", "ADJ", "ADV"):
            by_rows = inventory.senses(word, pos)
            by_objects = [inventory._sense(lemma) for lemma in inventory.lemmas(word, pos)]
            assert by_rows == by_objects, (word, pos)
    assert inventory._exact_senses("bank", "n") and not inventory._exact_senses("geese", "n")


def _annotate(model, cache_dir) -> list:
    code = ("import json, sys; from wsd.systems.allwords.plaintext import annotate_text; "
            "print(json.dumps(annotate_text(sys.argv[1], sys.argv[2])))")
    env = {**os.environ, "WSD_CACHE_DIR": str(cache_dir)}
    result = subprocess.run([sys.executable, "-c", code, str(model), TEXT], env=env,
                            capture_output=True, text=True, check=True)  # fmt: skip
    return json.loads(result.stdout)


@needs_both
def test_text_through_the_compiled_lexicon_as_through_nltk(lexicon, tmp_path):
    from wsd.systems.allwords import AllWordsWSD

    # the default features (supersenses, lemmas), sense prior, gloss overlap and discourse;
    # no backoff margin, so that an unsure classifier still answers
    model = AllWordsWSD(n_models=1, epochs=5, margin=0.0).fit(
        _load(_corpus(tmp_path, "t", [_bank_sentences(12)])))
    path = model.save(tmp_path / "m.npz")
    fast = _annotate(path, lexicon.path.parent)
    slow = _annotate(path, tmp_path / "empty-cache")  # no compiled lexicon: NLTK's WordNet
    assert not (tmp_path / "empty-cache").exists()  # the Python API never compiles it
    assert fast == slow
    words = {w["token"]: w for record in fast for w in record["words"]}
    assert words["ice cream"]["lemma"] == "ice_cream" and words["geese"]["lemma"] == "goose"
    assert words["banks"]["source"] == "classifier"  # classifier + prior + gloss overlap


def test_a_lexicon_compiled_from_changed_or_missing_files_is_not_used(tmp_path):
    from wsd.knowledge.compiled import _sources_unchanged

    source = tmp_path / "wordnet.zip"
    source.write_bytes(b"wordnet")
    stat = source.stat()
    meta = {"sources": [{"path": str(source), "size": stat.st_size,
                         "mtime_ns": stat.st_mtime_ns}]}  # fmt: skip
    assert _sources_unchanged(meta)
    source.write_bytes(b"another wordnet")
    assert not _sources_unchanged(meta)
    source.unlink()
    assert not _sources_unchanged(meta)
    assert not _sources_unchanged({"sources": []})


def test_the_cache_file_follows_nltk_data_and_refuses_other_versions(tmp_path, monkeypatch,
                                                                     capsys):
    import numpy as np

    from wsd.knowledge import compiled

    monkeypatch.setenv(compiled.CACHE_ENV, str(tmp_path))
    monkeypatch.setenv("NLTK_DATA", "/one")
    one = compiled.cache_path()
    monkeypatch.setenv("NLTK_DATA", "/two")
    assert compiled.cache_path() != one and compiled.cache_path().parent == tmp_path
    meta = json.dumps({"version": compiled.FORMAT_VERSION + 1, "sources": []}).encode()
    np.savez(compiled.cache_path(), meta=np.frombuffer(meta, dtype=np.uint8))
    with pytest.raises(ValueError, match="version"):
        compiled.CompiledWordNet(compiled.cache_path())
    compiled.active.cache_clear()
    try:
        assert compiled.active() is None  # ignored with a notice: NLTK answers
        compiled.active.cache_clear()  # as ensure() looks again under its lock
        assert compiled.active() is None
    finally:
        compiled.active.cache_clear()
    assert capsys.readouterr().err.count("wsd: ignoring the compiled lexicon") == 1


@needs_both
def test_a_sense_key_is_found_among_its_lemmas_senses_as_the_dict_of_all_keys_finds_it(
        lexicon, monkeypatch):  # fmt: skip
    """Every key of WordNet (a key *A* and *a* share gives the dict's, the last), and keys
    WordNet lacks (KeyError from both)."""
    from wsd.knowledge import compiled

    monkeypatch.setattr(compiled, "SCANS", 10**9)  # every key found by a scan
    keys = lexicon._lemma_keys
    assert [lexicon._lemma_number(key) for key in keys] == \
        [lexicon._lemma_by_key[key] for key in keys]  # fmt: skip
    assert lexicon.lemma_for_key("a%1:10:00::").name() == "a"
    for key in ("Bass%1:13:02::", "bass%9:13:02::", "bass", "%1", ""):
        with pytest.raises(ValueError, match="not a WordNet 3.0 sense key"):
            lexicon.lemma_for_key(key)


@needs_both
def test_the_compiled_taggers_weights_are_nltks(lexicon):
    """Read per feature from the compiled arrays: every feature's weights, as NLTK holds them."""
    import numpy as np
    from nltk.tag.perceptron import PerceptronTagger

    from wsd.text.tagger import PerceptronTags

    tagger = PerceptronTagger()
    weights, tagdict, classes = lexicon.tagger_params()
    assert len(weights) == len(tagger.model.weights) and tagdict == tagger.tagdict
    assert classes == sorted(tagger.classes)
    for feature, row in tagger.model.weights.items():
        assert weights[feature] == row, feature
    assert "i word zzzq-not-a-word" not in weights and weights.get("") is None
    # the rows the compiled tagger writes (no dict), as the dicts' weights give them
    compiled_rows = PerceptronTags(weights, tagdict, classes)
    nltk_rows = PerceptronTags(tagger.model.weights, tagdict, classes)
    for feature in [*list(tagger.model.weights)[::97], "i word zzzq-not-a-word", "bias"]:
        found, expected = np.full(len(classes), 7.0), np.full(len(classes), 7.0)
        assert compiled_rows._weights_into(feature, found) == nltk_rows._weights_into(
            feature, expected) == (feature in tagger.model.weights)
        assert np.array_equal(found, expected)


def test_compiled_members_are_mapped_as_numpy_reads_them(tmp_path):
    """Arrays of an uncompressed ``.npz`` mapped from the file (an empty one, UTF-8 text,
    floats) equal ``np.load``'s; a compressed member, or a 2-d one, is refused."""
    import numpy as np

    from wsd.knowledge.compiled import _mapped_members

    arrays = {"a": np.arange(5, dtype=np.int64), "empty": np.zeros(0, np.float32),
              "text": np.frombuffer("café\nbank".encode(), np.uint8),
              "wide": np.linspace(0, 1, 7)}  # fmt: skip
    np.savez(tmp_path / "plain.npz", **arrays)
    mapped = _mapped_members(tmp_path / "plain.npz")
    assert sorted(mapped) == sorted(arrays)
    for name, array in arrays.items():
        assert mapped[name].dtype == array.dtype and np.array_equal(mapped[name], array), name
    np.savez_compressed(tmp_path / "packed.npz", **arrays)
    np.savez(tmp_path / "square.npz", m=np.eye(2))
    for name in ("packed.npz", "square.npz"):
        with pytest.raises(ValueError, match="compressed|1-d"):
            _mapped_members(tmp_path / name)


@needs_both
def test_a_synset_is_found_among_its_lemmas_synsets_as_the_dict_of_all_names_finds_it(
        lexicon, monkeypatch):  # fmt: skip
    from wsd.knowledge import compiled

    monkeypatch.setattr(compiled, "SCANS", 10**9)  # every name found by a scan
    names = lexicon._synset_names
    assert [lexicon._synset_number(name) for name in names] == \
        [lexicon._synset_by_name[name] for name in names]  # fmt: skip
    assert lexicon.synset("huge.s.01").definition().startswith("unusually great in size")
    for name in ("Bass.n.01", "bass.x.01", "bass.n.99", "bass", ""):
        with pytest.raises(KeyError):
            lexicon.synset(name)


@needs_both
def test_after_enough_scans_keys_and_names_are_found_in_the_dicts_of_all(lexicon, monkeypatch):
    from wsd.knowledge import compiled

    fresh = compiled.CompiledWordNet(lexicon.path)
    monkeypatch.setattr(compiled, "SCANS", 3)
    answers = [number for _ in range(3) for number in (
        fresh._lemma_number("bass%1:13:02::"), fresh._synset_number("bass.n.01"))]  # fmt: skip
    assert "_lemma_by_key" in fresh.__dict__ and "_synset_by_name" in fresh.__dict__
    assert answers == [lexicon._lemma_by_key["bass%1:13:02::"],
                       lexicon._synset_by_name["bass.n.01"]] * 3  # fmt: skip
