"""Drawing a game's secret (issue 28): the one place outside the engine
where chance is made from the operating system's randomness."""

from __future__ import annotations

import secrets

from ..engine.chance import SECRET_BITS


def new_secret() -> str:
    """A fresh secret for a game's chance (:mod:`~triviador_nb.engine.chance`):
    :data:`~triviador_nb.engine.chance.SECRET_BITS` bits from the ``secrets``
    module, as hex text. The host or the screen keeps it; no student is sent it."""
    return secrets.token_hex(SECRET_BITS // 8)
