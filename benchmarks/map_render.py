"""What a map's first render sends, by widget kind (issue 25: 2,300-3,200 territories sent 9-12 MiB in
about 10,000 widget messages). Run: ``.venv/bin/python benchmarks/map_render.py [--sizes 434 2328]``

Builds a ``MapView`` of ``benchmarks/big_maps.py``'s synthetic grid and counts each widget message's
JSON bytes, grouped by the model it opens (a Polygon, a Marker, a DivIcon...), with the time to build and
what fitting the board to a 725 px wide map sends next (the browser's first size report);
then, as the baselines in the same run, the same map with a Polygon and a label marker per territory
(``BOARD_LAYER_LIMIT`` raised past it: every map before the board became one layer), and with one name
marker per territory as well (``NAME_LAYER_LIMIT`` raised too: every map before issue 29 item 5).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path

import comm

from big_maps import grid_map
from triviador_nb.maps import MapWarning, load_map
from triviador_nb.ui import map_view
from triviador_nb.ui.map_view import MapView
from triviador_nb.ui.traffic import WidgetTraffic


def measure(count: int, folder: Path) -> None:
    path = folder / f"grid{count}.geojson"
    path.write_text(json.dumps(grid_map(count)), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MapWarning)
        game_map = load_map(path)
    limits = map_view.NAME_LAYER_LIMIT, map_view.BOARD_LAYER_LIMIT
    for label, (name_layer_limit, board_layer_limit) in (
            ("now", limits), ("baseline, a Polygon and a label marker per territory", (limits[0], 10**9)),
            ("baseline, and a marker per name", (10**9, 10**9))):
        map_view.NAME_LAYER_LIMIT, map_view.BOARD_LAYER_LIMIT = name_layer_limit, board_layer_limit
        try:
            render(count, game_map, label)
        finally:
            map_view.NAME_LAYER_LIMIT, map_view.BOARD_LAYER_LIMIT = limits


def render(count: int, game_map, label: str) -> None:
    messages: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    original = comm.DummyComm.publish_msg

    def publish_msg(self_comm, msg_type, data=None, metadata=None, buffers=None, **keys):
        state = data.get("state", {}) if isinstance(data, dict) else {}
        kind = state.get("_model_name", msg_type) if isinstance(state, dict) else msg_type
        messages[kind] += 1
        sizes[kind] += len(json.dumps(data, default=str).encode("utf-8"))

    comm.DummyComm.publish_msg = publish_msg
    try:
        start = time.perf_counter()
        view = MapView(game_map)
        build_s = time.perf_counter() - start
    finally:
        comm.DummyComm.publish_msg = original
    markers = len(view.labels) + len(view.names) + (view.name_layer is not None) + (view.shapes_layer is not None)
    if messages["LeafletPolygonModel"] != len(view.polygons) or messages["LeafletMarkerModel"] != markers:
        raise RuntimeError(f"{label}: counted {messages['LeafletPolygonModel']} polygons and "
                           f"{messages['LeafletMarkerModel']} markers, the view has {len(view.polygons)} and "
                           f"{markers}")
    kinds = ", ".join(f"{kind} {messages[kind]:,} ({sizes[kind] / 2**20:.2f} MiB)" for kind, _ in sizes.most_common(4))
    with WidgetTraffic() as fit:  # the browser reports the map's size: the board is fitted to it
        for trait, value in (("left", 0), ("top", 0), ("right", 725), ("bottom", round(725 / view.aspect))):
            view.map.set_trait(trait, value)
    print(f"{count:>5} territories ({label}): {sum(messages.values()):,} messages, {sum(sizes.values()) / 2**20:.2f} MiB, "
          f"built in {build_s:.1f} s; {kinds}; fitted to 725 px: {len(fit.messages):,} messages, "
          f"{fit.total_bytes / 2**20:.2f} MiB", flush=True)
    view.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[434, 2328], help="territory counts")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for count in args.sizes:
            measure(count, Path(folder))


if __name__ == "__main__":
    main()
