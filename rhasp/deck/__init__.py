"""Solving whole decks (``rhasp deck``): all cores or a Dask cluster, streamed results,
resumable, verifiable. A module a concept:

- :mod:`~rhasp.deck.record`: a deck line's outcome (:class:`DeckRecord`), its fields, as a
  JSON line or a CSV row, and read back from a results file;
- :mod:`~rhasp.deck.job`: a deck line solved into its record in a worker process, its
  figures compared with ``--verify``, the jobs spread over workers or a Dask cluster;
- :mod:`~rhasp.deck.results`: the results file, streamed and locked, and ``FILE.run`` beside
  it, the digest of every record as written and the header saying what run they are of;
- :mod:`~rhasp.deck.kept`: the records ``--resume`` keeps, each checked against its deck line;
- :mod:`~rhasp.deck.run`: a run (:func:`run_deck`) and what it counts (:class:`DeckTally`).

What a resumed run reads first, the header beside its output, and how a refusal to resume
is worded, are :mod:`rhasp.resume`'s, shared with ``rhasp enumerate``.
"""

from rhasp.deck.job import BATCH, Job, Settings, run_jobs
from rhasp.deck.kept import CHECK_ON_WORKERS_FROM
from rhasp.deck.record import FIELDS, DeckRecord, read_results
from rhasp.deck.results import ResultFile, record_digest
from rhasp.deck.run import REPORTED, DeckTally, run_deck

__all__ = [
    "BATCH",
    "CHECK_ON_WORKERS_FROM",
    "FIELDS",
    "REPORTED",
    "DeckRecord",
    "DeckTally",
    "Job",
    "ResultFile",
    "Settings",
    "read_results",
    "record_digest",
    "run_deck",
    "run_jobs",
]
