"""The matching core: plain Python, no Django. Usable from the CLI, the web and a notebook."""
