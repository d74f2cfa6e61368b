"""Random training problems shared by the learner tests."""

import numpy as np


def prototype_problem(seed, n, d, k, prefix):
    """Sparse real-valued feature dicts; each label is the class whose random prototype scores
    the example highest, plus noise (so the data is learnable but not separable)."""
    rng = np.random.default_rng(seed)
    prototypes = rng.normal(size=(k, d))
    X, y = [], []
    for _ in range(n):
        columns = rng.choice(d, size=rng.integers(1, 7), replace=False)
        values = rng.normal(size=len(columns))
        vector = np.zeros(d)
        vector[columns] = values
        scores = prototypes @ vector + rng.normal(scale=0.8, size=k)
        X.append({f"f{c}": float(v) for c, v in zip(columns, values, strict=True)})
        y.append(f"{prefix}{int(np.argmax(scores))}")
    return X, y
