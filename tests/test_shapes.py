"""The canonical shape key: one design under its eight symmetries, distinct designs apart."""

from __future__ import annotations

import numpy as np

from grader.shapes import cells_apart, images, shape_key


def _picture(seed: int, height: int = 7, width: int = 5) -> np.ndarray:
    return np.random.default_rng(seed).random((height, width)) < 0.45


def test_every_image_of_a_design_has_its_key() -> None:
    picture = _picture(1)
    keys = {shape_key(image) for image in images(picture)}
    assert keys == {shape_key(picture)}
    assert shape_key(picture.T) == shape_key(picture)


def test_distinct_designs_have_distinct_keys() -> None:
    keys = {shape_key(_picture(seed)) for seed in range(200)}
    assert len(keys) == 200


def test_colour_designs_match_with_their_colours_renumbered() -> None:
    picture = np.random.default_rng(3).integers(0, 4, size=(6, 6)).astype(np.uint8)
    swapped = picture.copy()
    swapped[picture == 1], swapped[picture == 2] = 2, 1
    assert shape_key(np.rot90(swapped)) == shape_key(picture)
    other = picture.copy()
    other[0, 0] = (other[0, 0] + 1) % 4
    assert shape_key(other) != shape_key(picture)


def test_cells_apart_counts_the_cells_of_a_near_duplicate() -> None:
    picture = _picture(5)
    near = np.rot90(picture).copy()
    near[0, 0] = not near[0, 0]
    assert cells_apart(picture, near) == 1
    assert cells_apart(picture, np.zeros((3, 3), dtype=bool)) is None
