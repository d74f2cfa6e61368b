"""Evaluation: metrics, data splits, significance tests and the all-words scorer."""

from wsd.evaluation.curves import learning_curve
from wsd.evaluation.metrics import (
    NO_ANSWER,
    accuracy,
    classification_report,
    cohen_kappa,
    confusion_matrix,
    contingency_table,
    contingency_tables,
    precision_recall_fscore,
)
from wsd.evaluation.scorer import format_scores, score_framework, score_key_files
from wsd.evaluation.significance import approximate_randomization, bootstrap_ci, mcnemar
from wsd.evaluation.splits import (
    instance_labels,
    split_instances,
    stratified_kfold,
    stratified_order,
    train_dev_test_split,
)

__all__ = [
    "NO_ANSWER",
    "accuracy",
    "approximate_randomization",
    "bootstrap_ci",
    "classification_report",
    "cohen_kappa",
    "confusion_matrix",
    "contingency_table",
    "contingency_tables",
    "format_scores",
    "instance_labels",
    "learning_curve",
    "mcnemar",
    "precision_recall_fscore",
    "score_framework",
    "score_key_files",
    "split_instances",
    "stratified_kfold",
    "stratified_order",
    "train_dev_test_split",
]
