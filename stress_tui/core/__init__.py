"""The game itself: cards, house rules, the rules engine, the notation and the table
on an outside clock. Imports nothing else of the package; no terminal, clock or global random.

The engine's actions (``core/actions.py``) and events (``core/events.py``) load lazily:
a game's first frame needs none of them, and making their 25 dataclasses took about 3 ms
of it (Python 3.11 runs several ``exec`` for each). ``from stress_tui.core import events``
gives the module without running it: this package puts it in ``sys.modules`` as a lazy
module (``importlib.util.LazyLoader``, the importlib documentation's "Implementing lazy
imports"), and the first use of one of its names (``events.Played``) runs it. So the
modules a first frame loads name them that way, and never before they need one;
``load_lazy`` runs both at once, which the screen does just after its first frame, so
that no key waits for them either.

``from stress_tui.core.events import Played`` runs the module at once, as it must to give
the class; so does ``import stress_tui.core.events`` on Python 3.11 (the import statement
reads the module's ``__spec__``). Modules that only run after the first frame (the
players, the storage, the network, the replay viewer, the tests) import the names so.

The lazy modules are made when one is first asked for (``__getattr__``), not as this
package loads: the help, which loads the package for its house-rule table, needs neither
them nor ``importlib.util``.
"""

from __future__ import annotations

import sys
import types

TYPE_CHECKING = False  # typing's, without loading typing (which the help does without)

LAZY = ("actions", "events")
"""The modules of this package that load lazily: run at their first use, not at import."""


def _lazy(name: str) -> types.ModuleType:
    """Module ``name`` of this package: the one imported already, or a lazy one, put in
    ``sys.modules`` and on the package as an import would."""
    full = f"{__name__}.{name}"
    module = sys.modules.get(full)
    if module is None:
        import importlib.util

        spec = importlib.util.find_spec(full)
        assert spec is not None and spec.loader is not None, full
        loader = importlib.util.LazyLoader(spec.loader)
        spec.loader = loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[full] = module
        loader.exec_module(module)
    setattr(sys.modules[__name__], name, module)
    return module


if not TYPE_CHECKING:  # mypy sees the modules themselves, and a misspelt name stays an error

    def __getattr__(name: str) -> types.ModuleType:
        """``from stress_tui.core import events`` (or ``actions``): the lazy module."""
        if name not in LAZY:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        return _lazy(name)


def loaded(name: str) -> bool:
    """Whether module ``name`` has run: imported and not lazy, or lazy and used since (a
    lazy module's type is LazyLoader's own until its first use makes it a plain module)."""
    module = sys.modules.get(name)
    return module is not None and type(module) is types.ModuleType


def load_lazy() -> None:
    """Run the lazy modules (``LAZY``) now, if nothing has yet: after a first frame, so
    that neither the first frame nor the first key waits for them."""
    for name in LAZY:
        module = _lazy(name)
        if type(module) is not types.ModuleType:
            _ = module.__name__  # reading any attribute runs a lazy module
