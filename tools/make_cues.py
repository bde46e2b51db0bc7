"""Make the game's sound cues (``triviador_nb/ui/sounds/<cue>.wav``) from nothing but arithmetic.

Three short cues (issue 24), synthesised with the standard library (``wave``,
``math``, ``array``): no recording, no licence to track, the same bytes on
every run::

    python tools/make_cues.py

- ``open``: a question opens - two rising notes (E5, A5);
- ``almost``: time is almost up - three short ticks (A5);
- ``reveal``: the result - a rising C major arpeggio that rings (C5, E5, G5, C6).

16 kHz, 16-bit mono WAV: every browser decodes it, and the three files
together are about 50 KB.
"""

from __future__ import annotations

import math
import wave
from array import array
from pathlib import Path

RATE = 16_000
OUT = Path(__file__).resolve().parents[1] / "triviador_nb" / "ui" / "sounds"
NOTES = {"C5": 523.25, "E5": 659.25, "G5": 783.99, "A5": 880.0, "C6": 1046.5}


def tone(freq: float, seconds: float, volume: float = 0.45, ring: float = 8.0) -> list[float]:
    """A soft bell-like note: a sine with its octave, a 5 ms attack and an exponential decay."""
    count = int(RATE * seconds)
    out = []
    for i in range(count):
        t = i / RATE
        envelope = min(1.0, t / 0.005) * math.exp(-ring * t) * min(1.0, (count - i) / (RATE * 0.01))
        out.append(volume * envelope * (math.sin(2 * math.pi * freq * t) + 0.25 * math.sin(4 * math.pi * freq * t)))
    return out


def silence(seconds: float) -> list[float]:
    return [0.0] * int(RATE * seconds)


def mix_at(parts: list[tuple[float, list[float]]]) -> list[float]:
    """The notes ``(start seconds, samples)`` laid over one another."""
    length = max(int(start * RATE) + len(samples) for start, samples in parts)
    out = [0.0] * length
    for start, samples in parts:
        offset = int(start * RATE)
        for i, value in enumerate(samples):
            out[offset + i] += value
    return out


CUES = {
    "open": lambda: mix_at([(0.0, tone(NOTES["E5"], 0.16)), (0.13, tone(NOTES["A5"], 0.32, ring=7))]),
    "almost": lambda: tone(NOTES["A5"], 0.07, 0.4, 20) + silence(0.09) + tone(NOTES["A5"], 0.07, 0.4, 20)
    + silence(0.09) + tone(NOTES["A5"], 0.07, 0.4, 20),
    "reveal": lambda: mix_at([(0.0, tone(NOTES["C5"], 0.55, 0.3, 5)), (0.08, tone(NOTES["E5"], 0.5, 0.3, 5)),
                              (0.16, tone(NOTES["G5"], 0.45, 0.3, 5)), (0.24, tone(NOTES["C6"], 0.5, 0.3, 5))]),
}


def write(path: Path, samples: list[float]) -> None:
    peak = max(1.0, max(abs(s) for s in samples))  # never clip
    pcm = array("h", (round(32767 * 0.9 * s / peak) for s in samples))
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(pcm.tobytes())  # little-endian on every machine this project runs on


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, make in CUES.items():
        path = OUT / f"{name}.wav"
        write(path, make())
        print(f"{path.relative_to(OUT.parents[2])}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
