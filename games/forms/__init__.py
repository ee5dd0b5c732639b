"""The Django forms, a module by resource."""
