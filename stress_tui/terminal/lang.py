"""The player's language: every text a player reads goes through ``_`` (or ``ngettext``,
``pgettext``) here, looked up in the standard library's gettext catalogues.

English is the source language: the texts in the code are the English ones, and anything a
catalogue lacks stays English. The catalogues are ``.po`` files in the repository
(``terminal/locale/LANG/LC_MESSAGES/stress_tui.po``), the source a translator edits; the
build compiles each to the ``.mo`` file beside it (``hatch_build.py``, for every wheel and
every ``pip install -e``), and the first text looked up reads the chosen one with
``gettext.translation``, whose machinery (plural forms from the header, contexts,
fallback) does the lookups. Nothing is read before a text is wanted: ``--version`` loads
none of this, and English loads no catalogue. A tree never built has no ``.mo`` files and
speaks English (``tests/test_lang.py`` fails on a ``.mo`` older than its ``.po``).

The language is ``choose``'s (``--lang``, else the config file's ``lang``), else the
environment's as gettext finds it: the first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
``LANG`` that is set (``LANGUAGE`` may list several, ``sv:de``); ``sv_SE.UTF-8`` is ``sv``.
A context may speak a language of its own (``speak_here``: each session of ``stress-tui
serve`` its client's), whatever the process speaks.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from contextvars import ContextVar

from stress_tui.core.words import N_

__all__ = [
    "LANGUAGES",
    "N_",
    "_",
    "addressed",
    "choose",
    "language",
    "ngettext",
    "pgettext",
    "rank_name",
    "shown_names",
]

DOMAIN = "stress_tui"
"""The catalogues' gettext domain (their file name)."""

LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
"""Where the catalogues are: ``LANG/LC_MESSAGES/stress_tui.po``."""

LANGUAGES = {"en": "English", "sv": "svenska", "de": "Deutsch"}
"""The languages the game speaks, by code, each in its own words."""

SOURCE = "en"
"""The language of the texts in the code (no catalogue)."""

ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where gettext looks for the language, in its order."""

_chosen: str | None = None
_loaded: gettext.NullTranslations | None = None
_english = False
"""Whether the language is English, found without loading gettext (``--help`` in English
loads none of it)."""
_here: ContextVar[tuple[str, gettext.NullTranslations] | None] = ContextVar(
    "stress_tui_language", default=None
)
"""The language of this context and its catalogue, where it has one of its own."""


class BadLanguage(ValueError):
    """A language the game does not speak (``--lang`` or the config file's ``lang``)."""


def language_code(text: str) -> str:
    """A language as a person writes it (``sv``, ``SV``, ``de_CH``, ``sv_SE.UTF-8``), as
    one of ``LANGUAGES``; ``BadLanguage`` if the game does not speak it.

    >>> language_code("de_CH.UTF-8")
    'de'
    """
    code = _code(text)
    if code not in LANGUAGES:
        from stress_tui.core.words import shown

        spoken = ", ".join(LANGUAGES)
        raise BadLanguage(
            _("{value} is not a language of the game (choose from {languages})").format(
                value=shown(text), languages=spoken
            )
        )
    return code


def _code(text: str) -> str:
    """``sv`` from ``sv_SE.UTF-8@euro``; ``en`` from ``C`` and ``POSIX``."""
    code = text.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return SOURCE if code in ("c", "posix") else code


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as ``gettext.find`` reads it: the first of
    the variables that is set, each language it lists in turn; English if it lists none
    the game speaks.

    >>> from_environment({"LANGUAGE": "fr:de", "LANG": "sv_SE.UTF-8"})
    'de'
    >>> from_environment({"LC_ALL": "C", "LANG": "de_DE.UTF-8"})
    'en'
    """
    env = os.environ if environ is None else environ
    for name in ENVIRONMENT:
        value = env.get(name, "")
        if value:
            for part in value.split(":"):
                code = _code(part) if part else ""
                if code in LANGUAGES:
                    return code
            return SOURCE
    return SOURCE


def choose(code: str | None) -> None:
    """Speak ``code`` from now on (a code of ``LANGUAGES``); ``None``: the environment's."""
    global _chosen, _loaded, _english
    _chosen = None if code is None else language_code(code)
    _loaded = None
    _english = False


def speak_here(code: str) -> None:
    """Speak ``code`` (a code of ``LANGUAGES``) in this context and the ones made from it
    (the asyncio tasks and callbacks it starts), whatever the process speaks."""
    code = language_code(code)
    _here.set((code, translation(code)))


def language() -> str:
    """The language texts are said in now."""
    here = _here.get()
    if here is not None:
        return here[0]
    return _chosen if _chosen is not None else from_environment()


def _translations() -> gettext.NullTranslations:
    global _loaded
    here = _here.get()
    if here is not None:
        return here[1]
    if _loaded is None:
        _loaded = translation(language())
    return _loaded


def translation(code: str) -> gettext.NullTranslations:
    """The compiled catalogue of the language ``code``, read by gettext; English (no
    catalogue) for the source language or where none was built."""
    import gettext

    if code == SOURCE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)


def catalogue_path(code: str, compiled: bool = False) -> str:
    """The catalogue of the language ``code`` (``compiled``: the ``.mo`` file made from it)."""
    return os.path.join(LOCALE_DIR, code, "LC_MESSAGES", f"{DOMAIN}.{'mo' if compiled else 'po'}")


