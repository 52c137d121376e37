"""The compiled twins of the core's functions must behave as the Python source does: the
set of states BFS has seen, the states A* keeps (rhasp.search.store), and the operations on
keys and cells of several words."""

from __future__ import annotations

import operator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numba import njit
from numba.typed import List

from rhasp.formats import read_path
from rhasp.search import core, store, uncompiled
from rhasp.search.compiled import compiled_core
from rhasp.search.geometry import KEY_WORD, WORD_BITS, Geometry, field_shifts, key_words
from tests.boards import PUZZLES, crowded_puzzles, puzzles
from tests.volume import examples

#: Loaded as the runner loads it, so that its code is cached where the product caches it (an
#: import of its own put numba's cache beside the source, where an edit can leave it stale).
jit = compiled_core()


def _seen_news(keys):
    """For each key in turn, whether BFS's set of keys seen (rhasp.search.store.seen_set)
    took it as new, rebuilt as it fills, the new keys stored in order as breadth_first
    stores them; and the keys stored."""
    first = keys[0]
    kept = store.key_store(first)
    seen = store.seen_set(kept, first)
    states = 1
    news = [True]
    for k in range(1, len(keys)):
        if store.set_full(seen, states + 1):
            seen = store.no_set(seen)
            seen = store.rebuilt_set(seen, kept, states, first)
        new = store.add_new(seen, kept, keys[k], states)
        news.append(new)
        if new:
            store.add_key(kept, states, keys[k])
            states += 1
    return news, [store.key_of(kept, place, first) for place in range(states)]


_compiled_seen_news = njit(_seen_news)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(0, 2**63 - 1) | st.integers(0, 3000), min_size=1, max_size=5000))
def test_the_compiled_set_of_keys_seen_agrees_with_a_python_set(keys):
    # Large keys, small ones, repeats, more keys than the first table holds (rebuilt): the
    # same news and order as a Python dict gives (independently) and the source uncompiled.
    expected = _python_news(keys)[:2]
    assert _plain((*_compiled_seen_news(jit.keys(keys)), []))[:2] == expected
    assert _plain((*_seen_news(keys), []))[:2] == expected


@pytest.mark.parametrize("words", [1, 2, 3])
def test_the_set_of_keys_seen_is_rebuilt_past_its_first_size_and_keeps_every_key(words):
    keys = [k * 2**40 + 7 for k in range(3000)] * 2  # 3,000 keys, then each again
    keys = [sum(key << (KEY_WORD * k) for k in range(words)) for key in keys]
    news, stored, _ = _plain((*_compiled_seen_news(_keys_of(keys, words)), []))
    assert news == [True] * 3000 + [False] * 3000 and stored == keys[:3000]


def _keys_of(keys: list[int], words: int):
    return jit.keys(keys) if words == 1 else List([jit.in_words(k, words, KEY_WORD) for k in keys])


def _store_news(keys):
    """For each key in turn, whether the index of a store (rhasp.search.store, as best_first
    keeps its states) found it new, rebuilt as it fills; the keys stored, in order; and each
    key's place by the index in the end."""
    first = keys[0]
    kept = store.key_store(first)
    index = store.key_index(kept, first)
    states = 1
    news = [True]
    for k in range(1, len(keys)):
        if store.index_full(index, states + 1):
            index = store.no_index(index)
            index = store.rebuilt_index(index, kept, states, first)
        found = store.place_of(index, kept, keys[k])
        news.append(found < 0)
        if found < 0:
            store.remember(index, keys[k], found, states)
            store.add_key(kept, states, keys[k])
            states += 1
    stored = [store.key_of(kept, place, first) for place in range(states)]
    places = [0]
    for key in keys:
        places.append(store.place_of(index, kept, key))
    return news, stored, places


_compiled_news = njit(_store_news)


def _python_news(keys: list[int]) -> tuple[list[bool], list[int], list[int]]:
    """What a Python set and dict say of the keys (the store's results, independently)."""
    seen: dict[int, int] = {}
    news = []
    for key in keys:
        news.append(key not in seen)
        seen.setdefault(key, len(seen))
    return news, list(seen), [0] + [seen[key] for key in keys]


def _plain(found) -> tuple[list[bool], list[int], list[int]]:
    news, stored, places = found
    as_int = (lambda k: int(k)) if not stored or not isinstance(stored[0], tuple) else _joined
    return list(map(bool, news)), [as_int(k) for k in stored], [int(p) for p in places]


