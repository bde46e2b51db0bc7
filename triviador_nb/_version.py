"""The version of triviador_nb (one place; journals and saved games carry it)."""

__version__ = "0.1.0"
