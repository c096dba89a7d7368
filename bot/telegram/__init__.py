"""Telegram adapter: python-telegram-bot in front of `GameService`."""

from .app import build_application, run

__all__ = ["build_application", "run"]
