"""What stops the pages from being served, said in one line at start-up."""


class WebPortError(Exception):
    """The pages' address cannot be listened on (in use, or not this machine's)."""
