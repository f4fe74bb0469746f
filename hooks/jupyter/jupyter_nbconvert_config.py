"""nbconvert configuration for the site's notebooks (put on Jupyter's path by hooks/notebook_streams.py).

nbconvert's own list of preprocessors, with the merge of consecutive stream outputs moved to run
right after the notebook is executed, and turned on.
"""

from nbconvert.exporters.exporter import Exporter

COALESCE = "nbconvert.preprocessors.CoalesceStreamsPreprocessor"
EXECUTE = "nbconvert.preprocessors.ExecutePreprocessor"

order = [name for name in Exporter().default_preprocessors if name != COALESCE]
order.insert(order.index(EXECUTE) + 1, COALESCE)

c = get_config()  # noqa: F821 - provided by traitlets when it loads this file
c.Exporter.default_preprocessors = order
c.CoalesceStreamsPreprocessor.enabled = True
