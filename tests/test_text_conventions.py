"""What a training corpus teaches the raw-text pipeline (``wsd.text.conventions``): expression
counts worked by hand on small sentences, the join rule, and a model that carries its corpus's
conventions through its file."""

import pytest

from wsd.resources import has_nltk_resource

pytestmark = [
    pytest.mark.skipif(not has_nltk_resource("wordnet"), reason="NLTK wordnet data absent"),
    pytest.mark.skipif(not has_nltk_resource("averaged_perceptron_tagger_eng"),
                       reason="NLTK averaged_perceptron_tagger_eng data absent"),
]

# (tokens, corpus lemmas, corpus tags): *look at* joined once and apart three times (not
# counting the noun *look*, which a verb expression cannot start with), *take place* joined
# once.
SENTENCES = [
    (("She", "looked at", "me"), ("she", "look_at", "me"), ("PRON", "VERB", "PRON")),
    (("She", "looked", "at", "it"), ("she", "look", "at", "it"), ("PRON", "VERB", "ADP", "PRON")),
    (("I", "look", "at", "you"), ("i", "look", "at", "you"), ("PRON", "VERB", "ADP", "PRON")),
    (("We", "Look", "AT", "us"), ("we", "look", "at", "us"), ("PRON", "VERB", "ADP", "PRON")),
    (("a", "look", "at", "it"), ("a", "look", "at", "it"), ("DET", "NOUN", "ADP", "PRON")),
    (("It", "took place"), ("it", "take_place"), ("PRON", "VERB")),
]
UNITS = [("look_at", "v"), ("take_place", "v"), ("look", "v"), ("look", "v"), ("look", "v"),
         ("look", "n")]


def _words(text, conventions):
    from wsd.text import analyze

    return {w.text: (w.lemma, w.pos) for s in analyze(text, conventions) for w in s.words}


def test_expression_counts_by_hand():
    from wsd.text.conventions import count_expressions

    counts = count_expressions(SENTENCES, UNITS)
    assert counts["look_at#v"] == (1, 3)
    assert "take_place#v" not in counts  # never apart: it joins as WordNet's counts say
    assert all(joined + apart > 0 for joined, apart in counts.values())


def test_join_share_decides_and_unseen_expressions_follow_wordnet():
    from wsd.text.conventions import CorpusConventions, wordnet_joins

    counts = {"look_at#v": (1, 2), "take_place#v": (1, 0), "ice_cream#n": (0, 4)}
    half = CorpusConventions(counts, join_share=0.5)
    assert not half.joins("look_at", "v")  # 1 of 3 < 0.5
    assert CorpusConventions(counts, join_share=0.3).joins("look_at", "v")  # 1 of 3 >= 0.3
    assert half.joins("take_place", "v")
    assert not half.joins("ice_cream", "n")  # never joined in the corpus
    assert wordnet_joins("of_course", "r") and half.joins("of_course", "r")  # unseen: WordNet
    assert not wordnet_joins("fend_for", "v") and not half.joins("fend_for", "v")
    # another rule for the unlisted ones (held-out documents: WordNet's counts less their own)
    asked = []
    never = CorpusConventions(counts, unseen=lambda lemma, letter: asked.append(lemma) or False)
    assert not never.joins("of_course", "r") and never.joins("take_place", "v")
    assert asked == ["of_course"]


def test_the_pipeline_joins_as_the_conventions_say():
    from wsd.text.conventions import WORDNET, CorpusConventions

    text = "She looked at the house. It took place here."
    assert _words(text, WORDNET)["looked at"] == ("look_at", "VERB")
    apart = _words(text, CorpusConventions({"look_at#v": (1, 9)}))
    assert apart["looked"] == ("look", "VERB") and "looked at" not in apart
    assert apart["took place"] == ("take_place", "VERB")
    # an expression only the corpus joined (not a WordNet lemma) is looked for too
    corpus = CorpusConventions({"gadget_counter#n": (3, 0)})
    assert "gadget" in corpus.first_words and "gadget" not in WORDNET.first_words
    assert _words("He read the gadget counter.", corpus)["gadget counter"] == ("gadget_counter",
                                                                             "NOUN")


