"""Published results from real competitions, kept in the repository as test data (see README.md here)."""

from pathlib import Path

UKPL = Path(__file__).resolve().parent / "ukpl"
"""The UK Pinball League meetings: ``meet-N-scores.csv`` and ``meet-N-published.csv``."""
