"""The compiled twins of the core's set of states seen must behave as the Python set does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from rhasp.engines import core, jit


@njit
def _news(keys):
    """For each key in turn, whether the compiled set took it as new; and its final count."""
    seen = core.key_set(keys[0])
    news = [True]
    for k in range(1, len(keys)):
        seen = core.with_room(seen, 1)
        news.append(core.add_new(seen, keys[k]))
    return news, seen[len(seen) - 1]


def _python_news(keys: list[int]) -> tuple[list[bool], int]:
    seen = core.key_set(keys[0])
    news = [True] + [core.add_new(seen, key) for key in keys[1:]]
    return news, len(seen)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2**63 - 1) | st.integers(0, 3000), min_size=1, max_size=5000))
def test_the_compiled_key_table_agrees_with_a_python_set(keys):
    # Large keys, small ones, repeats, and more keys than the first table holds (it grows).
    news, count = _news(jit.keys(keys))
    assert (list(news), int(count)) == _python_news(keys)


def test_the_table_grows_past_its_first_size_and_keeps_every_key():
    keys = [k * 2**40 + 7 for k in range(5000)] * 2  # 5,000 keys, then each again
    news, count = _news(jit.keys(keys))
    assert list(news) == [True] * 5000 + [False] * 5000 and count == 5000
