"""The raw-text path's lookups that replace tables built at every start give the answers of
those tables (hand-made inputs, and random ones against a brute-force reference)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wsd.resources import has_nltk_resource
from wsd.text.readerfeatures import LONGEST_EXPRESSION, ExpressionStarts

needs_wordnet = pytest.mark.skipif(not has_nltk_resource("wordnet"),
                                   reason="needs NLTK's wordnet (nltk.downloader wordnet)")

NAMES = ["new_york", "new_york_city", "new_year's_eve", "a_cappella", "a-one_b",
         "take_place", "take_a_chance", "take_it_on_the_chin_and_more", "ice_cream",
         "ice-cream_soda", "new__double"]


def _longest_by_table(names: list[str], first: str) -> int:
    """The table the reader built before: each expression's first word, its longest length."""
    found: dict[str, int] = {}
    for name in names:
        words = name.split("_")
        if len(words) <= LONGEST_EXPRESSION:
            found[words[0]] = max(found.get(words[0], 0), len(words))
    return found.get(first, 0)


def _pair_by_table(names: list[str], first: str, second: str) -> bool:
    return (first, second) in {tuple(name.split("_")[:2]) for name in names}


def test_expression_starts_by_hand():
    starts = ExpressionStarts(NAMES)
    assert starts.has_pair("new", "york") and starts.has_pair("new", "year's")
    assert starts.has_pair("take", "it") and starts.has_pair("new", "")
    assert not starts.has_pair("new", "yor") and not starts.has_pair("york", "city")
    assert not starts.has_pair("a-one", "b_c") and not starts.has_pair("new_york", "city")
    assert starts.has_pair("a-one", "b") and not starts.has_pair("a", "one")
    assert starts.longest("new") == 3 and starts.longest("take") == 3  # 6 words: too long
    assert starts.longest("ice") == 2 and starts.longest("ice-cream") == 2
    assert starts.longest("york") == 0 and starts.longest("new_york") == 0
    assert starts.longest("a") == 2 and starts.longest("") == 0


WORD = st.text(alphabet="ab_-'", min_size=0, max_size=4)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(WORD.filter(lambda w: "_" not in w), min_size=2, max_size=7)
                .map("_".join), max_size=12), WORD, WORD)
def test_expression_starts_match_the_tables_they_replace(names, first, second):
    starts = ExpressionStarts(names)
    assert starts.longest(first) == _longest_by_table(names, first)
    assert starts.longest(first) == _longest_by_table(names, first)  # cached
    assert starts.has_pair(first, second) == _pair_by_table(names, first, second)


