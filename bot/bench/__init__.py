"""The figures of `python -m bot bench` and `python -m bot web-bench`."""
