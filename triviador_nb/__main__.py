"""``python -m triviador_nb``: the same as the ``triviador-nb`` command."""

from triviador_nb.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
