"""How many examples each hypothesis property draws: a fifth of its full count by default
(the README's test command, and so CI, which must end within its minutes), the full count
with ``RHASP_TEST_VOLUME=full`` (README, "Tests"). Every property runs either way, on the
same generators; only how many boards each draws changes."""

from __future__ import annotations

import os

FULL = os.environ.get("RHASP_TEST_VOLUME") == "full"


def examples(count: int) -> int:
    """``count`` examples at full volume, else a fifth of them (at least 10)."""
    return count if FULL else max(10, count // 5)
