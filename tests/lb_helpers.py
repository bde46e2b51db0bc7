"""A load balancer in front of several host processes, for failover tests (issue 23).

A hub service with several replicas, or a load balancer, gives every client
one address and sends each new connection to a process that answers.
:class:`LoadBalancer` does that on 127.0.0.1 (a port of its own): a plain TCP
proxy on a thread, each new connection sent to the next backend in turn,
a backend that refuses the connection skipped (the process died). When a
backend dies its connections break, as they would behind a real balancer,
and the clients reconnect through it to a process that lives. Every wait is
bounded.
"""

from __future__ import annotations

import asyncio
import itertools
import threading

CONNECT_TIMEOUT_S = 3.0


class LoadBalancer:
    """Round-robin TCP proxy on ``127.0.0.1:port`` to ``backends`` (ports of 127.0.0.1).

    Attributes:
        port: where clients connect.
        chosen: the backend port each connection was sent to, in order.
    """

    def __init__(self, backends: list[int]):
        self.backends = list(backends)
        self.chosen: list[int] = []
        self._turn = itertools.count()
        self.loop = asyncio.new_event_loop()
        started = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(started,), name="test-load-balancer", daemon=True)
        self._thread.start()
        if not started.wait(10.0):
            raise RuntimeError("the test load balancer did not start")

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def _run(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self._server = self.loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        started.set()
        self.loop.run_forever()
        self._server.close()
        for task in asyncio.all_tasks(self.loop):
            task.cancel()
        self.loop.run_until_complete(asyncio.sleep(0.05))
        self.loop.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream = None
        for _ in range(len(self.backends)):
            port = self.backends[next(self._turn) % len(self.backends)]
            try:
                upstream = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), CONNECT_TIMEOUT_S)
                self.chosen.append(port)
                break
            except (OSError, asyncio.TimeoutError):
                continue
        if upstream is None:
            writer.close()
            return
        up_reader, up_writer = upstream
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    @staticmethod
    async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                writer.write(data)
                await writer.drain()
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            try:
                writer.close()
            except (OSError, RuntimeError):
                pass

    def close(self) -> None:
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5.0)
