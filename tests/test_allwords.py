"""All-words WSD: per-key perceptrons with MFS / first-sense backoff, on tiny framework files."""

import math
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from wsd.corpora.framework import dataset_paths, load_framework, read_key_file
from wsd.evaluation.scorer import score_framework, score_key_files
from wsd.experiments.allwords_run import run_allwords
from wsd.features import FeatureVectorizer, Featurizer
from wsd.instance import Instance
from wsd.learners.engine import CSRAveragedPerceptron, task_seed
from wsd.persistence import load_model
from wsd.resources import has_framework, has_nltk_resource
from wsd.systems.allwords import (
    AllWordsWSD,
    CorpusLemmaBag,
    neighbour_tokens,
    one_sense_per_discourse,
    wordnet_examples,
)
from wsd.systems.allwords.context import document_sentences

MONEY = ["deposit", "money", "loan", "cash"]
RIVER = ["river", "water", "fishing", "mud"]
BANK_MONEY, BANK_RIVER = "bank%1:14:00::", "bank%1:17:01::"
SEED_ONE = "seed%1:20:00::"
# Corpus tags and a plain bag of words need no NLTK data; one perceptron per key, nothing
# added to its scores (no prior, gloss overlap or discourse) and no margin backoff.
QUICK = {"features": "ims", "pos_tags": "corpus", "n_models": 1, "prior": 0.0, "margin": 0.0,
         "gloss_weight": 0.0, "discourse_weight": 0.0, "train_margin": 0.0}


def _sentence(sentence_id, words, target_index, target_id, lemma="bank", pos="NOUN"):
    """One <sentence> with ``words`` as <wf> and the word at ``target_index`` as <instance>."""
    parts = []
    for i, word in enumerate(words):
        if i == target_index:
            attributes = f'id="{target_id}" lemma="{lemma}" pos="{pos}"'
            parts.append(f"<instance {attributes}>{word}</instance>")
        else:
            parts.append(f'<wf lemma="{word.lower()}" pos="X">{word}</wf>')
    return f'<sentence id="{sentence_id}">{"".join(parts)}</sentence>'


def _corpus(tmp_path, name, documents):
    """Write ``name.data.xml`` and ``name.gold.key.txt``; ``documents`` are lists of
    (words, target_index, sense, lemma) sentences."""
    xml, key = ['<?xml version="1.0" encoding="UTF-8" ?><corpus lang="en" source="toy">'], []
    for d, sentences in enumerate(documents):
        xml.append(f'<text id="d{d:03d}">')
        for s, (words, index, sense, lemma) in enumerate(sentences):
            sentence_id, target_id = f"d{d:03d}.s{s:03d}", f"d{d:03d}.s{s:03d}.t000"
            xml.append(_sentence(sentence_id, words, index, target_id, lemma))
            key.append(f"{target_id} {sense}\n")
        xml.append("</text>")
    xml.append("</corpus>")
    xml_path = tmp_path / f"{name}.data.xml"
    xml_path.write_text("\n".join(xml), encoding="utf-8")
    (tmp_path / f"{name}.gold.key.txt").write_text("".join(key), encoding="utf-8")
    return xml_path


def _load(xml_path):
    """The labelled instances of a file ``_corpus`` wrote."""
    name = xml_path.name.removesuffix(".data.xml")
    return load_framework(xml_path, xml_path.with_name(name + ".gold.key.txt"))


def _bank_sentences(n, offset=0):
    """``n`` bank sentences alternating money and river contexts (all four cue words of the
    sense in every sentence, rotated, so that any update touches every cue)."""
    sentences = []
    for i in range(offset, offset + n):
        cues, sense = (MONEY, BANK_MONEY) if i % 2 == 0 else (RIVER, BANK_RIVER)
        rotated = cues[i % 4 :] + cues[: i % 4]
        words = [rotated[0], "near", "the", "bank", *rotated[1:]]
        sentences.append((words, 3, sense, "bank"))
    return sentences


@pytest.fixture
def toy(tmp_path):
    train = _bank_sentences(12) + [(["a", "seed", "grew"], 1, SEED_ONE, "seed")] * 3
    test = _bank_sentences(6, offset=12)
    return (
        _load(_corpus(tmp_path, "train", [train[:8], train[8:]])),
        _load(_corpus(tmp_path, "test", [test])),
    )


