"""The states a search keeps, compiled: the twins of :mod:`rhasp.search.store` under numba
(the store's docstring says how they keep them), registered when :mod:`rhasp.search.jit`
imports this module, before anything is compiled. A module of its own as the store is one:
a question of memory, not of the game (docs/design.md)."""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np
from numba import types
from numba.extending import overload, register_jitable
from numba.typed import Dict, List

from rhasp.search import core, store


def wide(value: Any) -> bool:
    """Whether numba's type ``value`` is the tuple form (a key or cells of several words)."""
    return isinstance(value, types.UniTuple)


def _numbers(dtype: Any) -> Any:
    """A store of small numbers of numpy's ``dtype``, holding ``first`` at place 0."""

    def make(first):
        block = np.zeros(store.BLOCK, dtype)
        block[0] = first
        return [block]

    return make


overload(store.small_store)(lambda first: _numbers(np.int32))
overload(store.byte_store)(lambda first: _numbers(np.int8))


@overload(store.key_store)
def _key_store(first):
    def make(first):
        block = np.zeros(store.BLOCK * core.words(first), np.int64)
        core.put_key(block, 0, first)
        return [block]

    return make


@overload(store.key_of)
def _key_of(keys, place, like):
    def key(keys, place, like):
        at = (place & (store.BLOCK - 1)) * core.words(like)
        return core.key_at(keys[place >> store.BLOCK_BITS], at, like)

    return key


@overload(store.add_key)
def _add_key(keys, place, key):
    def add(keys, place, key):
        width = core.words(key)
        if place >> store.BLOCK_BITS == len(keys):
            keys.append(np.empty(store.BLOCK * width, np.int64))
        core.put_key(keys[place >> store.BLOCK_BITS], (place & (store.BLOCK - 1)) * width, key)

    return add


@overload(store.value_of)
def _value_of(values, place):
    return lambda values, place: values[place >> store.BLOCK_BITS][place & (store.BLOCK - 1)]


@overload(store.add_value)
def _add_value(values, place, value):
    def add(values, place, value):
        if place >> store.BLOCK_BITS == len(values):
            values.append(np.empty_like(values[0]))
        values[place >> store.BLOCK_BITS][place & (store.BLOCK - 1)] = value

    return add


@overload(store.set_value)
def _set_value(values, place, value):
    def change(values, place, value):
        values[place >> store.BLOCK_BITS][place & (store.BLOCK - 1)] = value

    return change


def _scaled(hashed, slots):
    """The slot where a look-up of a key of hash ``hashed`` (:func:`rhasp.search.core.spread`)
    starts among ``slots`` (any number under 2**31): its 32 bits scaled to the slots."""
    return ((hashed & 0xFFFFFFFF) * slots) >> 32


_scaled_jit = register_jitable(inline="always")(_scaled)


def _home_slot(key, slots):
    """The slot where a look-up of ``key`` starts among ``slots``."""
    return _scaled_jit(core.spread(key), slots)


_home_slot_jit = register_jitable(inline="always")(_home_slot)


# An index's slot holds a place (bits 0 to store.PLACE_BITS - 1) and, above it, store.TAG_BITS
# bits of the key's hash (its lowest, which the home slot, scaled from the highest, leaves
# alone): a look-up reads the key in the store of keys only where the tag is the key's own, so
# that the slots it passes cost no read of a key (1 in 2**TAG_BITS of them do, by chance).


def _tag(hashed):
    """The tag of a key of hash ``hashed``."""
    return hashed & ((1 << store.TAG_BITS) - 1)


_tag_jit = register_jitable(inline="always")(_tag)


def _entry(hashed, place):
    """What the index holds for a key of hash ``hashed`` at ``place``: the place and the
    key's tag."""
    return place | (_tag_jit(hashed) << store.PLACE_BITS)


_entry_jit = register_jitable(inline="always")(_entry)


