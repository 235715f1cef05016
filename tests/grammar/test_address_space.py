"""budget._address_space: the process's address space from /proc/self/statm, opened once per process
and read again at offset 0 -- each read the count now (it follows a large mapping), and a forked
child reads its own file, not its parent's."""
import mmap
import os
import sys

import pytest

from autodiff.grammar import budget

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/statm is Linux's")


def _fresh():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * budget._PAGE


def test_each_read_is_the_count_now():
    before = budget._address_space()
    assert abs(before - _fresh()) < 64 << 20
    area = mmap.mmap(-1, 256 << 20)  # address space, not memory: the count grows by the mapping
    try:
        grown = budget._address_space()
        assert grown - before >= 250 << 20 and abs(grown - _fresh()) < 64 << 20
    finally:
        area.close()
    assert budget._address_space() < grown


def test_a_forked_child_reads_its_own_file():
    budget._address_space()
    parent = budget._statm[:]
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: grow by a mapping its parent does not have, and say what it read
        try:
            area = mmap.mmap(-1, 512 << 20)
            seen = budget._address_space()
            ok = budget._statm[0] == os.getpid() and budget._statm[1] is not None and seen - _fresh() < 64 << 20 \
                and abs(seen - _fresh()) < 64 << 20
            area.close()
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 1)
    os.waitpid(pid, 0)
    os.close(read)
    assert answer == b"1"
    assert budget._statm == parent  # the parent's own file, untouched
    assert abs(budget._address_space() - _fresh()) < 64 << 20


def test_a_descriptor_closed_under_it_is_opened_again():
    budget._address_space()
    os.close(budget._statm[1])  # as a library that closes every descriptor would
    assert budget._address_space() is None  # that read fails; the next opens the file again
    assert abs(budget._address_space() - _fresh()) < 64 << 20
