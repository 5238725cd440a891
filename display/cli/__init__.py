"""The command line: ``main`` (the ``backglass`` group), ``serve``, the offline ``standings`` and
``demo`` (each competition brings its own demos and commands)."""
