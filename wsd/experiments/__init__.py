"""Experiments: the featurizer+learner pipeline, system comparison, curves, all-words runs."""
