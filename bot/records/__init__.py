"""What is kept of a game: the stored table, the finished result, the games already replayed."""