def _probe(index, keys, key):
    """The place of ``key`` in ``keys`` by the table ``index``; else ``-1 -`` the free slot
    where it goes."""
    slots = len(index)
    hashed = core.spread(key)
    slot = _scaled_jit(hashed, slots)
    tag = _tag_jit(hashed)
    width = core.words(key)
    while index[slot] != core.EMPTY_SLOT:
        held = index[slot]
        if held >> store.PLACE_BITS == tag:
            place = held & ((1 << store.PLACE_BITS) - 1)
            at = (place & (store.BLOCK - 1)) * width
            if core.holds_key(keys[place >> store.BLOCK_BITS], at, key):
                return place
        slot += 1
        if slot == slots:
            slot = 0
    return -1 - slot


_probe_jit = register_jitable(inline="always")(_probe)


# The index is held in a list of one table, which a rebuild replaces: the search's variable
# holds the list, so the old table, held by the list alone, is let go before the new one is
# made. Held in the search's own variable, an old table could outlive the rebuild (numba
# keeps a loop's old value alive): Dijkstra's search to 2,000,000 states took 35.7 bytes a
# state on left12 that way, 33.0 held in the list. BFS's table of one-word keys stays a bare
# table: the list's read at every look-up cost the 6×6 decks 3 %, and its memory did not
# change (bench/README.md, "Issue 56: states in less memory").


def _index_of(keys, first):
    table = np.full(store.slots_for(1), core.EMPTY_SLOT, np.int32)
    table[-1 - _probe_jit(table, keys, first)] = _entry_jit(core.spread(first), 0)
    return [table]


overload(store.key_index)(lambda keys, first: _index_of)


overload(store.place_of)(
    lambda index, keys, key: lambda index, keys, key: _probe_jit(index[0], keys, key)
)


@overload(store.remember)
def _remember(index, key, found, place):
    def put(index, key, found, place):
        index[0][-1 - found] = _entry_jit(core.spread(key), place)

    return put


overload(store.index_full)(
    lambda index, keys: lambda index, keys: store.over_load(len(index[0]), keys)
)


@overload(store.no_index)
def _no_index(index):
    def let_go(index):
        index[0] = np.empty_like(index[0][:0])  # a new empty table: no view of the old one
        return index

    return let_go


@overload(store.rebuilt_index)
def _rebuilt_index(index, keys, count, like):
    def rebuild(index, keys, count, like):
        slots = store.slots_for(count)
        table = np.full(slots, core.EMPTY_SLOT, np.int32)
        for place in range(count):  # keys all different: each goes to the first free slot
            hashed = core.spread(store.key_of(keys, place, like))
            slot = _scaled_jit(hashed, slots)
            while table[slot] != core.EMPTY_SLOT:
                slot = slot + 1 if slot + 1 < slots else 0
            table[slot] = _entry_jit(hashed, place)
        index[0] = table
        return index

    return rebuild


# BFS's set of keys seen (store.py says why two forms): for keys of several words, the index;
# for one word, a table of the keys themselves, EMPTY_SLOT where free.


def _key_slot(table, key):
    """The slot of ``key`` in the table of one-word keys ``table``; else ``-1 -`` the free
    slot where it goes."""
    slots = len(table)
    slot = _home_slot_jit(key, slots)
    while table[slot] != core.EMPTY_SLOT:
        if table[slot] == key:
            return slot
        slot += 1
        if slot == slots:
            slot = 0
    return -1 - slot


_key_slot_jit = register_jitable(inline="always")(_key_slot)


@overload(store.seen_set)
def _seen_set(keys, first):
    if wide(first):
        return _index_of

    def table(keys, first):
        seen = np.full(store.slots_for(1), core.EMPTY_SLOT, np.int64)
        seen[-1 - _key_slot_jit(seen, first)] = first
        return seen

    return table


@overload(store.add_new)
def _add_new(seen, keys, key, place):
    if wide(key):

        def put_place(seen, keys, key, place):
            table = seen[0]
            found = _probe_jit(table, keys, key)
            if found >= 0:
                return False
            table[-1 - found] = _entry_jit(core.spread(key), place)
            return True

        return put_place

    def put_key(seen, keys, key, place):
        found = _key_slot_jit(seen, key)
        if found >= 0:
            return False
        seen[-1 - found] = key
        return True

    return put_key


@overload(store.set_full)
def _set_full(seen, keys):
    if isinstance(seen, types.List):  # the index
        return lambda seen, keys: store.index_full(seen, keys)
    return lambda seen, keys: store.over_load(len(seen), keys)


