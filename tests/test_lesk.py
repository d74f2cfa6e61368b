"""Lesk family: hand-worked overlaps on a tiny inventory, backoff, and NLTK equivalence."""

import math
import random

import pytest

from wsd.instance import Instance
from wsd.knowledge import BundledInventory, Sense, WordNetInventory
from wsd.resources import has_nltk_resource
from wsd.systems.lesk import (
    ExtendedLesk,
    LeskWithPrior,
    OriginalLesk,
    SimplifiedLesk,
    phrase_overlap,
)

needs_wordnet = pytest.mark.skipif(
    not has_nltk_resource("wordnet"), reason="NLTK WordNet (wordnet) is not installed"
)

SENSES = {
    "bank": [
        Sense("bank.river", "sloping land beside a body of water", ("they beached the canoe",)),
        Sense("bank.money", "a financial institution that accepts deposits and lends money",
              ("he cashed a check at the bank",), count=9),
    ],
    "river": [Sense("river.1", "a large natural stream of water")],
    "deposit": [
        Sense("deposit.put", "put money into a bank account"),
        Sense("deposit.sediment", "a layer of sediment left by water"),
        Sense("deposit.payment", "money given as a first payment"),
    ],
}
RELATED = {
    "bank.river": ["the edge of a river"],
    "bank.money": ["a bank account holding money"],
    "river.1": ["a body of water flowing to the sea"],
}


class TinyInventory:
    """A hand-made inventory; the POS is ignored."""

    def senses(self, lemma, pos=None):
        return SENSES.get(lemma, [])

    def related_glosses(self, sense):
        return RELATED.get(sense.id, [])


def sentence(*tokens, target="bank", senses=(), id="s"):
    start = tokens.index(target)
    return Instance(id=id, tokens=tokens, span=(start, start + 1), lemma=target, senses=senses)


def scores(system, inst):
    return [score for _, score in system.sense_scores(inst)]


PLAIN = dict(lemmatize=False, stopwords=True)


def test_simplified_lesk_counts_distinct_context_words_in_gloss_and_examples():
    inst = sentence("he", "lends", "money", "at", "the", "bank")
    lesk = SimplifiedLesk(TinyInventory(), **PLAIN)
    # context {lends, money}; bank.money's signature has both, bank.river's neither
    assert scores(lesk, inst) == [0, 2]
    assert lesk.predict([inst]) == ["bank.money"]
    cashed = sentence("cashed", "at", "the", "bank")
    assert scores(lesk, cashed) == [0, 1]
    assert scores(SimplifiedLesk(TinyInventory(), use_examples=False, **PLAIN), cashed) == [0, 0]


def test_simplified_lesk_tie_goes_to_the_first_listed_sense():
    inst = sentence("water", "money", "bank")
    lesk = SimplifiedLesk(TinyInventory(), **PLAIN)
    assert scores(lesk, inst) == [1, 1]
    assert lesk.predict([inst]) == ["bank.river"]


def test_window_and_target_inclusion():
    inst = sentence("money", "x", "y", "z", "bank")
    assert scores(SimplifiedLesk(TinyInventory(), window=2, **PLAIN), inst) == [0, 0]
    assert scores(SimplifiedLesk(TinyInventory(), window=4, **PLAIN), inst) == [0, 1]
    # the example "... at the bank" holds the target itself
    with_target = SimplifiedLesk(TinyInventory(), window=2, include_target=True, **PLAIN)
    assert scores(with_target, inst) == [0, 1]


def test_original_lesk_gloss_to_gloss_max_and_sum():
    inst = sentence("the", "river", "deposit", "near", "the", "bank")
    # gloss signatures without stopwords:
    #   bank.river {sloping land beside body water}   bank.money {financial institution accepts
    #   deposits lends money}; river.1 {large natural stream water}; deposit.put {put money
    #   bank account}; deposit.sediment {layer sediment left water}; deposit.payment {money
    #   given first payment}.
    # bank.river: river 1 + deposit max(0, 1, 0) = 2  | sum: 1 + (0 + 1 + 0) = 2
    # bank.money: river 0 + deposit max(1, 0, 1) = 1  | sum: 0 + (1 + 0 + 1) = 2
    options = dict(use_examples=False, **PLAIN)
    by_max = OriginalLesk(TinyInventory(), **options)
    by_sum = OriginalLesk(TinyInventory(), combine="sum", **options)
    assert scores(by_max, inst) == [2, 1]
    assert scores(by_sum, inst) == [2, 2]
    assert by_sum.predict([inst]) == ["bank.river"]