def test_a_large_model_files_arrays_are_mapped_from_their_copy_with_the_same_answers(
        tmp_path, monkeypatch):  # fmt: skip
    """Every file is "large" here: the first load writes the copy (named after the members'
    CRCs), the next maps it and answers as the file does; a damaged copy is not used; a
    changed file gets its own copy; only the ``KEEP`` copies used last remain."""
    from test_allwords import QUICK, _bank_sentences, _corpus, _load
    from test_allwords_modelfile import _rewrite

    from wsd.systems.allwords import AllWordsWSD, unpacked
    from wsd.systems.allwords.modelfile import ModelFileError, _read_members

    train = _load(_corpus(tmp_path, "train", [_bank_sentences(12)]))
    test = _load(_corpus(tmp_path, "test", [_bank_sentences(6, offset=12)]))
    system = AllWordsWSD(**QUICK, epochs=3).fit(train)
    path = system.save(tmp_path / "m.npz")
    monkeypatch.setenv("WSD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(unpacked, "MIN_COMPRESSED_BYTES", 0)
    first = AllWordsWSD.load(path)
    copies = list((tmp_path / "cache").glob(f"{unpacked.PREFIX}*"))
    assert len(copies) == 1 and (copies[0] / "coef.npy").is_file()
    mapped = AllWordsWSD.load(path)
    assert all(isinstance(array.base, np.memmap) for array in _read_members(path).values())
    assert mapped.decide(test) == first.decide(test) == system.decide(test)
    (copies[0] / "coef.npy").write_bytes((copies[0] / "coef.npy").read_bytes()[:-4])
    assert AllWordsWSD.load(path).decide(test) == system.decide(test)  # inflated again
    with np.load(path) as archive:
        coef = archive["coef"]
    for n, value in enumerate((np.nan, 0.5)):
        changed = _rewrite(path, tmp_path / f"changed{n}.npz",
                           coef=np.where(np.arange(coef.size) == 0, value, coef)
                           .astype(np.float32))  # fmt: skip
        if n == 0:  # checked as a freshly inflated file, and again when mapped
            for _ in range(2):
                with pytest.raises(ModelFileError, match="non-finite"):
                    AllWordsWSD.load(changed)
        else:
            AllWordsWSD.load(changed)
    left = sorted(p.name for p in (tmp_path / "cache").glob(f"{unpacked.PREFIX}*"))
    assert len(left) == unpacked.KEEP == 2 and copies[0].name not in left


def test_weights_are_checked_by_their_least_and_greatest_value(tmp_path):
    """NaN or an infinity anywhere (first, last, alone, beside the other) is non-finite; a
    weight beyond the bound either way is refused; the bound itself is not."""
    from test_allwords import QUICK, _bank_sentences, _corpus, _load
    from test_allwords_modelfile import _rewrite

    from wsd.systems.allwords import AllWordsWSD
    from wsd.systems.allwords.modelfile import ModelFileError
    from wsd.validation import MAX_WEIGHT_VALUE

    train = _load(_corpus(tmp_path, "train", [_bank_sentences(12)]))
    path = AllWordsWSD(**QUICK, epochs=3).fit(train).save(tmp_path / "m.npz")
    with np.load(path) as archive:
        coef, intercepts = archive["coef"], archive["intercepts"]
    bound = np.float32(MAX_WEIGHT_VALUE)
    cases = [("coef", [np.nan], "non-finite"), ("coef", [-np.inf, np.nan], "non-finite"),
             ("intercepts", [np.inf], "non-finite"), ("coef", [-np.inf], "non-finite"),
             ("coef", [2 * bound], "beyond"), ("intercepts", [-2 * bound], "beyond"),
             ("coef", [bound, -bound], None)]  # fmt: skip
    for n, (name, values, message) in enumerate(cases):
        array = (coef if name == "coef" else intercepts).copy()
        array[: len(values)] = values
        array = array[::-1].copy() if n % 2 else array  # the odd value last
        changed = _rewrite(path, tmp_path / f"c{n}.npz", **{name: array})
        if message is None:
            AllWordsWSD.load(changed)
        else:
            with pytest.raises(ModelFileError, match=message):
                AllWordsWSD.load(changed)


def _depth(value) -> int:
    """Nesting depth, recursively (the reference)."""
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


JSON = st.recursive(st.none() | st.integers() | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=2), inner, max_size=3),
                    max_leaves=30)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(JSON, st.integers(0, 6))
def test_the_json_depth_check_refuses_exactly_what_nests_deeper_than_its_limit(value, limit):
    from wsd.persistence import check_json_depth

    if _depth(value) > limit:
        with pytest.raises(ValueError, match=f"nested more than {limit} levels"):
            check_json_depth(value, "x", limit)
    else:
        check_json_depth(value, "x", limit)


# ---- the raw-text path's per-sentence and per-word caches, and the chunked labeller ------


def _supersenses_one_at_a_time(inst, reach=5):
    """The supersense features as ``Supersenses`` gave them before its per-sentence cache."""
    from wsd.features.supersense import supersense
    from wsd.knowledge.inventory import tag_letter

    words = inst.corpus_lemmas or inst.tokens
    letters = [tag_letter(tag) for tag in inst.pos]
    start, end = inst.span
    features = {}
    for name, positions in (("ss_left", range(start - 1, max(-1, start - 1 - reach), -1)),
                            ("ss_right", range(end, min(len(words), end + reach)))):
        nearest = next((i for i in positions if letters[i] == "n"), None)
        found = supersense(words[nearest], "n") if nearest is not None else None
        features.update({f"{name}={found}": 1.0} if found else {})
    features.update({f"ss_bag={supersense(word, letter)}": 1.0
                     for i, (word, letter) in enumerate(zip(words, letters, strict=True))
                     if letter in ("n", "v") and not start <= i < end and supersense(word, letter)})
    return features


