"""Jinja2 templates (LaTeX issue, explanation texts), installed as layout.templates."""
