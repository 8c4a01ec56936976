"""stress-tui: the card game Stress, played in a terminal in real time."""

__version__ = "0.2.0"
