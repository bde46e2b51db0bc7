"""Guessing how a text bank file was saved: its encoding and its cell delimiter.

Encoding rule (:func:`decode`), first match wins:

1. UTF-8 with a BOM, then UTF-8 without one (strict decoding succeeds).
2. Otherwise it is a Windows "ANSI" file. Excel on Hungarian, Czech, Slovak
   and Polish systems saves cp1250, on Western systems cp1252 (a superset of
   latin-1's printable characters). The bytes where the two differ vote
   (:data:`CP1250_VOTES`): bytes whose cp1250 letter is common in Central
   European text and whose Western reading is rare or not a letter vote for
   cp1250 (``ő`` rather than ``õ``, ``ř`` rather than ``ø``, ``ł`` rather
   than ``³``, ``ť`` rather than an undefined byte); bytes whose Western
   letter is common (``à``, ``è``, ``ñ``, ``ê``, ``å``) vote against. cp1250
   wins when its total is positive and every byte is defined in cp1250;
   a tie (e.g. no differing byte at all) goes to cp1252.
3. cp1252 when every byte is defined there, else latin-1 (which decodes any
   byte).

charset-normalizer was tried and rejected: on one-line samples it read a
cp1250 ``Győr`` as latin-1 ``Gyõr`` and latin-1 ``Crème brûlée`` /
``niño`` as cp1250.

Delimiter rule (:func:`sniff_delimiter`): count ``,`` ``;`` and tab in the
first line outside double quotes; the most frequent wins, ties in that order
(so a one-column file is comma-separated).

Kinds of file, by content (never by name): :func:`not_text` names pictures,
PDFs, archives and zips of other kinds (SCORM, H5P, a Moodle backup);
:func:`xml_kind` tells Moodle XML and QTI from other XML by the first
element; :func:`is_qti_package` finds QTI files in a zip (Canvas,
Blackboard, QTI 2.1); :func:`is_quizlet` recognises Quizlet's ``term TAB
definition`` lines.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass

DELIMITERS = (",", ";", "\t")
DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}

CP1250_VOTES: dict[int, int] = {
    # Hungarian ő Ő ű Ű (Western: õ Õ û Û)
    0xF5: 2, 0xD5: 2, 0xFB: 1, 0xDB: 1,
    # Czech ř Ř ě Ě Ů (Western: ø Ø ì Ì Ù); ů/ù (0xF9) and Č/È (0xC8) do not vote
    0xF8: 2, 0xD8: 2, 0xEC: 1, 0xCC: 1, 0xD9: 1,
    # Polish/Slovak/Romanian letters that read as symbols in the West: ł ą Ą ľ Ľ Ş ş Ż Ł
    0xB3: 2, 0xB9: 2, 0xA5: 2, 0xBE: 2, 0xBC: 2, 0xAA: 2, 0xBA: 2, 0xAF: 2, 0xA3: 1,
    # Ś Ť Ź ś ť ź (Western: Œ, undefined, undefined, œ, undefined, Ÿ)
    0x8C: 2, 0x8D: 2, 0x8F: 2, 0x9C: 2, 0x9D: 2, 0x9F: 2,
    # Western letters (cp1250: č ŕ Ŕ ń Ń ă Ă ĺ Ĺ ę Ę)
    0xE8: -1, 0xE0: -2, 0xC0: -2, 0xF1: -1, 0xD1: -1,
    0xE3: -1, 0xC3: -1, 0xE5: -1, 0xC5: -1, 0xEA: -1, 0xCA: -1,
}
"""Per byte: > 0 votes for cp1250, < 0 for cp1252; other bytes do not vote."""


@dataclass(frozen=True)
class Decoded:
    """A file's text and the encoding it was read with (a Python codec name)."""

    text: str
    encoding: str