def test_per_key_classifier_learns_the_context_cues(toy):
    train, test = toy
    system = AllWordsWSD(**QUICK, epochs=5, backoff="none").fit(train)
    assert set(system.models_) == {"bank#NOUN"}  # seed has one sense: MFS, no classifier
    assert system.models_["bank#NOUN"].classes == sorted([BANK_MONEY, BANK_RIVER])
    assert system.predict(test) == [inst.senses[0] for inst in test]
    assert system.score(test) == 1.0


def test_backoff_to_mfs_and_no_answer_for_unseen_keys(toy):
    train, _ = toy
    system = AllWordsWSD(**QUICK, backoff="none").fit(train)
    seed = Instance(id="x", tokens=("the", "seed"), span=(1, 2), lemma="seed", target_pos="NOUN")
    unseen = Instance(id="y", tokens=("a", "dog"), span=(1, 2), lemma="dog", target_pos="NOUN")
    assert system.predict([seed, unseen]) == [SEED_ONE, None]
    assert system.most_frequent("bank#NOUN") == BANK_MONEY  # 6 each: the smaller key wins


@pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="NLTK wordnet data absent")
def test_unseen_keys_get_the_wordnet_first_sense(toy):
    from nltk.corpus import wordnet

    train, _ = toy
    unseen = Instance(id="y", tokens=("a", "dog"), span=(1, 2), lemma="dog", target_pos="NOUN")
    expected = wordnet.synsets("dog", "n")[0].lemmas()[0].key()
    system = AllWordsWSD(**QUICK).fit(train)
    assert system.predict([unseen]) == [expected]
    assert AllWordsWSD.from_dict(system.to_dict()).predict([unseen]) == [expected]


@pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="NLTK wordnet data absent")
def test_wordnet_examples_join_the_classifiers_training_data_only(toy):
    from nltk.corpus import wordnet

    from wsd.knowledge.inventory import WordNetInventory

    examples = wordnet_examples("bank", "NOUN", WordNetInventory())
    bank_keys = {lemma.key() for ss in wordnet.synsets("bank", "n") for lemma in ss.lemmas()
                 if lemma.name() == "bank"}  # fmt: skip
    assert examples and {inst.senses[0] for inst in examples} <= bank_keys
    assert all(wordnet.morphy(inst.target.lower(), "n") == "bank" for inst in examples)
    assert "sloping land" not in examples[0].tokens  # examples, not glosses
    train, _ = toy
    system = AllWordsWSD(**QUICK, wordnet_examples=True, backoff="none").fit(train)
    plain = AllWordsWSD(**QUICK, backoff="none").fit(train)
    assert system.sense_counts_ == plain.sense_counts_
    assert set(system.models_["bank#NOUN"].classes) == {BANK_MONEY, BANK_RIVER} | {
        inst.senses[0] for inst in examples}


def hand_sense(key, names, definition):
    """What ``wordnet_glosses`` reads of a WordNet lemma: its key and its synset's names and
    gloss."""
    synset = SimpleNamespace(lemma_names=lambda: names, definition=lambda: definition)
    return SimpleNamespace(key=lambda: key, synset=lambda: synset)


class HandInventory:
    """Two senses of bank, one of ice_cream: what ``wordnet_glosses`` reads of WordNet."""

    senses = {("bank", "NOUN"): [
        hand_sense("bank%1:17:01::", ["bank"], "sloping land"),
        hand_sense("bank%1:14:00::", ["depository_financial_institution", "bank"],
                   "a financial institution")],
        ("ice_cream", "NOUN"): [
            hand_sense("ice_cream%1:13:00::", ["ice_cream", "icecream"], "frozen dessert")]}

    def lemmas(self, lemma, pos=None):
        return self.senses.get((lemma, pos), [])