def _in_english() -> bool:
    global _english
    if _here.get() is not None:
        return False
    if not _english and _loaded is None and language() == SOURCE:
        _english = True
    return _english


def _(message: str) -> str:
    """``message`` in the player's language (itself where there is no translation)."""
    return message if _in_english() else _translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` of a text with a plural, in the player's language."""
    if _in_english():
        return singular if n == 1 else plural
    return _translations().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the player's language, as said in ``context`` (``card``: a rank on
    a card face, where ``A`` is not the word ``A``)."""
    return message if _in_english() else _translations().pgettext(context, message)


BOT_LEVELS = (N_("easy"), N_("normal"), N_("hard"), N_("expert"))
"""The computer's levels, as the screen names them (``bot:LEVEL``'s word, translated)."""


def addressed(names: tuple[str, str]) -> tuple[bool, bool]:
    """Which players a sentence speaks to as "you" (``You win the round!``, not ``You wins``):
    the person at this keyboard nobody named (``choices.YOU``, the names' key)."""
    from stress_tui.core.choices import YOU

    return names[0] == YOU, names[1] == YOU


def shown_names(names: tuple[str, str]) -> tuple[str, str]:
    """The players' names as the screen shows them: a name nobody gave (``You``,
    ``Computer``...) in the player's language (``core.words.shown_name``)."""
    from stress_tui.core.words import shown_name

    return shown_name(names[0], _), shown_name(names[1], _)


def rank_name(rank: int) -> str:
    """A rank as a card face shows it in the player's language (``J`` is ``Kn`` in
    Swedish, ``B`` in German): at most two columns, as ``10`` is."""
    from stress_tui.core.decks import ACE, JACK, KING, QUEEN, RANK_NAMES

    if rank == JACK:
        return pgettext("card", "J")
    if rank == QUEEN:
        return pgettext("card", "Q")
    if rank == KING:
        return pgettext("card", "K")
    if rank == ACE:
        return pgettext("card", "A")
    return RANK_NAMES[rank]


# --------------------------------------------------------------------------- catalogues

Entry = tuple[str | None, str, str | None, list[str]]
"""A catalogue entry: its context, its text, its plural text and its translations (one,
or one per plural form)."""


def parse_po(text: str) -> list[Entry]:
    """The entries of a ``.po`` file, fuzzy ones left out (as ``msgfmt`` does); the
    header is the entry whose text is empty.

    >>> parse_po('msgid "Hello"\\nmsgstr "Hej"\\n')
    [(None, 'Hello', None, ['Hej'])]
    """
    entries: list[Entry] = []
    fields: dict[str, str] = {}
    last: str | None = None
    fuzzy = False

    def flush() -> None:
        nonlocal fuzzy
        if "msgid" in fields and not fuzzy:
            forms = sorted((k for k in fields if k.startswith("msgstr")), key=_form_index)
            entries.append(
                (
                    fields.get("msgctxt"),
                    fields["msgid"],
                    fields.get("msgid_plural"),
                    [fields[k] for k in forms],
                )
            )
        fields.clear()
        fuzzy = False

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                if fields.get("msgid") is not None and any(k.startswith("msgstr") for k in fields):
                    flush()
                fuzzy = True
            continue
        if not line:
            continue
        if line.startswith('"'):
            if last is None:
                raise ValueError(f"line {number}: text outside an entry")
            fields[last] += _unquote(line, number)
            continue
        keyword, _space, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in fields):
            flush()
        if keyword not in ("msgctxt", "msgid", "msgid_plural", "msgstr") and not (
            keyword.startswith("msgstr[") and keyword.endswith("]")
        ):
            raise ValueError(f"line {number}: {keyword[:20]!r} is no .po keyword")
        fields[keyword] = _unquote(rest.strip(), number)
        last = keyword
    flush()
    return entries


def _form_index(key: str) -> int:
    return int(key[7:-1]) if key.startswith("msgstr[") else 0


def _unquote(text: str, number: int) -> str:
    import ast

    if not (len(text) >= 2 and text.startswith('"') and text.endswith('"')):
        raise ValueError(f"line {number}: a text must be in double quotes")
    value = ast.literal_eval(text)
    if not isinstance(value, str):  # pragma: no cover - a quoted literal is a str
        raise ValueError(f"line {number}: not a text")
    return value


MARKERS = {"_": (0,), "N_": (0,), "ngettext": (0, 1), "pgettext": (1,)}
"""The functions whose literal arguments are texts to translate, and which arguments."""


def messages_in(source: str) -> list[tuple[str | None, str, str | None, int]]:
    """The texts marked for translation in Python ``source``: each call of a marker with a
    literal text, as (context, text, plural text, line).

    >>> messages_in('n = 2; t = ngettext("{n} card", "{n} cards", n)')
    [(None, '{n} card', '{n} cards', 1)]
    """
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        where = MARKERS.get(node.func.id)
        if where is None:
            continue
        texts = [
            arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
            for arg in node.args
        ]
        if len(texts) <= max(where) or any(texts[i] is None for i in where):
            continue
        context = texts[0] if node.func.id == "pgettext" else None
        plural = texts[1] if node.func.id == "ngettext" else None
        found.append((context, texts[where[0]] or "", plural, node.lineno))
    found.sort(key=lambda entry: entry[3])
    return found
