"""docs/keys.md's table of each screen's keys is the one the screens' bindings make."""

from __future__ import annotations

from pathlib import Path

from stress_tui.terminal.screens.listing import all_screens, keys_table

DOC = Path(__file__).resolve().parents[1] / "docs" / "keys.md"
BEGIN = "<!-- screens' keys: begin -->\n"
END = "<!-- screens' keys: end -->"


def test_the_docs_list_every_screens_keys_as_its_bindings_say() -> None:
    text = DOC.read_text(encoding="utf-8")
    shown = text.split(BEGIN, 1)[1].split(END, 1)[0]
    assert shown == keys_table(), (
        "docs/keys.md: put `python -m stress_tui.terminal.screens.listing` between the markers"
    )


def test_every_screen_is_listed_once_its_file_exists() -> None:
    names = {screen.__name__ for screen in all_screens()}
    assert {"TableScreen", "HelpScreen", "PauseScreen", "ResultScreen", "QuitScreen"} <= names
    assert {"ReplayTableScreen", "NetPanelScreen"} <= names
