"""Evaluation: metrics, data splits, significance tests and the all-words scorer."""

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
from wsd.evaluation.significance import approximate_randomization, bootstrap_ci, mcnemar
from wsd.evaluation.splits import (
    instance_labels,
    split_instances,
    stratified_kfold,
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
    "precision_recall_fscore",
    "instance_labels",
    "mcnemar",
    "split_instances",
    "stratified_kfold",
    "train_dev_test_split",
]
