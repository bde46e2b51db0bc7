"""Where the game's data files (maps, question banks) live.

An installed wheel carries the repository's ``maps/`` and ``question_banks/``
inside the package as ``triviador_nb/_data/<kind>`` (see ``pyproject.toml``);
a source or editable checkout uses the folders at the repository root.
"""

from __future__ import annotations

from pathlib import Path

KINDS = ("maps", "question_banks")


def data_dir(kind: str) -> Path:
    """The folder holding data of ``kind`` (``"maps"`` or ``"question_banks"``).

    Tries ``triviador_nb/_data/<kind>`` (installed wheel), then ``<repo>/<kind>``
    (source checkout), and returns the first that is a folder.

    Raises:
        ValueError: ``kind`` is not one of :data:`KINDS`.
        FileNotFoundError: neither folder exists; the message names both paths.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown data kind {kind!r}; expected one of {KINDS}")
    candidates = (Path(__file__).parent / "_data" / kind, Path(__file__).resolve().parents[1] / kind)
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"no {kind} folder at {candidates[0]} or {candidates[1]}")
