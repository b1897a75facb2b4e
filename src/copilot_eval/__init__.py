"""copilot-eval: test agents built on GitHub Copilot through the real Copilot runtime."""

__version__ = "0.1.0"
