"""The catalogue template and the checks that keep every language complete.

``python -m triviador_nb.i18n.catalogues`` (after changing words on screen)
extracts every marked sentence from the package with Babel, adds the names
the screens show that are not in the code (rule set titles, map titles, the
territories of the built maps named in English), writes
``locales/triviador_nb.pot`` and merges it into each ``locales/<code>.po``
(new sentences appear untranslated, gone ones become obsolete ``#~`` lines).

:func:`problems` is what the test suite and ``triviador-nb language check``
run: every sentence translated, not fuzzy, with the same ``{fields}``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from .._version import __version__
from . import CATEGORY, DIFFICULTY, DOMAIN, LOCALES, MAP, REPORT_COLUMN, RULE_SET, TEMPLATE, TERRITORY
from .checks import fields
from .reading import read_catalogue

PACKAGE = Path(__file__).resolve().parents[1]
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
#: Built maps whose territories carry English names (the others carry their own country's).
ENGLISH_NAMED_MAPS = ("europe19", "uk19", "usa19", "world15", "world19")
STABLE_DATE = datetime(2026, 12, 1, tzinfo=timezone.utc)  # the template's date: a rerun changes no line


@dataclass(frozen=True)
class Problem:
    """One entry of a ``.po`` file that would show English or break a sentence.

    Attributes:
        file: the ``.po`` file's name; line: its line (0: not in the file);
        msgid: the English text; what: what is wrong, as a sentence.
    """

    file: str
    line: int
    msgid: str
    what: str

    def __str__(self) -> str:
        where = f"{self.file}, line {self.line}" if self.line else self.file
        return f"{where}: {self.what}: {self.msgid!r}"


def template() -> Catalog:
    """Every message the screens can show, as a Babel catalogue (no translations)."""
    catalog = Catalog(domain=DOMAIN, project="triviador_nb", version=__version__, charset="utf-8",
                      copyright_holder="the triviador_nb authors", creation_date=STABLE_DATE,
                      msgid_bugs_address="the project's issues")
    skip = ("i18n/catalogues.py",)
    for filename, _line, message, comments, context in extract_from_dir(
            str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True):
        if filename.replace("\\", "/") in skip or not message or not (message[0] if isinstance(message, tuple) else message):
            continue
        catalog.add(message, locations=[(f"triviador_nb/{filename}", None)], auto_comments=comments, context=context)
    for message, context, filename in marked_in_code():  # what Babel's extractor missed (inside f-strings)
        if catalog.get(message[0] if isinstance(message, tuple) else message, context) is None:
            catalog.add(message, locations=[(filename, None)], context=context)
    for name, context in _names():
        catalog.add(name, context=context)
    return catalog


def marked_in_code() -> list[tuple[str | tuple[str, str], str | None, str]]:
    """Every literal message marked in the package, found in its syntax
    trees, calls inside f-strings included (Babel's extractor does not look
    there): ``(message, context, file)``; ``message`` is ``(singular,
    plural)`` for :func:`~triviador_nb.i18n.ngettext`."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = f"triviador_nb/{path.relative_to(PACKAGE).as_posix()}"
        if relative.endswith("i18n/catalogues.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            texts = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args]
            name = node.func.id
            if name in ("_", "N_") and texts[:1] and texts[0]:
                found.append((texts[0], None, relative))
            elif name == "ngettext" and len(texts) >= 2 and texts[0] and texts[1]:
                found.append(((texts[0], texts[1]), None, relative))
            elif name == "pgettext" and len(texts) >= 2 and texts[1] and isinstance(node.args[0], ast.Name):
                contexts = {"TERRITORY": TERRITORY, "MAP": MAP, "RULE_SET": RULE_SET, "CATEGORY": CATEGORY,
                            "DIFFICULTY": DIFFICULTY, "REPORT_COLUMN": REPORT_COLUMN}
                found.append((texts[1], contexts.get(node.args[0].id, node.args[0].id), relative))
    return found


def _names() -> list[tuple[str, str]]:
    from ..banks import builtin_bank_names, load_builtin_bank
    from ..engine.rules import RULE_SETS
    from ..maps import builtin_map_titles, load_builtin_map
    from ..reports import REPORT_COLUMNS

    names = [(r.title, RULE_SET) for r in RULE_SETS]
    names += [(title, MAP) for title in builtin_map_titles().values()]
    for map_name in ENGLISH_NAMED_MAPS:
        names += [(name, TERRITORY) for name in load_builtin_map(map_name).board.names.values()]
    for bank_name in builtin_bank_names():  # the built-in banks' categories and difficulties are English words
        bank = load_builtin_bank(bank_name)
        names += [(category, CATEGORY) for category in bank.categories() if category]
        names += [(difficulty, DIFFICULTY) for difficulty in bank.difficulties() if difficulty]
    names += [(column, REPORT_COLUMN) for column in REPORT_COLUMNS]
    return names


def write_template(path: Path = TEMPLATE) -> Catalog:
    """Write the template; returns it."""
    catalog = template()
    with path.open("wb") as handle:
        write_po(handle, catalog, width=100, omit_header=False, sort_output=False, include_lineno=False)
    return catalog


def update(code: str, catalog: Catalog | None = None) -> Path:
    """Merge the template into ``locales/<code>.po`` (made if missing); returns its path."""
    catalog = catalog or template()
    path = LOCALES / f"{code}.po"
    if path.exists():
        with path.open("rb") as handle:
            po = read_po(handle, locale=code, domain=DOMAIN)
    else:
        po = Catalog(locale=code, domain=DOMAIN, project="triviador_nb", charset="utf-8")
    po.update(catalog, no_fuzzy_matching=True)
    with path.open("wb") as handle:
        write_po(handle, po, width=100, sort_output=False, include_lineno=False, ignore_obsolete=True)
    return path


def problems(path: Path, wanted: Catalog | None = None) -> list[Problem]:
    """Every entry of the ``.po`` file at ``path`` that is missing, empty,
    fuzzy, or whose ``{fields}`` differ from the English, against ``wanted``
    (default: :func:`template`). All at once, in template order.

    Raises:
        LanguageError: the file cannot be read as a ``.po`` file.
        OSError: the file cannot be read.
    """
    wanted = wanted if wanted is not None else template()
    po = read_catalogue(path, None)[0]  # as the game reads it: a byte-order mark or an odd charset is no problem
    found: list[Problem] = []
    for message in wanted:
        if not message.id:
            continue
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        entry = po.get(message.id, message.context)
        line = entry.lineno if entry is not None and entry.lineno else 0
        strings = [] if entry is None else (list(entry.string) if isinstance(entry.string, (list, tuple))
                                            else [entry.string])
        if entry is None:
            found.append(Problem(path.name, 0, msgid, "no translation"))
        elif not all(strings):
            found.append(Problem(path.name, line, msgid, "empty translation"))
        elif entry.fuzzy:
            found.append(Problem(path.name, line, msgid, "fuzzy translation (check it, then remove '#, fuzzy')"))
        else:
            try:
                english = fields(msgid)
                wrong = [s for s in strings if fields(s) != english]
            except ValueError as error:
                found.append(Problem(path.name, line, msgid, f"a broken {{field}} ({error})"))
                continue
            if wrong:
                found.append(Problem(path.name, line, msgid,
                                     f"fields {sorted(fields(wrong[0]))} instead of {sorted(english)}"))
    return found


def main() -> None:
    catalog = write_template()
    print(f"{TEMPLATE.relative_to(PACKAGE.parent)}: {len(catalog)} messages")
    for po in sorted(LOCALES.glob("*.po")):
        update(po.stem, catalog)
        left = problems(po, catalog)
        print(f"{po.relative_to(PACKAGE.parent)}: {len(left)} to translate or check")


if __name__ == "__main__":
    main()