def decode(data: bytes) -> Decoded:
    """Decode a text file's bytes by the rule in the module docstring (UTF-16
    with a BOM, as Excel's "Unicode Text" saves, is read as UTF-16)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return Decoded(data.decode("utf-16"), "utf-16")
        except UnicodeDecodeError:
            pass
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return Decoded(data[3:].decode("utf-8"), "utf-8-sig")
        except UnicodeDecodeError:
            data = data[3:]
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    if cp1250_score(data) > 0:
        try:
            return Decoded(data.decode("cp1250"), "cp1250")
        except UnicodeDecodeError:
            pass
    try:
        return Decoded(data.decode("cp1252"), "cp1252")
    except UnicodeDecodeError:
        return Decoded(data.decode("latin-1"), "latin-1")


def cp1250_score(data: bytes) -> int:
    """The votes of :data:`CP1250_VOTES` summed over ``data``'s bytes."""
    return sum(CP1250_VOTES.get(byte, 0) * data.count(bytes([byte])) for byte in CP1250_VOTES)


def sniff_delimiter(text: str) -> str:
    """``,`` ``;`` or tab: the most frequent outside quotes on the first line (ties: that order)."""
    counts = dict.fromkeys(DELIMITERS, 0)
    quoted = False
    for char in text:
        if char == '"':
            quoted = not quoted
        elif char in "\r\n" and not quoted:
            break
        elif char in counts and not quoted:
            counts[char] += 1
    return max(DELIMITERS, key=lambda delimiter: counts[delimiter])  # max keeps the first of equals


# ---------------------------------------------------------------- files that are no text

_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"%PDF-", "a PDF document"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"\x7fELF", "a program"),
    (b"SQLite format 3\x00", "an SQLite database"),
)
_ZIP_KINDS = (("word/", "a Word document (.docx)"), ("ppt/", "a PowerPoint file (.pptx)"),
              ("content.xml", "an OpenDocument file (.odt/.ods)"))
_CONTROL = bytes(b for b in range(32) if b not in b"\t\n\x0c\r")
SAMPLE_BYTES = 8192
CONTROL_SHARE = 0.05
"""A file whose first :data:`SAMPLE_BYTES` hold more than this share of control bytes
(NUL and the like, never in text) is taken for binary data."""


