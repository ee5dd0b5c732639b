"""The pages, one module per resource. Each view: read, check access, call the domain, render.

Access goes through :mod:`games.access`, so no view can forget it; request
values are read through forms (:mod:`games.forms`).
"""