def test_wordnet_glosses_give_one_instance_per_sense_with_the_lemma_as_target():
    from wsd.systems.allwords.context import wordnet_glosses

    river, money = wordnet_glosses("bank", "NOUN", HandInventory())
    assert river == Instance(id="gloss:bank%1:17:01::", tokens=("bank", ":", "sloping", "land"),
                             span=(0, 1), lemma="bank", target_pos="NOUN",
                             senses=("bank%1:17:01::",))
    assert money.tokens == ("depository", "financial", "institution", ",", "bank", ":", "a",
                            "financial", "institution")
    assert money.span == (4, 5) and money.senses == ("bank%1:14:00::",)
    [cream] = wordnet_glosses("ice_cream", "NOUN", HandInventory())
    assert cream.tokens[:2] == ("ice", "cream") and cream.span == (0, 2)
    assert wordnet_glosses("bank", "VERB", HandInventory()) == []


def test_min_examples_margin_and_prior_fall_back_to_the_most_frequent_sense(toy):
    train, test = toy
    assert not AllWordsWSD(**QUICK, min_examples=13).fit(train).models_  # bank has 12 examples
    system = AllWordsWSD(**QUICK, epochs=5, backoff="none").fit(train)
    system.margin = math.inf  # no classifier is ever that sure
    assert system.predict(test) == [BANK_MONEY] * len(test)
    system.margin, system.prior = 0.0, 1e6  # a prior this strong decides alone
    system.sense_counts_["bank#NOUN"][BANK_RIVER] += 1
    assert system.predict(test) == [BANK_RIVER] * len(test)


def test_prediction_options_act_on_a_saved_model_and_training_ones_are_refused(toy, tmp_path):
    train, test = toy
    system = AllWordsWSD(**QUICK, epochs=5, backoff="none").fit(train)
    system.sense_counts_["bank#NOUN"][BANK_RIVER] += 1
    path = system.save(tmp_path / "m.npz")
    table = run_allwords(None, [], model=path)
    assert table.empty  # nothing to evaluate: nothing done
    out = tmp_path / "keys"
    run_allwords(None, [_corpus(tmp_path, "t", [_bank_sentences(6, offset=12)])], out_dir=out,
                 model=path, prior=1e6)  # fmt: skip
    answers = read_key_file(out / "t.key.txt")
    assert {senses[0] for senses in answers.values()} == {BANK_RIVER}  # the prior decides
    with pytest.raises(ValueError, match="epochs only act when training"):
        run_allwords(None, [], model=path, epochs=3)
    with pytest.raises(ValueError, match="prior"):
        run_allwords(None, [], model=path, prior=-1.0)


def test_n_models_averages_differently_shuffled_perceptrons(toy):
    train, _ = toy
    bank = [inst for inst in train if inst.lemma == "bank"]
    system = AllWordsWSD(**{**QUICK, "n_models": 2}, epochs=3, seed=5).fit(train)
    vectorizer = FeatureVectorizer()
    X = vectorizer.fit_transform(Featurizer.preset("ims").fit_transform(bank))
    labels = [inst.senses[0] for inst in bank]
    one, two = (CSRAveragedPerceptron(epochs=3, seed=task_seed(5, k)).fit(X, labels)
                for k in ("bank#NOUN", "bank#NOUN#1"))  # fmt: skip
    assert not np.allclose(one.coef_, two.coef_)  # the shuffles differ
    model = system.models_["bank#NOUN"]
    mean = (one.coef_ + two.coef_) / 2
    columns = [vectorizer.vocabulary_[f] for f in model.features]
    np.testing.assert_allclose(model.coef, mean[:, columns].T, rtol=1e-6, atol=1e-7)
    assert np.count_nonzero(np.delete(mean, columns, axis=1)) == 0  # only zero rows left out
    np.testing.assert_allclose(model.intercept, (one.intercept_ + two.intercept_) / 2, rtol=1e-6)


def test_cross_validation_keeps_only_classifiers_that_beat_the_mfs(toy, tmp_path):
    # "plant" contexts are all alike, so no classifier can beat its most frequent sense
    plant = ["plant%1:03:00::"] * 8 + ["plant%1:06:01::"]
    same = [(["the", "plant", "grew"], 1, sense, "plant") for sense in plant]
    train = toy[0] + _load(_corpus(tmp_path, "plants", [same]))
    system = AllWordsWSD(**QUICK, cv_folds=3, epochs=5, backoff="none").fit(train)
    assert set(system.models_) == {"bank#NOUN"}
    assert set(AllWordsWSD(**QUICK, epochs=5).fit(train).models_) == {"bank#NOUN", "plant#NOUN"}
    assert system.predict(train[-1:]) == ["plant%1:03:00::"]


