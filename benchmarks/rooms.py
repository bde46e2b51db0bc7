"""Room figures: latency, bytes and how many rooms one host holds.

Run: ``.venv/bin/python benchmarks/rooms.py [--rooms 1 10 100] [--seconds 40]``

For each room count, starts ``triviador-nb host --rooms N`` as its own process
on 127.0.0.1, and joins three players to every room from this process (asyncio
WebSocket clients). Each player plays from its view alone at human pace: it
answers 1-4 s after a question opens and picks or attacks 0.5-2 s after its
turn starts. After ``--seconds`` of play it prints:

- moves per second over all rooms (accepted intents);
- latency from a player's intent leaving to the resulting view reaching every
  other player of the room (client side, both ends in this process: p50, p95,
  p99 in ms);
- the ack's round trip for the sender (p50, p95);
- bytes per view message (mean, as JSON text; permessage-deflate makes the
  bytes on the wire fewer) and bytes received per player per move;
- bytes on the wire per move per player: what the client's socket received
  (WebSocket frames after permessage-deflate, headers included), beside the
  JSON text those frames carried;
- the host process's CPU (percent of one core over the window) and memory
  (RSS at the end, MiB).

The host's limits are for a class, not a benchmark: one person (here this
Unix user) may add 40 names a minute and hold 8 connections that have not
joined yet. The benchmark lifts exactly those limits for its host process
(:data:`LIFTED_LIMITS`, printed at the start) and stops with an error,
printing no figure, when any client was refused, lost its connection or
never played a move: every line counts only clients that really played.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

REPO = Path(__file__).resolve().parents[1]
LIFTED_LIMITS = {"NEW_MEMBERS_PER_ADDRESS": 100_000, "NEW_MEMBERS_ALL": 100_000, "UNJOINED_PER_PERSON": 100_000,
                 "UNJOINED_PER_ADDRESS": 100_000}
"""The limits of ``triviador_nb.rooms.rooms`` the benchmark's host runs with (all its clients are one person)."""
HOST = ("import sys, triviador_nb.rooms.rooms as limits\n"
        "for name, value in {lifted!r}.items():\n"
        "    assert hasattr(limits, name), name\n"
        "    setattr(limits, name, value)\n"
        "from triviador_nb.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n")


class WireCounting(ClientConnection):
    """A client connection that counts the bytes its socket receives."""

    wire_bytes = 0

    def data_received(self, data: bytes) -> None:
        self.wire_bytes += len(data)
        super().data_received(data)


class Player:
    def __init__(self, room: "RoomRun", name: str, rng: random.Random):
        self.room, self.name, self.rng = room, name, rng
        self.token = ""
        self.seat = None
        self.ws = None
        self.view: dict | None = None
        self.bytes = 0
        self.wire_bytes = 0
        self.moves = 0
        self.refused = ""
        self.view_messages = 0
        self.acted_for = ""
        self.acks: dict[int, float] = {}
        self.ref = 0


class RoomRun:
    def __init__(self, code: str):
        self.code = code
        self.players: list[Player] = []
        self.pending: list[tuple[float, set[Player]]] = []  # intents still to reach the others


async def play(player: Player, port: int, stats: dict, stop_at: float) -> None:
    async with connect(f"ws://127.0.0.1:{port}", max_size=32 * 2**20, open_timeout=30,
                       create_connection=WireCounting) as ws:
        player.ws = ws
        try:
            await _play(player, ws, stats, stop_at)
        finally:
            player.wire_bytes = ws.wire_bytes


async def _play(player: Player, ws: WireCounting, stats: dict, stop_at: float) -> None:
    await ws.send(json.dumps({"v": 1, "type": "join", "room": player.room.code, "name": player.name}))
    waiter: asyncio.Task | None = None
    while time.monotonic() < stop_at:
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, stop_at - time.monotonic()))
        except asyncio.TimeoutError:
            break
        now = time.perf_counter()
        player.bytes += len(raw)
        data = json.loads(raw)
        kind = data["type"]
        if kind == "welcome":
            player.token, player.seat = data["token"], data["seat"]
        elif kind == "ack":
            sent = player.acks.pop(data["ref"], None)
            if sent is not None:
                stats["ack_ms"].append((now - sent) * 1000)
            if data["status"] == "accepted":
                stats["moves"] += 1
                player.moves += 1
        elif kind == "closed" or (kind == "error" and player.seat is None and not player.token):
            player.refused = f"{kind} {data.get('code')}: {data.get('reason')}"
            return
        elif kind == "view":
            player.view_messages += 1
            stats["view_bytes"].append(len(raw))
            for entry in list(player.room.pending):
                sent, waiting = entry
                if player in waiting:
                    waiting.discard(player)
                    if not waiting:
                        stats["spread_ms"].append((now - sent) * 1000)
                        player.room.pending.remove(entry)
            player.view = data["view"]
            if waiter is None or waiter.done():
                waiter = asyncio.ensure_future(act(player, stats))


