"""One run's session: configuration, tools, permissions, limits, the watch over its events and the runner."""