# (tokens, tags, verb index, corpus lemma) of verbs separated from a particle by a pronoun
SEPARATED = [
    (("He", "picked", "her", "up", "."), ("PRON", "VERB", "PRON", "PRT", "."), 1, "pick_up"),
    (("He", "picked", "it", "up", "again"), ("PRON", "VERB", "PRON", "PRT", "ADV"), 1, "pick_up"),
    (("She", "picked", "them", "up"), ("PRON", "VERB", "PRON", "PRT"), 1, "pick"),
    (("Let", "it", "go", "."), ("VERB", "PRON", "PRT", "."), 0, "let"),  # let_go, apart
    (("Put", "it", "in", "the", "box"), ("VERB", "PRON", "ADP", "DET", "NOUN"), 0, "put"),
    (("He", "picked", "the", "box", "up"), ("PRON", "VERB", "DET", "NOUN", "PRT"), 1, "pick"),
    (("I", "saw", "him", "off"), ("PRON", "VERB", "PRON", "ADP"), 1, "see_off"),
]


def test_separated_verb_counts_by_hand():
    """A verb, an object pronoun and a particle: joined where the corpus tagged the verb as
    the expression, apart where as the verb alone; *put it in the box* (a preposition before a
    noun phrase) and *picked the box up* (no pronoun) are not counted."""
    from wsd.text.conventions import count_separated, separated_particle

    assert separated_particle(*SEPARATED[0][:3]) == "up"
    assert separated_particle(*SEPARATED[4][:3]) is None  # *in the box*
    assert separated_particle(*SEPARATED[5][:3]) is None  # *the box*: not a pronoun
    assert count_separated(SEPARATED) == {"pick_up#v": (2, 1), "let_go#v": (0, 1),
                                          "see_off#v": (1, 0)}  # fmt: skip


def test_the_pipeline_joins_a_separated_verb_as_the_conventions_say():
    """*picked her up* had read as *pick* (select carefully), with *up* a separate adverb. A
    separated verb joins only where the corpus joined it so at least twice and in
    ``JOIN_SHARE`` of its places; WordNet's counts (no corpus) join none."""
    from wsd.text import analyze
    from wsd.text.conventions import WORDNET, CorpusConventions

    corpus = CorpusConventions({}, separated={"pick_up#v": (12, 1), "look_up#v": (2, 9),
                                              "put_in#v": (5, 0), "bring_back#v": (1, 0)})
    words = _words("He picked her up at noon.", corpus)
    assert words["picked"] == ("pick_up", "VERB")
    assert words["up"] == ("up", None)  # part of the verb: no sense of its own
    # and of no expression that would start with it (*up and down*): words never overlap
    overlap = _words("He picked them up and down the street.", corpus)
    assert overlap["picked"] == ("pick_up", "VERB") and overlap["up"] == ("up", None)
    assert _words("She looked it up.", corpus)["looked"] == ("look", "VERB")  # 2 of 11
    assert _words("Put it in the box.", corpus)["Put"] == ("put", "VERB")  # in the box
    assert _words("Bring it back.", corpus)["Bring"] == ("bring", "VERB")  # joined once only
    assert [w.pos for s in analyze("She looked it up.", corpus) for w in s.words
            if w.text == "up"] == ["ADV"]  # apart: the particle is a word of its own again
    assert _words("He picked her up.", WORDNET)["picked"] == ("pick", "VERB")
    assert _words("He looked up.", WORDNET)["looked up"] == ("look_up", "VERB")  # contiguous


