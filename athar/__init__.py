"""athar (أثر, "trace"): helping families of the disappeared learn what happened to them."""

__version__ = "0.1.0"
