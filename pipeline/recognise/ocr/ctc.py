"""Scoring given label sequences under a CTC model's per-frame output.

The recogniser reads any of ~18,700 characters; a Sudoku cell can only hold a few symbols. Rather
than decode freely and hope the text is one of them, we ask how probable each allowed symbol is:
the CTC probability of a label sequence sums over every frame alignment that collapses to it
(the forward algorithm), so a digit smeared over several frames is not penalised the way
best-path decoding penalises it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

NEG_INF = -np.inf


def sequence_log_likelihoods(
    log_probs: np.ndarray, labels: Sequence[Sequence[int]], blank: int = 0
) -> np.ndarray:
    """log P(labels[s] | frames) for every item and every label sequence.

    ``log_probs`` is [items, frames, classes] (log of per-frame class probabilities); each label
    sequence lists class indices (non-empty, none equal to ``blank``). Returns [items, sequences].
    All sequences are scored at once by padding them to the longest extended length.
    """
    items, frames, _ = log_probs.shape
    count = len(labels)
    longest = max(len(seq) for seq in labels)
    width = 2 * longest + 1  # extended sequence: blank, l1, blank, l2, ..., blank

    ext = np.full((count, width), blank, dtype=np.int64)
    ends = np.empty(count, dtype=np.int64)  # index of the last blank of each extended sequence
    skip = np.zeros((count, width), dtype=bool)  # may jump two states (over a blank) into s
    padding = np.zeros((count, width), dtype=bool)
    for s, seq in enumerate(labels):
        if not seq or blank in seq:
            raise ValueError(f"label sequence {seq!r} is empty or contains the blank")
        ext[s, 1 : 2 * len(seq) : 2] = seq
        ends[s] = 2 * len(seq)
        padding[s, ends[s] + 1 :] = True
        for k in range(1, len(seq)):
            # Repeated labels need a blank between them, so only distinct neighbours may skip.
            skip[s, 2 * k + 1] = seq[k] != seq[k - 1]

    emit = log_probs[:, :, ext]  # [items, frames, count, width]
    emit = np.where(padding, NEG_INF, emit)

    alpha = np.full((items, count, width), NEG_INF)
    alpha[:, :, 0] = emit[:, 0, :, 0]
    alpha[:, :, 1] = emit[:, 0, :, 1]
    with np.errstate(divide="ignore"):
        for t in range(1, frames):
            stay = alpha
            step = np.concatenate([np.full((items, count, 1), NEG_INF), alpha[:, :, :-1]], axis=2)
            jump = np.concatenate([np.full((items, count, 2), NEG_INF), alpha[:, :, :-2]], axis=2)
            jump = np.where(skip, jump, NEG_INF)
            alpha = np.logaddexp(np.logaddexp(stay, step), jump) + emit[:, t]

    rows = np.arange(count)
    last_blank = alpha[:, rows, ends]
    last_label = alpha[:, rows, ends - 1]
    return np.logaddexp(last_blank, last_label)
