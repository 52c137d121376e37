"""What people see at the command line: each answer's words (:mod:`rhasp.solution`,
:mod:`rhasp.hints`, ...) as text with boards in colour (:mod:`~rhasp.output.text`, drawn by
:mod:`~rhasp.output.boards`), as JSON (:mod:`~rhasp.output.records`), the displays of
running work (:mod:`~rhasp.output.progress`) and the summary tables of long runs
(:mod:`~rhasp.output.tables`). This module gives every name the command line and the page
import."""

from rhasp.errors import counted
from rhasp.output.boards import (
    TARGET_COLOURS,
    VEHICLE_COLOURS,
    board_text,
    letter_style,
    vehicle_styles,
)
from rhasp.output.progress import (
    DeckProgress,
    EnumerationProgress,
    GenerateProgress,
    LiveLine,
    ProofProgress,
    Screen,
    SearchLine,
)
from rhasp.output.records import SOLVE_FIELDS, figures_record, solution_dict, with_reading
from rhasp.output.tables import enumeration_table, memory_text, seconds_row, tally_table
from rhasp.output.text import (
    ADVICE,
    GENERATE_ADVICE,
    advised,
    analysis_text,
    check_lines,
    hint_lines,
    solution_text,
)
from rhasp.solution import reading_text

__all__ = [
    "ADVICE",
    "GENERATE_ADVICE",
    "SOLVE_FIELDS",
    "TARGET_COLOURS",
    "VEHICLE_COLOURS",
    "DeckProgress",
    "EnumerationProgress",
    "GenerateProgress",
    "LiveLine",
    "ProofProgress",
    "Screen",
    "SearchLine",
    "advised",
    "analysis_text",
    "board_text",
    "check_lines",
    "counted",
    "enumeration_table",
    "figures_record",
    "hint_lines",
    "letter_style",
    "memory_text",
    "reading_text",
    "seconds_row",
    "solution_dict",
    "solution_text",
    "tally_table",
    "vehicle_styles",
    "with_reading",
]