def test_a_trained_model_carries_its_corpus_conventions_through_its_file(tmp_path):
    from wsd.allwords import AllWordsWSD
    from wsd.instance import Instance
    from wsd.text.conventions import WORDNET

    def inst(n, tokens, lemmas, tags, i, sense):
        return Instance(id=f"d.s{n}.t{i}", tokens=tokens, span=(i, i + 1), lemma=lemmas[i],
                        pos=tags, senses=(sense,), target_pos=tags[i],
                        meta=(("document", "d"), ("sentence", f"d.s{n}"),
                              ("lemmas", lemmas)))  # fmt: skip

    senses = {"look_at": "look_at%2:39:00::", "look": "look%2:39:00::",
              "take_place": "take_place%2:30:00::"}  # fmt: skip
    instances = [inst(n, tokens, lemmas, tags, i, senses[lemmas[i]])
                 for n, (tokens, lemmas, tags) in enumerate(SENTENCES)
                 for i in range(len(tokens)) if lemmas[i] in senses and tags[i] == "VERB"]
    system = AllWordsWSD(n_models=1, epochs=1, pos_tags="corpus").fit(instances)
    assert system.conventions_["expressions"]["look_at#v"] == (1, 3)
    assert system.conventions_["separated"] == {}  # no verb stands before a pronoun here
    loaded = AllWordsWSD.load(system.save(tmp_path / "m.npz"))
    assert loaded.conventions_ == system.conventions_
    assert not loaded.conventions.joins("look_at", "v")  # 1 of 4 < JOIN_SHARE (0.3)
    assert loaded.conventions.joins("take_place", "v")  # not listed: WordNet's counts
    # built once (its word index cost 40 ms a call of wsd.disambiguate), again when replaced
    assert loaded.conventions is loaded.conventions
    before = loaded.conventions
    loaded.conventions_ = {"expressions": {"look_at#v": (3, 1)}}
    assert loaded.conventions is not before and loaded.conventions.joins("look_at", "v")
    del loaded.conventions_  # a model saved before models recorded them
    assert loaded.conventions is WORDNET


def test_model_files_with_bad_conventions_are_refused(tmp_path):
    from wsd.allwords.modelfile import ModelFileError, _check_conventions

    def bad(problem):
        return ModelFileError(problem)

    _check_conventions({"expressions": {"a_b#n": [1, 0]}, "separated": {"a_b#v": [0, 2]},
                        "parts_of_speech": {"a#JJ": [0, 3, 1, 0]}}, bad)  # fmt: skip
    for found in ({"expressions": {"a_b#n": [1]}}, {"expressions": {"a_b#n": [True, 0]}},
                  {"parts_of_speech": {"a#JJ": [0, 3]}}, {"parts_of_speech": {"a#JJ": 3}},
                  {"expressions": {"a_b#n": [-1, 0]}}, {"separated": {"a_b#v": [1]}},
                  {"other": {}}, []):  # fmt: skip
        with pytest.raises(ModelFileError):
            _check_conventions(found, bad)


