"""The search core compiled: :mod:`rhasp.engines.core` under numba, loaded only when needed.

Importing numba costs about half a second, more than a small search takes, so nothing imports
this module until :mod:`rhasp.engines.runner` decides the compiled speed will pay for it.
Compiled code is cached on disk (``cache=True``): numba writes it to the ``__pycache__``
folder beside ``core.py`` when that is writable, else to its user cache folder; the
``NUMBA_CACHE_DIR`` environment variable moves it. The first run on a machine compiles, in a
few seconds; later runs load the cache.

numba checks a cached function against its own source file only, not against the files of
the functions it calls: after an edit of ``core.py`` or ``clusters.py``, the compiled
``enumerate_shard`` of ``layouts.py`` (which has them compiled in) still runs the old code.
Whoever edits the core removes the cache (``rm rhasp/engines/__pycache__/*.nb[ci]``) before
measuring or testing; an installed package and a fresh clone start with none.
"""

from __future__ import annotations

import inspect
from typing import TypeVar

import numpy as np
from numba import njit
from numba.extending import overload, register_jitable

from rhasp.engines import clusters, core, layouts
from rhasp.engines.clusters import SPREAD

TablesT = TypeVar("TablesT", core.Tables, layouts.Lines)

EMPTY = -1  # no key is negative: keys fit 63 bits


# The states seen, compiled: in place of numba's own set, which measured 1.5 times slower on
# this core's clusters, an int64 array of slots in open addressing with linear probing, kept at
# most half full, with the count of keys held in its last element. Keys are well-mixed
# integers already, so one multiplication (by SPREAD, as the cluster's index table does)
# spreads them.


@njit
def _table(size: int) -> np.ndarray:
    table = np.full(size + 1, EMPTY, np.int64)
    table[size] = 0
    return table


@njit
def _place(table: np.ndarray, key: int) -> bool:
    """Put ``key`` in its slot; False if it was there already."""
    mask = len(table) - 2  # the slots are a power of two
    slot = (key * SPREAD) >> 32 & mask
    while table[slot] != EMPTY:
        if table[slot] == key:
            return False
        slot = (slot + 1) & mask
    table[slot] = key
    table[mask + 1] += 1
    return True


@njit
def _with_room(table: np.ndarray, more: int) -> np.ndarray:
    """``table``, or a larger copy when ``more`` keys would fill more than half of it."""
    size = len(table) - 1
    if 2 * (table[size] + more) <= size:
        return table
    grown = _table(4 * size)
    for key in table[:size]:
        if key != EMPTY:
            _place(grown, key)
    return grown


# numba passes the argument types to each overload; the function it returns is the code.


@overload(core.new_buffer)
def _new_buffer(size):
    return lambda size: np.zeros(size, np.int64)


@overload(core.key_set)
def _key_set(first):
    def table(first):
        seen = _table(1024)
        _place(seen, first)
        return seen

    return table


@overload(core.add_new)
def _added(seen, key):
    return lambda seen, key: _place(seen, key)


@overload(core.with_room)
def _room(seen, more):
    return lambda seen, more: _with_room(seen, more)


#: The core's functions with a compiled twin above; every other function of the core, of the
#: cluster functions and of the enumeration is registered, found rather than listed, so none
#: can be forgotten.
TWINNED = (core.new_buffer, core.key_set, core.add_new, core.with_room)


def _functions(module: object) -> list[object]:
    return [
        value
        for value in vars(module).values()
        if inspect.isfunction(value) and value.__module__ == module.__name__
    ]


#: Helpers numba inlines where they are called: one vehicle's table rows, filled for every
#: layout the enumeration visits, cost 4 % of a 5×5 run as a call of their own.
INLINED = (core.fill_rows,)

for _helper in _functions(core) + _functions(clusters) + _functions(layouts):
    if _helper not in TWINNED:
        register_jitable(inline="always" if _helper in INLINED else "never")(_helper)

# Without the GIL (nogil), so that the thread that started a search can show its progress and
# stop it (Ctrl-C) while it runs.
breadth_first = njit(cache=True, nogil=True)(core.breadth_first)
cheapest = njit(cache=True, nogil=True)(core.cheapest)
best_first = njit(cache=True, nogil=True)(core.best_first)

cluster = njit(cache=True, nogil=True)(clusters.cluster)
enumerate_shard = njit(cache=True, nogil=True)(layouts.enumerate_shard)


def tables(values: TablesT) -> TablesT:
    """The same tables (a board's geometry, ``core.Tables``, or its lines, ``layouts.Lines``)
    with every sequence as an int64 array, as the compiled core takes them."""
    return type(values)(
        *(np.asarray(v, dtype=np.int64) if isinstance(v, tuple) else v for v in values)
    )


def watch() -> np.ndarray:
    """A search's watch (see :mod:`rhasp.engines.core`), as the compiled core writes it."""
    return np.zeros(core.WATCH_FIELDS, np.int64)


def keys(values: list[int]) -> np.ndarray:
    """Keys as the compiled core takes a sequence of them."""
    return np.asarray(values, dtype=np.int64)
