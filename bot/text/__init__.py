"""Words as people read them: translations, display names, lengths as platforms count, durations."""
