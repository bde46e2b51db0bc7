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
import io
import os
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from babel import Locale, UnknownLocaleError
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po

DOMAIN = "triviador_nb"
SOURCE = "en"  #: the language the code is written in
LOCALES = Path(__file__).resolve().parent / "locales"
TEMPLATE = LOCALES / f"{DOMAIN}.pot"

#: msgctxt of names that are not sentences (``pgettext(TERRITORY, "Eastern Europe")``).
TERRITORY, MAP, RULE_SET = "territory", "map", "rule set"


class LanguageError(ValueError):
    """A language that is not there, or a ``.po`` file that cannot be read.

    The message names the file and line (``"de.po, line 12: ..."``) or the
    languages there are.
    """


_default = SOURCE
_speaking: contextvars.ContextVar[str | None] = contextvars.ContextVar("triviador_nb_language", default=None)
_loaded: dict[tuple[str, str | None], tuple[tuple[Path, int] | None, gettext.NullTranslations]] = {}
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
    :data:`MAP` or :data:`RULE_SET`; a name with no translation is shown as
    it is (a county's own name needs none)."""
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

    Returns:
        The code, normalised (``"HU"`` -> ``"hu"``).

    Raises:
        LanguageError: no catalogue for ``code`` (the message lists the
            languages there are), or its file cannot be read.
    """
    global _default
    code = _known(code)
    translation(code, fresh=True)  # a broken file is reported now, not in the middle of a game
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


def user_languages_dir() -> Path:
    """Where a teacher's own ``.po`` files are read from."""
    home = os.environ.get("TRIVIADOR_NB_HOME")
    return (Path(home) if home else Path.home() / ".triviador_nb") / "languages"


def catalogue_path(code: str) -> Path | None:
    """The ``.po`` file for ``code``: the teacher's own, else the project's,
    else None (English needs none)."""
    for folder in (user_languages_dir(), LOCALES):
        path = folder / f"{code}.po"
        if path.is_file():
            return path
    return None


def languages() -> dict[str, str]:
    """The languages there are, code -> name in that language
    (``{"en": "English", "cs": "Čeština", "hu": "Magyar"}``), English first."""
    codes = {SOURCE}
    for folder in (LOCALES, user_languages_dir()):
        if folder.is_dir():
            codes.update(p.stem for p in folder.glob("*.po") if _valid_code(p.stem))
    return {code: language_name(code) for code in sorted(codes, key=lambda c: (c != SOURCE, c))}


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

    Raises:
        LanguageError: ``code`` has no ``.po`` file, or it cannot be read.
    """
    code = code or current_language()
    where = (code, os.environ.get("TRIVIADOR_NB_HOME"))
    found = _loaded.get(where)
    if found is not None and not fresh:
        return found[1]
    path = catalogue_path(code)
    if path is None:
        if code != SOURCE:
            raise LanguageError(_no_language(code))
        _loaded[where] = (None, gettext.NullTranslations())
        return _loaded[where][1]
    stamp = (path, path.stat().st_mtime_ns)
    if found is not None and found[0] == stamp:
        return found[1]
    with _lock:
        compiled = _compile(code, path)
        _loaded[where] = (stamp, compiled)
    return compiled


def _compile(code: str, path: Path) -> gettext.GNUTranslations:
    try:
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=code if _babel_knows(code) else None, domain=DOMAIN,
                              abort_invalid=True)
    except PoFileError as error:
        raise po_file_error(path, error) from None
    except (UnicodeDecodeError, ValueError) as error:
        raise LanguageError(f"{path.name}: not a .po file Babel can read ({error})") from None
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def po_file_error(path: Path, error: PoFileError) -> LanguageError:
    """Babel's complaint about a ``.po`` file as one sentence naming the file
    and the line (counted from 1) and quoting it."""
    what = str(error).rsplit(" on ", 1)[0]
    quoted = f": {error.line.strip()!r}" if getattr(error, "line", "") else ""
    return LanguageError(f"{path.name}, line {error.lineno + 1}: {what}{quoted}")


def _known(code: str) -> str:
    code = code.strip().replace("-", "_")
    code = code.split("_")[0].lower() + code[len(code.split("_")[0]):]
    if code not in languages():
        raise LanguageError(_no_language(code))
    return code


def _no_language(code: str) -> str:
    there = ", ".join(f"{c} ({name})" for c, name in languages().items())
    return (f"there is no language {code!r}; there are {there}. To add one, translate "
            f"{TEMPLATE.name} into {user_languages_dir() / (code + '.po')}")


def _valid_code(code: str) -> bool:
    head = code.split("_")[0]
    return head.isascii() and head.isalpha() and 2 <= len(head) <= 3


def _babel_knows(code: str) -> bool:
    try:
        Locale.parse(code)
    except (ValueError, UnknownLocaleError):
        return False
    return True
