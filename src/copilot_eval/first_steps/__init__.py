"""A new user's first steps: the examples the quickstart plays, its stories, and the starter `init` writes."""
