"""Reading a ``.po`` file as a teacher saved it, and compiling the part of it
the screens can use.

:func:`read_catalogue` reads what Babel alone refuses or trips on: a
byte-order mark (read anyway, and said), a file in UTF-16, a charset Python
does not know (read as UTF-8 when the file is UTF-8, said; refused
otherwise, naming the line), a ``Plural-Forms`` line that cannot be read or
whose rule fails (``n/0``): the counted sentences then show in English, and
the rest of the language loads.

:func:`compile_catalogue` leaves out every message that would fail when the
screen fills it in (:func:`~.checks.field_problem`), naming its file and the
line of its ``msgstr``: the English shows there. Problems that stop a file
being read at all raise :class:`LanguageError` with the file and line.
"""

from __future__ import annotations

import codecs
import gettext
import io
import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po

from .checks import field_problem, guarded, plural_problem

DOMAIN = "triviador_nb"
ENGLISH_PLURALS = "nplurals=2; plural=(n != 1);"
HEADER_LINES = 60  #: a header's fields are looked for in the file's first lines
_CHARSET = re.compile(r'^\s*"content-type:.*charset=([^\s;"\\]+)', re.IGNORECASE)
_PLURALS = re.compile(r'^(\s*)"plural-forms:(.*)"\s*$', re.IGNORECASE)
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
_LEFT_OUT = "left out, the English shows there"


class LanguageError(ValueError):
    """A language that is not there, or a ``.po`` file that cannot be read.

    The message names the file and line (``"de.po, line 12: ..."``) or the
    languages there are.
    """


def po_file_error(path: Path, error: PoFileError) -> LanguageError:
    """Babel's complaint about a ``.po`` file as one sentence naming the file
    and the line (counted from 1) and quoting it."""
    what = str(error).rsplit(" on ", 1)[0]
    quoted = f": {error.line.strip()!r}" if getattr(error, "line", "") else ""
    return LanguageError(f"{path.name}, line {error.lineno + 1}: {what}{quoted}")


def has_messages(path: Path) -> bool:
    """False for a file with nothing but blanks and ``#`` comments in it (an
    empty file is no language; a broken one is, and says why when chosen).
    Cheap: only a small file is read."""
    try:
        if path.stat().st_size > 4096:
            return True
        data = path.read_bytes()
    except OSError:
        return False
    utf16 = data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    text = data.decode("utf-16" if utf16 else "utf-8", "replace").lstrip("\ufeff")
    return any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines())


def read_catalogue(path: Path, locale: str | None) -> tuple[Catalog, list[str], list[str]]:
    """The ``.po`` file at ``path`` as a Babel catalogue.

    Args:
        locale: the language's code when Babel knows it (its plural rule is
            the default), else None.

    Returns:
        ``(catalog, lines, notes)``: the catalogue (charset UTF-8, plural
        rule one that works); the file's text, line by line (for the line of
        a ``msgstr``); what was read anyway, one sentence each, with file
        and line.

    Raises:
        LanguageError: not a ``.po`` file, a charset the file is not in, or a
            line Babel cannot read (file and line named).
        OSError: the file cannot be read.
    """
    text, notes = _decoded(path, path.read_bytes())
    lines = text.splitlines(keepends=True)
    plurals = _plural_header(path, lines)
    if plurals:
        notes.append(plurals)
    try:
        catalog = read_po(lines, locale=locale, domain=DOMAIN, abort_invalid=True)
    except PoFileError as error:
        raise po_file_error(path, error) from None
    except (ValueError, LookupError) as error:
        raise LanguageError(f"{path.name}: not a .po file Babel can read ({error})") from None
    catalog.charset = "utf-8"  # the text is decoded already; the compiled catalogue is UTF-8
    if not plurals:
        problem = plural_problem(catalog.plural_expr, catalog.num_plurals)
        if problem:  # the language's own rule (Babel's) cannot fail: this is the file's
            plurals = _plurals_note(path, _header_line(lines, _PLURALS), problem)
            notes.append(plurals)
    if plurals:
        catalog.mime_headers = [("Plural-Forms", ENGLISH_PLURALS)]
        for message in [m for m in catalog if m.id and m.pluralizable]:
            catalog.delete(message.id, message.context)
    return catalog, lines, notes


def compile_catalogue(path: Path, locale: str | None) -> tuple[gettext.GNUTranslations, list[str]]:
    """The catalogue of ``path`` compiled for gettext, without the messages
    that would fail on screen (see :func:`read_catalogue` for ``locale``).

    Returns:
        ``(translations, notes)``: ``notes`` has one sentence per message
        left out and per thing read anyway, with file and line, in file
        order.

    Raises:
        LanguageError, OSError: as :func:`read_catalogue`.
    """
    catalog, lines, notes = read_catalogue(path, locale)
    notes += unsafe_messages(path, catalog, lines, drop=True)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    translations = gettext.GNUTranslations(buffer)
    translations.plural = guarded(translations.plural)
    return translations, notes


