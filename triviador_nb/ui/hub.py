"""A kernel on a JupyterHub: where the room host is, and when this kernel's
hub token may be sent to it (issue 22).

Under JupyterHub a room host runs as a hub service behind the hub's proxy;
the kernel's ``$JUPYTERHUB_API_TOKEN`` proves to it who the student or
teacher is. The token opens the user's whole hub account, so it is sent
only to a ``/services/`` URL, on the hub's public host when the kernel
knows it (``$JUPYTERHUB_PUBLIC_HUB_URL``).
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

#: The JupyterHub service name a room host runs under (``c.JupyterHub.services``), unless
#: ``$TRIVIADOR_NB_SERVICE`` names another.
SERVICE = "triviador"


def hub_service_address() -> str | None:
    """The room host's address when this kernel runs on a JupyterHub whose
    public address it knows (``$JUPYTERHUB_PUBLIC_HUB_URL``): the hub
    service ``$TRIVIADOR_NB_SERVICE`` (default ``triviador``); else None."""
    from ..rooms.identity import hub_service_url

    return hub_service_url(os.environ.get("TRIVIADOR_NB_SERVICE") or SERVICE)


def hub_token_for(url: str) -> str | None:
    """This kernel's JupyterHub token, for a room host reached through the
    hub's own proxy (a ``/services/`` URL, on the hub's public host when the
    kernel knows it) - never for any other address: the token is the
    student's key to their whole hub account."""
    token = os.environ.get("JUPYTERHUB_API_TOKEN")
    if not token or not url.startswith(("ws://", "wss://")):
        return None
    parts = urlsplit(url)
    if "/services/" not in parts.path:
        return None
    public = hub_service_address()
    if public is not None and urlsplit(public).netloc != parts.netloc:
        return None
    return token
