"""Measure what widget changes send to the browser, without a browser.

Outside a kernel, ipywidgets talks through ``comm.DummyComm``, whose
``publish_msg`` drops every message. :class:`WidgetTraffic` records them
instead, so a test or benchmark can count the bytes a UI change would send
(JSON text of each message's data, in UTF-8 bytes as Jupyter sends it, plus binary buffers).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import comm


@dataclass
class WidgetTraffic:
    """A context manager recording widget messages.

    Attributes:
        messages: ``(msg_type, bytes)`` per message, in order.
        comm_ids: the id of the widget (comm) that sent each message, in the same order.
        models: the model each message's state names (``_model_name``, e.g. "LeafletMarkerModel": a
            widget opened), or "" for a message naming none, in the same order.
    """

    messages: list[tuple[str, int]] = field(default_factory=list)
    comm_ids: list[str] = field(default_factory=list)
    models: list[str] = field(default_factory=list)

    def __enter__(self) -> "WidgetTraffic":
        self._original = comm.DummyComm.publish_msg
        traffic = self

        def publish_msg(self_comm, msg_type, data=None, metadata=None, buffers=None, **keys):
            # as jupyter_client's Session packs a message: UTF-8, not ASCII escapes ("·" is 2 bytes, not 6)
            size = len(json.dumps(data, default=str, ensure_ascii=False).encode("utf-8"))
            size += sum(len(memoryview(b).cast("B")) for b in (buffers or ()))
            traffic.messages.append((msg_type, size))
            traffic.comm_ids.append(self_comm.comm_id)
            state = data.get("state") if isinstance(data, dict) else None
            traffic.models.append(str(state.get("_model_name", "")) if isinstance(state, dict) else "")

        comm.DummyComm.publish_msg = publish_msg
        return self

    def __exit__(self, *exc: object) -> None:
        comm.DummyComm.publish_msg = self._original

    @property
    def total_bytes(self) -> int:
        return sum(size for _, size in self.messages)
