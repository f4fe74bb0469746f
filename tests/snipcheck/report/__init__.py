"""Tests of snipcheck/report/: a package, so its module names may repeat those of other stages."""
