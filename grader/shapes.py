"""A design's identity under the eight symmetries of the square, for finding duplicates.

A picture drawn twice, once rotated or mirrored (or transposed), is one design. Its
canonical form is the smallest of its eight images, compared by shape then by cells; its
key is a short hash of that form, equal for every image of the design. Colour pictures
(one palette index a cell, 0 the background) are compared with their colours renumbered in
order of first appearance in each image, so a design whose palette lists the same colours
in another order is still found.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

Picture = npt.NDArray[np.bool_] | npt.NDArray[np.uint8]


def images(picture: Picture) -> Iterator[npt.NDArray[np.uint8]]:
    """The eight images of ``picture``: four rotations, each also mirrored."""
    base = np.asarray(picture).astype(np.uint8)
    for turns in range(4):
        turned = np.rot90(base, turns)
        yield turned
        yield turned[:, ::-1]


def _renumbered(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """``image`` with its non-zero colours renumbered 1, 2, ... in reading order."""
    flat = image.ravel()
    present = flat[flat != 0]
    if present.size == 0 or int(present.max()) <= 1:
        return np.ascontiguousarray(image)
    _, first = np.unique(present, return_index=True)
    order = present[np.sort(first)]
    mapping = np.zeros(256, dtype=np.uint8)
    mapping[order] = np.arange(1, order.size + 1, dtype=np.uint8)
    return np.ascontiguousarray(mapping[image])


def canonical_form(picture: Picture) -> npt.NDArray[np.uint8]:
    """The smallest of the picture's eight images (height, width, then cells)."""
    best: tuple[tuple[int, int], bytes, npt.NDArray[np.uint8]] | None = None
    for image in images(picture):
        image = _renumbered(image)
        rank = (image.shape[0], image.shape[1])
        data = image.tobytes()
        if best is None or (rank, data) < (best[0], best[1]):
            best = ((int(rank[0]), int(rank[1])), data, image)
    assert best is not None
    return best[2]


def shape_key(picture: Picture) -> str:
    """A 20-hex-digit key equal for every rotation, mirror image and transposition."""
    form = canonical_form(picture)
    digest = hashlib.blake2b(digest_size=10)
    digest.update(f"{form.shape[0]}x{form.shape[1]}:".encode("ascii"))
    digest.update(form.tobytes())
    return digest.hexdigest()


def cells_apart(first: Picture, second: Picture) -> int | None:
    """The fewest cells in which ``second`` differs from any image of ``first``; ``None``
    when no image has ``second``'s size (a near duplicate must be the same size)."""
    target = _renumbered(np.asarray(second).astype(np.uint8))
    best: int | None = None
    for image in images(first):
        if image.shape != target.shape:
            continue
        apart = int(np.count_nonzero(_renumbered(image) != target))
        best = apart if best is None else min(best, apart)
    return best