async def act(player: Player, stats: dict) -> None:
    view = player.view
    if view is None or view["paused"] or not view["started"] or view["state_id"] == player.acted_for:
        return
    prompt = view["prompt"]
    if prompt["kind"] == "answer":
        question = view["question"]
        delay = player.rng.uniform(1.0, 4.0)
        intent = ({"kind": "guess", "value": player.rng.randint(1000, 2000)} if question["kind"] == "guess"
                  else {"kind": "choice", "option": player.rng.randrange(4)})
    elif prompt["kind"] in ("base", "pick", "claim", "attack") and prompt["choices"]:
        delay = player.rng.uniform(0.5, 2.0)
        kind = "attack" if prompt["kind"] == "attack" else "pick"
        intent = {"kind": kind, "territory": player.rng.choice(prompt["choices"])}
    else:
        return
    player.acted_for = view["state_id"]
    await asyncio.sleep(delay)
    if player.view is None or player.view["state_id"] != view["state_id"]:
        return
    player.ref += 1
    sent = time.perf_counter()
    player.acks[player.ref] = sent
    others = {p for p in player.room.players if p is not player}
    player.room.pending.append((sent, others))
    del player.room.pending[:-50]
    try:
        await player.ws.send(json.dumps({"v": 1, "type": "intent", "ref": player.ref, "token": player.token,
                                         "state_id": view["state_id"], "intent": intent}))
    except ConnectionClosed:  # the window has ended
        pass


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run_rooms(rooms: int, seconds: float) -> dict:
    host = subprocess.Popen([sys.executable, "-c", HOST.format(lifted=LIFTED_LIMITS), "host", "--rooms", str(rooms),
                             "--for", str(seconds + 60), "--start-after", "600"],
                            stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        first = host.stdout.readline()
        port = int(first.rsplit(":", 1)[1])
        codes = []
        while len(codes) < rooms:  # "room DU-YG4X: join(...)" lines, after the teacher's
            line = host.stdout.readline()
            if not line:
                raise RuntimeError(f"the host stopped after announcing {len(codes)} of {rooms} rooms")
            if line.startswith("room "):
                codes.append(line.split()[1].rstrip(":"))
        runs = [RoomRun(code) for code in codes]
        stats = {"moves": 0, "spread_ms": [], "ack_ms": [], "view_bytes": []}
        rng = random.Random(1)
        for run in runs:
            run.players = [Player(run, f"P{i}", random.Random(rng.random())) for i in range(3)]
        join_at = time.monotonic()
        stop_at = join_at + seconds
        cpu0 = cpu_seconds(host.pid)
        tasks = [asyncio.ensure_future(play(p, port, stats, stop_at)) for run in runs for p in run.players]
        await asyncio.gather(*tasks, return_exceptions=True)
        elapsed = time.monotonic() - join_at
        cpu = cpu_seconds(host.pid) - cpu0
        players = [p for run in runs for p in run.players]
        received = sum(p.bytes for p in players)
        wire = sum(p.wire_bytes for p in players)
        failed = [f"{p.room.code} {p.name}: " + (p.refused or (repr(task.exception()) if task.exception() else "")
                                                  or "joined but never moved")
                  for p, task in zip(players, tasks) if p.refused or task.exception() or not p.moves]
        return {
            "rooms": rooms, "players": len(players), "seconds": elapsed,
            "moves_per_s": stats["moves"] / elapsed,
            "spread_ms": (percentile(stats["spread_ms"], 0.5), percentile(stats["spread_ms"], 0.95),
                          percentile(stats["spread_ms"], 0.99)),
            "ack_ms": (percentile(stats["ack_ms"], 0.5), percentile(stats["ack_ms"], 0.95)),
            "view_bytes": statistics.mean(stats["view_bytes"]) if stats["view_bytes"] else float("nan"),
            "bytes_per_move_per_player": received / max(1, stats["moves"]) / len(players) * rooms,
            "wire_per_move_per_player": wire / max(1, stats["moves"]) / len(players) * rooms,
            "played": len(players) - len(failed), "failed": failed,
            "cpu_percent": 100 * cpu / elapsed, "rss_mib": rss_mib(host.pid),
        }
    finally:
        host.terminate()
        try:
            host.wait(10)
        except subprocess.TimeoutExpired:
            host.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument("--seconds", type=float, default=40.0)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; the host's limits lifted for one "
          f"person's {max(args.rooms) * 3} clients: {LIFTED_LIMITS}\n", flush=True)
    for rooms in args.rooms:
        r = asyncio.run(run_rooms(rooms, args.seconds))
        if r["failed"]:
            shown = "\n  ".join(r["failed"][:10])
            sys.exit(f"{rooms} rooms: {len(r['failed'])} of {r['players']} clients did not play "
                     f"(no figure printed):\n  {shown}")
        print(f"{r['rooms']:>4} rooms, {r['played']:>4} players who all played, {r['seconds']:.0f} s: "
              f"{r['moves_per_s']:.1f} moves/s; intent -> every other player's screen p50 {r['spread_ms'][0]:.1f} ms, "
              f"p95 {r['spread_ms'][1]:.1f} ms, p99 {r['spread_ms'][2]:.1f} ms; ack p50 {r['ack_ms'][0]:.1f} ms, "
              f"p95 {r['ack_ms'][1]:.1f} ms; view {r['view_bytes'] / 1024:.1f} KiB, "
              f"{r['bytes_per_move_per_player'] / 1024:.2f} KiB of JSON and {r['wire_per_move_per_player'] / 1024:.2f} "
              f"KiB on the wire per move per player; host CPU {r['cpu_percent']:.0f}% of a core, "
              f"{r['rss_mib']:.0f} MiB", flush=True)


if __name__ == "__main__":
    main()
