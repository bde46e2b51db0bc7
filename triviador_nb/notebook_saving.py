"""Shipped notebooks open clean, however often they are played.

JupyterLab saves a notebook while a game runs in it (autosave, every two
minutes), widget outputs and all. Reopened, such a notebook showed dead
outputs ("widget model not found", six 404s), and the repository's notebooks
changed by being played. This Jupyter server extension (enabled by the
``jupyter_server_config.d/triviador_nb.json`` that installing the package
puts in the environment) registers a pre-save hook: a notebook whose metadata
says ``"triviador_nb": {"clean_on_save": true}`` (the shipped ones, and any
copy a teacher makes of them) is saved without outputs, execution counts,
widget state or the machine's Python version, so it opens as shipped. Other
notebooks are saved untouched.
"""

from __future__ import annotations

from typing import Any

MARK = "triviador_nb"


def wants_clean_save(notebook: dict[str, Any]) -> bool:
    """True for a notebook whose metadata asks to be saved clean."""
    mark = notebook.get("metadata", {}).get(MARK)
    return isinstance(mark, dict) and mark.get("clean_on_save") is True


def clean_notebook(notebook: dict[str, Any]) -> dict[str, Any]:
    """Strip, in place, what playing adds to a notebook (nbformat 4 as a dict):
    code cells' outputs and execution counts, the saved widget state, and
    ``language_info`` down to the language's name. Returns the notebook."""
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
            cell.get("metadata", {}).pop("execution", None)
    metadata = notebook.setdefault("metadata", {})
    metadata.pop("widgets", None)
    language = metadata.get("language_info")
    if isinstance(language, dict) and "name" in language:
        metadata["language_info"] = {"name": language["name"]}
    return notebook


def pre_save_hook(model: dict[str, Any], **_kwargs: Any) -> None:
    """Jupyter server pre-save hook: clean a marked notebook before it is written."""
    if model.get("type") == "notebook" and isinstance(model.get("content"), dict) \
            and wants_clean_save(model["content"]):
        clean_notebook(model["content"])


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "triviador_nb.notebook_saving"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    serverapp.contents_manager.register_pre_save_hook(pre_save_hook)
    serverapp.log.info("triviador_nb: shipped notebooks are saved without their outputs")
