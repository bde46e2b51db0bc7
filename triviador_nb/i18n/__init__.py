"""Languages of the screen: gettext catalogues read from ``.po`` files.

Every sentence the widgets show is written in English in the code and marked
with :func:`_` (or :func:`N_` where it is only named, :func:`ngettext` where
it counts something, :func:`pgettext` for a territory's, a map's or a rule
set's name). Its translations live in plain gettext ``.po`` files, one per
language:

- the project's own in ``triviador_nb/i18n/locales/<code>.po`` (``hu``, ``cs``);
- a teacher's own in ``~/.triviador_nb/languages/<code>.po`` (or under
  ``$TRIVIADOR_NB_HOME``): copy ``locales/triviador_nb.pot`` to, say,
  ``de.po``, fill in the ``msgstr`` lines with any ``.po`` editor (Poedit,
  Weblate, a text editor) and ``de`` is a language of the setup form. A file
  there for a language the project has replaces the project's one.

Babel reads the ``.po`` text and compiles it in memory, so there is no build
step. Sentences are ``str.format`` templates with named fields
(``"{seat} takes {territory}"``): a translation may put the fields in any
order. An untranslated or fuzzy entry falls back to the English text.

The language in use is the kernel's (:func:`set_language`, chosen at setup),
or the one a block of code runs in (``with speaking("hu"): ...``), so two
screens in one kernel can speak two languages. Pure: no widgets, no clock.
"""

from __future__ import annotations

import contextvars
import gettext
import os
import threading
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from babel import Locale, UnknownLocaleError
from babel.core import get_locale_identifier, parse_locale

from .reading import DOMAIN, LanguageError, compile_catalogue, has_messages, po_file_error  # noqa: F401 (re-exported)

SOURCE = "en"  #: the language the code is written in
LOCALES = Path(__file__).resolve().parent / "locales"
TEMPLATE = LOCALES / f"{DOMAIN}.pot"

#: msgctxt of names that are not sentences (``pgettext(TERRITORY, "Eastern Europe")``); CATEGORY: a
#: built-in bank's category (``"Arts & Literature"``), DIFFICULTY: a question's (``"easy"``),
#: REPORT_COLUMN: a column header of the saved report (``"player"``).
TERRITORY, MAP, RULE_SET = "territory", "map", "rule set"
CATEGORY, DIFFICULTY, REPORT_COLUMN = "category", "difficulty", "report column"


class LanguageWarning(UserWarning):
    """A teacher's ``.po`` file read with some of it left out or read anyway
    (a message that would fail on screen, a byte-order mark...): one line
    per thing, with file and line (:func:`language_notes`)."""


_default = SOURCE
_speaking: contextvars.ContextVar[str | None] = contextvars.ContextVar("triviador_nb_language", default=None)
_Loaded = tuple[tuple[Path, int] | None, gettext.NullTranslations, list[str]]
_loaded: dict[tuple[str, str | None], _Loaded] = {}
_lock = threading.Lock()


def _(message: str) -> str:
    """``message`` (English) in the language in use."""
    return translation().gettext(message)


