"""triviador_nb: a trivia-conquest game for classrooms, played on real maps in JupyterLab."""

__version__ = "0.1.0"
