"""The only code that writes: a module by concern, each change in one transaction."""
