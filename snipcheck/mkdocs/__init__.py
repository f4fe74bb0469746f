"""The face for MkDocs (and ProperDocs): the plugin's event handlers (``plugin``), what serving
adds (``serve``), the verification rows set aside from Markdown (``rows``), and the files handed
to the builder (``files``)."""
