import itertools

import numpy as np
import pytest

from sudoku_batch.pipeline.recognise.ocr.ctc import sequence_log_likelihoods


def brute_force(probs: np.ndarray, labels: tuple[int, ...]) -> float:
    """Sum over every frame path that collapses (merge repeats, drop blanks) to ``labels``."""
    frames, classes = probs.shape
    total = 0.0
    for path in itertools.product(range(classes), repeat=frames):
        merged = [k for k, _ in itertools.groupby(path)]
        if tuple(k for k in merged if k != 0) == labels:
            total += float(np.prod(probs[np.arange(frames), path]))
    return np.log(total)


def test_forward_algorithm_matches_brute_force():
    rng = np.random.default_rng(3)
    probs = rng.dirichlet(np.ones(4), size=(2, 5))
    labels = [(1,), (2,), (1, 2), (1, 1), (3, 2, 1)]
    got = sequence_log_likelihoods(np.log(probs), labels)
    want = [[brute_force(p, seq) for seq in labels] for p in probs]
    np.testing.assert_allclose(got, want, rtol=1e-9)


def test_all_sequences_of_a_one_frame_output_sum_to_one():
    probs = np.array([[[0.2, 0.5, 0.3]]])
    got = np.exp(sequence_log_likelihoods(np.log(probs), [(1,), (2,)]))
    np.testing.assert_allclose(got, [[0.5, 0.3]])


def test_rejects_a_label_sequence_holding_the_blank():
    with pytest.raises(ValueError):
        sequence_log_likelihoods(np.zeros((1, 2, 3)), [(0,)])
