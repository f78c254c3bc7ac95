"""batch package."""
