"""solver package."""
