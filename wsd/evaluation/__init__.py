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

__all__ = [
    "NO_ANSWER",
    "accuracy",
    "classification_report",
    "cohen_kappa",
    "confusion_matrix",
    "contingency_table",
    "contingency_tables",
    "precision_recall_fscore",
]
