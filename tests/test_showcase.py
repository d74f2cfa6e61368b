"""The showcase answers are right: every example sentence of the demo and the README gets its
intended sense from the model trained on the bundled data, with WordNet (lemmatized bag of
words) and without it (a fresh machine), and with a margin that is not marked unsure."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from wsd.experiments.demo import NEW_SENTENCES
from wsd.experiments.disambiguate import format_record
from wsd.resources import has_nltk_resource

INTENDED = {
    "He caught a huge <<bass>> at the lake this morning.": "bass.fish",
    "She plays <<bass>> in a jazz band on Fridays.": "bass.instrument",
    "Turn the <<bass>> down, the neighbours are complaining.": "bass.sound",
    "A <<crane>> lifted the steel beams onto the roof.": "crane.machine",
    "We watched a <<crane>> wading through the marsh at dawn.": "crane.bird",
    "Water the <<plant>> on the windowsill twice a week.": "plant.living",
    "The car <<plant>> will hire four hundred workers next year.": "plant.factory",
    "She opened a savings account at the <<bank>> downtown.": "bank.finance",
    "We had a picnic on the grassy <<bank>> of the river.": "bank.river",
    "Please hold the <<line>> for a moment.": "line.phone",
    "We waited in <<line>> for an hour to buy tickets.": "line.queue",
    "She forgot her <<lines>> in the second act.": "line.text",
    # README.md
    "He plays <<bass>> in a jazz band": "bass.instrument",
    "he caught a huge <<bass>>": "bass.fish",
    "Please hold the <<line>> for a moment": "line.phone",
    "A <<bass>> in the lake": "bass.fish",
}
SCRIPT = """
import json, sys
import nltk
if sys.argv[1] == "without":
    nltk.data.path[:] = []  # a fresh machine: no NLTK data anywhere
from wsd.experiments.disambiguate import disambiguate
from wsd.systems.named import train_bundled_model
from wsd.systems.named import small_corpus_settings
from wsd.resources import has_nltk_resource
assert has_nltk_resource("wordnet") == (sys.argv[1] == "with")
targets = json.loads(sys.argv[2])  # sentence -> bundled target
answers = {}
for target in sorted(set(targets.values())):
    model = train_bundled_model(target, small_corpus_settings(seed=0))
    mine = [s for s, t in targets.items() if t == target]
    answers.update({r["sentence"]: r for r in disambiguate(model, mine, None)})
print(json.dumps(answers))
"""


def test_every_demo_sentence_has_an_intended_sense():
    demo = {s for sentences in NEW_SENTENCES.values() for s in sentences}
    assert demo <= set(INTENDED)


@pytest.fixture(scope="module", params=["with", "without"])
def answers(request):
    if request.param == "with" and not has_nltk_resource("wordnet"):
        pytest.skip("NLTK wordnet is not installed")
    targets = {sentence: sense.split(".")[0] for sentence, sense in INTENDED.items()}
    result = subprocess.run([sys.executable, "-c", SCRIPT, request.param, json.dumps(targets)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("sentence", list(INTENDED))
def test_showcase_sentence_gets_the_intended_sense(answers, sentence):
    record = answers[sentence]
    assert record["sense"] == INTENDED[sentence], format_record(record)
    assert not record["unsure"], format_record(record)


def test_small_margins_are_marked_unsure():
    record = {"sentence": "s", "target": "bass", "sense": "bass.fish", "gloss": None,
              "margin": 0.1, "runner_up": "bass.sound", "unsure": True, "features": []}
    assert "unsure: a small margin (0.100 over bass.sound)" in format_record(record)
    assert "unsure" not in format_record({**record, "margin": 1.0, "unsure": False})


def test_cli_marks_a_coin_toss_as_unsure(capsys):
    from wsd.cli import main

    assert main(["disambiguate", "The <<bass>> .", "--target", "bass", "--json",
                 "--unsure-below", "1000"]) == 0
    assert json.loads(capsys.readouterr().out)["unsure"] is True
    assert main(["disambiguate", "The <<bass>> .", "--target", "bass", "--json",
                 "--unsure-below", "0"]) == 0
    assert json.loads(capsys.readouterr().out)["unsure"] is False


def test_cli_answers_a_bundled_target_with_its_bundled_model(capsys):
    """`line` has a bundled model, so the README's command does not fall back to Lesk."""
    from wsd.cli import main

    assert main(["disambiguate", "Please hold the line for a moment", "--target", "line",
                 "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["sense"], record["unsure"]) == ("line.phone", False)
