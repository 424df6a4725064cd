"""The kit's version: the mockapns release it is built with (build-wheel.sh writes the binary's version here)."""

__version__ = "0.1.0"