def _joined(key: tuple[int, ...]) -> int:
    return sum(int(word) << (KEY_WORD * k) for k, word in enumerate(key))


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(0, 2**63 - 1) | st.integers(0, 3000), min_size=1, max_size=9000))
def test_the_compiled_store_agrees_with_a_python_set_and_dict(keys):
    # Large keys, small ones, repeats, more keys than the first index holds (rebuilt) and
    # than a block of the store holds (another block): the same news, order and places, as
    # the store's own source gives uncompiled.
    expected = _python_news(keys)
    assert _plain(_compiled_news(jit.keys(keys))) == expected
    assert _plain(_store_news(keys)) == expected


def test_the_store_grows_past_its_first_block_and_index_and_keeps_every_key():
    keys = [k * 2**40 + 7 for k in range(3 * store.BLOCK)] * 2  # each key, then each again
    news, stored, places = _plain(_compiled_news(jit.keys(keys)))
    assert news == [True] * (3 * store.BLOCK) + [False] * (3 * store.BLOCK)
    assert stored == keys[: 3 * store.BLOCK]
    assert places == [0, *range(3 * store.BLOCK), *range(3 * store.BLOCK)]


@njit
def _queue_run(fs, places):
    """Each (f, place) pushed in turn, f -1 a pop (where anything is queued), then the rest
    popped: every (f, place) popped, in order."""
    queue = store.f_queue(fs[0], places[0])
    popped = []
    for i in range(1, len(fs)):
        if fs[i] >= 0:
            store.queue_push(queue, fs[i], places[i])
        elif not store.queue_empty(queue):
            popped.append(store.queue_pop(queue))
    while not store.queue_empty(queue):
        popped.append(store.queue_pop(queue))
    return popped