def unsafe_messages(path: Path, catalog: Catalog, lines: list[str], drop: bool = False) -> list[str]:
    """One sentence per translation that would fail when the screen fills it
    in (:func:`~.checks.field_problem`): file, the line of its ``msgstr``,
    why, and the English. ``drop``: take those messages out of ``catalog``.
    Fuzzy messages are never shown, so never checked."""
    found = []
    for message in list(catalog):
        if not message.id or message.fuzzy:
            continue
        english = message.id if isinstance(message.id, (list, tuple)) else (message.id,)
        strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        for form, translated in enumerate(strings):
            problem = field_problem(english, translated) if translated else None
            if problem:
                line = msgstr_line(lines, message.lineno, form if message.pluralizable else None)
                found.append(f"{path.name}, line {line}: {problem}; {_LEFT_OUT}: {english[0]!r}")
                if drop:
                    catalog.delete(message.id, message.context)
                break
    return found


def msgstr_line(lines: list[str], start: int | None, form: int | None) -> int:
    """The line (from 1) of the ``msgstr`` (``msgstr[form]``) of the entry
    whose ``msgid`` Babel read at line ``start`` (from 1)."""
    if not start:
        return 0
    keyword = "msgstr" if form is None else f"msgstr[{form}]"
    for number in range(start - 1, len(lines)):
        if lines[number].lstrip().startswith(keyword):
            return number + 1
    return start


def _decoded(path: Path, data: bytes) -> tuple[str, list[str]]:
    """The file's text and what was read anyway (a byte-order mark, a
    charset Python does not know).

    Raises:
        LanguageError: the text is not in the charset it declares (or in
            UTF-8 when that is unknown).
    """
    notes = []
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            notes.append(f"{path.name}, line 1: the file starts with a byte-order mark ({encoding.upper()}); it was "
                         f"read anyway (.po files are usually saved as UTF-8 without one)")
            try:
                return data.decode("utf-8-sig" if encoding == "utf-8" else encoding), notes
            except UnicodeDecodeError as error:
                raise _not_in(path, data, error, encoding) from None
    head = data[:8192].decode("ascii", "replace").splitlines()[:HEADER_LINES]
    declared = next((m.group(1) for line in head if (m := _CHARSET.match(line))), "utf-8")
    line = _header_line(head, _CHARSET)
    if declared.upper() == "CHARSET":  # the placeholder of a template copied as it is
        declared = "utf-8"
    try:
        codecs.lookup(declared)
    except LookupError:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise LanguageError(f"{path.name}, line {line}: the charset {declared!r} is unknown and the file is not "
                                f"UTF-8 either: save it as UTF-8 and write charset=UTF-8 in that line") from None
        notes.append(f"{path.name}, line {line}: the charset {declared!r} is unknown; the file was read as UTF-8, "
                     f"which it is (write charset=UTF-8 in that line)")
        return text, notes
    try:
        return data.decode(declared), notes
    except UnicodeDecodeError as error:
        raise _not_in(path, data, error, declared) from None


def _not_in(path: Path, data: bytes, error: UnicodeDecodeError, encoding: str) -> LanguageError:
    line = data[:error.start].count(b"\n") + 1
    return LanguageError(f"{path.name}, line {line}: this line is not {encoding} text, as the file says it is "
                         f"(byte {error.object[error.start:error.start + 1]!r}): save the file as UTF-8 and write "
                         f"charset=UTF-8 in its Content-Type line")


def _header_line(lines: list[str], pattern: re.Pattern) -> int:
    """The line (from 1) of the header field ``pattern`` matches, or 1."""
    return next((n for n, line in enumerate(lines[:HEADER_LINES], start=1) if pattern.match(line)), 1)


def _plural_header(path: Path, lines: list[str]) -> str:
    """A ``Plural-Forms`` line that cannot be read or fails, replaced in
    ``lines`` by the English one (same line number); the sentence saying so,
    or ``""``. A header split over lines is left to Babel."""
    number = _header_line(lines, _PLURALS)
    found = _PLURALS.match(lines[number - 1]) if lines else None
    if found is None:
        return ""
    value = found.group(2).replace("\\n", "")
    counted = re.search(r"nplurals\s*=\s*([^;]*)", value)
    rule = re.search(r"(?<![a-z])plural\s*=\s*([^;]*)", value)
    if counted is None or rule is None:
        return ""
    if not counted.group(1).strip().isdigit() or int(counted.group(1)) < 1:
        problem = f"nplurals={counted.group(1).strip()} is not a number of forms"
    else:
        problem = plural_problem(rule.group(1).strip(), int(counted.group(1))) or ""
    if not problem:
        return ""
    lines[number - 1] = f'{found.group(1)}"Plural-Forms: {ENGLISH_PLURALS}\\n"\n'
    return _plurals_note(path, number, problem)


def _plurals_note(path: Path, number: int, problem: str) -> str:
    return (f"{path.name}, line {number}: {problem}; the counted sentences show in English (copy the "
            f"Plural-Forms line for your language from a .po file of it)")
