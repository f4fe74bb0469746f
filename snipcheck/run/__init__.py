"""Stage 2, snippets -> results: one fenced process per run (``executor``), the results a build
may reuse behind one get/put (``store``, over the disk ``cache``), and the two ways of scheduling
runs: a build's (``schedule``) and a served site's, in the background (``background``), both
handed the same run function (``jobs``)."""
