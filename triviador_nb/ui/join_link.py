"""A link and a QR code that open ``join.ipynb`` with a room's code filled in (issue 24).

Where JupyterLab is served to the class (a JupyterHub, a classroom server),
the teacher's screen shows for the room a link such as
``https://hub.example.org/hub/user-redirect/lab/tree/notebooks/join.ipynb?code=K7-PQ45``
and the same link as a QR code, drawn in the kernel with ``segno`` (no
network). On a hub the link goes through the hub's ``user-redirect``, so it
opens each student's own server; elsewhere it is the teacher's page's own
server. ``join.ipynb`` is taken to sit beside the teacher's notebook.

Only the browser knows where its page is served, and JupyterLab drops a
link's query (``?code=...``) from the address bar as it starts. So a small
widget, :class:`PageInfo`, reads in the browser the address the page was
loaded from (the navigation entry, which keeps the query) and the page's
Jupyter configuration, and gives them to the kernel. Voila hands a page's
query to its kernel as ``$QUERY_STRING``; :func:`link_query` reads both.
"""

from __future__ import annotations

import os
import posixpath
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, quote, urlencode, urlsplit

import anywidget
import traitlets

from ..rooms import codes

if TYPE_CHECKING:
    import segno

_ESM = r"""
function pageConfig() {
  const node = document.getElementById("jupyter-config-data");
  try { return node ? JSON.parse(node.textContent) : {}; } catch (e) { return {}; }
}

export default {
  render({ model }) {
    const config = pageConfig();
    const entry = (performance.getEntriesByType && performance.getEntriesByType("navigation")[0]) || null;
    model.set("loaded_from", entry ? entry.name : window.location.href);
    model.set("origin", window.location.origin);
    model.set("path", window.location.pathname);
    model.set("config", {
      baseUrl: String(config.baseUrl || "/"), hubPrefix: String(config.hubPrefix || ""),
      treePath: String(config.treePath || config.notebookPath || ""),
    });
    model.save_changes();
  },
};
"""

JOIN_NOTEBOOK = "join.ipynb"
QR_SCALE = 5  # px per module: a 45-module code (a link of ~80 characters, with its border) is 225 px


class PageInfo(anywidget.AnyWidget):
    """Where the page showing this widget is served, as its browser reports it
    (empty until a browser has drawn the widget: a script, a test).

    Attributes:
        loaded_from: the address the page was loaded from, its query included
            (``http://hub/user/anna/lab/tree/join.ipynb?code=K7-PQ45``).
        origin: ``scheme://host:port`` of the page.
        path: the page's path now (``/lab/tree/notebooks/host.ipynb``).
        config: from the page's Jupyter configuration: ``baseUrl``
            (``"/user/anna/"``), ``hubPrefix`` (``"/hub/"`` on a JupyterHub,
            else ``""``), ``treePath`` (the notebook's path on the server).
    """

    _esm = _ESM
    loaded_from = traitlets.Unicode("").tag(sync=True)
    origin = traitlets.Unicode("").tag(sync=True)
    path = traitlets.Unicode("").tag(sync=True)
    config = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs: object):
        super().__init__(**kwargs)
        self.layout.display = "none"  # drawn (so it reports) but never seen


def join_link(page: PageInfo, code: str, address: str | None = None, language: str | None = None) -> str | None:
    """The link that opens ``join.ipynb`` with room ``code`` (and ``address``)
    filled in, for students of the server ``page`` is served from; None
    before the browser has said where that is.

    Args:
        page: the teacher's page (its origin, base URL, hub prefix, notebook path).
        code: the room code (``"K7-PQ45"``).
        address: what a student gives as ``address=`` (``"192.168.1.20"``,
            ``"wss://hub/services/triviador/"``), None when the code alone finds the room.
        language: the room's language (``"hu"``): the join form opens in it
            before the student joins (issue 24), unless the student chose one.

    Returns:
        ``<origin><hub>/user-redirect/lab/tree/<folder>/join.ipynb?code=K7-PQ45``
        on a JupyterHub; ``<origin><base>lab/tree/...`` elsewhere;
        ``.../voila/render/...`` when the teacher's page is Voila.
    """
    if not page.origin:
        return None
    config = page.config or {}
    hub = str(config.get("hubPrefix") or "")
    base = (hub.rstrip("/") + "/user-redirect/") if hub else str(config.get("baseUrl") or "/")
    voila = "/voila/render/" in page.path
    notebook = str(config.get("treePath") or "")
    if not notebook or not notebook.endswith(".ipynb"):
        for marker in ("/voila/render/", "/tree/"):
            if marker in page.path:
                notebook = page.path.split(marker, 1)[1]
                break
    folder = posixpath.dirname(notebook.strip("/"))
    query = {"code": codes.shown(code), **({"address": address} if address else {}),
             **({"lang": language} if language else {})}
    return (f"{page.origin}{base if base.startswith('/') else '/' + base}"
            f"{'voila/render' if voila else 'lab/tree'}/"
            f"{quote(posixpath.join(folder, JOIN_NOTEBOOK))}?{urlencode(query)}")


def qr_code(link: str) -> "segno.QRCode":
    """The QR code of ``link`` (error correction M: a code still scans with
    15% of it hidden, a glare on a projector's screen). ``segno`` is
    imported here, by the teacher's screen: a student's ``join`` never
    draws one (issue 24: 0.1 s of a restarted kernel's rejoin)."""
    import segno

    return segno.make_qr(link, error="m")


@lru_cache(maxsize=64)  # the teacher's screen is redrawn on every move; the code stays
def qr_svg(link: str) -> str:
    """``link``'s QR code as an inline SVG (black on white, with the quiet zone)."""
    return qr_code(link).svg_inline(scale=QR_SCALE, dark="#000", light="#fff")


def link_query(page: PageInfo | None = None) -> dict[str, str]:
    """The room ``code``, ``address`` and language (``lang``) a join link
    carried to this page: from ``page`` (the address JupyterLab loaded) or,
    in Voila, from ``$QUERY_STRING``; only those keys, each only when given."""
    query = urlsplit(page.loaded_from).query if page is not None and page.loaded_from else ""
    if not query:
        query = os.environ.get("QUERY_STRING", "")
    found = parse_qs(query)
    return {key: found[key][0].strip() for key in ("code", "address", "lang") if found.get(key) and found[key][0].strip()}
