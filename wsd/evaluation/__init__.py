"""Evaluation: metrics, data splits, significance tests and the all-words scorer.

Names are imported on first use: the significance tests load scipy.stats and the learning
curves pandas (together over a second), which the scorer alone does not need.
"""

from __future__ import annotations

from wsd.lazy import lazy_getattr

_EXPORTS = {
    "learning_curve": "wsd.evaluation.learning_curve",
    **dict.fromkeys(("NO_ANSWER", "accuracy", "classification_report", "cohen_kappa",
                     "confusion_matrix", "contingency_table", "contingency_tables",
                     "precision_recall_fscore"), "wsd.evaluation.metrics"),
    **dict.fromkeys(("format_scores", "score_framework", "score_key_files"),
                    "wsd.evaluation.scorer"),
    **dict.fromkeys(("approximate_randomization", "bootstrap_ci", "mcnemar"),
                    "wsd.evaluation.significance"),
    **dict.fromkeys(("instance_labels", "split_instances", "stratified_kfold",
                     "stratified_order", "train_dev_test_split"), "wsd.evaluation.splits"),
}  # fmt: skip
__all__ = sorted(_EXPORTS)

__getattr__ = lazy_getattr(__name__, _EXPORTS)
