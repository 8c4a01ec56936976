"""Tests for stress-tui. A package, so that tests/tty.py is tests.tty and never shadows the
standard library's tty module."""
