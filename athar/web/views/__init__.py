"""The web pages, one module per audience (public, accounts are in athar.accounts, family, ...)."""
