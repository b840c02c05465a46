"""What the fit scripts (fit_widow_value.py, fit_pair_value.py) share: a least-squares fit as
the model files write it, and writing a model file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np


def linear_fit(x: np.ndarray, y: np.ndarray) -> dict:
    """The least-squares fit of ``y`` on the columns of ``x`` (the intercept's column included):
    ``{"coef", "sd": the residual spread, "r2": the share of the variance explained}``, rounded
    as the model files keep them."""
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    residual = y - x @ coef
    return {"coef": [round(float(c), 6) for c in coef],
            "sd": round(float(residual.std()), 6),
            "r2": round(float(1 - residual.var() / y.var()), 4)}


def write_model(document: dict, path: Path) -> None:
    """``document`` as the model file ``path`` (indented JSON, one newline at the end)."""
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def finish_model(document: dict, out: Path, provisional: Path) -> None:
    """Write the finished ``document`` to ``out`` and remove the ``provisional`` file the fit
    ran with."""
    write_model(document, out)
    provisional.unlink()
    print(f"wrote {out}")