@settings(max_examples=examples(100), deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-1, 12), st.integers(0, 40) | st.integers(0, store.MOST_STATES)),
        min_size=1,
        max_size=600,
    ).filter(lambda operations: operations[0][0] >= 0)
)
def test_the_compiled_queue_pops_what_the_stores_source_pops(operations):
    # Places near and far from the one queued before at their f (the compiled queue writes
    # each as that difference, in bytes), smaller and larger, f-values again after their
    # bucket emptied: the same order as the store's own source gives uncompiled.
    fs, places = (np.array(column, dtype=np.int64) for column in zip(*operations, strict=True))
    expected = _queue_run.py_func(fs.tolist(), places.tolist())
    assert [(int(f), int(place)) for f, place in _queue_run(fs, places)] == expected


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
def keys_of(draw, words: int, bits: int) -> tuple[list[int], list[int], list[int]]:
    """Fields of up to ``bits`` bits each, as many as ``words`` words of the widest hold (so
    packed keys, of narrower fields, take fewer words), and two keys' values of them."""
    count = words * (63 // bits)
    widths = draw(st.lists(st.integers(0, bits), min_size=count, max_size=count))
    fields = [st.integers(0, 2**width - 1) for width in widths]
    return widths, draw(st.tuples(*fields)), draw(st.tuples(*fields))


@settings(max_examples=examples(200), deadline=None)
@given(st.data(), WORDS, st.integers(2, 4))
def test_wide_key_operations_agree_with_python_integers(data, words, bits):
    widths, fields, other_fields = data.draw(keys_of(words, bits))
    shifts = field_shifts(widths)
    words = 1 + max(shifts) // KEY_WORD
    key, other = (sum(map(operator.lshift, fs, shifts)) for fs in (fields, other_fields))
    i = data.draw(st.integers(0, len(fields) - 1))
    ones = 2 ** widths[i] - 1
    delta = data.draw(st.integers(-fields[i], ones - fields[i]))  # stays within the field
    split = shifts[data.draw(st.integers(0, len(fields) - 1))]
    found = _key_ops(
        jit.in_words(key, words, KEY_WORD),
        shifts[i],
        ones,
        delta,
        jit.in_words(other, words, KEY_WORD),
        split,
    )
    field, moved, below, above = found
    assert field == core.field(key, shifts[i], ones) == fields[i]
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
def test_the_compiled_store_of_wide_keys_agrees_with_a_python_set_and_dict(words, values):
    # Keys of several words from the values, the same value in more than one key (every
    # word must match), more keys than the first index and the first block hold.
    keys = [tuple(values[(n + k) % len(values)] for k in range(words)) for n in range(len(values))]
    keys += keys[: len(keys) // 3]  # each again
    plain = [_joined(key) for key in keys]
    assert _plain(_compiled_news(List(keys))) == _python_news(plain)


@settings(max_examples=examples(60), deadline=None)
@given(WORDS, st.lists(st.integers(0, 2**63 - 1) | st.integers(0, 3000), min_size=3, max_size=5000))
def test_the_compiled_set_of_wide_keys_seen_agrees_with_a_python_set(words, values):
    # Keys of several words from the values, the same value in more than one key (every
    # word must match), more keys than the first table holds.
    keys = [tuple(values[(n + k) % len(values)] for k in range(words)) for n in range(len(values))]
    keys += keys[: len(keys) // 3]  # each again
    news, stored = _compiled_seen_news(List(keys))
    expected = _python_news([_joined(key) for key in keys])[:2]
    assert _plain((news, stored, []))[:2] == expected


# The searches: compiled, they must return what the core's source returns uncompiled (on
# lists, sets and dicts), to the state, past A*'s store's first block and its index's
# rebuilds and past BFS's table's growth; on boards of keys of one word and of several.

STORE_STATES = store.BLOCK + store.BLOCK // 2  # a block added, the index rebuilt several times


def _searches(g: core.Tables, key: int, run) -> list:
    """Each search of the core that keeps its states in the store, within STORE_STATES, its
    flags passed as the product passes them (``rhasp.search.WARM_UP``: another form of call
    is another signature, compiled here): A* by moves, by slides, weighted with the
    estimate, and Dijkstra's search (A* unbounded)."""
    return [
        run(core.best_first, g, key, **_astar(False, 1, False)),
        run(core.best_first, g, key, **_astar(True, 1, False)),
        run(core.best_first, g, key, **_astar(False, 2, True)),
        run(core.cheapest, g, key),
    ]


def _astar(by_slides: bool, weight: int, estimated: bool) -> dict:
    patterns = core.no_patterns()
    return {"by_slides": by_slides, "patterns": patterns, "weight": weight, "estimated": estimated}


def _uncompiled(search, g, key, **flags):
    twin = uncompiled.twin(search)
    goal, states, path = twin(g, key, STORE_STATES, core.new_buffer(core.WATCH_FIELDS), **flags)
    return goal, states, list(path)


def _compiled(search, g, key, **flags):
    watch = jit.watch()
    flags = {k: jit.patterns(f) if isinstance(f, core.Patterns) else f for k, f in flags.items()}
    found = getattr(jit, search.__name__)(
        jit.tables(g), jit.key(g, key), STORE_STATES, watch, **flags
    )
    goal, states, path = jit.plain(found, watch)
    return int(goal), int(states), [int(k) for k in path]


def _both_ways(puzzle, targets_leave: bool = True) -> list:
    geometry = Geometry.of(puzzle.board, targets_leave=targets_leave)
    g, key = geometry.tables, geometry.key(puzzle.placement)
    expected = _searches(g, key, _uncompiled)
    assert _searches(g, key, _compiled) == expected
    return expected


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowded_puzzles(min_side=5, max_side=8) | puzzles(min_side=5, max_side=8, max_others=8))
def test_compiled_searches_return_what_the_core_returns_as_their_store_grows(puzzle):
    # Keys of one and two words; three on the crowded 12×12 below.
    _both_ways(puzzle)


def test_compiled_searches_agree_on_wide_boards_whose_store_grows():
    # The crowded 12×12 (43 vehicles): keys and cells of three words, A* by slides and
    # Dijkstra's search past a block of the store. Keys of two words: the searches on boards
    # of up to 8×8 above, and the store's and the set's own tests of wide keys past their
    # first block and size (left12, keys of two words and cells of three, was a case here:
    # 30 s of CPU to compile on the suite's cold cache, 2026-12-01).
    puzzle = read_path(str(PUZZLES / "large" / "crowded.txt"))[5]
    assert key_words(Geometry.of(puzzle.board).tables) == 3
    found = _both_ways(puzzle)  # as A* reads a board: its targets leave
    assert found[1][1] > store.BLOCK and found[3][1] > store.BLOCK
