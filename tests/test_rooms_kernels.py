"""A room across three real kernels (jupyter_client): the teacher's kernel
hosts, two students' kernels join and play; one student's kernel is
restarted mid-battle, rejoins and finishes (issue 11's "done when").

The kernels talk over 127.0.0.1 only; every wait is bounded.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

jupyter_client = pytest.importorskip("jupyter_client")
from jupyter_client.manager import KernelManager  # noqa: E402

TESTS = Path(__file__).resolve().parent
STUDENT = """
import sys, threading, time
sys.path.insert(0, {tests!r})
from room_helpers import move_for
from triviador_nb.rooms import RoomClient
client = RoomClient({code!r}, {name!r})
def play():
    end = time.monotonic() + 300
    while time.monotonic() < end:
        v = client.view
        if v is not None and v.is_over:
            return
        move = move_for(v, client.seat) if client.seat is not None else None
        if move is not None:
            client.submit(move, v.state_id)
        time.sleep(0.02)
player = threading.Thread(target=play, daemon=True)
player.start()
print("seat", client.seat)
"""


def run(kc, code: str, timeout: float = 60.0) -> str:
    """Run ``code`` in a kernel; its printed text (errors fail the test)."""
    out: list[str] = []

    def hook(msg):
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            out.append(content["text"])
        elif kind == "error":
            out.append("ERROR " + content["ename"] + ": " + content["evalue"])

    reply = kc.execute_interactive(code, timeout=timeout, output_hook=hook)
    text = "".join(out)
    assert reply["content"]["status"] == "ok", text
    return text.strip()


def poll(kc, code: str, want, timeout: float = 120.0) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        text = run(kc, code)
        if want(text):
            return text
        time.sleep(0.3)
    raise AssertionError(f"{code!r} never gave what was wanted (last: {text!r})")


def start_kernel(home: Path) -> tuple[KernelManager, object]:
    km = KernelManager(kernel_name="python3")
    env = {"TRIVIADOR_NB_HOME": str(home), "PYTHONPATH": str(TESTS.parent)}
    import os
    km.start_kernel(env={**os.environ, **env}, extra_arguments=["--HistoryManager.enabled=False"])
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc


def test_teacher_and_two_students_in_three_kernels_with_a_restart_mid_battle(tmp_path):
    kernels = []
    try:
        teacher = start_kernel(tmp_path / "teacher")
        anna = start_kernel(tmp_path / "anna")
        ben = start_kernel(tmp_path / "ben")
        kernels += [teacher, anna, ben]
        tk = teacher[1]
        code = run(tk, "from triviador_nb.rooms import RoomHost\n"
                       "host = RoomHost()\n"
                       "room = host.open_room(pace=0.05, reveal_s=0.2, think_s=0.2, seed=5)\n"
                       "print(room.code)")
        assert run(anna[1], STUDENT.format(tests=str(TESTS), code=code, name="Anna")) == "seat 0"
        assert run(ben[1], STUDENT.format(tests=str(TESTS), code=code, name="Ben")) == "seat 1"
        run(tk, "table = room.start()")
        poll(tk, "print(table.game.phase.value)", lambda t: t == "battle")
        anna[0].restart_kernel(now=True)  # mid-battle: Anna's kernel is gone, her seat's clock runs on
        anna[1].wait_for_ready(timeout=60)
        restarted = time.monotonic()
        assert run(anna[1], STUDENT.format(tests=str(TESTS), code=code, name="Anna")) == "seat 0"
        back_s = time.monotonic() - restarted
        # (the view follows the welcome the join returned on: on a busy machine it may take a moment)
        poll(anna[1], "print(client.view is not None and client.view.seat)", lambda t: t == "0", timeout=30)
        poll(tk, "print(table.game.is_over)", lambda t: t == "True", timeout=240)
        ranking = run(tk, "print(list(table.game.ranking), [table.game.score(s) for s in range(3)])")
        seen = poll(anna[1], "print(client.view.is_over, list(client.view.ranking or ()), "
                             "[p.score for p in client.view.players])", lambda t: t.startswith("True"))
        assert seen == "True " + ranking
        assert run(tk, "print(sorted(m.name for m in room.members()), table.bots.keys() == {2})") == \
            "['Anna', 'Ben'] True"
        print(f"Anna was back in her seat {back_s:.2f} s after her kernel restarted", file=sys.stderr)
        run(tk, "host.close()")
    finally:
        for km, kc in kernels:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
