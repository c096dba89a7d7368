"""The redis-server the bot starts for itself when no Redis is named, and its data folder."""
