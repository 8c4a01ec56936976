"""The drawing layer: a palette of styles, a canvas of cells that tracks what changed, and
the encoder that turns the change into escape codes. Knows nothing of the game: it imports
no other part of ``stress_tui`` (``tests/test_layers.py`` checks).
"""
