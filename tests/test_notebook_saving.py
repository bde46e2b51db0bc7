"""Shipped notebooks are saved as shipped, however often they are played (issue 9, point 8)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
from jupyter_server.services.contents.filemanager import FileContentsManager

from triviador_nb import notebook_saving

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))


def played(notebook: dict) -> dict:
    """The notebook as JupyterLab saves it mid-game: outputs, counts, widget
    state and the machine's Python version."""
    notebook = json.loads(json.dumps(notebook))
    for number, cell in enumerate(notebook["cells"], start=1):
        if cell["cell_type"] == "code":
            cell["execution_count"] = number
            cell["outputs"] = [{"output_type": "display_data", "metadata": {}, "data": {
                "application/vnd.jupyter.widget-view+json": {"model_id": "ab12", "version_major": 2,
                                                             "version_minor": 0},
                "text/plain": "VBox(children=(HTML(value='<style>...'),))"}}]
    notebook["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    notebook["metadata"]["language_info"] = {"name": "python", "version": "3.12.3", "mimetype": "text/x-python"}
    return notebook


def contents_manager(root: Path) -> FileContentsManager:
    manager = FileContentsManager(root_dir=str(root))
    notebook_saving._load_jupyter_server_extension(SimpleNamespace(contents_manager=manager,
                                                                   log=SimpleNamespace(info=lambda *_: None)))
    return manager


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_played_shipped_notebook_is_saved_byte_for_byte_as_shipped(tmp_path, path):
    shipped = path.read_bytes()
    manager = contents_manager(tmp_path)
    notebook = json.loads(shipped)
    assert notebook["metadata"]["triviador_nb"] == {"clean_on_save": True}
    manager.save({"type": "notebook", "format": "json", "content": played(notebook)}, path.name)
    assert (tmp_path / path.name).read_bytes() == shipped


def test_shipped_notebooks_are_stored_clean():
    for path in NOTEBOOKS:
        notebook = nbformat.read(path, as_version=4)
        assert all(c.outputs == [] and c.execution_count is None for c in notebook.cells if c.cell_type == "code")
        assert "widgets" not in notebook.metadata and notebook.metadata.language_info == {"name": "python"}


def test_other_notebooks_are_saved_untouched(tmp_path):
    manager = contents_manager(tmp_path)
    notebook = played(json.loads(NOTEBOOKS[0].read_bytes()))
    del notebook["metadata"]["triviador_nb"]
    manager.save({"type": "notebook", "format": "json", "content": notebook}, "mine.ipynb")
    saved = json.loads((tmp_path / "mine.ipynb").read_text(encoding="utf-8"))
    assert saved["metadata"]["language_info"]["version"] == "3.12.3"
    assert any(c.get("outputs") for c in saved["cells"] if c["cell_type"] == "code")


def test_installing_the_package_enables_the_extension():
    config = Path(sys.prefix) / "etc" / "jupyter" / "jupyter_server_config.d" / "triviador_nb.json"
    assert json.loads(config.read_text()) == {"ServerApp": {"jpserver_extensions": {
        "triviador_nb.notebook_saving": True}}, "VoilaConfiguration": {"template": "triviador"}}
    voila = Path(sys.prefix) / "etc" / "jupyter" / "voila.json"  # the standalone voila command's settings
    assert json.loads(voila.read_text()) == {"VoilaConfiguration": {"template": "triviador"}}
    template = Path(sys.prefix) / "share" / "jupyter" / "voila" / "templates" / "triviador"
    assert sorted(p.name for p in template.rglob("*") if p.is_file()) == ["conf.json", "index.html.j2",
                                                                         "no-mathjax.js"]
    assert json.loads(config.read_text()) == json.loads((REPO / "jupyter-config" / "triviador_nb.json").read_text())
