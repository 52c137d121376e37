"""rhasp: optimal Rush Hour plans by answer set programming, confirmed by search."""

__version__ = "0.1.0"
