"""Worker processes that die with their parent.

A batch (`eval --jobs`) and a test run (`autodiff test`) fork workers. If the
parent is killed -- by `kill -9`, the OOM killer, a closed terminal -- nothing
runs in it to stop them, and they would go on as orphans. So a worker asks
the kernel to kill it when its parent goes (Linux's PR_SET_PDEATHSIG), and,
where there is no such call, a watchdog thread checks the parent's pid once
a second. Workers also leave Ctrl-C to the parent: the terminal sends SIGINT
to every process of its foreground group, and the parent decides what stops
(it then kills its workers itself).
"""
import ctypes
import os
import signal
import sys
import threading
import time

__all__ = ["die_with_parent", "WATCH_INTERVAL"]

WATCH_INTERVAL = 1.0  # seconds between the watchdog's looks at the parent
_PR_SET_PDEATHSIG = 1


def _set_death_signal():
    """Linux: SIGKILL when the parent exits. True if the kernel took it."""
    if not sys.platform.startswith("linux"):
        return False
    try:  # (the process's own symbols hold libc's: ctypes.util.find_library would start ldconfig)
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent(parent_pid, ignore_interrupt=True):
    """Call first thing in a forked worker: it ends when the process `parent_pid` does
    (at once on Linux, within WATCH_INTERVAL elsewhere); with `ignore_interrupt`, Ctrl-C
    is the parent's to handle."""
    if ignore_interrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _set_death_signal()
    if os.getppid() != parent_pid:  # the parent went before the kernel was asked
        os._exit(1)

    def watch():
        while True:
            time.sleep(WATCH_INTERVAL)
            if os.getppid() != parent_pid:
                os._exit(1)
    threading.Thread(target=watch, name="autodiff-parent-watch", daemon=True).start()