def test_evaluate_is_the_framework_scorer(toy):
    train, test = toy
    system = AllWordsWSD(**QUICK, backoff="none").fit(train[:4] + train[12:])  # a weaker model
    answers = system.predict(test)
    credit = sum(a in inst.senses for a, inst in zip(answers, test, strict=True))
    result = system.evaluate(test)
    assert result["P"] == result["R"] == result["F1"] == credit / len(test)
    assert result == score_framework({i.id: i.senses for i in test},
                                     {i.id: a for i, a in zip(test, answers, strict=True)})


def test_model_does_not_depend_on_n_jobs(toy):
    train, _ = toy
    one = AllWordsWSD(**QUICK, epochs=3, seed=7).fit(train)
    two = AllWordsWSD(**QUICK, epochs=3, seed=7, n_jobs=2).fit(train)
    for key, model in one.models_.items():
        assert model.features == two.models_[key].features
        np.testing.assert_array_equal(model.coef, two.models_[key].coef)
        np.testing.assert_array_equal(model.intercept, two.models_[key].intercept)


@pytest.mark.parametrize("weighting", ["binary", "tfidf", "ppmi"])
def test_save_and_load_give_the_same_answers(toy, tmp_path, weighting):
    train, test = toy
    system = AllWordsWSD(**QUICK, weighting=weighting, average=False, context_sentences=1,
                         backoff="none").fit(train)  # fmt: skip
    path = system.save(tmp_path / "allwords.npz")
    loaded = AllWordsWSD.load(path)
    assert isinstance(load_model(path), AllWordsWSD)
    # the file stores the temperature the system scored with (its default resolved)
    assert loaded.get_params() == {**system.get_params(), "temperature": system.score_temperature}
    probe = test + train
    assert loaded.predict(probe) == system.predict(probe)
    for key, model in system.models_.items():
        np.testing.assert_allclose(loaded.models_[key].scores({"bow=river": 1.0}),
                                   model.scores({"bow=river": 1.0}))  # fmt: skip


@pytest.mark.skipif(
    not (has_nltk_resource("averaged_perceptron_tagger_eng") and has_nltk_resource("wordnet")),
    reason="NLTK averaged_perceptron_tagger_eng or wordnet data absent",
)
def test_default_features_penn_tags_and_lemmas(toy):
    train, test = toy
    system = AllWordsWSD(n_models=1, prior=0.0, gloss_weight=0.0, discourse_weight=0.0, epochs=5,
                         backoff="none").fit(train)
    features = set(system.models_["bank#NOUN"].features)
    assert "pos-1=DT" in features  # "the" before "bank" (the corpus tag is X)
    assert "bow=deposit" in features or "bow=loan" in features
    assert not any(f.endswith("=X") for f in features)
    assert system.predict(test) == [inst.senses[0] for inst in test]
    with pytest.raises(ValueError, match="pos_tags"):
        AllWordsWSD(pos_tags="ptb").fit(train)


def test_corpus_lemma_bag_reads_the_loaders_lemmas():
    words = ("The", "banks", "were", "lending", "money", ".")
    meta = (("sentence", "s0"), ("lemmas", ("the", "bank", "be", "lend", "money", ".")))
    inst = Instance(id="x", tokens=words, span=(1, 2), lemma="bank", meta=meta)
    assert CorpusLemmaBag()(inst) == {"bow=lend": 1.0, "bow=money": 1.0}
    plain = Instance(id="y", tokens=words, span=(1, 2), lemma="bank")  # no lemmas: the tokens
    assert CorpusLemmaBag()(plain) == {"bow=lending": 1.0, "bow=money": 1.0}


