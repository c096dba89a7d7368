"""Attacks on the bot from outside, each kept as a test so that none can come back."""
