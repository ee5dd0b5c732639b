"""Reads the pages and the access rule share: what is read, and how it is keyed,
beside the services that write (``games/services/``). Nothing here writes, and
nothing here knows of pages, forms or views."""
