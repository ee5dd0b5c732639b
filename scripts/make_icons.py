"""Draw the app icons (a white spade on card-table green) as PNG files.

Run once after changing the design: ``python scripts/make_icons.py``.
Plain Python (zlib), so it needs nothing installed.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

GREEN = (11, 93, 59)
WHITE = (255, 253, 248)
OUT = Path(__file__).resolve().parent.parent / "static" / "icons"


def in_spade(x: float, y: float) -> bool:
    """(x, y) in [-1, 1]², y downwards: an upside-down heart with a stem."""
    # The heart curve (x² + y² − 1)³ − x²y³ ≤ 0, turned over and scaled.
    hx, hy = x * 1.3, y * 1.3 + 0.35
    if (hx * hx + hy * hy - 1) ** 3 - hx * hx * hy**3 <= 0:
        return True
    # The stem: a triangle from the middle down to a flat foot.
    if 0.2 <= y <= 1.0:
        half = 0.05 + (y - 0.2) ** 2 * 0.5
        return abs(x) <= half
    return False


def png(size: int, padding: float) -> bytes:
    """A square icon; the spade fills 1 − 2·padding of it (maskable icons need room)."""
    samples = 3
    rows = []
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            hits = 0
            for sj in range(samples):
                for si in range(samples):
                    u = (i + (si + 0.5) / samples) / size
                    v = (j + (sj + 0.5) / samples) / size
                    x = (u - 0.5) / (0.5 - padding)
                    y = (v - 0.5) / (0.5 - padding)
                    hits += in_spade(x, y)
            share = hits / samples**2
            row += bytes(round(g + (w - g) * share) for g, w in zip(GREEN, WHITE, strict=True))
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, padding in [
        ("icon-192.png", 192, 0.16),
        ("icon-512.png", 512, 0.16),
        ("maskable-512.png", 512, 0.26),  # inside the safe circle of a maskable icon
        ("apple-touch-icon.png", 180, 0.16),
        ("favicon-32.png", 32, 0.08),
    ]:
        (OUT / name).write_bytes(png(size, padding))
        print(name)


if __name__ == "__main__":
    main()
