"""Operations that span the apps (backup, restore, serving, the demo): above the domain, below the entry points."""