@needs_wordnet
def test_a_sentences_supersenses_are_those_of_its_instances_one_at_a_time():
    from wsd.features import Supersenses
    from wsd.instance import Instance

    tokens = ("The", "fisherman", "caught", "a", "huge", "bass", "and", "played", "the",
              "bass", "at", "the", "bank", "of", "the", "river", "banks")
    tags = ("DT", "NN", "VBD", "DT", "JJ", "NN", "CC", "VBD", "DT", "NN", "IN", "DT", "NN",
            "IN", "DT", "NN", "NNS")
    extractor = Supersenses()
    for i, tag in enumerate(tags):
        if tag[:1] in "NV":
            inst = Instance(id=str(i), tokens=tokens, span=(i, i + 1), lemma=tokens[i].lower(),
                            pos=tags)
            got = extractor(inst)
            assert got == _supersenses_one_at_a_time(inst)
            assert list(got) == list(_supersenses_one_at_a_time(inst))  # in the same order
    inst = Instance(id="x", tokens=tokens, span=(5, 6), lemma="bass", pos=tags)
    assert {"ss_left=noun.person", "ss_bag=noun.person"} <= set(extractor(inst))  # fisherman


@needs_wordnet
def test_the_corpus_lemma_bag_counts_as_a_bag_over_an_instance_of_the_lemmas():
    from dataclasses import replace

    from wsd.features import BagOfWords
    from wsd.instance import Instance
    from wsd.systems.allwords.instance_features import CorpusLemmaBag

    tokens = ("Banks", "were", "banking", "on", "the", "banks", ",", "banks", "!")
    lemmas = ("bank", "be", "bank", "on", "the", "bank", ",", "bank", "!")
    inst = Instance(id="i", tokens=tokens, span=(2, 3), lemma="bank",
                    meta=(("lemmas", lemmas),))
    bag = CorpusLemmaBag(lemmatize=True)
    assert bag(inst) == BagOfWords()(replace(inst, tokens=lemmas, pos=None)) == {"bow=bank": 3.0}
    assert BagOfWords(window=2).counts(tokens, (2, 3)) == {"bow=banks": 1.0}


def _static_before(X, W):
    """The labeller's static scores as ``label_greedy`` summed them before its chunks."""
    return np.where(X[..., None] >= 0, W[np.maximum(X, 0)], 0.0).sum(axis=1)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3000), st.integers(0, 2**31 - 1))
