"""Scans of a built site, whichever builder wrote it: ``offline`` (nothing fetched from another
host) and ``ties`` (no tie left as written). Standard library only."""
