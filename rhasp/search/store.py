"""The states a search keeps, in little memory: for BFS (:func:`rhasp.search.core.breadth_first`)
and A* (:func:`~rhasp.search.core.best_first`, and Dijkstra's search,
:func:`~rhasp.search.core.cheapest`), in numba's subset as the core is (issue 56; docs/design.md
says why it is a module of its own; bench/README.md, "Issue 56: states in less memory", what
it costs).

A search keeps, per state found, its key and a few small numbers (BFS: the state it was
found from and the vehicle that found it; A*: its cost, nothing else, see
:func:`rhasp.search.core.cheapest_path`), each in a *store* indexed by
the state's place (the order found), and an *index* from a key to its place (A*) or a *set* of
the keys seen (BFS). Here, uncompiled, these are Python lists, a dict and a set. Compiled
(``jit`` twins every function below but :func:`stored_path`):

- a store is a list of numpy blocks of :data:`BLOCK` places each (keys: int64 words,
  :func:`rhasp.search.core.words` a key; the small numbers: int32, or int8), a block added as
  the last fills: never copied, so that no growth holds two copies at once, and the memory
  grows with the states, a page at a time;
- the index is an open-addressing table of int32 places, whose slots hold no key of their own
  (a look-up starts from the key's hash, :func:`rhasp.search.core.spread`, and compares the
  key at the place in the store of keys, only where the slot's tag, a few bits of the hash
  kept above the place, is the key's own): a key is kept once. It is
  kept between :data:`LEAST_LOAD` and :data:`MOST_LOAD` full; past that the table is let go
  first, then built again from the store of keys (:func:`no_index`, :func:`rebuilt_index`), so
  that two tables are never held at once either;
- BFS's set is that index for keys of several words, and for keys of one word a table of the
  keys themselves (8 bytes a slot), rebuilt the same way from :data:`SEEN_LEAST_LOAD` full
  (comment above :func:`seen_set`).

A*'s queue is here too (:func:`f_queue`): a bucket of places for each f-value queued, each
place compiled in a byte or two.

So a state costs, at the peak, its key's words, its small numbers and at most 4 / LEAST_LOAD
bytes of index (8 / SEEN_LEAST_LOAD of BFS's table of one-word keys): on a 12×12 board of 44
vehicles (keys of three words), A* 24 + 4 + 10 bytes and about 1 a place queued, BFS 24 + 4 +
1 + 10.
"""

from __future__ import annotations

import heapq
from collections.abc import MutableSequence

BLOCK_BITS = 10
BLOCK = 1 << BLOCK_BITS  # places a block of a store holds, compiled (1,024: 24 KB of 3-word keys)
#: A compiled index's slot (int32, -1 where free) holds a place in its PLACE_BITS low bits and
#: TAG_BITS bits of the key's hash above them (jit_store says why).
PLACE_BITS = 28
TAG_BITS = 3
#: The most states a search keeps, whatever its budget (both ways, so that they answer alike):
#: compiled, places take PLACE_BITS bits, and a state's successors go in before the search
#: checks its count (268 million states: 9 GB of A* on 12×12 boards). ``--max-states`` goes
#: no further (:data:`rhasp.arguments.BOUNDS`). Costs are int32: by slides (``slides * 2**16 +
#: moves``), plans under 32,768 slides.
MOST_STATES = (1 << PLACE_BITS) - (1 << 16)
#: The compiled index is rebuilt when it would pass MOST_LOAD full, at LEAST_LOAD full: linear
#: probing stays short at 60 % (about 3.6 slots tried for a key not there, each read of a key
#: spared by the tag but 1 in 8), a state costs at most 10 bytes of it (so that A* stays under
#: 40 bytes a state on keys of three words, just after a rebuild too), and a rebuild makes it
#: 1.5 times larger, so that all rebuilds insert each key three times on average (from 30 %,
#: twice, at up to 13.3 bytes a state; bench/README.md, "Issue 56: states in less memory").
MOST_LOAD = 0.6
LEAST_LOAD = 0.4
#: BFS's table of one-word keys (every 6×6 board: the decks' fast path) is built again at 15 %
#: full, so that the rebuilds insert each key 1.3 times on average, not twice: at 30 % the
#: 6×6 decks ran 10 % slower than on the table grown fourfold before the store, at 15 % 5 %
#: (bench/README.md, "Issue 56: states in less memory"); its 8 bytes a slot then cost from 13
#: to 53 bytes a state (keys of several words: the index, at most 10).
SEEN_LEAST_LOAD = 0.15


def key_store(first: int) -> list[int]:
    """A store of keys holding ``first`` at place 0 (compiled: int64 blocks, a key's words
    at ``words * place``)."""
    return [first]


def small_store(first: int) -> list[int]:
    """A store of small numbers holding ``first`` at place 0 (compiled: int32 blocks)."""
    return [first]


def key_of(keys: list[int], place: int, like: int) -> int:
    """The key at ``place`` in the store ``keys`` (keys of the same form as ``like``)."""
    return keys[place]


def add_key(keys: list[int], place: int, key: int) -> None:
    """Put ``key`` at ``place``, the store's first free place (the number of keys in it)."""
    keys.append(key)


def value_of(values: list[int], place: int) -> int:
    """The number at ``place`` in the store ``values``."""
    return values[place]


def add_value(values: list[int], place: int, value: int) -> None:
    """Put ``value`` at ``place``, the store's first free place."""
    values.append(value)


def set_value(values: list[int], place: int, value: int) -> None:
    """Change the number at ``place`` (a place already filled) to ``value``."""
    values[place] = value