def not_text(data: bytes) -> str | None:
    """What a file that is no text file and no workbook looks like (``"a PNG image"``), or None.

    Known signatures are named (images, PDF, archives, a zip that is no xlsx
    workbook); other files are ``"binary data"`` when more than
    :data:`CONTROL_SHARE` of their first bytes are control bytes. Text with a
    BOM (UTF-8, UTF-16), an xlsx workbook and an old .xls are None: their
    readers say what is wrong with them.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf", b"\xd0\xcf\x11\xe0")):
        return None
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            return kind
    if data.startswith(b"PK\x03\x04"):
        return _zip_kind(data)
    sample = data[:SAMPLE_BYTES]
    if sample and len(sample) - len(sample.translate(None, _CONTROL)) > CONTROL_SHARE * len(sample):
        return "binary data"
    return None


def _zip_kind(data: bytes) -> str | None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = archive.namelist()
            if any(name.startswith("xl/") for name in names) or qti_members(archive):
                return None  # a workbook, or QTI questions: their importers read them
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError):
        return None  # a damaged workbook, perhaps: the xlsx reader says so
    for start, kind in _ZIP_KINDS:
        if any(name.startswith(start) for name in names):
            return kind
    if "h5p.json" in names:
        return "an H5P package, which cannot be read: export its questions in another format"
    if "moodle_backup.xml" in names:
        return "a Moodle course backup (.mbz): export the questions from Moodle's question bank as Moodle XML instead"
    if "imsmanifest.xml" in names:
        return ("an IMS package (SCORM or Common Cartridge) without QTI questions: export the quiz as QTI "
                "(Canvas: Export quiz as QTI; Blackboard: Export test) or Moodle XML")
    return "a zip archive"


def nul_lines(text: str) -> list[int]:
    """The numbers (from 1) of the lines of ``text`` holding a NUL character; lines end at a line feed,
    a carriage return or both (not at the vertical tab or form feed ``splitlines`` would also end
    them at: a Word line break is ``\\x0b`` inside a cell)."""
    if "\x00" not in text:
        return []
    return [number for number, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1) if "\x00" in line]


# ---------------------------------------------------------------- XML, QTI packages, Quizlet

QTI_ROOTS = frozenset({"questestinterop", "assessmentItem"})
"""Root elements of QTI question files: 1.2 (Canvas, Blackboard's ``.dat``) and 2.x."""
_XML_START = re.compile(r"\A(?:\s|<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>\[]*(?:\[.*?\])?\s*>)*<([A-Za-z_][\w.:-]*)([^>]*)>",
                        re.DOTALL)
_UNSUPPORTED_XML = {
    "assessmentTest": "a QTI 2 test, which only lists its item files: give the whole zip package "
                      "(the test with its items)",
    "manifest": "an IMS package manifest (imsmanifest.xml), which only lists a package's files: give the whole zip",
    "qti-assessment-item": "a QTI 3.0 item, which cannot be read: export QTI 2.1 or 1.2 instead",
    "qti-assessment-test": "a QTI 3.0 test, which cannot be read: export QTI 2.1 or 1.2 instead",
    "html": "a web page (HTML)",
    "svg": "an SVG picture",
}


@dataclass(frozen=True)
class XmlKind:
    """What an XML file is: ``format`` ``"moodle_xml"`` or ``"qti"`` when it can be imported, else
    None and ``what`` says what it is and what to do."""

    format: str | None
    what: str


def xml_kind(text: str) -> XmlKind | None:
    """What ``text`` is when it is XML (its first element, after the prolog, comments and doctype), else None.

    ``<quiz>`` without a namespace is Moodle XML; QTI's ``<questestinterop>``
    (1.2) and ``<assessmentItem>`` (2.x) are QTI; Canvas' own ``<quiz>``
    (assessment_meta.xml) and the roots in :data:`_UNSUPPORTED_XML` are named.
    """
    start = _XML_START.match(text[:65536])
    if start is None:
        return None
    name, attributes = start[1].split(":")[-1], start[2]
    if name == "quiz" and "xmlns=" not in attributes:
        return XmlKind("moodle_xml", "Moodle XML")
    if name == "quiz":
        return XmlKind(None, "Canvas' quiz settings (assessment_meta.xml), which hold no questions: give the whole "
                             "QTI zip that Canvas exported")
    if name in QTI_ROOTS:
        return XmlKind("qti", "QTI 1.2" if name == "questestinterop" else "QTI 2")
    what = _UNSUPPORTED_XML.get(name, f"an XML file whose first element is <{start[1]}>")
    return XmlKind(None, what)


MAX_ZIP_MEMBERS = 50_000
"""A zip with more files than this is not searched for QTI questions."""


def qti_members(archive: zipfile.ZipFile) -> list[str]:
    """The names of a zip's members (in the archive's order) that hold QTI questions, by their first element."""
    names = archive.namelist()
    if len(names) > MAX_ZIP_MEMBERS or any(name.startswith("xl/") for name in names):  # too big, or a workbook
        return []
    found = []
    for info in archive.infolist():
        if info.is_dir() or not info.filename.lower().endswith((".xml", ".dat", ".qti")):
            continue
        try:
            with archive.open(info) as member:
                head = member.read(4096)
        except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError, ValueError):
            continue  # damaged or encrypted: the importer says so
        kind = xml_kind(decode(head).text)
        if kind is not None and kind.format == "qti":
            found.append(info.filename)
    return found


def is_qti_package(data: bytes) -> bool:
    """True for a zip holding QTI question files (Canvas, Blackboard, a QTI 2.1 package)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return bool(qti_members(archive))
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError):
        return False


def is_quizlet(text: str) -> bool:
    """True for a Quizlet export: ``term TAB definition`` lines, the first with exactly one tab,
    no line with more than one, most lines with one (a line without a tab continues a definition)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2 or lines[0].count("\t") != 1:
        return False
    tabs = [line.count("\t") for line in lines]
    return max(tabs) == 1 and 2 * sum(tabs) >= len(lines)
