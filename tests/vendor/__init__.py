"""Third-party files the tests use as they were published (each folder's README says whence)."""