def byte_store(first: int) -> list[int]:
    """A store of numbers from -128 to 127 holding ``first`` at place 0 (compiled: int8
    blocks): BFS's vehicle that found each state."""
    return [first]


# A*'s queue: its places by f-value, a bucket (a list of places) for each f-value queued and a
# heap of those values, so that a state queued costs a byte or two (compiled: each place
# written as its difference from the one before it in its bucket, see jit_store) where a
# heap of f and place together cost 8. The lowest f comes out first and, among equal ones,
# the place queued last: deepest first, as A* breaks ties at its best (a heap by place
# expanded the oldest first, each f-layer breadth-first).


def f_queue(f: int, place: int) -> tuple[dict[int, list[int]], list[int]]:
    """A*'s queue holding ``place`` at ``f`` (compiled: typed lists of bytes in a typed dict
    by f, and each bucket's last place, third)."""
    return {f: [place]}, [f]


def queue_push(queue: tuple[dict[int, list[int]], list[int]], f: int, place: int) -> None:
    """Queue ``place`` at ``f``."""
    buckets, values = queue
    if f in buckets:
        buckets[f].append(place)
    else:
        buckets[f] = [place]
        heapq.heappush(values, f)


def queue_empty(queue: tuple[dict[int, list[int]], list[int]]) -> bool:
    """Whether nothing is queued."""
    return len(queue[1]) == 0


def queue_pop(queue: tuple[dict[int, list[int]], list[int]]) -> tuple[int, int]:
    """The lowest f queued and the place queued last at it, taken off the queue."""
    buckets, values = queue
    f = values[0]
    bucket = buckets[f]
    place = bucket.pop()
    if len(bucket) == 0:
        del buckets[f]
        heapq.heappop(values)
    return f, place


def key_index(keys: list[int], first: int) -> dict[int, int]:
    """The index of a search that asks where a key is (:func:`place_of`), holding ``first``
    at place 0 of ``keys`` (compiled: a list of one table of places, which a rebuild
    replaces; jit_store says why)."""
    return {first: 0}


def place_of(index: dict[int, int], keys: list[int], key: int) -> int:
    """Where ``key`` is in ``keys``; when it is not there, a negative number that
    :func:`remember` takes (compiled: ``-1 -`` the free slot where it goes)."""
    return index.get(key, -1)


def remember(index: dict[int, int], key: int, found: int, place: int) -> None:
    """Index ``key``, new (``found`` is what :func:`place_of` answered), at ``place``: the
    caller puts it there in the store of keys before the next look-up."""
    index[key] = place


def index_full(index: dict[int, int], keys: int) -> bool:
    """Whether ``index`` must be built again (:func:`no_index`, :func:`rebuilt_index`) before
    it holds ``keys`` keys (compiled: past :data:`MOST_LOAD`; here, never: Python's sets and
    dicts grow as they go)."""
    return False


def no_index(index: dict[int, int]) -> dict[int, int]:
    """What a search holds in place of ``index`` while it is built again: compiled, an empty
    table, so that the old one is let go before the new one is made."""
    return index


def rebuilt_index(index: dict[int, int], keys: list[int], count: int, like: int) -> dict[int, int]:
    """An index of the ``count`` keys of ``keys`` (of the same form as ``like``), with room
    for more (compiled: :data:`LEAST_LOAD` full); here ``index`` as it is."""
    return index


# BFS asks only whether a key is new, never where it is: its *set* of keys seen. Uncompiled, a
# Python set. Compiled, for keys of several words, the index above (a key once, in the store
# of keys); for keys of one word, an open-addressing table of the keys themselves, as full as
# the index and rebuilt the same way from the store of keys: the key beside its slot spares a
# look-up a second read from memory, what keeps the 6×6 decks' speed (bench/README.md, "Issue
# 56: states in less memory").


def seen_set(keys: list[int], first: int) -> set[int]:
    """The set of keys a search has seen, holding ``first``, at place 0 of ``keys``."""
    return {first}


def add_new(seen: set[int], keys: list[int], key: int, place: int) -> bool:
    """Whether ``key`` is new to ``seen``; if so ``seen`` holds it from now on, at ``place``
    of ``keys``, where the caller puts it before the next look-up."""
    if key in seen:
        return False
    seen.add(key)
    return True


def set_full(seen: set[int], keys: int) -> bool:
    """Whether ``seen`` must be built again (:func:`no_set`, :func:`rebuilt_set`) before it
    holds ``keys`` keys: as :func:`index_full`."""
    return False


def no_set(seen: set[int]) -> set[int]:
    """What a search holds in place of ``seen`` while it is built again (:func:`no_index`)."""
    return seen


def rebuilt_set(seen: set[int], keys: list[int], count: int, like: int) -> set[int]:
    """A set of the ``count`` keys of ``keys``, with room for more (:func:`rebuilt_index`)."""
    return seen


def stored_path(
    keys: MutableSequence[int], parent: MutableSequence[int], place: int, like: int
) -> list[int]:
    """The keys from the search's start to the state at ``place``, by the links ``parent``."""
    path = [key_of(keys, place, like)]
    while value_of(parent, place) >= 0:
        place = value_of(parent, place)
        path.append(key_of(keys, place, like))
    path.reverse()
    return path


def slots_for(keys: int, least: float = LEAST_LOAD) -> int:
    """The slots of a compiled index built for ``keys`` keys: ``least`` full."""
    return max(1024, int(keys / least) + 1)


def over_load(slots: int, keys: int) -> bool:
    """Whether ``keys`` keys pass :data:`MOST_LOAD` of ``slots`` slots."""
    return keys > MOST_LOAD * slots
