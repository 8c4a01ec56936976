"""Every screen and its keys, for docs/keys.md: the table there is made from the screens'
``BINDINGS`` (``tests/test_keys_doc.py`` fails when it drifts from them).

    python -m stress_tui.terminal.screens.listing
"""

from __future__ import annotations

import importlib
import pkgutil

from stress_tui.terminal import screens
from stress_tui.terminal.keynames import key_label
from stress_tui.terminal.screens.base import KeyedScreen


def all_screens() -> list[type[KeyedScreen]]:
    """Every screen class of the package, each module's in the order they are defined, the
    modules by name (a screen's own file is all it takes to be listed)."""
    found: list[type[KeyedScreen]] = []
    for module in sorted(m.name for m in pkgutil.iter_modules(screens.__path__)):
        loaded = importlib.import_module(f"{screens.__name__}.{module}")
        for value in vars(loaded).values():
            if (
                isinstance(value, type)
                and issubclass(value, KeyedScreen)
                and value.__module__ == loaded.__name__
                and "TITLE" in vars(value)
                and value.BINDINGS
            ):
                found.append(value)
    return found


def keys_table() -> str:
    """The screens' keys as a Markdown table: a row for each thing a screen's keys do."""
    rows = ["| Screen | Keys | What they do |", "| --- | --- | --- |"]
    for screen in all_screens():
        said: dict[str, list[str]] = {}
        for binding in screen.BINDINGS:
            if binding.description:
                said.setdefault(binding.description, []).append(f"`{key_label(binding.key)}`")
        first = True
        for description, keys in said.items():
            title = f"{screen.TITLE} (`{screen.__name__}`)" if first else ""
            rows.append(f"| {title} | {' '.join(keys)} | {description} |")
            first = False
        if screen.OTHER_KEYS is not None:
            rows.append(f"|  | any other key | {screen.OTHER_DESCRIPTION} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(keys_table(), end="")