def N_(message: str) -> str:  # noqa: N802 - the gettext name for "marked, translated later"
    """``message`` unchanged: marks a sentence kept in a table, passed to
    :func:`_` where it is shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted sentence for ``n`` in the language in use (Czech
    has three: 1, 2-4, 5 and more)."""
    return translation().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A name in the language in use: ``context`` is :data:`TERRITORY`,
    :data:`MAP`, :data:`RULE_SET`, :data:`CATEGORY`, :data:`DIFFICULTY` or
    :data:`REPORT_COLUMN`; a name with no translation is shown as it is (a
    county's own name needs none, nor a category a teacher's bank made up)."""
    return translation().pgettext(context, message)


def current_language() -> str:
    """The code of the language in use (``"en"``, ``"hu"``, ``"cs"``)."""
    return _speaking.get() or _default


def babel_locale() -> str:
    """The language in use as a locale Babel has dates and numbers for
    (``"en"`` for a teacher's language Babel does not know)."""
    code = current_language()
    return code if _babel_knows(code) else SOURCE


def set_language(code: str) -> str:
    """Make ``code`` the kernel's language (the setup form's choice).

    ``code`` is matched as Babel reads locales: ``"de-DE"``, ``"de_DE"``
    and ``"de-de"`` find ``de_DE.po`` or ``de-DE.po``, ``"pt-br"`` finds
    ``pt_BR.po`` or ``pt-br.po``, ``"DE"`` finds ``de.po`` or ``DE.po``; a
    regional code finds its language's file when it has none of its own
    (``"de_AT"`` -> ``de.po``), and a language the one regional file of it
    (``"de"`` -> ``de-DE.po``).

    Returns:
        The code as :func:`languages` lists it (``"HU"`` -> ``"hu"``,
        ``"pt-br"`` -> ``"pt_BR"``).

    Raises:
        LanguageError: no catalogue for ``code`` (the message lists the
            languages there are), or its file cannot be read at all.

    Warns:
        LanguageWarning: the file was read with messages left out or
            something read anyway (:func:`language_notes`, one per line).
    """
    global _default
    code = _known(code)
    translation(code, fresh=True)  # a broken file is reported now, not in the middle of a game
    notes = language_notes(code)
    if notes:
        warnings.warn(LanguageWarning("\n".join(notes)), stacklevel=2)
    _default = code
    return code


@contextmanager
def speaking(code: str | None) -> Iterator[str]:
    """Run a block in language ``code`` (None: the kernel's language)."""
    code = _known(code) if code else current_language()
    token = _speaking.set(code)
    try:
        yield code
    finally:
        _speaking.reset(token)


#: Environment variables that name the kernel's locale, first found first
#: (``TRIVIADOR_NB_LANGUAGE``, then the POSIX ones a hub's spawner or a
#: desktop sets: ``LANGUAGE`` is a ``:``-separated list).
LANGUAGE_VARIABLES = ("TRIVIADOR_NB_LANGUAGE", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def environment_language(environ: dict[str, str] | None = None) -> str | None:
    """The language the kernel's environment asks for, when there is a
    catalogue for it: the first of :data:`LANGUAGE_VARIABLES` naming one
    (``LANG=hu_HU.UTF-8`` -> ``"hu"``; ``C``, ``POSIX`` and English's
    regional codes -> ``"en"``); None when none does. A JupyterHub sets
    them per user (``c.Spawner.environment``), so a student's join form
    speaks the student's language before any room is joined."""
    environ = os.environ if environ is None else environ
    for variable in LANGUAGE_VARIABLES:
        for value in (environ.get(variable) or "").split(":"):
            code = value.split(".")[0].split("@")[0].strip()
            if code in ("C", "POSIX"):
                return SOURCE
            if not code:
                continue
            try:
                return _known(code)
            except LanguageError:
                continue
    return None


def user_languages_dir() -> Path:
    """Where a teacher's own ``.po`` files are read from."""
    home = os.environ.get("TRIVIADOR_NB_HOME")
    return (Path(home) if home else Path.home() / ".triviador_nb") / "languages"


def normal_code(code: str) -> str:
    """``code`` as Babel writes a locale: ``"DE"`` -> ``"de"``, ``"de-DE"``
    and ``"de_de"`` -> ``"de_DE"``, ``"pt-br"`` -> ``"pt_BR"``.

    Raises:
        ValueError: not a locale code (its language is 2 or 3 letters).
    """
    parts = parse_locale(code.strip().replace("-", "_"))
    if not (parts[0].isascii() and parts[0].isalpha() and 2 <= len(parts[0]) <= 3):
        raise ValueError(f"{code!r} is not a language code")
    return get_locale_identifier(parts)


def _catalogue_files() -> dict[str, Path]:
    """Every language's ``.po`` file, by :func:`normal_code`: the project's,
    then the teacher's over them; files with no message are no language."""
    found: dict[str, Path] = {}
    for folder in (LOCALES, user_languages_dir()):
        mine: dict[str, Path] = {}
        for path in sorted(folder.glob("*.po")) if folder.is_dir() else ():
            try:
                code = normal_code(path.stem)
            except ValueError:
                continue
            if code not in mine and has_messages(path):
                mine[code] = path
        found.update(mine)
    return found


def catalogue_path(code: str) -> Path | None:
    """The ``.po`` file for ``code`` (any spelling :func:`normal_code`
    reads): the teacher's own, else the project's, else None (English needs
    none)."""
    try:
        return _catalogue_files().get(normal_code(code))
    except ValueError:
        return None


def language_codes() -> list[str]:
    """The codes of the languages there are (:func:`languages` without the
    names, which Babel takes a while to load): ``["en", "cs", "hu"]``, English first."""
    return sorted({SOURCE, *_catalogue_files()}, key=lambda c: (c != SOURCE, c))


def languages() -> dict[str, str]:
    """The languages there are, code -> name in that language
    (``{"en": "English", "cs": "Čeština", "hu": "Magyar"}``), English first."""
    return {code: language_name(code) for code in language_codes()}


def language_name(code: str) -> str:
    """``code``'s name in that language, capitalised (``"hu"`` -> ``"Magyar"``),
    or the code itself for a language Babel does not know."""
    try:
        name = Locale.parse(code).get_display_name(code) or code
    except (ValueError, UnknownLocaleError):
        return code
    return name[:1].upper() + name[1:]


def translation(code: str | None = None, fresh: bool = False) -> gettext.NullTranslations:
    """The compiled catalogue of ``code`` (None: the language in use).

    A catalogue is read once per kernel and languages folder; ``fresh`` reads
    it again if its file changed (:func:`set_language` and the setup form's
    language field do, so a teacher's edited ``.po`` file shows on the next
    choice). Looking a sentence up costs a dict lookup, not a file check.
    Messages that would fail on screen are left out (:func:`language_notes`).

    Raises:
        LanguageError: ``code`` has no ``.po`` file, or it cannot be read.
    """
    code = code or current_language()
    found = None if fresh else _loaded.get((code, os.environ.get("TRIVIADOR_NB_HOME")))
    return found[1] if found is not None else _load(code, fresh)[1]


def language_notes(code: str | None = None) -> list[str]:
    """What reading ``code``'s file (None: the language in use) left out or
    read anyway, one sentence each naming file and line (``"de.po, line 7:
    the field {mezo}, which the English does not have ...; left out, the
    English shows there: '{seat} holds {territory}'"``); ``[]`` for a clean
    file.

    Raises:
        LanguageError: as :func:`translation`.
    """
    return list(_load(code or current_language(), False)[2])


def _load(code: str, fresh: bool) -> _Loaded:
    where = (code, os.environ.get("TRIVIADOR_NB_HOME"))
    found = _loaded.get(where)
    if found is not None and not fresh:
        return found
    path = catalogue_path(code)
    if path is None:
        if code != SOURCE:
            raise LanguageError(_no_language(code))
        _loaded[where] = (None, gettext.NullTranslations(), [])
        return _loaded[where]
    stamp = (path, path.stat().st_mtime_ns)
    if found is not None and found[0] == stamp:
        return found
    with _lock:
        try:
            compiled, notes = compile_catalogue(path, code if _babel_knows(code) else None)
        except OSError as error:
            raise LanguageError(f"{path.name}: cannot be read ({error.strerror or error})") from None
        _loaded[where] = (stamp, compiled, notes)
    return _loaded[where]


def _known(code: str) -> str:
    """The listed code ``code`` names: the same locale, else its language
    alone (``de_AT`` -> ``de``), else the one regional file of its language
    (``de`` -> ``de_DE``).

    Raises:
        LanguageError: no such language here.
    """
    there = {SOURCE, *_catalogue_files()}  # the codes of languages(), without their names
    try:
        normal = normal_code(code)
    except ValueError:
        raise LanguageError(_no_language(code.strip())) from None
    language = normal.split("_")[0].split("@")[0]
    regional = [c for c in there if c.split("_")[0].split("@")[0] == language]
    for candidate in (normal, language, *(regional if len(regional) == 1 else ())):
        if candidate in there:
            return candidate
    raise LanguageError(_no_language(normal))


def _no_language(code: str) -> str:
    there = ", ".join(f"{c} ({name})" for c, name in languages().items())
    return (f"there is no language {code!r}; there are {there}. To add one, translate "
            f"{TEMPLATE.name} into {user_languages_dir() / (code + '.po')}")


def _babel_knows(code: str) -> bool:
    try:
        Locale.parse(code)
    except (ValueError, UnknownLocaleError):
        return False
    return True
