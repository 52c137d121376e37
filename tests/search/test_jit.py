"""The compiled twins of the core's functions must behave as the Python source does: the set
of states seen, and the operations on keys and cells of several words."""

from __future__ import annotations

import operator

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from rhasp.search import core
from rhasp.search.compiled import compiled_core
from rhasp.search.geometry import KEY_WORD, WORD_BITS, field_shifts
from tests.volume import examples

#: Loaded as the runner loads it, so that its code is cached where the product caches it (an
#: import of its own put numba's cache beside the source, where an edit can leave it stale).
jit = compiled_core()


@njit
def _news(keys):
    """For each key in turn, whether the compiled set took it as new; and the keys it holds
    in the end (the slots taken)."""
    seen = core.key_set(keys[0])
    news = [True]
    for k in range(1, len(keys)):
        seen = core.with_room(seen, k + 1, keys[0])  # as breadth_first gives it room
        news.append(core.add_new(seen, keys[k]))
    return news, np.sum(seen[:: core.words(keys[0])] != core.EMPTY_SLOT)


def _python_news(keys: list[int]) -> tuple[list[bool], int]:
    seen = core.key_set(keys[0])
    news = [True] + [core.add_new(seen, key) for key in keys[1:]]
    return news, len(seen)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(0, 2**63 - 1) | st.integers(0, 3000), min_size=1, max_size=5000))
def test_the_compiled_key_table_agrees_with_a_python_set(keys):
    # Large keys, small ones, repeats, and more keys than the first table holds (it grows).
    news, count = _news(jit.keys(keys))
    assert (list(news), int(count)) == _python_news(keys)


def test_the_table_grows_past_its_first_size_and_keeps_every_key():
    keys = [k * 2**40 + 7 for k in range(5000)] * 2  # 5,000 keys, then each again
    news, count = _news(jit.keys(keys))
    assert list(news) == [True] * 5000 + [False] * 5000 and count == 5000


# Keys and cells of several words (boards past 63 bits): each operation of the core on the
# compiled tuple form must give what it gives on Python integers.

WORDS = st.integers(1, 3)  # one word as a tuple too: the tuple code path, on one word


@njit
def _key_ops(key, shift, gone, delta, other, split):
    return (
        core.field(key, shift, gone),
        core.moved(key, shift, delta),
        core.less(core.above(key, split), core.above(other, split)),
        core.less(core.above(other, split), core.above(key, split)),
    )


@st.composite
def keys_of(draw, words: int, bits: int) -> tuple[list[int], list[int]]:
    """Two keys' fields (every field a position below ``2**bits``) on ``words`` words."""
    count = words * (63 // bits)
    fields = st.lists(st.integers(0, 2**bits - 1), min_size=count, max_size=count)
    return draw(fields), draw(fields)


@settings(max_examples=examples(200), deadline=None)
@given(st.data(), WORDS, st.integers(2, 4))
def test_wide_key_operations_agree_with_python_integers(data, words, bits):
    fields, other_fields = data.draw(keys_of(words, bits))
    shifts = field_shifts(len(fields), bits)
    key, other = (sum(map(operator.lshift, fs, shifts)) for fs in (fields, other_fields))
    i = data.draw(st.integers(0, len(fields) - 1))
    gone = 2**bits - 1
    delta = data.draw(st.integers(-fields[i], gone - fields[i]))  # stays within the field
    split = shifts[data.draw(st.integers(0, len(fields) - 1))]
    found = _key_ops(
        jit.in_words(key, words, KEY_WORD),
        shifts[i],
        gone,
        delta,
        jit.in_words(other, words, KEY_WORD),
        split,
    )
    field, moved, below, above = found
    assert field == core.field(key, shifts[i], gone) == fields[i]
    assert jit.plain(([moved],), jit.watch()) == ([core.moved(key, shifts[i], delta)],)
    assert (below, above) == (key >> split < other >> split, other >> split < key >> split)


def test_converting_wide_keys_stops_when_the_search_is_asked_to():
    # Millions of keys take seconds to convert: a time limit must not wait for them.
    keys = [(k, 1) for k in range(3 * jit.SLICE)]
    watch = jit.watch()
    assert jit.plain((7, keys), watch)[1][-1] == (1 << KEY_WORD) + 3 * jit.SLICE - 1
    watch[core.STOP] = 1
    assert jit.plain((7, keys), watch) == (core.BUDGET, keys)


@njit
def _cell_ops(a, b, table, index):
    nothing = core.no_cells(a)
    return (
        core.joined(a, b),
        core.without(a, b),
        core.meet(a, b),
        core.within(a, b),
        core.less(a, b),
        core.meet(nothing, a) or core.meet(a, nothing),
        core.cells_at(table, index),
    )


@settings(max_examples=examples(200), deadline=None)
@given(st.data(), WORDS)
def test_wide_cell_operations_agree_with_python_integers(data, words):
    cells = st.integers(0, 2 ** (WORD_BITS * words) - 1) | st.sampled_from(
        [0, 2**63 - 1, 2**63, 2**126 - 1, 2**126, 2**127][: 2 * words]
    )
    a, b = data.draw(cells), data.draw(cells)
    b = data.draw(st.sampled_from([b, a, a | b, a & b]))  # equal, within, sharing cells
    table = [data.draw(cells) for _ in range(5)]
    index = data.draw(st.integers(0, 4))

    def wide(value: int) -> tuple[int, ...]:
        return jit.in_words(value, words, WORD_BITS)

    as_arrays = tuple(np.asarray([wide(t)[k] for t in table]) for k in range(words))
    found = _cell_ops(wide(a), wide(b), as_arrays, index)
    assert found == (
        wide(a | b),
        wide(a & ~b),
        a & b != 0,
        a & ~b == 0,
        a < b,
        False,
        wide(table[index]),
    )


@settings(max_examples=examples(60), deadline=None)
@given(WORDS, st.lists(st.integers(0, 2**63 - 1) | st.integers(0, 3000), min_size=3, max_size=9000))
def test_the_compiled_table_of_wide_keys_agrees_with_a_python_set(words, values):
    # Keys of several words from the values, the same value in more than one key (every
    # word must match), more keys than the first table holds.
    keys = [tuple(values[(n + k) % len(values)] for k in range(words)) for n in range(len(values))]
    keys += keys[: len(keys) // 3]  # each again
    news, count = _news(keys)
    plain = [sum(word << (KEY_WORD * k) for k, word in enumerate(key)) for key in keys]
    assert (list(news), int(count)) == _python_news(plain)
