"""Nonopress layout: issue manifests to print-ready PDF and LaTeX."""
