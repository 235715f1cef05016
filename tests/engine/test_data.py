"""torch.utils.data from Python (engine/data.py): PyTorch's messages and collation, and a
shuffled pass visiting every sample once. What a program prints through them is compared
with PyTorch's output in tests/golden/language_python.json (data_loader)."""
import pytest

import autodiff.engine as E
from autodiff.engine.data import DataLoader, TensorDataset, default_collate


def test_a_shuffled_pass_visits_every_sample_once_and_batches_keep_pairs():
    x = E.arange(20.0).view(10, 2)
    y = E.arange(10)
    E.manual_seed(1)
    seen = []
    for xb, yb in DataLoader(TensorDataset(x, y), batch_size=3, shuffle=True):
        assert (xb[:, 0] == 2 * yb.to(E.float64)).all()   # each row still with its own label
        seen += yb.tolist()
    assert sorted(seen) == list(range(10)) and seen != list(range(10))
    assert sorted(E.randperm(7).tolist()) == list(range(7)) and E.randperm(7).dtype == E.int64


def test_pytorchs_messages():
    with pytest.raises(ValueError, match="batch_size should be a positive integer value, but got batch_size=0"):
        DataLoader(TensorDataset(E.ones(2)), batch_size=0)
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(E.ones(2), E.ones(3))
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal size"):
        default_collate([(1, 2), (3,)])


def test_collation_follows_pytorchs_defaults():
    batch = default_collate([(E.ones(2), 1, 0.5, {"k": 2}), (E.zeros(2), 2, 1.5, {"k": 3})])
    assert isinstance(batch, list) and batch[0].shape == (2, 2)
    assert batch[1].dtype == E.int64 and batch[2].dtype == E.float64 and batch[3]["k"].tolist() == [2, 3]
    assert len(DataLoader(TensorDataset(E.ones(5)), batch_size=2)) == 3
    assert len(DataLoader(TensorDataset(E.ones(5)), batch_size=2, drop_last=True)) == 2
    loader = DataLoader(TensorDataset(E.arange(4)), batch_size=2, num_workers=2, pin_memory=True)
    assert [b[0].tolist() for b in loader] == [[0, 1], [2, 3]]   # the same batches, as in PyTorch
