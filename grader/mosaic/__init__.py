"""Mosaic (Fill-a-Pix) engine."""
