"""make --colours on scikit-image's colour photographs: ink share, empty lines, level,
score, stars, minutes and likeness, plain and steered to a level (issue 46).

    python bench/bench_colour_photos.py [--size 25x25] [--colours 3] [--level fiendish]

Needs scikit-image (the test extra). Each photo is written to a temporary PNG and made as
``nonopress make PHOTO --size S --colours N`` makes it.
"""

from __future__ import annotations

import argparse
import io
import sys
import time

PHOTOS = ("astronaut", "coffee", "chelsea", "rocket", "colorwheel", "immunohistochemistry",
          "retina", "stereo_motorcycle")


def photo_png(name: str) -> bytes:
    import skimage.data
    from PIL import Image

    pixels = getattr(skimage.data, name)()
    if isinstance(pixels, tuple):  # a stereo pair: its left picture
        pixels = pixels[0]
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="PNG")
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    from grader.authoring.colour_make import make_colour
    from grader.authoring.picture import parse_size
    from grader.authoring.target import Target
    from grader.model import Metadata

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="25x25")
    parser.add_argument("--colours", type=int, default=3)
    parser.add_argument("--level")
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args(argv)
    width, height = parse_size(args.size)
    print(f"{'photo':22s} {'size':>6s} {'ink':>5s} {'full':>4s} {'level':10s} {'score':>5s} "
          f"{'stars':>5s} {'min':>5s} {'like':>5s} {'time':>6s}")
    for name in PHOTOS:
        started = time.monotonic()
        made = make_colour(photo_png(name), width, height, args.colours, seconds=args.seconds,
                           meta=Metadata(title=name), target=Target(level=args.level))
        solution = made.puzzle.solution_array()
        assert solution is not None
        full = int((solution != 0).all(axis=1).sum() + (solution != 0).all(axis=0).sum())
        grade = made.grade
        minutes = getattr(grade, "minutes", None)
        print(f"{name:22s} {made.puzzle.size:>6s} {made.ink_share:4.0f}% {full:4d} "
              f"{grade.level if grade else made.verdict:10s} "
              f"{grade.score if grade and grade.score is not None else 0:5.2f} "
              f"{grade.stars if grade and grade.stars else 0:5d} "
              f"{minutes if minutes is not None else 0:5.1f} "
              f"{100 * (made.likeness or 0):4.0f}% {time.monotonic() - started:5.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