def test_training_without_wordnet_counts_the_corpus_expressions_only(tmp_path):
    """Training needs no WordNet when its features need none: the counts then cover only the
    expressions the corpus joined (no WordNet index of the others)."""
    import os
    import subprocess
    import sys

    code = """
from wsd.allwords import AllWordsWSD
from wsd.instance import Instance
sentences = [(("She", "looked at", "me"), ("she", "look_at", "me"), "look_at%2:39:00::"),
             (("She", "looked", "at", "it"), ("she", "look", "at", "it"), "look%2:39:00::"),
             (("They", "looked", "up"), ("they", "look", "up"), "look%2:39:01::")]
instances = [Instance(id=f"d.s{n}.t1", tokens=tokens, span=(1, 2), lemma=lemmas[1],
                      pos=("PRON", "VERB") + ("ADP",) * (len(tokens) - 2), senses=(sense,),
                      target_pos="VERB", meta=(("document", "d"), ("sentence", f"d.s{n}"),
                                               ("lemmas", lemmas)))
             for n, (tokens, lemmas, sense) in enumerate(sentences)]
system = AllWordsWSD(features="ims", pos_tags="corpus", n_models=1, epochs=1,
                     gloss_weight=0).fit(instances)
print(system.conventions_["expressions"])
"""
    env = {**os.environ, "NLTK_DATA": str(tmp_path), "WSD_CACHE_DIR": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "{'look_at#v': (1, 1)}"


def test_parts_of_speech_counts_by_hand():
    """A (form, tag) pair is listed where the corpus tagged it as another part of speech than
    the tag's at least MIN_RETAGGED (3) times and in at least RETAG_SHARE (0.7) of them."""
    from wsd.text.conventions import count_parts_of_speech

    words = ([("understood", "JJ", "VERB")] * 3 + [("Understood", "JJ", "ADJ")]  # 3 of 4
             + [("bank", "NN", "NOUN")] * 5  # the tag's own part of speech
             + [("about", "IN", "ADV")] * 5  # a tag with no content word: never read as one
             + [("two", "CD", "NOUN")] * 3  # a cardinal is read as an adjective
             + [("walk", "NN", "VERB")] * 3 + [("walk", "NN", "NOUN")] * 2  # 3 of 5 < 0.7
             + [("sat", "NN", "VERB")] * 2  # twice only
             + [("run", "NN", "X")] * 4)  # fmt: skip
    assert count_parts_of_speech(words) == {"understood#JJ": (0, 3, 1, 0),
                                            "two#CD": (3, 0, 0, 0)}  # fmt: skip
    assert count_parts_of_speech(words, min_count=2, share=0.6) == {
        "understood#JJ": (0, 3, 1, 0), "two#CD": (3, 0, 0, 0), "walk#NN": (2, 3, 0, 0),
        "sat#NN": (0, 2, 0, 0)}  # fmt: skip


def test_the_pipeline_reads_a_form_as_the_corpus_tagged_it():
    """SemCor has *understood* read as JJ as a verb 11 times of 13: with those counts the
    pipeline reads *are poorly understood* (JJ) as the verb; without them, the adjective. A
    part of speech the form has no base form in leaves the word as it was."""
    from wsd.text.conventions import WORDNET, CorpusConventions

    conventions = CorpusConventions({}, parts_of_speech={"understood#JJ": (0, 11, 2, 0),
                                                         "complex#JJ": (0, 5, 0, 0)})  # fmt: skip
    assert conventions.part_of_speech("Understood", "JJ") == "VERB"
    assert conventions.part_of_speech("understood", "VBN") is None
    assert CorpusConventions({}, parts_of_speech={"walk#NN": (2, 3, 0, 0)}).part_of_speech(
        "walk", "NN") is None  # 3 of 5: below the share
    text = "The causes are poorly understood and complex."
    assert _words(text, conventions)["understood"] == ("understand", "VERB")
    assert _words(text, conventions)["complex"] == ("complex", "ADJ")  # no verb *complex*
    assert _words(text, WORDNET)["understood"] == ("understood", "ADJ")


def test_a_model_tagged_as_raw_text_counts_the_parts_of_speech_of_its_forms(tmp_path):
    """Trained with the raw-text tagger's tags (``pos_tags="penn"``), a model counts how the
    corpus tagged the forms the tagger reads alike, and keeps the counts in its file; with
    the corpus's own tags, whose tags raw text never has, it counts none."""
    from wsd.allwords import AllWordsWSD
    from wsd.instance import Instance

    tokens = ("They", "are", "poorly", "understood", ".")
    instances = [Instance(id=f"d.s{n}.t3", tokens=tokens, span=(3, 4), lemma="understand",
                          pos=("PRON", "VERB", "ADV", "VERB", "."), target_pos="VERB",
                          senses=(sense,),
                          meta=(("document", "d"), ("sentence", f"d.s{n}"),
                                ("lemmas", ("they", "be", "poorly", "understand", "."))))
                 for n, sense in enumerate(["understand%2:31:00::"] * 2
                                           + ["understand%2:31:01::"])]  # fmt: skip
    system = AllWordsWSD(n_models=1, epochs=1).fit(instances)
    assert system.conventions_["parts_of_speech"] == {"understood#JJ": (0, 3, 0, 0)}
    loaded = AllWordsWSD.load(system.save(tmp_path / "m.npz"))
    assert loaded.conventions.part_of_speech("understood", "JJ") == "VERB"
    corpus = AllWordsWSD(n_models=1, epochs=1, pos_tags="corpus").fit(instances)
    assert "parts_of_speech" not in corpus.conventions_
