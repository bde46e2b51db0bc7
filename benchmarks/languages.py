"""How much the languages cost (issue 12 part 6): reading a catalogue, and a
sentence looked up in it. Prints figures; run with ``python benchmarks/languages.py``."""

from __future__ import annotations

import os
import tempfile
import time

os.environ.setdefault("TRIVIADOR_NB_HOME", tempfile.mkdtemp())  # no teacher's files: the project's catalogues

from triviador_nb.i18n import _, catalogue_path, speaking, translation  # noqa: E402
from triviador_nb.i18n.reading import compile_catalogue  # noqa: E402


def main() -> None:
    for code in ("hu", "cs"):
        path = catalogue_path(code)
        start = time.perf_counter()
        for _i in range(20):
            compile_catalogue(path, code)
        print(f"{code}.po ({path.stat().st_size // 1024} KB): read and compiled in "
              f"{(time.perf_counter() - start) / 20 * 1000:.1f} ms")
    translation("hu")
    with speaking("hu"):
        start = time.perf_counter()
        n = 200_000
        for _i in range(n):
            _("Pause")
        per = (time.perf_counter() - start) / n * 1e6
    print(f"a sentence looked up in hu: {per:.2f} µs")
    start = time.perf_counter()
    for _i in range(2000):
        with speaking("hu"):
            pass
    print(f"speaking('hu') entered (the language's file found by its code): "
          f"{(time.perf_counter() - start) / 2000 * 1000:.2f} ms")


if __name__ == "__main__":
    main()