@overload(store.no_set)
def _no_set(seen):
    if isinstance(seen, types.List):
        return lambda seen: store.no_index(seen)
    return lambda seen: np.empty_like(seen[:0])


@overload(store.rebuilt_set)
def _rebuilt_set(seen, keys, count, like):
    if wide(like):
        return lambda seen, keys, count, like: store.rebuilt_index(seen, keys, count, like)

    def rebuild(seen, keys, count, like):
        table = np.full(store.slots_for(count, store.SEEN_LEAST_LOAD), core.EMPTY_SLOT, np.int64)
        for place in range(count):
            key = store.key_of(keys, place, like)
            table[-1 - _key_slot_jit(table, key)] = key
        return table

    return rebuild


# A*'s queue, compiled: a bucket for each f-value queued, its places written as the
# difference from the place queued before it at that f (zigzag, so that a smaller place is a
# small number too), in 7-bit groups: a state queued costs a byte or two, where an int32 took
# 4. On a crowded 12×12 board A* stores 26 states for each it expands, and nearly every
# state stored is still queued when it stops (bench/README.md, "Issue 56: states in less
# memory"). The first byte of a place has its high bit clear and the rest set, so that the
# place queued last is read back from the end; the bucket's last place is kept beside it.
_BUCKET = types.ListType(types.uint8)


@register_jitable
def _put_place(bucket, before, place):
    """Write ``place`` at the end of ``bucket``, whose last place is ``before`` (0: none)."""
    step = place - before
    zigzag = (step << 1) ^ (step >> 63)
    bucket.append(np.uint8(zigzag & 0x7F))
    zigzag >>= 7
    while zigzag:
        bucket.append(np.uint8(0x80 | (zigzag & 0x7F)))
        zigzag >>= 7


@register_jitable
def _take_place(bucket, last):
    """Take the place queued last (``last``) off ``bucket``, and return the place queued
    before it there (0: none), the bucket's last from now on."""
    zigzag = 0
    byte = np.int64(bucket.pop())
    while byte & 0x80:
        zigzag = (zigzag << 7) | (byte & 0x7F)
        byte = np.int64(bucket.pop())
    zigzag = (zigzag << 7) | byte
    step = (zigzag >> 1) ^ -(zigzag & 1)
    return last - step


@overload(store.f_queue)
def _f_queue(f, place):
    def make(f, place):
        buckets = Dict.empty(types.int64, _BUCKET)
        lasts = Dict.empty(types.int64, types.int64)
        bucket = List.empty_list(types.uint8)
        _put_place(bucket, 0, np.int64(place))
        buckets[f] = bucket
        lasts[f] = np.int64(place)
        return buckets, [f], lasts

    return make


@overload(store.queue_push)
def _queue_push(queue, f, place):
    def push(queue, f, place):
        buckets, values, lasts = queue
        if f in buckets:
            _put_place(buckets[f], lasts[f], np.int64(place))
        else:
            bucket = List.empty_list(types.uint8)
            _put_place(bucket, 0, np.int64(place))
            buckets[f] = bucket
            heapq.heappush(values, f)
        lasts[f] = np.int64(place)

    return push


@overload(store.queue_pop)
def _queue_pop(queue):
    def pop(queue):
        buckets, values, lasts = queue
        f = values[0]
        bucket = buckets[f]
        place = lasts[f]
        before = _take_place(bucket, place)
        if len(bucket) == 0:
            del buckets[f]
            del lasts[f]
            heapq.heappop(values)
        else:
            lasts[f] = before
        return f, place

    return pop


#: The store's functions with a compiled twin above.
TWINNED = (
    store.key_store,
    store.byte_store,
    store.small_store,
    store.key_of,
    store.add_key,
    store.value_of,
    store.add_value,
    store.set_value,
    store.key_index,
    store.place_of,
    store.remember,
    store.index_full,
    store.no_index,
    store.rebuilt_index,
    store.seen_set,
    store.add_new,
    store.set_full,
    store.no_set,
    store.rebuilt_set,
    store.f_queue,
    store.queue_push,
    store.queue_pop,
)
