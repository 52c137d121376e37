"""The uncompiled core (rhasp.search.uncompiled) is the core's own source with its one-line
helpers written in place: it must return what the core's functions return, called as they
stand, and call none of those helpers."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rhasp.search import clusters, core, uncompiled
from rhasp.search.geometry import Geometry
from tests.boards import ROOT, crowded_puzzles, puzzles
from tests.volume import examples

BUDGET = 2_000


def searches(core_module, clusters_module, puzzle) -> tuple:
    """Each search of the core on the puzzle, from the given modules, within BUDGET."""
    results = []
    for targets_leave in (True, False):
        geometry = Geometry.of(puzzle.board, targets_leave=targets_leave)
        g, key = geometry.tables, geometry.key(puzzle.placement)
        watch = core.new_buffer(core.WATCH_FIELDS)
        results += [
            core_module.breadth_first(g, key, BUDGET, watch, True, True),
            core_module.breadth_first(g, key, BUDGET, watch, False, False),
            core_module.best_first(g, key, BUDGET, watch, False),
            core_module.best_first(g, key, BUDGET, watch, True),
            core_module.cheapest(g, key, BUDGET, watch),
            clusters_module.cluster(g, key, BUDGET, watch, False),
            clusters_module.cluster(g, key, BUDGET, watch, True),
            clusters_module.reach(g, key, BUDGET, watch),
        ]
    return tuple(results)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles() | crowded_puzzles())
def test_the_plain_core_returns_what_the_core_returns(puzzle):
    assert searches(uncompiled.CORE, uncompiled.CLUSTERS, puzzle) == searches(
        core, clusters, puzzle
    )


def test_the_plain_core_calls_no_helper_written_in_place():
    assert set(uncompiled.HELPERS) == set(uncompiled.WRITTEN_IN_PLACE)  # each found in the core
    for module in (uncompiled.CORE, uncompiled.CLUSTERS):
        for name in ("successors", "occupancy", "breadth_first", "lower_bound", "explore"):
            function = getattr(module, name, None)
            if function is not None:
                called = set(function.__code__.co_names)
                assert called.isdisjoint(uncompiled.WRITTEN_IN_PLACE), (module, name)


def test_the_runner_runs_the_plain_twin_uncompiled():
    assert uncompiled.twin(core.breadth_first) is uncompiled.CORE.breadth_first
    assert uncompiled.twin(clusters.cluster) is uncompiled.CLUSTERS.cluster
    assert uncompiled.CLUSTERS.core is uncompiled.CORE  # its calls of the core are plain too


def test_uncompiled_keys_that_differ_only_in_high_bits_spread_over_the_table():
    # A wide board's keys are Python ints here: states whose low vehicles stand still differ
    # only above bit 64, and the core's hash (the key's low bits, multiplied) sent them all to
    # one slot, each new key probing past all the others (walled12's cluster at a thousand
    # states a second). At a quarter full, a hash that spreads them leaves short runs.
    slots = 4096
    table = uncompiled.CORE.key_table(slots, 2)  # each slot a key and its index
    for index in range(slots // 4):
        assert uncompiled.CLUSTERS._index_of(table, (index + 1) << 100, index) == -1
    taken = [table[2 * slot] != core.EMPTY_SLOT for slot in range(slots)]
    longest = run = 0
    for full in taken + taken:  # runs wrap around the end
        run = run + 1 if full else 0
        longest = max(longest, run)
    assert sum(taken) == slots // 4 and longest < 40


@given(st.lists(st.tuples(st.integers(0, (1 << 130) - 1), st.integers(0, 1 << 40))))
def test_the_table_of_keys_keeps_what_a_dict_keeps_as_it_grows(pairs):
    # The one table of keys (here a slot: a key and its value), uncompiled, against a dict;
    # given room as its users give it, before each key goes in.
    plain = uncompiled.CORE
    table, kept = plain.key_table(4, 2), {}
    for key, value in pairs:
        if not plain.has_room(table, len(kept) + 1, 2):
            table = plain.grown_table(table, 2, key)
        assert 4 * len(kept) < len(table)  # under half full: probes end soon
        at = plain.slot_of(table, key, 2)
        if at < 0:
            at = -1 - at
            table[at + 1] = value
            kept[key] = value
        assert table[at] == key
    assert sum(table[at] != core.EMPTY_SLOT for at in range(0, len(table), 2)) == len(kept)
    for key, value in kept.items():
        at = plain.slot_of(table, key, 2)
        assert at >= 0 and table[at + 1] == value


def test_the_plain_core_is_written_at_its_first_use_not_at_import():
    # Every command loads this module, and most never search uncompiled: a card solved by
    # ASP, as a process of its own, paid 20 ms of its 0.3 s to write the core in place.
    code = (
        "import rhasp.cli\n"
        "from rhasp import api\n"
        "from rhasp.formats import read_path\n"
        "from rhasp.search import uncompiled\n"
        "api.solve(read_path('puzzles/original/card03.txt')[0], engine='asp', confirm=False)\n"
        "print(uncompiled._written.cache_info().currsize)\n"
        "uncompiled.CORE\n"
        "print(uncompiled._written.cache_info().currsize)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.stdout.split() == ["0", "1"], run.stderr