def test_phrase_overlap_hand_worked():
    assert phrase_overlap("a b c d".split(), "x a b c y d".split()) == 3**2 + 1
    assert phrase_overlap(["a", "b"], ["a", "b"]) == 4
    assert phrase_overlap(["a", "b"], ["a", None, "b"]) == 2  # no phrase across a boundary
    assert phrase_overlap(["a", "a"], ["a"]) == 1  # each word is used once
    # the longest phrase goes first: "b c d" (9), then "a" alone, its "b" being used (1)
    assert phrase_overlap("b c d a b".split(), "a b c d".split()) == 10
    assert phrase_overlap([], ["a"]) == 0


def _reference_overlap(first, second):
    """Longest-first by brute force over lengths, smallest positions on ties."""
    first, second, total = list(first), list(second), 0
    for length in range(min(len(first), len(second)), 0, -1):
        found = True
        while found:
            found = False
            for i in range(len(first) - length + 1):
                for j in range(len(second) - length + 1):
                    a, b = first[i : i + length], second[j : j + length]
                    if None not in a and a == b:
                        total += length * length
                        first[i : i + length] = [None] * length
                        second[j : j + length] = [None] * length
                        found = True
                        break
                if found:
                    break
    return total


def test_phrase_overlap_matches_a_brute_force_reference():
    rng = random.Random(3)
    for _ in range(300):
        first = [rng.choice("abcd") for _ in range(rng.randint(0, 12))]
        second = [rng.choice("abcd") for _ in range(rng.randint(0, 12))]
        assert phrase_overlap(first, second) == _reference_overlap(first, second)


def test_extended_lesk_scores_shared_phrases_by_squared_length():
    inst = sentence("the", "land", "beside", "the", "river", "edge", "bank")
    # context [land beside river edge]; bank.river's extended signature
    # [sloping land beside body water | edge river]: "land beside" 2² + river 1 + edge 1
    lesk = ExtendedLesk(TinyInventory(), compare="context", use_examples=False, **PLAIN)
    assert scores(lesk, inst) == [6, 0]
    assert scores(SimplifiedLesk(TinyInventory(), use_examples=False, **PLAIN), inst) == [2, 0]


def test_simplified_lesk_with_related_glosses_counts_their_distinct_words():
    inst = sentence("the", "edge", "of", "the", "river", "bank", "river")
    # bank.river [sloping land beside body water | edge river]: edge, river (once) = 2
    related = SimplifiedLesk(TinyInventory(), use_examples=False, related=True, **PLAIN)
    assert scores(related, inst) == [2, 0]
    assert scores(SimplifiedLesk(TinyInventory(), use_examples=False, **PLAIN), inst) == [0, 0]


@needs_wordnet
def test_related_glosses_on_wordnet_reach_the_hypernym():
    # bass%1:18:00:: "an adult male singer ..." is a kind of singer, "a person who sings"
    inst = Instance(id="x", tokens=("a", "bass", "person"), span=(1, 2), lemma="bass",
                    target_pos="NOUN")  # fmt: skip
    singer = "bass%1:18:00::"
    plain = dict((s.id, v) for s, v in SimplifiedLesk().sense_scores(inst))
    related = dict((s.id, v) for s, v in SimplifiedLesk(related=True).sense_scores(inst))
    assert plain[singer] == 0 and related[singer] >= 1
    assert all(related[sense] >= plain[sense] for sense in plain)


def test_extended_lesk_compares_with_glosses_only_on_wordnet_by_default():
    assert ExtendedLesk(TinyInventory())._compare() == "context"
    assert ExtendedLesk(BundledInventory())._compare() == "context"
    if has_nltk_resource("wordnet"):
        assert ExtendedLesk()._compare() == "glosses"


def test_extended_lesk_gloss_to_gloss():
    inst = sentence("river", "bank")
    # bank.river [sloping land beside body water | edge river] against river.1
    # [large natural stream water | body water flowing sea]: "body water" 2² and nothing else
    lesk = ExtendedLesk(TinyInventory(), compare="glosses", use_examples=False, **PLAIN)
    assert scores(lesk, inst) == [4, 0]


