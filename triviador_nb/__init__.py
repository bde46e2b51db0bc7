"""triviador_nb: a trivia-conquest game for classrooms, played on real maps in JupyterLab.

``triviador_nb.resume(path)`` brings a game back from its journal after a
kernel restart (:func:`triviador_nb.ui.resume`); the widgets are imported
only then, so ``import triviador_nb.engine`` stays free of them.
"""

from ._version import __version__  # noqa: F401 - the package's version


def __getattr__(name: str):
    if name == "resume":
        from .ui import resume
        return resume
    raise AttributeError(f"module 'triviador_nb' has no attribute {name!r}")
