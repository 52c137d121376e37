"""The search core compiled: :mod:`rhasp.search.core` under numba, loaded only when needed.

Importing numba costs about half a second, more than a small search takes, so nothing imports
this module until :mod:`rhasp.search.runner` decides the compiled speed will pay for it
(:func:`rhasp.search.compiled.compiled_core` imports it). Compiled code is cached on disk
(``cache=True``) in the folder of :mod:`rhasp.search.cache`, set before this module is
imported; numba checks a cached function against its own source file only, not against the
files of the functions it calls, so that folder is keyed on every file the code is built from.
"""

from __future__ import annotations

import inspect
from types import FunctionType
from typing import Any, TypeVar

import numpy as np
from numba import njit
from numba.cpython.unsafe.tuple import tuple_setitem
from numba.extending import overload, register_jitable

from rhasp.search import clusters, core, jit_store, shards, store
from rhasp.search.geometry import CELL_TABLES, KEY_WORD, WORD_BITS, cell_words, key_words

TablesT = TypeVar("TablesT", core.Tables, shards.Lines)

WORD = (1 << KEY_WORD) - 1
CELL_WORD = (1 << WORD_BITS) - 1


# Keys and cells. A board whose keys and cells fit 63 bits has each as one int64, and the
# core's own functions run on them as they are. Wider boards (8×8 and up, or many vehicles)
# have a key as a tuple of int64 words, lowest first, each field within bits 0 to 62 of one
# word (:mod:`rhasp.search.geometry`); and cells as a tuple of words of 63 bits (a cell
# table of :class:`core.Tables` as a tuple of int64 arrays, one per word). numba compiles one
# version of the core per form; the twins below give each function of the core that reads
# keys or cells its tuple version, and the core's own source for one word.


_wide = jit_store.wide


def _twin(function: Any, wide: Any) -> None:
    """Overload ``function`` for numba: ``wide`` when an argument is of the tuple form,
    else ``function`` itself (the core's source, compiled, for one word)."""
    names = ", ".join(inspect.signature(function).parameters)
    # numba wants the typing function and the code to take the same arguments, to the
    # annotations: the core's function is taken without its own.
    narrow = FunctionType(function.__code__, function.__globals__, function.__name__)
    scope = {"_wide": _wide, "wide": wide, "narrow": narrow}
    typer = eval(f"lambda {names}: wide if any(map(_wide, ({names},))) else narrow", scope)
    overload(function)(typer)


def _field(key, shift, ones):
    return (key[shift >> 6] >> (shift & 63)) & ones


def _moved(key, shift, delta):
    word = shift >> 6
    return tuple_setitem(key, word, key[word] + delta * (1 << (shift & 63)))


def _above(key, shift):
    word = shift >> 6
    for k in range(word):
        key = tuple_setitem(key, k, 0)
    return tuple_setitem(key, word, key[word] >> (shift & 63) << (shift & 63))


def _less(a, b):
    for k in range(len(a) - 1, -1, -1):  # the highest word first; every word nonnegative
        if a[k] != b[k]:
            return a[k] < b[k]
    return False


def _words(key):
    return len(key)


def _spread(key):
    mixed = 0
    for k in range(len(key)):
        mixed = (mixed ^ key[k]) * core.SPREAD
    return mixed >> 32


def _put_key(table, at, key):
    for k in range(len(key)):
        table[at + k] = key[k]


def _holds_key(table, at, key):
    for k in range(len(key)):  # noqa: SIM110 (numba compiles loops, not all())
        if table[at + k] != key[k]:
            return False
    return True


def _key_at(table, at, like):
    for k in range(len(like)):
        like = tuple_setitem(like, k, table[at + k])
    return like


def _no_cells(like):
    for k in range(len(like)):
        like = tuple_setitem(like, k, 0)
    return like


def _joined(a, b):
    for k in range(len(a)):
        a = tuple_setitem(a, k, a[k] | b[k])
    return a


def _without(a, b):
    for k in range(len(a)):
        a = tuple_setitem(a, k, a[k] & ~b[k])
    return a


def _meet(a, b):
    for k in range(len(a)):  # noqa: SIM110 (numba compiles loops, not all())
        if a[k] & b[k] != 0:
            return True
    return False


def _within(a, b):
    for k in range(len(a)):  # noqa: SIM110 (numba compiles loops, not all())
        if a[k] & ~b[k] != 0:
            return False
    return True


_cells_at_by_words: dict[int, Any] = {}


def _cells_at(table, index):
    """``table[index]`` of a cell table held as one array per word: a tuple's length must be
    known when compiling, so the tuple is written out, once per number of words."""
    words = len(table)
    if words not in _cells_at_by_words:
        items = ", ".join(f"table[{k}][index]" for k in range(words))
        _cells_at_by_words[words] = eval(f"lambda table, index: ({items},)")
    return _cells_at_by_words[words]


def _cells_at_typer(table, index):
    return _cells_at(table, index) if _wide(table) else lambda table, index: table[index]


overload(core.cells_at)(_cells_at_typer)

WIDE: dict[Any, Any] = {
    core.field: _field,
    core.moved: _moved,
    core.above: _above,
    core.less: _less,
    core.words: _words,
    core.spread: _spread,
    core.no_cells: _no_cells,
    core.joined: _joined,
    core.without: _without,
    core.meet: _meet,
    core.within: _within,
    core.put_key: _put_key,
    core.holds_key: _holds_key,
    core.key_at: _key_at,
}
for _function, _wide_twin in WIDE.items():
    _twin(_function, _wide_twin)


# The states BFS and A* keep: :mod:`rhasp.search.store`, compiled by its twins in
# :mod:`rhasp.search.jit_store` (imported above).


