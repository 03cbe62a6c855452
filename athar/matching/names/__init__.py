"""Arabic and Latin personal names."""
