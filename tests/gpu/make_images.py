"""Writes N seeded random JPEGs of SIZE x SIZE px (blobs of colour, so that views differ)."""
import sys
from pathlib import Path

import numpy as np
from PIL import Image

folder, count, size = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
folder.mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(0)
for i in range(count):
    low = rng.integers(0, 255, (8, 8, 3), dtype=np.uint8)
    image = Image.fromarray(low).resize((size, size), Image.BICUBIC)
    image.save(folder / f"{i:05d}.jpg", quality=90)