@pytest.mark.parametrize("system", [SimplifiedLesk, OriginalLesk, ExtendedLesk])
def test_backoff_when_nothing_overlaps(system):
    inst = sentence("nothing", "here", "bank", senses=("bank.money",))
    assert system(TinyInventory(), **PLAIN).predict([inst]) == ["bank.river"]
    assert system(TinyInventory(), backoff="none", **PLAIN).predict([inst]) == [None]
    train = [sentence("bank", senses=(s,)) for s in ("bank.money", "bank.money", "bank.river")]
    mfs = system(TinyInventory(), backoff="mfs", **PLAIN)
    with pytest.raises(ValueError, match="fit"):
        mfs.predict([inst])
    assert mfs.fit(train).predict([inst]) == ["bank.money"]
    unseen = sentence("nothing", "deposit", target="deposit")
    assert mfs.predict([unseen]) == ["deposit.put"]
    assert mfs.score([inst]) == 1.0


def test_lemma_without_senses_gets_no_answer():
    crane = sentence("a", "crane", target="crane")
    assert SimplifiedLesk(TinyInventory(), **PLAIN).predict([crane]) == [None]


def test_bad_options():
    with pytest.raises(ValueError, match="backoff"):
        SimplifiedLesk(TinyInventory(), backoff="random")
    with pytest.raises(ValueError, match="window"):
        SimplifiedLesk(TinyInventory(), window=-1)
    with pytest.raises(ValueError, match="combine"):
        OriginalLesk(TinyInventory(), combine="mean")
    with pytest.raises(ValueError, match="compare"):
        ExtendedLesk(TinyInventory(), compare="both")
    with pytest.raises(ValueError, match="stopwords"):
        SimplifiedLesk(TinyInventory(), stopwords=3, lemmatize=False).predict(
            [sentence("x", "bank")]
        )


def test_lesk_with_prior_combines_log_prior_and_overlap():
    inst = sentence("water", "bank")  # overlap [1, 0]; counts [0, 9] + smoothing 1
    # log(1/11) + w·log(2) against log(10/11): the overlap wins only when w > log 10 / log 2
    def with_weight(weight):
        lesk = SimplifiedLesk(TinyInventory(), **PLAIN)
        return LeskWithPrior(lesk, weight=weight, smoothing=1.0)

    assert with_weight(3.3).predict([inst]) == ["bank.money"]
    assert with_weight(3.4).predict([inst]) == ["bank.river"]
    scored = with_weight(2.0).sense_scores(inst)
    assert [s for s, _ in scored] == SENSES["bank"]
    expected = [math.log(1 / 11) + 2.0 * math.log(2), math.log(10 / 11)]
    assert [v for _, v in scored] == pytest.approx(expected)
    # training counts add to the inventory counts
    train = [sentence("bank", senses=("bank.river",))] * 20
    fitted = LeskWithPrior(SimplifiedLesk(TinyInventory(), **PLAIN), weight=0.0).fit(train)
    assert fitted.predict([inst]) == ["bank.river"]
    with pytest.raises(ValueError, match="smoothing"):
        LeskWithPrior(smoothing=0)


def test_predictions_are_deterministic():
    insts = [sentence("water", "money", "bank"), sentence("the", "river", "deposit", "bank")]
    for system in (SimplifiedLesk, OriginalLesk, ExtendedLesk):
        first = system(TinyInventory(), **PLAIN).predict(insts)
        assert first == system(TinyInventory(), **PLAIN).predict(insts)


def test_context_words_do_not_leak_between_sentences_or_tags():
    """One system scores instances of many sentences in any order (its per-sentence cache of
    normalised words must not answer for another sentence, nor for other tags)."""
    rng = random.Random(0)
    vocabulary = ["money", "water", "river", "lends", "the", "bank", "deposit", "a", "sea"]
    instances = []
    for k in range(300):
        tokens = (*rng.choices(vocabulary, k=rng.randint(0, 6)), "bank",
                  *rng.choices(vocabulary, k=rng.randint(0, 6)))  # fmt: skip
        start = tokens.index("bank")
        pos = tuple(rng.choice(["NN", "VB", "JJ"]) for _ in tokens) if k % 2 else None
        instances.append(Instance(id=f"i{k}", tokens=tokens, span=(start, start + 1),
                                  lemma="bank", pos=pos))  # fmt: skip
    shared = SimplifiedLesk(TinyInventory(), window=2, **PLAIN)
    order = [*instances, *rng.sample(instances, len(instances))]
    for inst in order:
        fresh = SimplifiedLesk(TinyInventory(), window=2, **PLAIN)
        assert shared.context_words(inst) == fresh.context_words(inst)


