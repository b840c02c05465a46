"""numba's on-disk cache, safe for processes that compile at the same time.

numba keeps one index file per function (``<module>.<function>-<line>.py<ver>.nbi``, its
signatures and the data file of each) and numbers the data files itself (``....1.nbc``,
``....2.nbc``). Saving a signature reads the index, picks the first free number, writes the
index and then the data; nothing stops two processes that compile two signatures of one function
at the same time from picking the same number, and the index may then name, for one signature,
the machine code of the other (numba issues 4807 and 10128 report such races). This project
compiles in several processes at once: the test suite's warm-up in two, the compile helper
beside a command (:mod:`binokel_sim.compile_helper`), Dask workers on one machine.

:func:`install` wraps numba's ``IndexDataCacheFile.save`` and ``load`` in an advisory lock
(``fcntl.flock``) on one file in the cache folder, ``.binokel-sim.lock``: a save (read the
index, pick the number, write both files) runs alone, and a load never sees an index that names
data not yet written. Where ``fcntl`` does not exist (Windows) the cache is left as numba makes
it.

Called once per process before any kernel compiles (:func:`binokel_sim.compile_notice.install`).
"""

from __future__ import annotations

import contextlib
import os

LOCK_NAME = ".binokel-sim.lock"

_installed = False


@contextlib.contextmanager
def locked(folder: str, exclusive: bool):
    """Hold the lock of the cache ``folder`` (exclusive for a writer, shared for a reader); a
    folder that does not exist yet is not locked (there is nothing in it to read)."""
    import fcntl

    try:
        fd = os.open(os.path.join(folder, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:  # no folder yet, or one we may not write: numba's own checks apply
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def install() -> bool:
    """Wrap numba's index saves and loads in the lock (once per process). False where there is
    no ``fcntl``."""
    global _installed
    if _installed:
        return True
    try:
        import fcntl  # noqa: F401
    except ImportError:
        return False
    from numba.core.caching import IndexDataCacheFile

    save, load = IndexDataCacheFile.save, IndexDataCacheFile.load

    def locked_save(self, key, data):
        with locked(self._cache_path, exclusive=True):
            return save(self, key, data)

    def locked_load(self, key):
        with locked(self._cache_path, exclusive=False):
            return load(self, key)

    IndexDataCacheFile.save = locked_save
    IndexDataCacheFile.load = locked_load
    _installed = True
    return True
