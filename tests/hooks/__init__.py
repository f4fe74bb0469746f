"""The MkDocs hooks' tests: a package, so that a module may share its name with a gate's (test_offline)."""