def test_the_chunked_labeller_gives_the_labels_and_scores_of_the_whole_sum(n, seed):
    from wsd.learners import greedylabel

    rng = np.random.default_rng(seed)
    n_labels, n_static, n_tags = 4, 50, 3
    rows = n_static + greedylabel.dynamic_rows(n_labels, n_tags)
    W = rng.normal(size=(rows, n_labels)).astype(np.float32)
    X = rng.integers(-1, n_static, size=(n, 7))
    tags = rng.integers(0, n_tags, size=n)
    starts = np.unique(np.concatenate([[0, n], rng.integers(0, n, size=n // 20)]))
    labels, scores = greedylabel.label_greedy(X, tags, starts, W, n_static, n_tags, 1, 0)
    static = _static_before(X, W)
    assert scores.dtype == static.dtype
    assert all(labels[int(i)] != 1 for i in starts[:-1])  # I never begins a sentence
    old_chunk = greedylabel.CHUNK
    try:
        greedylabel.CHUNK = n + 1  # one chunk: the sum as it was
        whole = greedylabel.label_greedy(X, tags, starts, W, n_static, n_tags, 1, 0)
    finally:
        greedylabel.CHUNK = old_chunk
    assert labels == whole[0] and np.array_equal(scores, whole[1])


def test_the_padded_table_sums_what_the_masked_sum_did():
    from wsd.learners import greedylabel

    W = np.zeros((3 + greedylabel.dynamic_rows(2, 1), 2), dtype=np.float32)  # no dynamic
    W[:3] = [[0.1, -0.2], [0.3, 0.7], [1e-8, 3.0]]
    X = np.array([[0, -1, 2], [-1, -1, -1], [1, 1, 0]])
    _, scores = greedylabel.label_greedy(X, np.zeros(3, dtype=np.int64), np.array([0, 3]), W,
                                         3, 1, 1, 0)
    static = _static_before(X, W)
    assert np.allclose(static, [[0.1 + 1e-8, 2.8], [0, 0], [0.7, 1.2]])
    assert np.array_equal(scores[:, 0], static[:, 0])  # label 0's dynamic rows are zeros


def test_tag_text_pauses_the_cyclic_collector_and_restores_it():
    import gc

    from wsd.systems.allwords import plaintext

    seen = []
    paused = plaintext._cyclic_gc_paused(lambda: seen.append(gc.isenabled()) or 7)
    assert gc.isenabled()
    assert paused() == 7 and seen == [False] and gc.isenabled()
    gc.disable()
    try:
        assert paused() == 7 and not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()

    def fails():
        raise ValueError("bad input")

    with pytest.raises(ValueError, match="bad input"):
        plaintext._cyclic_gc_paused(fails)()
    assert gc.isenabled()


@needs_wordnet
def test_expression_starts_cached_per_pair_answer_as_computed():
    from wsd.text import readerfeatures

    pairs = [("take", "place"), ("took", "place"), ("ice", "creams"), ("new", "york"),
             ("the", "bank"), ("ice", None)]
    first = [readerfeatures.longest_start(a, b) for a, b in pairs]
    uncached = [readerfeatures.longest_start.__wrapped__(a, b) for a, b in pairs]
    assert first == uncached == [readerfeatures.longest_start(a, b) for a, b in pairs]
    assert first[0] >= 2 and first[1] >= 2 and first[2] >= 2 and first[4] == 0 == first[5]


@needs_wordnet
def test_the_raw_text_answers_and_the_systems_share_one_inventory_per_reader():
    from wsd.knowledge.inventory import WordNetInventory, shared_inventory, wordnet_reader
    from wsd.systems.allwords import plaintext
    from wsd.systems.allwords.predict import Knowledge

    reader = wordnet_reader()
    shared = shared_inventory(reader)
    assert Knowledge().inventory() is shared is plaintext._inventory()
    alone = WordNetInventory(wordnet=reader)  # each lemma's senses as a fresh one reads them
    for lemma, pos in (("bass", "NOUN"), ("catch", "VERB"), ("huge", "ADJ"), ("banks", None)):
        assert shared.senses(lemma, pos) == alone.senses(lemma, pos) != []


def test_the_raw_text_inventory_follows_the_reader_active_now(monkeypatch):
    """The reader changes when the compiled lexicon is built or dropped: the raw-text path's
    inventory, Lesk and gloss systems follow it, and stay shared while it is the same."""
    from wsd.knowledge.inventory import shared_inventory
    from wsd.systems.allwords import plaintext

    readers = [object(), object()]
    monkeypatch.setattr(plaintext, "wordnet", lambda: readers[0])
    first = (plaintext._inventory(), plaintext._lesk(), plaintext._gloss())
    assert first[0] is shared_inventory(readers[0]) and first[0]._wn is readers[0]
    assert first[1].lesk.inventory is first[0] and first[2].inventory is first[0]
    assert (plaintext._inventory(), plaintext._lesk(), plaintext._gloss()) == first
    readers.reverse()
    second = (plaintext._inventory(), plaintext._lesk(), plaintext._gloss())
    assert second[0]._wn is readers[0]
    assert all(old is not new for old, new in zip(first, second, strict=True))
    assert second[1].lesk.inventory is second[0] and second[2].inventory is second[0]


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.sampled_from(["bank", "Bank", "river", "the", "of", "money", "bank"]),
                      min_size=1, max_size=12),
       start=st.integers(0, 11), length=st.integers(1, 3), window=st.sampled_from([None, 0, 2]),
       include_target=st.booleans())  # fmt: skip
def test_lesk_context_set_is_the_set_of_the_context_words(words, start, length, window,
                                                          include_target):  # fmt: skip
    """The sentence's counts, made once, give each instance the distinct words that its own
    context positions give (a word also outside the target stays; one only inside it goes)."""
    from wsd.instance import Instance
    from wsd.systems.lesk import SimplifiedLesk

    start = min(start, len(words) - 1)
    inst = Instance(id="x", lemma="bank", tokens=words, span=(start, min(start + length,
                                                                         len(words))))
    for stopwords in (False, True):
        lesk = SimplifiedLesk(inventory=object(), stopwords=stopwords, lemmatize=False,
                              window=window, include_target=include_target)  # fmt: skip
        expected = {word for word, _ in lesk.context_words(inst)}
        assert lesk.context_set(inst) == expected
        assert lesk.context_set(inst) == expected  # the sentence's counts, kept


@needs_wordnet
def test_a_keys_gloss_overlaps_together_are_each_instances_lesk_overlaps():
    from wsd.instance import Instance
    from wsd.systems.allwords.predict import Knowledge
    from wsd.systems.lesk import SimplifiedLesk

    sentences = [("I", "deposited", "money", "at", "the", "bank", "today"),
                 ("we", "sat", "on", "the", "bank", "of", "the", "river"),
                 ("the", "bank", "raised", "its", "interest", "rate")]
    group = [Instance(id=str(n), tokens=tokens, span=(tokens.index("bank"),
                      tokens.index("bank") + 1), lemma="bank", target_pos="n")
             for n, tokens in enumerate(sentences)]  # fmt: skip
    knowledge = Knowledge()
    senses = knowledge.senses(group[0])
    classes = [senses[1].id, "not%1:00:00::", senses[0].id]  # one class WordNet lacks
    together = knowledge.gloss_overlaps_many(group, classes)
    lesk = SimplifiedLesk(knowledge.inventory(), related=True)
    for inst, overlaps in zip(group, together, strict=True):
        assert np.array_equal(overlaps, knowledge.gloss_overlaps(inst, classes))
        expected = lesk.overlaps(inst, [senses[1], senses[0]])
        assert overlaps.tolist() == [expected[0], 0.0, expected[1]]
    assert sum(overlaps.sum() for overlaps in together) > 0  # the contexts do share words
    assert knowledge.gloss_overlaps_many([], classes).shape == (0, len(classes))


def _greedy_one_token_at_a_time(X, tags, starts, W, n_static, n_tags, inside, outside):
    """``label_greedy`` as it labelled before the sentences went side by side."""
    n_labels = W.shape[1]
    states = n_labels + 1
    static = np.vstack([W[:n_static], np.zeros((1, n_labels), W.dtype)])[
        np.where(X >= 0, X, n_static)].sum(axis=1)
    d1 = W[n_static : n_static + states]
    d2 = W[n_static + states : n_static + states + states * states]
    d3 = W[n_static + states + states * states :]
    labels, scores = [], np.empty_like(static)
    for s in range(len(starts) - 1):
        prev = prev2 = n_labels
        for i in range(starts[s], starts[s + 1]):
            row = static[i] + d1[prev] + d2[prev2 * states + prev] + d3[prev * n_tags + tags[i]]
            if prev in (n_labels, outside):
                row[inside] = -np.inf
            scores[i] = row
            labels.append(int(row.argmax()))
            prev2, prev = prev, labels[-1]
    return labels, scores


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=30), st.integers(0, 2**31 - 1),
       st.booleans())
