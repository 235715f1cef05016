"""A brute-force CTC reference for tiny inputs, independent of any recursion: every alignment (a
label for each of the T' = input-length time steps, C ** T' of them) is enumerated, collapsed (runs
merged, then blanks dropped) and kept when it spells the target. The loss is -log of the summed
probability of the kept alignments; the occupation of class c at time t is the share of that
probability whose alignment has c at t -- what the alpha-beta recursion computes another way."""
import itertools

import numpy as np

__all__ = ["collapse", "ctc_sample", "ctc_batch"]


def collapse(path, blank):
    """An alignment's labels: repeats merged, then blanks dropped."""
    out, previous = [], None
    for label in path:
        if label != previous and label != blank:
            out.append(label)
        previous = label
    return tuple(out)


def ctc_sample(lp, target, blank=0):
    """(loss, occupation (T', C)) of one sample: lp (T', C) log-probabilities over its input length,
    target a sequence of labels. An impossible target: (inf, NaN occupation)."""
    steps, classes = lp.shape
    target = tuple(int(v) for v in target)
    total = 0.0
    occupation = np.zeros((steps, classes))
    probs = np.exp(lp)
    for path in itertools.product(range(classes), repeat=steps):
        if collapse(path, blank) != target:
            continue
        p = float(np.prod(probs[np.arange(steps), list(path)])) if steps else 1.0
        total += p
        occupation[np.arange(steps), list(path)] += p
    if total == 0.0:
        return np.inf, np.full((steps, classes), np.nan)
    return -np.log(total), occupation / total


def ctc_batch(lp, targets, input_lengths, target_lengths, blank=0):
    """(losses (N,), PyTorch's gradient convention exp(lp) - occupation (T, N, C), zero from each
    input length on) for lp (T, N, C) and padded targets (N, S)."""
    steps, n, classes = lp.shape
    losses = np.zeros(n)
    grad = np.zeros(lp.shape)
    for b in range(n):
        length = int(input_lengths[b])
        loss, occ = ctc_sample(lp[:length, b], targets[b][:int(target_lengths[b])], blank)
        losses[b] = loss
        grad[:length, b] = np.exp(lp[:length, b]) - occ
    return losses, grad
