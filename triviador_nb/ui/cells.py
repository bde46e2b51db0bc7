"""One live screen per notebook cell, and closing the widgets of a screen.

Run All during a game used to leave the old game running unseen (its bots and
timers went on: 114 widget updates in 20 s) with every widget of it alive in
the kernel and the browser. A screen made by a cell now replaces the one that
an earlier run of the same cell made: the old one is stopped and its widgets
are closed. The cell is known by the ``cellId`` that JupyterLab puts in the
metadata of each execute request; where there is none (a script, a test,
nbclient), nothing is replaced.
"""

from __future__ import annotations

from typing import Protocol

import ipywidgets as w


class Screen(Protocol):
    """Something a cell shows that can be put away for good."""

    def close(self) -> None:
        """Stop every timer and close every widget."""


_SCREENS: dict[str, tuple[str, list[Screen]]] = {}  # cell id -> (the run's msg_id, what it shows)


def running_cell() -> tuple[str, str] | None:
    """``(cell id, run id)`` of the notebook cell whose code runs now (the run
    id is the execute request's ``msg_id``), or None outside a cell run."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    kernel = getattr(get_ipython(), "kernel", None)
    if kernel is None:
        return None
    try:
        parent = kernel.get_parent("shell")
    except (TypeError, AttributeError):  # an older ipykernel: get_parent() takes no channel
        parent = getattr(kernel, "_parent_header", {}) or {}
    header = parent.get("header", {})
    if header.get("msg_type") != "execute_request":
        return None  # a button click (comm message), not a cell run
    cell = parent.get("metadata", {}).get("cellId")
    return (cell, str(header.get("msg_id", ""))) if isinstance(cell, str) and cell else None


def shown_by_cell(screen: Screen, run: tuple[str, str] | None = None) -> None:
    """Record that the running cell (or ``run``: cell id and run id) shows
    ``screen``, and close what an earlier run of that cell showed (except
    ``screen`` itself, shown again: a student's screen still in its room)."""
    run = run if run is not None else running_cell()
    if run is None:
        return
    cell, run_id = run
    earlier_run, screens = _SCREENS.get(cell, (run_id, []))
    if earlier_run != run_id:
        for earlier in screens:
            if earlier is not screen:
                earlier.close()
        screens = []
    if not any(shown is screen for shown in screens):
        screens.append(screen)
    _SCREENS[cell] = (run_id, screens)


def close_widgets(*roots: object) -> int:
    """Close each widget in ``roots`` (widgets, or lists, tuples and dicts of
    them) and every widget it holds (children, layers, icons, layouts,
    styles); return how many were closed. Widgets already closed are skipped."""
    seen: set[int] = set()
    stack: list[object] = list(roots)
    closed = 0
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
            continue
        if isinstance(item, dict):
            stack.extend(item.values())
            continue
        if not isinstance(item, w.Widget) or id(item) in seen:
            continue
        seen.add(id(item))
        if item.comm is None:
            continue
        for name in item.keys:
            if name.startswith("_"):
                continue
            stack.append(getattr(item, name, None))
        item.close()
        closed += 1
    return closed