def test_the_sentences_labelled_side_by_side_as_one_token_at_a_time(lengths, seed, ties):
    """Sentences of any lengths (empty ones too), random weights (rounded to make ties)."""
    from wsd.learners import greedylabel

    rng = np.random.default_rng(seed)
    n_labels, n_static, n_tags = 5, 30, 4
    W = rng.normal(size=(n_static + greedylabel.dynamic_rows(n_labels, n_tags), n_labels))
    W = (np.round(W) if ties else W).astype(np.float32)
    starts = np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)])
    X = rng.integers(-1, n_static, size=(int(starts[-1]), 6))
    tags = rng.integers(0, n_tags, size=len(X))
    found = greedylabel.label_greedy(X, tags, starts, W, n_static, n_tags, 1, 0)
    expected = _greedy_one_token_at_a_time(X, tags, starts, W, n_static, n_tags, 1, 0)
    assert found[0] == expected[0] and np.array_equal(found[1], expected[1])
    assert found[1].dtype == np.float32


def _nltk_tag(weights, tagdict, classes, tokens):
    """``nltk.tag.perceptron.PerceptronTagger.tag`` and its ``predict``: per class, Python
    sums of the weights feature after feature; the best score, ties to the greater class."""
    from wsd.text.tagger import PerceptronTags

    prev, prev2 = "-START-", "-START2-"
    context = ["-START-", "-START2-", *map(PerceptronTags.normalize, tokens), "-END-", "-END2-"]
    tags = []
    for i, word in enumerate(tokens, start=2):
        tag = tagdict.get(word)
        if not tag:
            features = dict.fromkeys([
                "bias", f"i suffix {word[-3:]}", f"i pref1 {word[0] if word else ''}",
                f"i-1 tag {prev}", f"i-2 tag {prev2}", f"i tag+i-2 tag {prev} {prev2}",
                f"i word {context[i]}", f"i-1 tag+i word {prev} {context[i]}",
                f"i-1 word {context[i - 1]}", f"i-1 suffix {context[i - 1][-3:]}",
                f"i-2 word {context[i - 2]}", f"i+1 word {context[i + 1]}",
                f"i+1 suffix {context[i + 1][-3:]}", f"i+2 word {context[i + 2]}"], 1)
            scores = dict.fromkeys(classes, 0.0)
            for feature, value in features.items():
                for label, weight in weights.get(feature, {}).items():
                    scores[label] += value * weight
            tag = max(classes, key=lambda label: (scores[label], label))
        tags.append(tag)
        prev2, prev = prev, tag
    return tags


