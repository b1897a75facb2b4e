"""grading layer."""
