"""The search core compiled: :mod:`rhasp.engines.core` under numba, loaded only when needed.

Importing numba costs about half a second, more than a small search takes, so nothing imports
this module until :mod:`rhasp.engines.bitboard` decides the compiled speed will pay for it.
Compiled code is cached on disk (``cache=True``): numba writes it to the ``__pycache__``
folder beside ``core.py`` when that is writable, else to its user cache folder; the
``NUMBA_CACHE_DIR`` environment variable moves it. The first run on a machine compiles, in a
few seconds; later runs load the cache.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import overload, register_jitable

from rhasp.engines import core


@overload(core.new_buffer)
def _new_buffer(size):  # numba passes the argument types; the lambda is the code
    return lambda size: np.zeros(size, np.int64)


for _helper in (core.occupancy, core.solved, core.successors, core.most_successors,
                core.walk_back, core.layers):  # fmt: skip
    register_jitable(_helper)

breadth_first = njit(cache=True)(core.breadth_first)
layers = njit(cache=True)(core.layers)
goal_layers = njit(cache=True)(core.goal_layers)
cheapest = njit(cache=True)(core.cheapest)
successors = njit(cache=True)(core.successors)


def tables(values: core.Tables) -> core.Tables:
    """The same geometry with every sequence as an int64 array, as the compiled core takes it."""
    return core.Tables(*(
        np.asarray(v, dtype=np.int64) if isinstance(v, tuple) else v for v in values
    ))  # fmt: skip


def keys(values: list[int]) -> np.ndarray:
    """Keys as the compiled core takes a sequence of them."""
    return np.asarray(values, dtype=np.int64)