WORDS = st.sampled_from(["the", "bank", "banks", "1984", "12", "well-known", "-x", "", "A",
                         "bass", "zzq", "ran"])


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 5), st.lists(st.lists(WORDS, max_size=9), min_size=1, max_size=8),
       st.integers(0, 2**31 - 1), st.integers(0, 200), st.booleans())
def test_the_taggers_rows_tag_as_nltk_sums_its_features(n_classes, sentences, seed, cap,
                                                        ties):  # fmt: skip
    """Random weights (rounded: ties) for a random half of the features the sentences make,
    any number of classes (one too), a tag dictionary for one word; the kept rows bounded
    by ``MAX_ROWS`` (small here) and the matrix grown as rows are added."""
    from wsd.text import tagger

    rng = np.random.default_rng(seed)
    classes = [f"C{k}" for k in range(n_classes)]
    names = set()
    for tokens in sentences:  # every feature each class could make
        for prev in ["-START-", "-START2-", *classes]:
            for prev2 in ["-START-", "-START2-", *classes]:
                names.update(_feature_names(tokens, prev, prev2))
    weights = {name: {label: float(np.round(w, 0 if ties else 6))
                      for label, w in zip(classes, rng.normal(size=n_classes), strict=True)
                      if rng.random() < 0.7}
               for name in sorted(names) if rng.random() < 0.5}  # fmt: skip
    tagdict = {"the": classes[-1]}
    tags = tagger.PerceptronTags(weights, tagdict, classes)
    tags._matrix = tags._matrix[:1]
    old = tagger.MAX_ROWS
    tagger.MAX_ROWS = cap
    try:
        for tokens in sentences * 2:
            assert tags.tag(tokens) == _nltk_tag(weights, tagdict, classes, tokens)
            kept = (tags._row_of, tags._own, tags._places, tags._tag_pairs, tags._tag_words)
            assert sum(map(len, kept)) <= cap + 30 * (len(tokens) + 4)  # and a sentence's
    finally:
        tagger.MAX_ROWS = old


def _feature_names(tokens, prev, prev2):
    """Every feature name a tag of any token of ``tokens`` may ask for after these tags."""
    from wsd.text.tagger import PerceptronTags

    context = ["-START-", "-START2-", *map(PerceptronTags.normalize, tokens), "-END-", "-END2-"]
    for i, word in enumerate(tokens, start=2):
        yield from ["bias", f"i suffix {word[-3:]}", f"i pref1 {word[0] if word else ''}",
                    f"i-1 tag {prev}", f"i-2 tag {prev2}", f"i tag+i-2 tag {prev} {prev2}",
                    f"i word {context[i]}", f"i-1 tag+i word {prev} {context[i]}",
                    f"i-1 word {context[i - 1]}", f"i-1 suffix {context[i - 1][-3:]}",
                    f"i-2 word {context[i - 2]}", f"i+1 word {context[i + 1]}",
                    f"i+1 suffix {context[i + 1][-3:]}", f"i+2 word {context[i + 2]}"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12) | st.text(alphabet="aZ09.-_ \t", max_size=12))
def test_an_ascii_words_shape_is_as_the_unicode_classes_give_it(text):
    from wsd.text.readerfeatures import shape

    for form in ["McDonald", "1960s", "U.S.", "a-1_B", "", "ÉCOLE", "Ab\u00b2", text]:
        mapped = "".join("X" if c.isupper() else "x" if c.islower() else
                         "d" if c.isdigit() else c for c in form)  # fmt: skip
        assert shape(form) == re.sub(r"(.)\1+", r"\1", mapped)[:4]
    assert shape("McDonald") == "XxXx" and shape("1960s") == "dx" and shape("Ab\u00b2") == "Xxd"
