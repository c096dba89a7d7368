"""Telegram adapter: python-telegram-bot in front of `GameService`."""

from .app import build_application
from .updates import run

__all__ = ["build_application", "run"]
