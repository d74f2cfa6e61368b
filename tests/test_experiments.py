"""The experiment layer: pipeline, system comparison, config files, report tables."""

from collections import Counter
from functools import partial

import numpy as np
import pandas as pd
import pytest

from wsd import Instance
from wsd.corpora import load_bundled
from wsd.evaluation.splits import split_instances
from wsd.experiments.compare import compare_systems, cross_validated_predictions
from wsd.experiments.config import config_to_argv, read_config
from wsd.experiments.report import to_markdown, write_table
from wsd.features import Featurizer
from wsd.learners import MulticlassAveragedPerceptron
from wsd.systems.named import SystemSettings, make_system, small_corpus_settings
from wsd.systems.supervised import SupervisedWSD

CRANE = load_bundled("crane")


def bow_system(epochs=5):
    return SupervisedWSD(Featurizer.preset("bow"), MulticlassAveragedPerceptron(epochs=epochs))


def test_pipeline_learns_saves_and_loads_identically(tmp_path):
    train, _, test = split_instances(CRANE, dev=0.0, test=0.3, seed=1)
    model = bow_system().fit(train)
    majority = Counter(i.sense for i in test).most_common(1)[0][1] / len(test)
    assert model.score(test) > majority + 0.05
    assert model.lemmas_ == ["crane"] and sorted(model.senses) == ["crane.bird", "crane.machine"]
    loaded = SupervisedWSD.load(model.save(tmp_path / "m.json"))
    assert loaded.predict(test) == model.predict(test)
    assert loaded.lemmas_ == ["crane"]


def test_explanation_names_the_winner_its_margin_and_helpful_features():
    model = bow_system().fit(CRANE)
    why = model.explain(Instance.from_text("A <<crane>> flew over the marsh at dawn."), k=3)
    assert why.sense == "crane.bird" and why.runner_up == "crane.machine"
    assert why.margin > 0
    assert len(why.features) <= 3 and why.features[0][1] > 0


def test_pipeline_refuses_empty_or_unlabelled_training_data():
    with pytest.raises(ValueError, match="no training instances"):
        bow_system().fit([])
    unlabelled = Instance("u1", ("a", "crane"), (1, 2), "crane")
    with pytest.raises(ValueError, match="'u1' has no gold sense"):
        bow_system().fit([*CRANE[:5], unlabelled])


def test_early_stopping_through_the_pipeline_uses_the_dev_set():
    train, dev, _ = split_instances(CRANE, dev=0.2, test=0.0, seed=0)
    model = SupervisedWSD(Featurizer.preset("bow"),
                          MulticlassAveragedPerceptron(epochs=8, patience=2)).fit(train, dev=dev)
    assert all(h["dev_accuracy"] is not None for h in model.learner.history_)
    assert model.learner.best_epoch_ is not None


def test_cross_validation_predicts_every_instance_once():
    predictions, folds = cross_validated_predictions(partial(make_system, "mfs"), CRANE, 4, 0)
    assert len(predictions) == len(CRANE) and None not in predictions and len(folds) == 4
    assert set(predictions) == {"crane.machine"}  # the majority sense in every fold


def test_compare_systems_table_and_baseline_test():
    settings = small_corpus_settings(epochs=3)
    systems = {"mfs": partial(make_system, "mfs"),
               "averaged": partial(make_system, "averaged", settings)}
    table = compare_systems(systems, CRANE, folds=3, seed=0, n_resamples=200)
    assert list(table.index) == ["mfs", "averaged"]
    majority = Counter(i.sense for i in CRANE).most_common(1)[0][1] / len(CRANE)
    assert table.loc["mfs", "accuracy"] == pytest.approx(majority)
    assert (table["ci_low"] <= table["accuracy"]).all()
    assert (table["accuracy"] <= table["ci_high"]).all()
    assert np.isnan(table.loc["mfs", "p_vs_mfs"])
    assert table.loc["averaged", "p_vs_mfs"] < 0.05
    held_out = compare_systems(systems, CRANE, folds=None, test=0.25, seed=0, n_resamples=50)
    assert held_out.loc["mfs", "fold_sd"] == 0.0


def test_make_system_knows_its_names_and_needs_an_inventory_for_lesk():
    with pytest.raises(ValueError, match="unknown system 'oracle'"):
        make_system("oracle")
    with pytest.raises(ValueError, match="needs a sense inventory"):
        make_system("lesk")
    featurizer = SystemSettings(features="bow", weighting="tfidf", lemmatize=False).featurizer()
    assert featurizer.weighting == "tfidf"  # stored as given; fit makes weighting_


def test_config_becomes_the_commands_arguments(tmp_path):
    argv = config_to_argv({"command": "compare", "corpus": "bundled:bass",
                           "systems": ["mfs", "lesk"], "folds": 10, "quiet": True,
                           "lemmatize": False, "window": None})
    assert argv == ["compare", "--corpus", "bundled:bass", "--systems", "mfs,lesk",
                    "--folds", "10", "--quiet"]
    assert config_to_argv({"command": "disambiguate", "sentences": ["a <<bass>>"],
                           "target": "bass"}) == ["disambiguate", "--target", "bass", "a <<bass>>"]
    with pytest.raises(ValueError, match="give the command"):
        config_to_argv({"corpus": "bundled:bass"})
    toml = tmp_path / "exp.toml"
    toml.write_text('command = "compare"\ncorpus = "bundled:bass"\nfolds = 3\n')
    assert read_config(toml) == {"command": "compare", "corpus": "bundled:bass", "folds": 3}
    toml.write_text("command = \n")
    with pytest.raises(ValueError, match="exp.toml: not a valid toml config"):
        read_config(toml)


def test_tables_are_written_as_csv_and_markdown(tmp_path):
    table = pd.DataFrame({"accuracy": [0.5, 0.75]}, index=pd.Index(["a", "b"], name="system"))
    assert to_markdown(table) == ("| system | accuracy |\n|---|---|\n| a | 0.5000 |\n"
                                  "| b | 0.7500 |\n")
    csv, md = write_table(table, tmp_path / "sub" / "t.csv")
    assert csv.read_text().splitlines() == ["system,accuracy", "a,0.5", "b,0.75"]
    assert md.name == "t.md"


def test_per_key_systems_choose_only_among_their_own_words_senses():
    from wsd.systems.perkey import PerKeyWSD

    bass = load_bundled("bass")
    mixed = CRANE[::2] + bass[::2]
    only_one_sense = [i for i in load_bundled("bank") if i.sense == "bank.river"][:5]
    system = PerKeyWSD(bow_system, fallback="none").fit(mixed + only_one_sense)
    assert sorted(system.systems_) == ["bass#NOUN", "crane#NOUN"]
    test = CRANE[1::2] + bass[1::2]
    answers = system.predict(test)
    assert all(a.split(".")[0] == inst.lemma for a, inst in zip(answers, test, strict=True))
    majority = make_system("mfs").fit(mixed).score(test)
    assert system.score(test) > majority + 0.05
    assert system.predict(load_bundled("bank")[:3]) == ["bank.river"] * 3
    unseen = Instance("x", ("a", "plant"), (1, 2), "plant", target_pos="NOUN")
    assert system.predict([unseen]) == [None]