def test_neighbour_tokens_stay_inside_the_document():
    def inst(document, sentence, tokens):
        return Instance(id=f"{sentence}.t0", tokens=tokens, span=(0, 1), lemma=tokens[0],
                        meta=(("document", document), ("sentence", sentence)))  # fmt: skip

    instances = [inst("d0", "s0", ("a", "b")), inst("d0", "s1", ("c",)),
                 inst("d0", "s1", ("c",)), inst("d0", "s2", ("d", "e")),
                 inst("d1", "s3", ("f",))]  # fmt: skip
    context = neighbour_tokens(instances, 1)
    assert context == {("d0", "s0"): ("c",), ("d0", "s1"): ("a", "b", "d", "e"),
                       ("d0", "s2"): ("c",), ("d1", "s3"): ()}  # fmt: skip
    assert neighbour_tokens(instances, 2)[("d0", "s0")] == ("c", "d", "e")


def test_document_sentences_keep_each_documents_order_across_interleaving():
    def inst(document, sentence, tokens):
        return Instance(id=f"{sentence}.t0", tokens=tokens, span=(0, 1), lemma=tokens[0],
                        meta=(("document", document), ("sentence", sentence)))  # fmt: skip

    instances = [inst("d1", "s9", ("z",)), inst("d0", "s0", ("a",)), inst("d1", "s2", ("y",)),
                 inst("d0", "s0", ("a",)), inst("d0", "s1", ("b", "c"))]  # fmt: skip
    order, tokens = document_sentences(instances)
    assert order == {"d1": [("d1", "s9"), ("d1", "s2")], "d0": [("d0", "s0"), ("d0", "s1")]}
    assert tokens == {("d1", "s9"): ("z",), ("d0", "s0"): ("a",), ("d1", "s2"): ("y",),
                      ("d0", "s1"): ("b", "c")}  # fmt: skip


def test_context_sentences_add_the_neighbours_words(tmp_path):
    # the cue sits in the previous sentence only, so only the context can tell the senses apart
    documents = []
    for i in range(10):
        cue, sense = ("money", BANK_MONEY) if i % 2 == 0 else ("river", BANK_RIVER)
        documents.append([([cue], 0, SEED_ONE, "seed"), (["the", "bank"], 1, sense, "bank")])
    instances = _load(_corpus(tmp_path, "ctx", documents))
    banks = [inst for inst in instances if inst.lemma == "bank"]
    with_context = AllWordsWSD(**QUICK, context_sentences=1, epochs=5, backoff="none")
    with_context.fit(instances)
    assert with_context.predict(instances) == [inst.senses[0] for inst in instances]
    without = AllWordsWSD(**QUICK, epochs=5, backoff="none").fit(instances)
    assert len(set(without.predict(banks))) == 1


def test_one_sense_per_discourse_adds_the_others_mean_distribution():
    def inst(i, document):
        meta = (("document", document),) if document else ()
        return Instance(id=f"t{i}", tokens=("bank",), span=(0, 1), lemma="bank", meta=meta)

    group = [inst(0, "d0"), inst(1, "d0"), inst(2, "d0"), inst(3, "d1"), inst(4, None)]
    scores = [np.zeros(2), np.array([math.log(3), 0.0]), np.array([0.0, math.log(3)]),
              np.array([5.0, 0.0]), np.array([0.0, 5.0])]  # fmt: skip
    smoothed = one_sense_per_discourse(group, scores, weight=2.0)
    # softmaxes in d0: [.5 .5], [.75 .25], [.25 .75]; each gets 2 x the mean of the other two
    np.testing.assert_allclose(smoothed[0], [1.0, 1.0])
    np.testing.assert_allclose(smoothed[1], [math.log(3) + 0.75, 1.25])
    np.testing.assert_allclose(smoothed[2], [1.25, math.log(3) + 0.75])
    np.testing.assert_array_equal(smoothed[3], scores[3])  # alone in its document
    np.testing.assert_array_equal(smoothed[4], scores[4])  # no document: left alone


def test_discourse_weight_lets_the_document_outvote_an_unsure_instance(tmp_path):
    train = _corpus(tmp_path, "train", [_bank_sentences(12)])
    bare = ["the", "bank", "again"]  # no cue: the classifier alone is unsure
    money = _bank_sentences(4)[0::2]  # two money contexts
    test = _load(_corpus(tmp_path, "test", [money + [(bare, 1, BANK_MONEY, "bank")]]))
    options = {**QUICK, "epochs": 5, "backoff": "none"}
    alone = AllWordsWSD(**options).fit(_load(train))
    together = AllWordsWSD(**{**options, "discourse_weight": 100.0}).fit(_load(train))
    assert alone.predict(test) == [BANK_MONEY, BANK_MONEY, BANK_RIVER]  # bias: river
    assert together.predict(test) == [BANK_MONEY] * 3


@pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="NLTK wordnet data absent")
def test_gloss_weight_adds_the_wordnet_gloss_overlap(toy):
    train, _ = toy
    # bank%1:17:01:: "sloping land (especially the slope beside a body of water)";
    # bank%1:14:00:: "a financial institution that accepts deposits and channels the money
    # into lending activities"; the toy classifier knows none of these words
    slope = Instance(id="a", tokens=("a", "bank", "slope"), span=(1, 2), lemma="bank",
                     target_pos="NOUN")  # fmt: skip
    lend = replace(slope, id="b", tokens=("a", "bank", "lending"))
    system = AllWordsWSD(**{**QUICK, "gloss_weight": 100.0}, epochs=5).fit(train)
    assert system.predict([slope, lend]) == [BANK_RIVER, BANK_MONEY]
    overlaps = system.knowledge.gloss_overlaps(slope, [BANK_MONEY, BANK_RIVER, "not%1:00:00::"])
    assert overlaps.tolist()[1:] == [1.0, 0.0] and overlaps[0] == 0.0


def test_model_files_from_before_gloss_and_discourse_keep_them_off(toy):
    train, _ = toy
    data = AllWordsWSD(**QUICK).fit(train).to_dict()
    for option in ("gloss_weight", "discourse_weight", "temperature", "sense_weight"):
        del data["params"][option]
    loaded = AllWordsWSD.from_dict(data)
    assert (loaded.gloss_weight, loaded.discourse_weight, loaded.temperature) == (0.0, 0.0, 1.0)
    assert loaded.sense_weight == 0.0
    assert AllWordsWSD().gloss_weight > 0 and AllWordsWSD().discourse_weight > 0


def test_bad_parameters_and_unfitted_use(toy):
    train, test = toy
    with pytest.raises(ValueError, match="weighting"):
        AllWordsWSD(**QUICK, weighting="idf").fit(train)
    with pytest.raises(ValueError, match="backoff"):
        AllWordsWSD(**QUICK, backoff="mfs").fit(train)
    with pytest.raises(ValueError, match="n_models"):
        AllWordsWSD(**{**QUICK, "n_models": 0}).fit(train)
    with pytest.raises(ValueError, match="context_sentences"):
        AllWordsWSD(**QUICK, context_sentences=-1).fit(train)
    with pytest.raises(ValueError, match="reader_joins must be one of corpus, wordnet"):
        AllWordsWSD(**QUICK, reader_joins="semcor").fit(train)
    for option in ("prior", "gloss_weight", "discourse_weight"):
        with pytest.raises(ValueError, match=option):
            AllWordsWSD(**{**QUICK, option: -1.0}).fit(train)
        with pytest.raises(ValueError, match=option):
            AllWordsWSD(**{**QUICK, option: math.nan}).fit(train)
    for temperature in (0.0, -1.0, math.nan, math.inf, True):
        with pytest.raises(ValueError, match="temperature"):
            AllWordsWSD(**QUICK, temperature=temperature).fit(train)
    with pytest.raises(ValueError, match="not fitted"):
        AllWordsWSD(**QUICK).predict(test)
    with pytest.raises(ValueError, match="no labelled"):
        AllWordsWSD(**QUICK).fit([inst.with_senses(()) for inst in train])


