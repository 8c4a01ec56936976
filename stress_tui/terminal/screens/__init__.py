"""The screens: the table, and what covers it (help, pause, the result, a window too small,
the question whether to quit, a network table's panel), one class a file, each owning its
drawing and its keys (``base.ModalScreen``), kept on a stack (``base.ScreenStack``)."""
