"""A probe target whose run imports a module on the way (as frameworks do, lazily, on first use).

The module, lazy_part.py, notes each time it is imported in the working folder: a trial that
imported it itself shows `lazy-imported.txt` among its new files; a trial forked from a warm
parent that had already imported it shows none. The program asks no model."""


def main() -> None:
    import lazy_part  # noqa: F401  (imported here, not at the top, like a framework's lazy part)


main()
