"""Tests of snipcheck/read/: a package, so its module names may repeat those of other stages."""
