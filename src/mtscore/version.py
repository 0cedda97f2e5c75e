"""The package version, in one place (a leaf: imports nothing)."""

__version__ = "0.1.0"