@needs_wordnet
def test_lemmatization_matches_inflected_forms():
    inst = sentence("she", "deposited", "it", "in", "the", "bank")
    assert scores(SimplifiedLesk(TinyInventory(), lemmatize=False), inst) == [0, 0]
    assert scores(SimplifiedLesk(TinyInventory(), lemmatize=True), inst) == [0, 1]


@needs_wordnet
def test_lesk_on_wordnet_picks_the_money_bank():
    inst = Instance.from_text(
        "I went to the <<bank>> to deposit my money", target_pos="NOUN"
    )
    for system in (SimplifiedLesk(), ExtendedLesk(compare="context")):
        assert system.predict([inst]) == ["bank%1:14:00::"]
    # gloss-to-gloss: the building where banking is done relates best to deposit and money
    assert ExtendedLesk().predict([inst]) == ["bank%1:06:00::"]


def test_lesk_runs_on_the_bundled_inventory():
    from wsd.corpora.bundled import load_bundled

    instances = load_bundled("bass")
    lesk = SimplifiedLesk(BundledInventory(), lemmatize=False)
    answers = lesk.predict(instances)
    ids = {s.id for s in BundledInventory().senses("bass", "NOUN")}
    assert set(answers) <= ids
    # the hand-written glosses separate the senses far better than chance
    assert lesk.score(instances) > 1.5 / len(ids)


# -- NLTK equivalence -------------------------------------------------------------------


def _nltk_sample():
    from wsd.corpora.bundled import bundled_targets, load_bundled
    from wsd.resources import MissingResourceError

    sample = [inst for target in bundled_targets() for inst in load_bundled(target)]
    try:
        from wsd.corpora.framework import load_dataset

        framework = load_dataset("senseval2")
    except MissingResourceError:
        framework = []
    usable = [inst for inst in framework if inst.target_pos in ("NOUN", "VERB", "ADV")]
    return sample + usable[:: max(1, len(usable) // 200)][:200]


@needs_wordnet
def test_nltk_settings_reproduce_nltk_wsd_lesk():
    from nltk.corpus import wordnet
    from nltk.wsd import lesk as nltk_lesk

    letters = {"NOUN": "n", "VERB": "v", "ADV": "r"}
    ours = SimplifiedLesk(
        WordNetInventory(exact_lemma=False), stopwords=False, lemmatize=False,
        use_examples=False, include_target=True, raw_tokens=True,
    )
    sample = _nltk_sample()
    assert len(sample) >= 50
    compared = 0
    for inst in sample:
        expected = nltk_lesk(list(inst.tokens), inst.lemma, letters[inst.target_pos])
        answer = ours.predict([inst])[0]
        got = None if answer is None else wordnet.lemma_from_key(answer).synset()
        assert got == expected, inst.id
        compared += expected is not None
    assert compared >= 50


def test_each_sentence_is_normalised_once_when_asked_out_of_text_order(monkeypatch):
    """The all-words model asks Lesk key by key, so a text's sentences come back after many
    others; each is normalised once (a cache of 256 had missed on two thirds of a
    1,600-sentence text), and the overlaps are those of a fresh system."""
    from wsd.knowledge import normalise

    calls = []
    word = normalise.Normaliser.word

    def counted(self, token, letter=None):
        calls.append(token)
        return word(self, token, letter)

    monkeypatch.setattr(normalise.Normaliser, "word", counted)
    texts = [sentence("the", "bank", f"w{k}", "river", "water", id=f"s{k}") for k in range(1000)]
    system = SimplifiedLesk(TinyInventory(), stopwords=False, lemmatize=False)
    first = [scores(system, texts[0])]
    calls.clear()  # the senses' glosses are normalised too, once: leave those out
    first += [scores(system, inst) for inst in texts[1:]]
    second = [scores(system, inst) for inst in reversed(texts)]
    assert len(calls) == 5 * (len(texts) - 1)  # five tokens a sentence, once each
    fresh = SimplifiedLesk(TinyInventory(), stopwords=False, lemmatize=False)
    assert first == second[::-1] == [scores(fresh, inst) for inst in texts]