def test_run_allwords_writes_key_files_and_scores_them(tmp_path):
    train = _corpus(tmp_path, "train", [_bank_sentences(12)])
    test = _corpus(tmp_path, "test", [_bank_sentences(6, offset=12)])
    unlabelled = tmp_path / "raw.data.xml"
    unlabelled.write_text(test.read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "keys"
    table = run_allwords(train, [test, unlabelled], out_dir=out, model_path=tmp_path / "m.npz",
                         **QUICK, epochs=5, backoff="none")  # fmt: skip
    assert table["dataset"].tolist() == ["test", "raw"]
    assert table["F1"][0] == 1.0 and math.isnan(table["F1"][1])
    official = score_key_files(tmp_path / "test.gold.key.txt", out / "test.key.txt")
    assert official["F1"] == table["F1"][0]
    assert read_key_file(out / "raw.key.txt") == read_key_file(out / "test.key.txt")
    again = run_allwords(None, [test], model=tmp_path / "m.npz")
    assert again["F1"].tolist() == table["F1"][:1].tolist()
    with pytest.raises(ValueError, match="train="):
        run_allwords(None, [test])
    with pytest.raises(ValueError, match="does not exist"):
        run_allwords(train, [tmp_path / "missing.data.xml"])




@pytest.mark.skipif(not has_framework(),
                    reason="WSD evaluation framework data (../shared/data/wsd_framework) absent")
def test_real_semeval2007_end_to_end(tmp_path):
    # train and test on the small dev set itself: a check of the plumbing on real files, where
    # a per-key perceptron must fit its own training data far better than MFS does
    xml_path, key_path = dataset_paths("semeval2007")
    table = run_allwords(xml_path, [xml_path], out_dir=tmp_path, **QUICK, backoff="none")
    instances = load_framework(xml_path, key_path)
    mfs = AllWordsWSD(**QUICK, min_examples=10**6, backoff="none").fit(instances).score(instances)
    assert table["answered"][0] == table["instances"][0] == 455
    assert table["F1"][0] > mfs + 0.05
    assert score_key_files(key_path, tmp_path / "semeval2007.key.txt")["F1"] == table["F1"][0]


def test_temperature_changes_no_answer_only_how_sure_each_is(toy):
    """Two-sense keys: a classifier answer's share at temperature T is the logistic of its
    log-odds at T=1 divided by T; its margin, the difference of the two total scores, is
    the same at every temperature, T times the log-odds of its share."""
    from scipy.special import expit, logit

    train, test = toy
    system = AllWordsWSD(**QUICK, epochs=5).fit(train)
    system.temperature = 1.0
    plain = system.decide(test)
    system.temperature = 4.0
    cooled = system.decide(test)
    assert [(d.sense, d.source) for d in cooled] == [(d.sense, d.source) for d in plain]
    pairs = [(p, c) for inst, p, c in zip(test, plain, cooled, strict=True)
             if p.source == "classifier" and len(system.models_[inst.key].classes) == 2
             and p.score < 1 - 1e-9]  # fmt: skip
    assert len(pairs) >= 3 and any(p.score > 0.8 for p, _ in pairs)
    for p, c in pairs:
        assert c.score == pytest.approx(expit(logit(p.score) / 4.0), abs=1e-6)
        assert c.margin == pytest.approx(p.margin) and c.margin > 0
        assert c.margin == pytest.approx(4.0 * logit(c.score), rel=1e-5)
        assert 0.5 <= c.score <= p.score


def test_a_keys_decisions_together_are_the_first_best_its_share_and_its_margin():
    from types import SimpleNamespace

    from scipy import special

    from wsd.systems.allwords.predict import CLASSIFIER, MFS, _classifier_decisions

    model = SimpleNamespace(classes=["a", "b", "c"])
    totals = [np.array([1.0, 3.0, 3.0]), np.array([2.0, 1.9, -1.0]), np.array([0.0, 0.0, 5.0])]
    system = SimpleNamespace(margin=0.0, score_temperature=2.0, sense_counts_={"k": {"c": 2}})
    decided = _classifier_decisions(system, model, "k", totals)
    assert [d.sense for d in decided] == ["b", "a", "c"]  # ties: the first best
    assert [d.source for d in decided] == [CLASSIFIER] * 3
    for decision, row, best in zip(decided, totals, [1, 0, 2], strict=True):
        assert decision.score == pytest.approx(special.softmax(row / 2.0)[best])
    assert [d.margin for d in decided] == pytest.approx([0.0, 0.1, 5.0])
    system.margin = 0.5  # under it: the key's most frequent sense
    assert [(d.sense, d.source) for d in _classifier_decisions(system, model, "k", totals)] == [
        ("c", MFS), ("c", MFS), ("c", CLASSIFIER)]
    assert _classifier_decisions(system, model, "k", []) == []