@overload(core.new_buffer)
def _new_buffer(size):
    return lambda size: np.zeros(size, np.int64)


@overload(core.key_buffer)
def _key_buffer(size, like):
    if _wide(like):
        return lambda size, like: [like] * size
    return lambda size, like: np.zeros(size, np.int64)


#: The core's functions with a compiled twin above; every other function of the core, of the
#: cluster functions and of the enumeration is registered, found rather than listed, so none
#: can be forgotten.
TWINNED = (
    core.new_buffer,
    core.key_buffer,
    *jit_store.TWINNED,
    core.cells_at,
    *WIDE,
)


def _functions(module: object) -> list[object]:
    return [
        value
        for value in vars(module).values()
        if inspect.isfunction(value) and value.__module__ == module.__name__
    ]


#: Helpers numba inlines where they are called: one vehicle's table rows, filled for every
#: layout the enumeration visits, cost 4 % of a 5×5 run as a call of their own; whether the
#: table of keys has room, asked once a state expanded (its growth, inlined too, cost 14 %),
#: and the look-up of a key in it, once a move (the cluster search's; the store's are inlined
#: where they are defined).
INLINED = (core.fill_rows, core.has_room, core.slot_of, store.over_load)

for _helper in _functions(core) + _functions(clusters) + _functions(shards) + _functions(store):
    if _helper not in TWINNED:
        register_jitable(inline="always" if _helper in INLINED else "never")(_helper)

# Without the GIL (nogil), so that the thread that started a search can show its progress and
# stop it (Ctrl-C) while it runs.
breadth_first = njit(cache=True, nogil=True)(core.breadth_first)
cheapest = njit(cache=True, nogil=True)(core.cheapest)
best_first = njit(cache=True, nogil=True)(core.best_first)

cluster = njit(cache=True, nogil=True)(clusters.cluster)
reach = njit(cache=True, nogil=True)(clusters.reach)
enumerate_shard = njit(cache=True, nogil=True)(shards.enumerate_shard)


def tables(values: TablesT) -> TablesT:
    """The same tables (a board's geometry, ``core.Tables``, or its lines, ``shards.Lines``)
    with every sequence as an int64 array, as the compiled core takes them; a board's cells
    past 63 bits in words (module comment above)."""
    words = cell_words(values) if isinstance(values, core.Tables) else 1
    if words > 1:
        return _wide_tables(values, words)  # type: ignore[arg-type]
    return type(values)(
        *(np.asarray(v, dtype=np.int64) if isinstance(v, tuple) else v for v in values)
    )


def patterns(values: core.Patterns) -> core.Patterns:
    """The same patterns with every part an int64 array (none: empty ones), the one form the
    compiled ``best_first`` takes."""
    return core.Patterns(*(np.asarray(v, dtype=np.int64) for v in values))


def in_words(value: int, words: int, bits: int) -> tuple[int, ...]:
    """``value`` cut in ``words`` words of ``bits`` bits, lowest first."""
    return tuple((value >> (bits * k)) & ((1 << bits) - 1) for k in range(words))


def _wide_tables(g: core.Tables, words: int) -> core.Tables:
    """The board's tables with each set of cells as ``words`` words (a tuple of arrays)."""
    cells = {
        name: tuple(
            np.asarray([in_words(m, words, WORD_BITS)[k] for m in getattr(g, name)], np.int64)
            for k in range(words)
        )
        for name in CELL_TABLES
    }
    small = {
        name: np.asarray(value, dtype=np.int64)
        for name, value in g._asdict().items()
        if isinstance(value, tuple) and name not in CELL_TABLES
    }
    return g._replace(walls=in_words(g.walls, words, WORD_BITS), **cells, **small)


def key(g: core.Tables, value: int) -> int | tuple[int, ...]:
    """A key as the compiled core takes it on the board of ``g``: one int64, or a tuple."""
    words = key_words(g)
    return value if words == 1 else in_words(value, words, KEY_WORD)


def plain(outcome: tuple[Any, ...], watch: np.ndarray) -> tuple[Any, ...]:
    """What a compiled search returned, with its lists of keys in tuples as Python ints.
    Millions of keys take seconds, so the conversion goes by slices and heeds the search's
    ``watch``: asked to stop, it answers ``core.BUDGET`` as the search would have."""
    converted = []
    for value in outcome:
        if _holds_tuples(value):
            value = _plain_keys(value, watch)
            if value is None:
                return (core.BUDGET, *outcome[1:])
        converted.append(value)
    return tuple(converted)


def _holds_tuples(value: Any) -> bool:
    return isinstance(value, list) and len(value) > 0 and isinstance(value[0], tuple)


#: Keys converted between two looks at the watch: a small fraction of a second, so that a
#: limit or Ctrl-C is seen at once.
SLICE = 1 << 16


def _plain_keys(keys: list[tuple[int, ...]], watch: np.ndarray) -> list[int] | None:
    """The keys as Python ints (words lowest first), or None when ``watch`` asks to stop."""
    plain_keys: list[int] = []
    for start in range(0, len(keys), SLICE):
        if core.stop_asked(watch, int(watch[core.STATES])):
            return None
        words = np.asarray(keys[start : start + SLICE], dtype=np.int64).astype(object)
        value = words[:, 0]
        for k in range(1, words.shape[1]):
            value = value + (words[:, k] << (KEY_WORD * k))
        plain_keys.extend(value.tolist())
    return plain_keys


def watch() -> np.ndarray:
    """A search's watch (see :mod:`rhasp.search.core`), as the compiled core writes it."""
    return np.zeros(core.WATCH_FIELDS, np.int64)


def keys(values: list[int]) -> np.ndarray:
    """Keys as the compiled core takes a sequence of them."""
    return np.asarray(values, dtype=np.int64)
