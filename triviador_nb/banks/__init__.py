"""Question bank loaders: CSV files in, validated :class:`QuestionBank` out.

See :mod:`triviador_nb.banks.csv_bank` for the file format.
"""

from triviador_nb.banks.csv_bank import (
    DEFAULT_BANK,
    language_bank,
    check_and_load_bank,
    builtin_bank_names,
    builtin_bank_path,
    check_bank_file,
    check_bank_files,
    load_bank,
    load_builtin_bank,
    resolve_bank,
)
from triviador_nb.banks.problems import BankError, BankProblem

__all__ = [
    "DEFAULT_BANK",
    "language_bank",
    "check_and_load_bank",
    "BankError",
    "BankProblem",
    "builtin_bank_names",
    "builtin_bank_path",
    "check_bank_file",
    "check_bank_files",
    "load_bank",
    "load_builtin_bank",
    "resolve_bank",
]
